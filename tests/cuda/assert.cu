// Device assert: the failing launch reports cudaErrorAssert (sticky), and the driver
// prints CUDA's line for the first failing thread to stderr:
//   assert.cu:<line>: void check_positive(const int *, int): block: [1,0,0], thread:
//   [5,0,0] Assertion `values[i] > 0` failed.
// Only one thread fails, so block and thread are deterministic. Printf output queued
// before the assert is still printed.
#undef NDEBUG
#include <cassert>
#include <cstdio>

#include "test_check.h"

__global__ void check_positive(const int* values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i == 0) printf("before the assert\n");
  if (i < n) assert(values[i] > 0);
}

int main() {
  const int n = 64;
  int host[n];
  for (int k = 0; k < n; ++k) host[k] = k == 37 ? -1 : k + 1;
  int* values;
  CHECK_CUDA(cudaMalloc(&values, sizeof host));
  CHECK_CUDA(cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice));
  check_positive<<<2, 32>>>(values, n);
  cudaError_t sync = cudaDeviceSynchronize();
  EXPECT_TRUE(sync == cudaErrorAssert, "synchronize: %s", cudaGetErrorName(sync));
  EXPECT_TRUE(cudaDeviceSynchronize() == cudaErrorAssert, "the assert error is sticky");
  std::printf("PASS assert\n");
  return 0;
}
