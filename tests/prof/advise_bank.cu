// The shared-memory padding sweep of `strata advise` (issue 6, item 7): a tiled matrix
// transpose through a 32 x (32 + PAD) shared tile. Each warp writes a tile row and reads
// a tile column; with PAD 0 the column's 32 words sit in one bank (a 32-way conflict),
// with PAD 1 in 32 different banks (none).
// Usage: advise_bank PAD (0 or 1). Self-checking against the host transpose.
#include <cstdlib>
#include <vector>

#include "../cuda/test_check.h"

constexpr int kTile = 32;

// Blocks of 32 x 8 threads; each thread moves 4 elements of a 32 x 32 tile.
__global__ void transpose(const float* in, float* out, int n, int pad) {
  extern __shared__ float tile[];
  const int pitch = kTile + pad;
  const int x = blockIdx.x * kTile + threadIdx.x;
  const int y0 = blockIdx.y * kTile;
  for (int r = threadIdx.y; r < kTile; r += blockDim.y)
    tile[r * pitch + threadIdx.x] = in[(y0 + r) * n + x];
  __syncthreads();
  const int ox = blockIdx.y * kTile + threadIdx.x;
  const int oy0 = blockIdx.x * kTile;
  for (int r = threadIdx.y; r < kTile; r += blockDim.y)
    out[(oy0 + r) * n + ox] = tile[threadIdx.x * pitch + r];
}

int main(int argc, char** argv) {
  const int pad = argc > 1 ? std::atoi(argv[1]) : 0;
  EXPECT_TRUE(pad == 0 || pad == 1, "padding %d is not 0 or 1", pad);
  const int n = 256;
  std::vector<float> in(n * n), out(n * n);
  for (int i = 0; i < n * n; ++i) in[i] = static_cast<float>(i);
  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, n * n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * n * sizeof(float), cudaMemcpyHostToDevice));
  const dim3 block(kTile, 8), grid(n / kTile, n / kTile);
  const size_t shared = kTile * (kTile + pad) * sizeof(float);
  transpose<<<grid, block, shared>>>(din, dout, n, pad);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c)
      EXPECT_TRUE(out[r * n + c] == in[c * n + r], "out[%d][%d] = %f, expected %f", r, c,
                  out[r * n + c], in[c * n + r]);
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  std::printf("PASS advise_bank (padding %d)\n", pad);
  return 0;
}
