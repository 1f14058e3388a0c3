// Block 1 waits for a flag that block 0 sets: a hand-off between two co-resident CTAs.
#include "test_check.h"

__global__ void handoff(volatile int* flag, volatile int* data, int* result) {
  if (threadIdx.x != 0) return;
  if (blockIdx.x == 1) {
    while (*flag == 0) {
    }
    __threadfence();
    *result = *data * 2;
  } else {
    *data = 21;
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
  handoff<<<2, 32>>>(flag, data, result);
  CHECK_CUDA(cudaGetLastError());
  int value = 0;
  CHECK_CUDA(cudaMemcpy(&value, result, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(value == 42, "result %d, expected 42", value);
  CHECK_CUDA(cudaFree(flag));
  CHECK_CUDA(cudaFree(data));
  CHECK_CUDA(cudaFree(result));
  std::printf("PASS flag_ctas\n");
  return 0;
}
