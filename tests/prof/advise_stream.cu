// The DRAM-bandwidth sweep of `strata advise` (issue 6, item 7): y[i] = f(x[i]) with F
// dependent FMAs per element, 8 bytes of DRAM traffic per element. F is chosen so that
// the kernel's instruction time lies between its DRAM time at strata-g1's bandwidth and
// at twice that bandwidth: memory-bound on strata-g1, compute-bound with DRAM doubled.
// With F = 8 a warp issues about 0.7 x as many instruction cycles as its 2 x 32 x 4 bytes
// take at strata-g1's DRAM bandwidth per SM (448 GB/s / 24 SMs / 1.5 GHz = 12.4 B/clk),
// so the flip lies near the middle of the sweep 1x -> 2x.
// Usage: advise_stream [F] (a multiple of 8; default 8). Self-checking on the host.
#include <cmath>
#include <cstdlib>
#include <vector>

#include "../cuda/test_check.h"

__global__ void stream_fma(const float* x, float* y, int n, int fmas) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  for (int j = 0; j < fmas; j += 8) {
#pragma unroll
    for (int u = 0; u < 8; ++u) v = fmaf(v, 0.999f, 0.001f);
  }
  y[i] = v;
}

int main(int argc, char** argv) {
  const int fmas = argc > 1 ? std::atoi(argv[1]) : 8;
  EXPECT_TRUE(fmas > 0 && fmas % 8 == 0, "F = %d is not a positive multiple of 8", fmas);
  const int n = 1 << 21;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = static_cast<float>(i % 4096) / 4096.0f;
  float *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int block = 256;
  stream_fma<<<(n + block - 1) / block, block>>>(dx, dy, n, fmas);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i += 97) {
    float v = x[i];
    for (int j = 0; j < fmas; ++j) v = std::fma(v, 0.999f, 0.001f);
    EXPECT_TRUE(std::fabs(y[i] - v) <= 1e-6f * std::fabs(v) + 1e-7f, "y[%d] = %.9g, expected %.9g",
                i, y[i], v);
  }
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  std::printf("PASS advise_stream (F = %d)\n", fmas);
  return 0;
}
