// `trap` (__trap()) aborts the grid: the launch fails with cudaErrorLaunchFailure, and
// the error is sticky, as the CUDA Runtime API documents for device exceptions ("the
// process is left in an inconsistent state and any further CUDA work will return the
// same error"). (`brkpt` with no debugger attached fails the same way on Strata; that is
// Strata's choice, not a documented CUDA behaviour, so it is not tested here.)
#include <cstdio>

#include "test_check.h"

__global__ void trap_in_one_thread(int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (blockIdx.x == 1 && threadIdx.x == 5) __trap();
  out[t] = t;
}

__global__ void write_one(int* out) {
  out[0] = 42;
}

int main() {
  int* out;
  CHECK_CUDA(cudaMalloc(&out, 256 * sizeof(int)));
  CHECK_CUDA(cudaMemset(out, 0, 256 * sizeof(int)));

  trap_in_one_thread<<<4, 64>>>(out);
  CHECK_CUDA(cudaGetLastError());  // the launch itself is valid
  cudaError_t sync = cudaDeviceSynchronize();
  EXPECT_TRUE(sync == cudaErrorLaunchFailure, "cudaDeviceSynchronize after trap: %s",
              cudaGetErrorName(sync));

  // Sticky: every later call that reports errors returns it, and new work fails.
  cudaError_t again = cudaDeviceSynchronize();
  EXPECT_TRUE(again == cudaErrorLaunchFailure, "second synchronize: %s", cudaGetErrorName(again));
  int* more = nullptr;
  cudaError_t alloc = cudaMalloc(&more, 16);
  EXPECT_TRUE(alloc == cudaErrorLaunchFailure, "cudaMalloc after trap: %s",
              cudaGetErrorName(alloc));
  write_one<<<1, 1>>>(out);
  cudaError_t relaunch = cudaDeviceSynchronize();
  EXPECT_TRUE(relaunch == cudaErrorLaunchFailure, "launch after trap: %s",
              cudaGetErrorName(relaunch));
  cudaError_t last = cudaGetLastError();
  EXPECT_TRUE(last == cudaErrorLaunchFailure, "cudaGetLastError: %s", cudaGetErrorName(last));
  cudaError_t still = cudaGetLastError();
  EXPECT_TRUE(still == cudaErrorLaunchFailure, "cudaGetLastError does not clear a sticky error: %s",
              cudaGetErrorName(still));

  std::printf("PASS trap\n");
  return 0;
}
