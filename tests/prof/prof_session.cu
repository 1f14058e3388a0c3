// A session for the profiler's end-to-end test (prof_session_test.py): NVTX ranges, two
// streams, pinned and pageable copies, memsets, a captured graph launched twice and
// kernels whose shapes the checker knows. With --capture, only the work between
// cudaProfilerStart and cudaProfilerStop belongs to the capture range. Prints PASS.
#include <cuda_profiler_api.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "test_check.h"

__global__ void scale(float* x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= a;
}

__global__ void offset(float* x, float b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] += b;
}

int main(int argc, char** argv) {
  const bool capture = argc > 1 && std::strcmp(argv[1], "--capture") == 0;
  // --abort: the program dies (SIGABRT, no exit handlers) after the setup phase.
  const bool crash = argc > 1 && std::strcmp(argv[1], "--abort") == 0;
  constexpr int n = 1 << 16;
  constexpr size_t bytes = n * sizeof(float);
  float *a = nullptr, *b = nullptr, *pinned = nullptr;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMallocHost(&pinned, bytes));
  std::vector<float> pageable(n, 1.0f);
  for (int i = 0; i < n; ++i) pinned[i] = 2.0f;
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  // Phase 1 (outside the capture range with --capture): copies, memsets, two kernels.
  nvtxRangePushA("setup");
  CHECK_CUDA(cudaMemcpy(a, pageable.data(), bytes, cudaMemcpyHostToDevice));     // pageable
  CHECK_CUDA(cudaMemcpyAsync(b, pinned, bytes, cudaMemcpyHostToDevice, s2));   // pinned
  CHECK_CUDA(cudaMemsetAsync(b, 0, bytes / 2, s2));
  scale<<<n / 256, 256, 0, s1>>>(a, 3.0f, n);
  offset<<<n / 128, 128, 0, s2>>>(b, 1.0f, n);
  CHECK_CUDA(cudaDeviceSynchronize());
  nvtxRangePop();
  if (crash) {
    std::printf("aborting after setup\n");
    std::fflush(stdout);
    std::abort();
  }

  if (capture) CHECK_CUDA(cudaProfilerStart());
  // Phase 2: a graph of scale -> memset -> offset captured on s1, launched twice.
  nvtxRangePushA("graph");
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
  scale<<<n / 512, 512, 0, s1>>>(a, 0.5f, n);
  CHECK_CUDA(cudaMemsetAsync(b, 0, bytes, s1));
  offset<<<n / 512, 512, 0, s1>>>(a, 2.0f, n);
  CHECK_CUDA(cudaStreamEndCapture(s1, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphLaunch(exec, s1));
  CHECK_CUDA(cudaGraphLaunch(exec, s1));
  CHECK_CUDA(cudaStreamSynchronize(s1));
  nvtxRangePop();
  // Back to the host: a -> pageable (a = ((1 * 3) * 0.5 + 2) * 0.5 + 2 = 3.75).
  nvtxMarkA("copy back");
  CHECK_CUDA(cudaMemcpy(pageable.data(), a, bytes, cudaMemcpyDeviceToHost));
  if (capture) CHECK_CUDA(cudaProfilerStop());
  for (int i = 0; i < n; ++i) {
    if (pageable[i] != 3.75f) {
      std::printf("FAIL a[%d] = %g, expected 3.75\n", i, pageable[i]);
      return 1;
    }
  }
  // Phase 3 (outside the capture range with --capture): one more kernel.
  scale<<<1, 32>>>(b, 1.0f, 32);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaStreamDestroy(s2));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  std::printf("PASS prof_session\n");
  return 0;
}
