// A cooperative grid that also launches child grids (CUDA dynamic parallelism, CDP2).
//
// Expectations, from the CUDA Programming Guide: grid.sync() in the cooperative parent
// works as in any cooperative launch; a child grid is an ordinary launch, not a
// cooperative one (cooperative_groups: "the kernel must have been launched with
// cuLaunchCooperativeKernel"), so this_grid().is_valid() is false in it; the host sees
// the children's writes once the parent completes.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <vector>

#include "test_check.h"

namespace cg = cooperative_groups;

__global__ void child(int* valid, int* out, int slot) {
  if (threadIdx.x == 0) valid[slot] = cg::this_grid().is_valid() ? 1 : 0;
  out[slot * 32 + threadIdx.x] = slot * 100 + threadIdx.x;
}

// Each block publishes a value, synchronises the grid, reads its neighbour's, and block
// 0's first thread launches one child per block.
__global__ void parent(int* slots, int* seen, int* valid, int* out) {
  cg::grid_group grid = cg::this_grid();
  if (threadIdx.x == 0) slots[blockIdx.x] = static_cast<int>(blockIdx.x) + 7;
  grid.sync();
  if (threadIdx.x == 0) {
    seen[blockIdx.x] = slots[(blockIdx.x + 1) % gridDim.x];
    valid[gridDim.x + blockIdx.x] = grid.is_valid() ? 1 : 0;
    child<<<1, 32>>>(valid, out, blockIdx.x);
  }
}

int main() {
  int sms = 0, per_sm = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, parent, 64, 0));
  EXPECT_TRUE(per_sm > 0, "no block of parent fits");
  const int blocks = sms < 8 ? sms : 8;
  int *slots, *seen, *valid, *out;
  CHECK_CUDA(cudaMalloc(&slots, blocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&seen, blocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&valid, 2 * blocks * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, blocks * 32 * sizeof(int)));
  CHECK_CUDA(cudaMemset(valid, 0xff, 2 * blocks * sizeof(int)));
  void* args[] = {&slots, &seen, &valid, &out};
  CHECK_CUDA(
      cudaLaunchCooperativeKernel((const void*)parent, dim3(blocks), dim3(64), args, 0, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> h_seen(blocks), h_valid(2 * blocks), h_out(blocks * 32);
  CHECK_CUDA(cudaMemcpy(h_seen.data(), seen, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_valid.data(), valid, 2 * blocks * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(h_out.data(), out, blocks * 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    EXPECT_TRUE(h_seen[b] == (b + 1) % blocks + 7, "block %d saw %d", b, h_seen[b]);
    EXPECT_TRUE(h_valid[blocks + b] == 1, "parent block %d: is_valid %d", b, h_valid[blocks + b]);
    EXPECT_TRUE(h_valid[b] == 0, "child %d: is_valid %d", b, h_valid[b]);
    for (int t = 0; t < 32; ++t) {
      EXPECT_TRUE(h_out[b * 32 + t] == b * 100 + t, "child %d thread %d wrote %d", b, t,
                  h_out[b * 32 + t]);
    }
  }
  std::printf("PASS cooperative_cdp\n");
  return 0;
}
