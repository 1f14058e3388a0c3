// Process teardown: CUDA calls from static destructors after main returns, and host
// functions still pending at exit.
//
// nvcc's code registers the fatbin before main and the runtime's teardown with atexit
// then. Destructors of statics constructed after that (here a function-local static
// made in main) run before the teardown, so their CUDA calls work normally; destructors
// of statics constructed before it (teardown_early.cpp, linked first, so initialised
// before this file's fatbin registration) run after it, when CUDA returns
// cudaErrorCudartUnloading (or cudaSuccess) and must not crash. Host functions still
// queued when main returns may or may not run, but must not crash or hang the exit.
#include <cuda_runtime.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

#include "test_check.h"

namespace {

std::atomic<int> callbacks_run{0};

void CUDART_CB slow_host_function(void* data) {
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  callbacks_run.fetch_add(1);
}

__global__ void fill(int* p, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value;
}

// Constructed in main, after CUDA initialised: destroyed before CUDA's teardown, so its
// calls behave as during main.
struct LateStatic {
  int* memory = nullptr;
  cudaStream_t stream = nullptr;
  ~LateStatic() {
    CHECK_CUDA(cudaStreamSynchronize(stream));
    CHECK_CUDA(cudaStreamDestroy(stream));
    CHECK_CUDA(cudaFree(memory));
    CHECK_CUDA(cudaDeviceSynchronize());
    std::printf("late static destroyed\n");
    std::fflush(stdout);
  }
};

LateStatic& late_static() {
  static LateStatic instance;
  return instance;
}

}  // namespace

// teardown_early.cpp: hands the early static what its destructor frees.
void early_static_adopt(int* memory, cudaStream_t stream, cudaEvent_t event);

int main() {
  const int n = 1024;
  int* early_memory = nullptr;
  cudaStream_t early_stream = nullptr;
  cudaEvent_t early_event = nullptr;
  CHECK_CUDA(cudaMalloc(&early_memory, n * sizeof(int)));
  CHECK_CUDA(cudaStreamCreate(&early_stream));
  CHECK_CUDA(cudaEventCreate(&early_event));
  early_static_adopt(early_memory, early_stream, early_event);

  LateStatic& late = late_static();
  CHECK_CUDA(cudaMalloc(&late.memory, n * sizeof(int)));
  CHECK_CUDA(cudaStreamCreateWithFlags(&late.stream, cudaStreamNonBlocking));
  fill<<<n / 128, 128, 0, late.stream>>>(late.memory, n, 3);
  CHECK_CUDA(cudaGetLastError());

  // Work and host functions left pending at exit, on the early stream.
  fill<<<n / 128, 128, 0, early_stream>>>(early_memory, n, 7);
  CHECK_CUDA(cudaLaunchHostFunc(early_stream, slow_host_function, nullptr));
  CHECK_CUDA(cudaEventRecord(early_event, early_stream));
  CHECK_CUDA(cudaLaunchHostFunc(early_stream, slow_host_function, nullptr));
  CHECK_CUDA(cudaLaunchHostFunc(nullptr, slow_host_function, nullptr));

  std::printf("main returns with %d host functions run\n", callbacks_run.load());
  std::fflush(stdout);
  return 0;
}
