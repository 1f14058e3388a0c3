// Warp 1 waits on a flag that warp 0 sets after writing data: a hand-off between two
// warps of one block without __syncthreads.
#include "test_check.h"

__global__ void handoff(volatile int* flag, volatile int* data, int* result) {
  int warp = threadIdx.x / 32;
  int lane = threadIdx.x % 32;
  if (warp == 1) {
    if (lane == 0) {
      while (*flag == 0) {
      }
      __threadfence();
      *result = *data + 1;
    }
  } else if (warp == 0 && lane == 0) {
    *data = 41;
    __threadfence();
    *flag = 1;
  }
}

int main() {
  int *flag, *data, *result;
  CHECK_CUDA(cudaMalloc(&flag, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&data, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&result, sizeof(int)));
  CHECK_CUDA(cudaMemset(flag, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(data, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(result, 0, sizeof(int)));
  // Warp 1 (the waiter) is scheduled first on most hardware; progress needs warp 0.
  handoff<<<1, 64>>>(flag, data, result);
  CHECK_CUDA(cudaGetLastError());
  int value = 0;
  CHECK_CUDA(cudaMemcpy(&value, result, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(value == 42, "result %d, expected 42", value);
  CHECK_CUDA(cudaFree(flag));
  CHECK_CUDA(cudaFree(data));
  CHECK_CUDA(cudaFree(result));
  std::printf("PASS flag_warps\n");
  return 0;
}
