// Events around a kernel: elapsed time is positive and query/synchronize behave.
#include "test_check.h"

__global__ void busy(float* p, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = p[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.5f;
  p[i] = x;
}

int main() {
  const int n = 4096;
  float* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(d, 0, n * sizeof(float)));
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreateWithFlags(&stop, cudaEventBlockingSync));
  CHECK_CUDA(cudaEventRecord(start, 0));
  busy<<<n / 128, 128>>>(d, 200);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop, 0));
  CHECK_CUDA(cudaEventSynchronize(stop));
  CHECK_CUDA(cudaEventQuery(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  EXPECT_TRUE(ms > 0.0f, "elapsed %f ms", ms);
  cudaEvent_t untimed;
  CHECK_CUDA(cudaEventCreateWithFlags(&untimed, cudaEventDisableTiming));
  CHECK_CUDA(cudaEventRecord(untimed, 0));
  CHECK_CUDA(cudaEventSynchronize(untimed));
  float ignored = 0;
  cudaError_t err = cudaEventElapsedTime(&ignored, start, untimed);
  EXPECT_TRUE(err == cudaErrorInvalidResourceHandle, "elapsed with an untimed event: %s",
              cudaGetErrorName(err));
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  CHECK_CUDA(cudaEventDestroy(untimed));
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS events_timing (%.3f ms)\n", ms);
  return 0;
}
