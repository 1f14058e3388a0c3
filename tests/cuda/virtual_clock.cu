// Strata's one virtual clock seen through CUDA events (docs/hw-contract.md, "Clock
// model"). Relations that hold on any GPU and in any sane timing model:
//   - a kernel doing twice the work on one stream takes about twice as long;
//   - two one-block kernels on two streams overlap: together they take less than the
//     sum of their times;
//   - cudaMemcpy of N bytes from the host takes at least N / host link bandwidth
//     (VIRTUAL_CLOCK_HOST_LINK_BPS, the configuration's link.host_link_bytes_per_second);
//   - after cudaStreamSynchronize / cudaEventSynchronize / a cudaEventQuery reporting
//     completion, an event recorded on an idle stream is not earlier than the event
//     waited for (the host's time moved to the completion).
// It prints "TIMES ..." with every measured elapsed time: the determinism test
// (virtual_clock_determinism.cmake) requires identical lines under STRATA_THREADS=1 and 2
// with STRATA_HOST_TIME=none.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "test_check.h"

__global__ void chain(float* p, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = p[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.5f;
  p[i] = x;
}

static std::string g_times;

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
  char buf[64];
  std::snprintf(buf, sizeof(buf), " %.9g", ms);
  g_times += buf;
  return ms;
}

// Elapsed time of `chain` with `blocks` x `threads` over `iterations` on `stream`.
static float time_chain(float* d, int blocks, int threads, int iterations, cudaStream_t stream) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  CHECK_CUDA(cudaEventRecord(start, stream));
  chain<<<blocks, threads, 0, stream>>>(d, iterations);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop, stream));
  CHECK_CUDA(cudaEventSynchronize(stop));
  const float ms = elapsed(start, stop);
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return ms;
}

int main() {
  const int kIterations = 40000;
  float* d;
  CHECK_CUDA(cudaMalloc(&d, 1024 * sizeof(float)));
  CHECK_CUDA(cudaMemset(d, 0, 1024 * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));

  // Warm-up: the first launch loads the module (host time, not kernel time).
  chain<<<1, 32, 0, s1>>>(d, 1);
  CHECK_CUDA(cudaStreamSynchronize(s1));

  // 1. Twice the work, about twice the time.
  const float once = time_chain(d, 1, 128, kIterations, s1);
  const float twice = time_chain(d, 1, 128, 2 * kIterations, s1);
  EXPECT_TRUE(once > 0, "kernel time %f ms", once);
  EXPECT_TRUE(twice > 1.8f * once && twice < 2.2f * once, "%f ms then %f ms for twice the work",
              once, twice);

  // 2. Two one-block kernels on two streams, both after a common start.
  const float alone = time_chain(d, 1, 32, kIterations, s1);
  cudaEvent_t start, end1, end2;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&end1));
  CHECK_CUDA(cudaEventCreate(&end2));
  CHECK_CUDA(cudaEventRecord(start, s1));
  CHECK_CUDA(cudaStreamWaitEvent(s2, start, 0));
  chain<<<1, 32, 0, s1>>>(d, kIterations);
  chain<<<1, 32, 0, s2>>>(d + 512, kIterations);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(end1, s1));
  CHECK_CUDA(cudaEventRecord(end2, s2));
  CHECK_CUDA(cudaEventSynchronize(end1));
  CHECK_CUDA(cudaEventSynchronize(end2));
  const float both = std::max(elapsed(start, end1), elapsed(start, end2));
  EXPECT_TRUE(both < 0.75f * 2 * alone, "two concurrent kernels took %f ms, one alone %f ms", both,
              alone);
  EXPECT_TRUE(both >= alone * 0.99f, "two concurrent kernels took %f ms, one alone %f ms", both,
              alone);

  // 3. A host-to-device copy is bounded by the host link.
  const char* bps_env = std::getenv("VIRTUAL_CLOCK_HOST_LINK_BPS");
  EXPECT_TRUE(bps_env != nullptr, "VIRTUAL_CLOCK_HOST_LINK_BPS is not set");
  const double bps = std::atof(bps_env);
  const size_t bytes = 16u << 20;
  void* host;
  void* dev;
  CHECK_CUDA(cudaMallocHost(&host, bytes));
  CHECK_CUDA(cudaMalloc(&dev, bytes));
  std::memset(host, 1, bytes);
  cudaEvent_t c0, c1;
  CHECK_CUDA(cudaEventCreate(&c0));
  CHECK_CUDA(cudaEventCreate(&c1));
  CHECK_CUDA(cudaEventRecord(c0, 0));
  CHECK_CUDA(cudaMemcpy(dev, host, bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaEventRecord(c1, 0));
  CHECK_CUDA(cudaEventSynchronize(c1));
  const float copy_ms = elapsed(c0, c1);
  const double min_ms = static_cast<double>(bytes) / bps * 1e3;
  EXPECT_TRUE(copy_ms >= min_ms * 0.999, "H2D of %zu bytes took %f ms; the link needs %f ms", bytes,
              copy_ms, min_ms);

  // 4. Blocking waits move the host's time to the completion.
  cudaEvent_t done, later;
  CHECK_CUDA(cudaEventCreate(&done));
  CHECK_CUDA(cudaEventCreate(&later));
  for (int how = 0; how < 3; ++how) {
    chain<<<1, 128, 0, s1>>>(d, kIterations);
    CHECK_CUDA(cudaEventRecord(done, s1));
    if (how == 0) CHECK_CUDA(cudaStreamSynchronize(s1));
    if (how == 1) CHECK_CUDA(cudaEventSynchronize(done));
    if (how == 2) {
      cudaError_t q;
      while ((q = cudaEventQuery(done)) == cudaErrorNotReady) {
      }
      CHECK_CUDA(q);
    }
    CHECK_CUDA(cudaEventRecord(later, s2));  // s2 is idle: its time is the host's
    CHECK_CUDA(cudaEventSynchronize(later));
    const float after = elapsed(done, later);
    EXPECT_TRUE(after >= 0, "wait %d: an event recorded after the wait is %f ms before it", how,
                after);
  }

  CHECK_CUDA(cudaFreeHost(host));
  CHECK_CUDA(cudaFree(dev));
  CHECK_CUDA(cudaFree(d));
  std::printf("TIMES%s\n", g_times.c_str());
  std::printf(
      "PASS virtual_clock (kernel %.4f ms, 2x work %.4f ms, overlap %.4f vs %.4f ms, H2D %.4f "
      "ms)\n",
      once, twice, both, alone, copy_ms);
  return 0;
}
