// Built with SASS only (-gencode arch=compute_80,code=sm_80, no PTX): Strata cannot run
// NVIDIA machine code, so the first launch must fail with
// cudaErrorNoKernelImageForDevice (the runtime logs advice to rebuild with PTX), and the
// error must not poison later, unrelated runtime calls.
#include "test_check.h"

__global__ void touch(int* p) { *p = 42; }

int main() {
  int* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, sizeof(int)));
  touch<<<1, 1>>>(d);
  cudaError_t launch = cudaGetLastError();
  EXPECT_TRUE(launch == cudaErrorNoKernelImageForDevice, "launch -> %s, expected %s",
              cudaGetErrorName(launch), cudaGetErrorName(cudaErrorNoKernelImageForDevice));
  // The error is not sticky: the runtime still works for everything else.
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemset(d, 0, sizeof(int)));
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS sass_only\n");
  return 0;
}
