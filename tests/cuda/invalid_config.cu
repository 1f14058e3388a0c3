// Bad launch configurations fail with cudaErrorInvalidConfiguration, which is not
// sticky: a later valid launch works.
#include "test_check.h"

__global__ void set(int* p, int v) { p[threadIdx.x] = v; }

static void expect_invalid(const char* what) {
  cudaError_t err = cudaGetLastError();
  EXPECT_TRUE(err == cudaErrorInvalidConfiguration, "%s: got %s", what, cudaGetErrorName(err));
  EXPECT_TRUE(cudaGetLastError() == cudaSuccess, "%s: error was not cleared", what);
}

int main() {
  int* d;
  CHECK_CUDA(cudaMalloc(&d, 1024 * sizeof(int)));
  set<<<1, 2048>>>(d, 1);  // more threads per block than any device allows
  expect_invalid("2048 threads per block");
  set<<<0, 32>>>(d, 1);
  expect_invalid("empty grid");
  set<<<dim3(1, 1, 1), dim3(32, 1, 0)>>>(d, 1);
  expect_invalid("zero block.z");
  set<<<1, 32, 1u << 30>>>(d, 1);  // 1 GiB of dynamic shared memory
  expect_invalid("1 GiB shared memory");
  set<<<dim3(1, 1u << 20, 1), 32>>>(d, 1);  // grid.y above 65535
  expect_invalid("grid.y = 2^20");

  set<<<1, 32>>>(d, 7);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  int h[32];
  CHECK_CUDA(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 32; ++i) EXPECT_TRUE(h[i] == 7, "h[%d] = %d", i, h[i]);
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS invalid_config\n");
  return 0;
}
