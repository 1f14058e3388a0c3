// Stream priorities as the CUDA Runtime API documents them: the device's range
// [greatest, least] from cudaDeviceGetStreamPriorityRange (lower numbers are higher
// priorities; [0, 0] when cudaDeviceProp::streamPrioritiesSupported is 0, as on Strata,
// which has one level: docs/architecture.md), priorities outside the range clamped to it
// (cudaStreamGetPriority reports the clamped value), the default streams at priority 0,
// and work on streams of every priority completing with the right results.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                        \
  do {                                                                                      \
    cudaError_t got_ = (call);                                                              \
    EXPECT_TRUE(got_ == (expected), "%s -> %s, expected %s", #call, cudaGetErrorName(got_), \
                cudaGetErrorName(expected));                                                \
    cudaGetLastError();                                                                     \
  } while (0)

__global__ void add(int* p, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += value;
}

int main() {
  int least = 12345, greatest = 12345;
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(&least, &greatest));
  EXPECT_TRUE(greatest <= least, "range [%d, %d]", greatest, least);
  CHECK_CUDA(cudaDeviceGetStreamPriorityRange(nullptr, nullptr));  // either may be NULL
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  int supported = -1;
  CHECK_CUDA(cudaDeviceGetAttribute(&supported, cudaDevAttrStreamPrioritiesSupported, 0));
  EXPECT_TRUE(supported == prop.streamPrioritiesSupported, "attribute %d, property %d", supported,
              prop.streamPrioritiesSupported);
  if (!supported) {
    EXPECT_TRUE(least == 0 && greatest == 0, "no priorities, yet range [%d, %d]", greatest, least);
  }
  std::printf("priority range [%d, %d], supported %d\n", greatest, least, supported);

  // Requested priorities are clamped into the range.
  const int requests[] = {-100,  greatest - 1, greatest, (greatest + least) / 2,
                          least, least + 1,    100,      0};
  std::vector<cudaStream_t> streams;
  std::vector<int> expected;
  for (int requested : requests) {
    cudaStream_t stream;
    CHECK_CUDA(cudaStreamCreateWithPriority(&stream, cudaStreamNonBlocking, requested));
    int priority = 12345;
    CHECK_CUDA(cudaStreamGetPriority(stream, &priority));
    int clamped = std::min(std::max(requested, greatest), least);
    EXPECT_TRUE(priority == clamped, "requested %d: priority %d, expected %d", requested, priority,
                clamped);
    unsigned int flags = 0;
    CHECK_CUDA(cudaStreamGetFlags(stream, &flags));
    EXPECT_TRUE(flags == cudaStreamNonBlocking, "flags %u", flags);
    streams.push_back(stream);
  }
  cudaStream_t blocking;
  CHECK_CUDA(cudaStreamCreateWithPriority(&blocking, cudaStreamDefault, greatest));
  streams.push_back(blocking);
  EXPECT_ERROR(cudaStreamCreateWithPriority(&blocking, 0x4, 0), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaStreamGetPriority(streams[0], nullptr), cudaErrorInvalidValue);

  // The default streams have priority 0; a plain stream too.
  int priority = 12345;
  CHECK_CUDA(cudaStreamGetPriority(nullptr, &priority));
  EXPECT_TRUE(priority == 0, "legacy stream priority %d", priority);
  CHECK_CUDA(cudaStreamGetPriority(cudaStreamPerThread, &priority));
  EXPECT_TRUE(priority == 0, "per-thread stream priority %d", priority);
  cudaStream_t plain;
  CHECK_CUDA(cudaStreamCreate(&plain));
  CHECK_CUDA(cudaStreamGetPriority(plain, &priority));
  EXPECT_TRUE(priority == 0, "cudaStreamCreate priority %d", priority);

  // Work on every stream, whatever its priority, completes correctly.
  const int n = 2048;
  std::vector<int*> buffers;
  for (size_t s = 0; s < streams.size(); ++s) {
    int* d = nullptr;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
    CHECK_CUDA(cudaMemsetAsync(d, 0, n * sizeof(int), streams[s]));
    buffers.push_back(d);
  }
  for (int round = 1; round <= 4; ++round) {
    for (size_t s = 0; s < streams.size(); ++s) {
      add<<<n / 128, 128, 0, streams[s]>>>(buffers[s], n, round * static_cast<int>(s + 1));
    }
  }
  std::vector<int> host(n);
  for (size_t s = 0; s < streams.size(); ++s) {
    CHECK_CUDA(cudaMemcpyAsync(host.data(), buffers[s], n * sizeof(int), cudaMemcpyDeviceToHost,
                               streams[s]));
    CHECK_CUDA(cudaStreamSynchronize(streams[s]));
    const int want = 10 * static_cast<int>(s + 1);  // (1 + 2 + 3 + 4) * (s + 1)
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(host[i] == want, "stream %zu: host[%d] = %d, expected %d", s, i, host[i], want);
    }
  }
  for (size_t s = 0; s < streams.size(); ++s) {
    CHECK_CUDA(cudaFree(buffers[s]));
    CHECK_CUDA(cudaStreamDestroy(streams[s]));
  }
  CHECK_CUDA(cudaStreamDestroy(plain));
  std::printf("PASS stream_priorities\n");
  return 0;
}
