// Cooperative launches and cooperative groups' grid synchronisation
// (cudaLaunchCooperativeKernel, cooperative_groups::this_grid().sync()).
//
// Expectations, from the CUDA Programming Guide ("Grid Synchronization") and the CUDA
// Runtime API documentation: a cooperative grid whose blocks can all be resident at once
// (cudaOccupancyMaxActiveBlocksPerMultiprocessor x multiProcessorCount) synchronises
// grid-wide, any number of times; a larger one fails with
// cudaErrorCooperativeLaunchTooLarge (not sticky); in an ordinary launch
// this_grid().is_valid() is false and grid.sync() traps (cooperative groups call
// __trap(): cudaErrorLaunchFailure); cooperative grids on different streams each get
// their own grid workspace. Results are checked against host computations.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <atomic>
#include <vector>

#include "test_check.h"

namespace cg = cooperative_groups;

constexpr int kBlock = 256;

// Phase 1: each block sums its slice into partial[block]. Phase 2 (after a grid
// barrier): block 0 sums the partials into total[0]. Phase 3 (after another): every
// thread copies the total out, which it can only see after the barrier.
__global__ void reduce_grid(const int* in, int n, long long* partial, long long* total,
                            long long* seen) {
  cg::grid_group grid = cg::this_grid();
  __shared__ long long block_sum[kBlock];
  long long sum = 0;
  for (long long i = grid.thread_rank(); i < n; i += grid.size()) sum += in[i];
  block_sum[threadIdx.x] = sum;
  __syncthreads();
  for (int s = blockDim.x / 2; s > 0; s /= 2) {
    if (threadIdx.x < s) block_sum[threadIdx.x] += block_sum[threadIdx.x + s];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = block_sum[0];
  grid.sync();
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    long long t = 0;
    for (unsigned b = 0; b < gridDim.x; ++b) t += partial[b];
    total[0] = t;
  }
  grid.sync();
  seen[grid.thread_rank()] = total[0];
}

// `rounds` steps of x[i] <- x[(i + 1) % n] + 1 over the whole grid, double-buffered: each
// step reads what other blocks wrote in the previous one, so it needs the barrier.
__global__ void rotate_rounds(int* a, int* b, int rounds) {
  cg::grid_group grid = cg::this_grid();
  const unsigned long long n = grid.size();
  const unsigned long long i = grid.thread_rank();
  for (int r = 0; r < rounds; ++r) {
    int* src = (r % 2 == 0) ? a : b;
    int* dst = (r % 2 == 0) ? b : a;
    dst[i] = src[(i + 1) % n] + 1;
    grid.sync();
  }
}

// What this_grid() says about the launch, and the workspace address it found.
__global__ void grid_info(int* valid, unsigned long long* workspace) {
  cg::grid_group grid = cg::this_grid();
  if (grid.thread_rank() == 0) {
    *valid = grid.is_valid() ? 1 : 0;
    unsigned lo, hi;
    asm volatile("mov.u32 %0, %%envreg2;" : "=r"(lo));
    asm volatile("mov.u32 %0, %%envreg1;" : "=r"(hi));
    *workspace = (static_cast<unsigned long long>(hi) << 32) | lo;
  }
}

static std::atomic<int> g_release{0};

static void CUDART_CB hold_stream(void*) {
  while (g_release.load() == 0) {
  }
}

