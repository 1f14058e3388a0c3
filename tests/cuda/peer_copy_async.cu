// cudaMemcpyPeerAsync and cudaMemcpyAsync (cudaMemcpyDefault) between two devices (run
// with STRATA_DEVICES=2) are asynchronous for the host even while the other device
// still has work queued on the source: the CUDA runtime API reference makes them
// asynchronous with respect to the host, ordered only in their stream, and the copy
// must still see the source device's earlier work (stream-ordered on the GPU, as a
// cudaStreamWaitEvent would order it). Device 1's stream is held by a host function
// until the copies have been queued; a copy that waited on the host for device 1
// would never return before the host function gives up (a deadlock guard, not a timing
// assertion). Expected values are computed on the host.
#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "test_check.h"

constexpr int kN = 4096;

__global__ void fill(int* p, int base, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = base + i;
}

struct Gate {
  std::atomic<bool> open{false};
  std::atomic<bool> gave_up{false};
};

// Holds device 1's stream until the main thread opens the gate (or 20 s pass).
static void CUDART_CB hold(void* arg) {
  auto* gate = static_cast<Gate*>(arg);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  while (!gate->open.load()) {
    if (std::chrono::steady_clock::now() > deadline) {
      gate->gave_up.store(true);
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

static void check(const std::vector<int>& got, int base, const char* what) {
  for (int i = 0; i < kN; ++i) {
    EXPECT_TRUE(got[i] == base + i, "%s[%d] = %d, expected %d", what, i, got[i], base + i);
  }
}

int main() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  EXPECT_TRUE(count >= 2, "needs two devices (STRATA_DEVICES=2), found %d", count);

  // Device 1: a cudaMalloc buffer and a pool block, both written after the gate.
  CHECK_CUDA(cudaSetDevice(1));
  cudaStream_t s1;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  int *src = nullptr, *pool_src = nullptr;
  CHECK_CUDA(cudaMalloc(&src, kN * sizeof(int)));
  CHECK_CUDA(cudaMallocAsync(&pool_src, kN * sizeof(int), s1));
  CHECK_CUDA(cudaStreamSynchronize(s1));
  Gate gate;
  CHECK_CUDA(cudaLaunchHostFunc(s1, hold, &gate));
  fill<<<kN / 256, 256, 0, s1>>>(src, 70, kN);
  fill<<<kN / 256, 256, 0, s1>>>(pool_src, 900, kN);
  CHECK_CUDA(cudaGetLastError());

  // Device 0: the copies are queued while device 1 is held.
  CHECK_CUDA(cudaSetDevice(0));
  cudaStream_t s0;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s0, cudaStreamNonBlocking));
  int *dst = nullptr, *dst2 = nullptr;
  CHECK_CUDA(cudaMalloc(&dst, kN * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dst2, kN * sizeof(int)));
  CHECK_CUDA(cudaMemcpyPeerAsync(dst, 0, src, 1, kN * sizeof(int), s0));
  CHECK_CUDA(cudaMemcpyAsync(dst2, pool_src, kN * sizeof(int), cudaMemcpyDefault, s0));
  EXPECT_TRUE(!gate.gave_up.load(), "the async copies waited for device 1's work on the host");
  CHECK_CUDA(cudaSetDevice(1));
  cudaError_t held = cudaStreamQuery(s1);
  CHECK_CUDA(cudaSetDevice(0));
  EXPECT_TRUE(held == cudaErrorNotReady, "device 1's stream is not held: %s",
              cudaGetErrorName(held));
  gate.open.store(true);

  CHECK_CUDA(cudaStreamSynchronize(s0));
  std::vector<int> host(kN);
  CHECK_CUDA(cudaMemcpy(host.data(), dst, kN * sizeof(int), cudaMemcpyDeviceToHost));
  check(host, 70, "dst (cudaMemcpyPeerAsync)");
  CHECK_CUDA(cudaMemcpy(host.data(), dst2, kN * sizeof(int), cudaMemcpyDeviceToHost));
  check(host, 900, "dst2 (cudaMemcpyAsync from device 1's pool)");

  CHECK_CUDA(cudaFree(dst));
  CHECK_CUDA(cudaFree(dst2));
  CHECK_CUDA(cudaStreamDestroy(s0));
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaFreeAsync(pool_src, s1));
  CHECK_CUDA(cudaStreamSynchronize(s1));
  CHECK_CUDA(cudaFree(src));
  CHECK_CUDA(cudaStreamDestroy(s1));
  std::printf("PASS peer_copy_async\n");
  return 0;
}
