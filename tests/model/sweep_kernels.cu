// A compute-bound kernel for the record-and-replay test (tests/model/sweep_check.py):
// fma_bound runs 384 CTAs x 256 threads (several full waves on every swept SM count),
// eight independent FMA chains per thread and one store per thread, so that its modeled
// time is set by the FP32 pipe and the issue rate (core clock cycles), not by memory.
// The result is checked against the same recurrence evaluated on the host.
#include <cmath>
#include <cstdio>
#include <vector>

#include "test_check.h"

__global__ void fma_bound(float* out, int iterations, float a, float b) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float x0 = tid, x1 = tid + 1, x2 = tid + 2, x3 = tid + 3, x4 = tid + 4, x5 = tid + 5,
        x6 = tid + 6, x7 = tid + 7;
  for (int i = 0; i < iterations; ++i) {
    x0 = x0 * a + b, x1 = x1 * a + b, x2 = x2 * a + b, x3 = x3 * a + b;
    x4 = x4 * a + b, x5 = x5 * a + b, x6 = x6 * a + b, x7 = x7 * a + b;
  }
  out[tid] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

int main() {
  const int ctas = 384, block = 256, iterations = 64, n = ctas * block;
  const float a = 0.999f, b = 0.25f;
  float* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  fma_bound<<<ctas, block>>>(d, iterations, a, b);
  CHECK_CUDA(cudaGetLastError());
  std::vector<float> h(n);
  CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int tid = 0; tid < n; tid += 97) {
    double x[8];
    for (int j = 0; j < 8; ++j) x[j] = static_cast<float>(tid + j);
    for (int i = 0; i < iterations; ++i)
      for (int j = 0; j < 8; ++j) x[j] = x[j] * a + b;
    const double want = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
    EXPECT_TRUE(std::fabs(h[tid] - want) <= 1e-4 * (1.0 + std::fabs(want)),
                "out[%d] = %f, expected %f", tid, h[tid], want);
  }
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS sweep_kernels\n");
  return 0;
}