int main() {
  int device = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  int cooperative = 0, sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&cooperative, cudaDevAttrCooperativeLaunch, device));
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  EXPECT_TRUE(cooperative == 1, "cudaDevAttrCooperativeLaunch is %d", cooperative);
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, device));
  EXPECT_TRUE(prop.cooperativeLaunch == 1, "cudaDeviceProp::cooperativeLaunch is %d",
              prop.cooperativeLaunch);

  // 1. A multi-phase reduction over the largest co-resident grid.
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, reduce_grid, kBlock, 0));
  EXPECT_TRUE(per_sm > 0, "no block of reduce_grid fits");
  const int blocks = per_sm * sms;
  const int threads = blocks * kBlock;
  const int n = threads * 3 + 17;
  std::vector<int> host_in(n);
  long long expect_total = 0;
  for (int i = 0; i < n; ++i) {
    host_in[i] = (i * 7919) % 1000 - 300;
    expect_total += host_in[i];
  }
  int* in = nullptr;
  long long *partial = nullptr, *total = nullptr, *seen = nullptr;
  CHECK_CUDA(cudaMalloc(&in, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&partial, blocks * sizeof(long long)));
  CHECK_CUDA(cudaMalloc(&total, sizeof(long long)));
  CHECK_CUDA(cudaMalloc(&seen, threads * sizeof(long long)));
  CHECK_CUDA(cudaMemcpy(in, host_in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemset(seen, 0, threads * sizeof(long long)));
  {
    int nn = n;
    void* args[] = {&in, &nn, &partial, &total, &seen};
    CHECK_CUDA(cudaLaunchCooperativeKernel((const void*)reduce_grid, dim3(blocks), dim3(kBlock),
                                           args, 0, nullptr));
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  std::vector<long long> host_seen(threads);
  CHECK_CUDA(
      cudaMemcpy(host_seen.data(), seen, threads * sizeof(long long), cudaMemcpyDeviceToHost));
  for (int t = 0; t < threads; ++t) {
    EXPECT_TRUE(host_seen[t] == expect_total, "thread %d saw total %lld, expected %lld", t,
                host_seen[t], expect_total);
  }

  // 2. Many barriers in a loop, twice in a row on the same stream.
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rotate_rounds, kBlock, 0));
  const int rblocks = per_sm * sms;
  const int rn = rblocks * kBlock;
  int *a = nullptr, *b = nullptr;
  CHECK_CUDA(cudaMalloc(&a, rn * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&b, rn * sizeof(int)));
  std::vector<int> x(rn);
  for (int i = 0; i < rn; ++i) x[i] = i * 3;
  CHECK_CUDA(cudaMemcpy(a, x.data(), rn * sizeof(int), cudaMemcpyHostToDevice));
  int rounds = 6;
  for (int launch = 0; launch < 2; ++launch) {
    void* args[] = {&a, &b, &rounds};
    CHECK_CUDA(cudaLaunchCooperativeKernel((const void*)rotate_rounds, dim3(rblocks), dim3(kBlock),
                                           args, 0, nullptr));
    for (int r = 0; r < rounds; ++r) {
      std::vector<int> next(rn);
      for (int i = 0; i < rn; ++i) next[i] = x[(i + 1) % rn] + 1;
      x.swap(next);
    }
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> got(rn);
  CHECK_CUDA(cudaMemcpy(got.data(), a, rn * sizeof(int), cudaMemcpyDeviceToHost));  // even rounds
  for (int i = 0; i < rn; ++i) {
    EXPECT_TRUE(got[i] == x[i], "rotate_rounds: x[%d] = %d, expected %d", i, got[i], x[i]);
  }

  // 2b. Many short cooperative launches in a row, each waited for (workspaces are reused).
  int two = 2;
  for (int launch = 0; launch < 20; ++launch) {
    void* args[] = {&a, &b, &two};
    CHECK_CUDA(cudaLaunchCooperativeKernel((const void*)rotate_rounds, dim3(rblocks), dim3(kBlock),
                                           args, 0, nullptr));
    CHECK_CUDA(cudaStreamSynchronize(nullptr));
    for (int r = 0; r < two; ++r) {
      std::vector<int> next(rn);
      for (int i = 0; i < rn; ++i) next[i] = x[(i + 1) % rn] + 1;
      x.swap(next);
    }
  }
  CHECK_CUDA(cudaMemcpy(got.data(), a, rn * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < rn; ++i) {
    EXPECT_TRUE(got[i] == x[i], "repeated launches: x[%d] = %d, expected %d", i, got[i], x[i]);
  }

  // 3. A grid one block larger than can be resident is refused, and the error is not
  //    sticky.
  {
    void* args[] = {&a, &b, &rounds};
    cudaError_t e = cudaLaunchCooperativeKernel((const void*)rotate_rounds, dim3(rblocks + 1),
                                                dim3(kBlock), args, 0, nullptr);
    EXPECT_TRUE(e == cudaErrorCooperativeLaunchTooLarge, "too large: %s", cudaGetErrorName(e));
    EXPECT_TRUE(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge, "last error");
    EXPECT_TRUE(cudaGetLastError() == cudaSuccess, "the error is not sticky");
  }

  // 4. this_grid() in an ordinary launch is not valid; in a cooperative one it is.
  int* valid = nullptr;
  unsigned long long* workspace = nullptr;
  CHECK_CUDA(cudaMalloc(&valid, 4 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&workspace, 4 * sizeof(unsigned long long)));
  grid_info<<<2, 64>>>(valid, workspace);
  CHECK_CUDA(cudaGetLastError());
  {
    int* v1 = valid + 1;
    unsigned long long* w1 = workspace + 1;
    void* args[] = {&v1, &w1};
    CHECK_CUDA(
        cudaLaunchCooperativeKernel((const void*)grid_info, dim3(2), dim3(64), args, 0, nullptr));
  }

  // 5. Two cooperative grids queued on two streams at once (held back by a host function
  //    until both are queued) each synchronise on a workspace of their own.
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  int *c = nullptr, *d = nullptr;
  CHECK_CUDA(cudaMalloc(&c, rn * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d, rn * sizeof(int)));
  std::vector<int> y(rn), z(rn);
  for (int i = 0; i < rn; ++i) y[i] = 5 * i + 1, z[i] = 1000000 - i;
  CHECK_CUDA(cudaMemcpy(c, y.data(), rn * sizeof(int), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d, z.data(), rn * sizeof(int), cudaMemcpyHostToDevice));
  int *c2 = nullptr, *d2 = nullptr;
  CHECK_CUDA(cudaMalloc(&c2, rn * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&d2, rn * sizeof(int)));
  CHECK_CUDA(cudaLaunchHostFunc(s1, hold_stream, nullptr));
  CHECK_CUDA(cudaLaunchHostFunc(s2, hold_stream, nullptr));
  int rounds2 = 4;
  {
    void* args1[] = {&c, &c2, &rounds2};
    void* args2[] = {&d, &d2, &rounds2};
    CHECK_CUDA(cudaLaunchCooperativeKernel((const void*)rotate_rounds, dim3(rblocks), dim3(kBlock),
                                           args1, 0, s1));
    CHECK_CUDA(cudaLaunchCooperativeKernel((const void*)rotate_rounds, dim3(rblocks), dim3(kBlock),
                                           args2, 0, s2));
    int* v2 = valid + 2;
    int* v3 = valid + 3;
    unsigned long long* w2 = workspace + 2;
    unsigned long long* w3 = workspace + 3;
    void* info1[] = {&v2, &w2};
    void* info2[] = {&v3, &w3};
    CHECK_CUDA(
        cudaLaunchCooperativeKernel((const void*)grid_info, dim3(1), dim3(32), info1, 0, s1));
    CHECK_CUDA(
        cudaLaunchCooperativeKernel((const void*)grid_info, dim3(1), dim3(32), info2, 0, s2));
  }
  g_release.store(1);
  CHECK_CUDA(cudaDeviceSynchronize());
  for (int r = 0; r < rounds2; ++r) {
    std::vector<int> ny(rn), nz(rn);
    for (int i = 0; i < rn; ++i) ny[i] = y[(i + 1) % rn] + 1, nz[i] = z[(i + 1) % rn] + 1;
    y.swap(ny);
    z.swap(nz);
  }
  CHECK_CUDA(cudaMemcpy(got.data(), c, rn * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < rn; ++i)
    EXPECT_TRUE(got[i] == y[i], "stream 1: %d vs %d at %d", got[i], y[i], i);
  CHECK_CUDA(cudaMemcpy(got.data(), d, rn * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < rn; ++i)
    EXPECT_TRUE(got[i] == z[i], "stream 2: %d vs %d at %d", got[i], z[i], i);

  int host_valid[4];
  unsigned long long host_ws[4];
  CHECK_CUDA(cudaMemcpy(host_valid, valid, sizeof host_valid, cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(host_ws, workspace, sizeof host_ws, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(host_valid[0] == 0 && host_ws[0] == 0, "ordinary launch: is_valid %d, workspace %llx",
              host_valid[0], host_ws[0]);
  for (int i = 1; i < 4; ++i) {
    EXPECT_TRUE(host_valid[i] == 1 && host_ws[i] != 0,
                "cooperative launch %d: is_valid %d, workspace %llx", i, host_valid[i], host_ws[i]);
  }
  EXPECT_TRUE(host_ws[2] != host_ws[3], "concurrent cooperative grids share workspace %llx",
              host_ws[2]);

  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));

  // 6. Last, as the error is sticky: grid.sync() in an ordinary launch has no workspace,
  //    and cooperative groups abort with __trap() (cudaErrorLaunchFailure).
  rotate_rounds<<<2, 32>>>(a, b, 1);
  CHECK_CUDA(cudaGetLastError());
  cudaError_t trapped = cudaDeviceSynchronize();
  EXPECT_TRUE(trapped == cudaErrorLaunchFailure, "grid.sync() outside a cooperative launch: %s",
              cudaGetErrorName(trapped));
  std::printf("PASS cooperative_grid_sync (%d blocks of %d threads)\n", blocks, kBlock);
  return 0;
}
