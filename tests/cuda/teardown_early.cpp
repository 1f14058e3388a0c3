// The early static of teardown.cu: a host-only file linked first, so its global object is
// constructed before teardown.cu registers its fatbin and destroyed after nvcc's atexit
// handler unregistered it (CUDA's runtime teardown). CUDA calls in its destructor return
// cudaErrorCudartUnloading (or cudaSuccess) and must not crash.
#include <cuda_runtime.h>
#include <unistd.h>

#include <cstdio>

namespace {

bool acceptable_after_main(cudaError_t error) {
  return error == cudaSuccess || error == cudaErrorCudartUnloading;
}

void fail_in_destructor(const char* what, cudaError_t error) {
  std::printf("FAIL %s -> %s\n", what, cudaGetErrorName(error));
  std::fflush(stdout);
  _exit(1);
}

struct EarlyStatic {
  int* memory = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t event = nullptr;
  ~EarlyStatic() {
    cudaError_t error = cudaFree(memory);
    if (!acceptable_after_main(error)) fail_in_destructor("late cudaFree", error);
    std::printf("cudaFree after main: %s\n", cudaGetErrorName(error));
    error = cudaStreamDestroy(stream);
    if (!acceptable_after_main(error)) fail_in_destructor("late cudaStreamDestroy", error);
    error = cudaEventDestroy(event);
    if (!acceptable_after_main(error)) fail_in_destructor("late cudaEventDestroy", error);
    error = cudaDeviceSynchronize();
    if (!acceptable_after_main(error)) fail_in_destructor("late cudaDeviceSynchronize", error);
    int* more = nullptr;
    error = cudaMalloc(&more, 16);
    if (!acceptable_after_main(error)) fail_in_destructor("late cudaMalloc", error);
    if (error == cudaSuccess) cudaFree(more);
    (void)cudaGetLastError();  // a plain query
    std::printf("PASS teardown\n");
    std::fflush(stdout);
  }
} early_static;

}  // namespace

void early_static_adopt(int* memory, cudaStream_t stream, cudaEvent_t event) {
  early_static.memory = memory;
  early_static.stream = stream;
  early_static.event = event;
}
