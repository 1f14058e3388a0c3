// __constant__ coefficients set with cudaMemcpyToSymbol, read by every thread; plus a
// __device__ variable read back with cudaMemcpyFromSymbol.
#include <vector>

#include "test_check.h"

__constant__ float coefficients[4];
__device__ int calls;

__global__ void polynomial(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float v = x[i];
    y[i] = coefficients[0] + v * (coefficients[1] + v * (coefficients[2] + v * coefficients[3]));
    atomicAdd(&calls, 1);
  }
}

int main() {
  const int n = 777;
  const float c[4] = {1.0f, -2.0f, 0.5f, 0.25f};
  CHECK_CUDA(cudaMemcpyToSymbol(coefficients, c, sizeof(c)));
  const int zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(calls, &zero, sizeof(zero)));
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i) x[i] = (i - 300) * 0.01f;
  float *dx, *dy;
  CHECK_CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dy, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  polynomial<<<(n + 63) / 64, 64>>>(dx, dy, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    float v = x[i];
    float expected = c[0] + v * (c[1] + v * (c[2] + v * c[3]));
    float diff = y[i] - expected;
    EXPECT_TRUE(diff < 1e-4f && diff > -1e-4f, "y[%d] = %f, expected %f", i, y[i], expected);
  }
  int count = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&count, calls, sizeof(count)));
  EXPECT_TRUE(count == n, "calls = %d, expected %d", count, n);
  size_t size = 0;
  CHECK_CUDA(cudaGetSymbolSize(&size, coefficients));
  EXPECT_TRUE(size == sizeof(c), "symbol size %zu", size);
  cudaError_t err = cudaMemcpyToSymbol(coefficients, c, sizeof(c), 8);  // overruns
  EXPECT_TRUE(err == cudaErrorInvalidValue, "overrunning copy: %s", cudaGetErrorName(err));
  CHECK_CUDA(cudaFree(dx));
  CHECK_CUDA(cudaFree(dy));
  std::printf("PASS constant_memory\n");
  return 0;
}
