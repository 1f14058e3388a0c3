// Stream priorities as the CUDA Runtime API documents them: the device's range
// [greatest, least] from cudaDeviceGetStreamPriorityRange (lower numbers are higher
// priorities; [0, 0] when cudaDeviceProp::streamPrioritiesSupported is 0), priorities
// outside the range clamped to it (cudaStreamGetPriority reports the clamped value), the
// default streams at priority 0, and work on streams of every priority completing with
// the right results.
//
// Scheduling: "priorities provide a hint to preferentially run work with higher priority
// when possible" (cudaStreamCreateWithPriority). A low- and a high-priority stream both
// wait on one event, recorded behind a host function that holds a gate until every
// kernel is queued; once the gate opens, the kernels take tickets from a device counter:
// the high-priority stream's kernels must take theirs first, whichever stream was fed
// first.
#include <cuda_runtime.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <thread>
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

__device__ unsigned int g_ticket;

__global__ void take_ticket(unsigned int* tickets, int slot, unsigned long long* stamps) {
  if (blockIdx.x == 0 && threadIdx.x == 0) {
    unsigned long long now;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(now));
    stamps[slot] = now;
    tickets[slot] = atomicAdd(&g_ticket, 1u);
  }
}

void CUDART_CB hold_gate(void* gate) {
  auto* open = static_cast<std::atomic<bool>*>(gate);
  while (!open->load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
}

// Queues `kKernels` ticket kernels on each of `low` and `high` (the stream named by
// `low_first` first), all behind one gated event; checks the high stream ran first.
void check_high_priority_runs_first(int least, int greatest, bool low_first) {
  constexpr int kKernels = 4;
  cudaStream_t low, high, gate_stream;
  CHECK_CUDA(cudaStreamCreateWithPriority(&low, cudaStreamNonBlocking, least));
  CHECK_CUDA(cudaStreamCreateWithPriority(&high, cudaStreamNonBlocking, greatest));
  CHECK_CUDA(cudaStreamCreateWithFlags(&gate_stream, cudaStreamNonBlocking));
  unsigned int* tickets = nullptr;
  unsigned long long* stamps = nullptr;
  CHECK_CUDA(cudaMalloc(&tickets, 2 * kKernels * sizeof(unsigned int)));
  CHECK_CUDA(cudaMalloc(&stamps, 2 * kKernels * sizeof(unsigned long long)));
  const unsigned int zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(g_ticket, &zero, sizeof(zero)));

  std::atomic<bool> open{false};
  cudaEvent_t gate;
  CHECK_CUDA(cudaEventCreateWithFlags(&gate, cudaEventDisableTiming));
  CHECK_CUDA(cudaLaunchHostFunc(gate_stream, hold_gate, &open));
  CHECK_CUDA(cudaEventRecord(gate, gate_stream));
  CHECK_CUDA(cudaStreamWaitEvent(low, gate, 0));
  CHECK_CUDA(cudaStreamWaitEvent(high, gate, 0));
  // Slots 0..kKernels-1: the high stream; kKernels..2*kKernels-1: the low stream.
  for (int pass = 0; pass < 2; ++pass) {
    const bool feed_low = (pass == 0) == low_first;
    for (int k = 0; k < kKernels; ++k) {
      take_ticket<<<4, 64, 0, feed_low ? low : high>>>(tickets, feed_low ? kKernels + k : k,
                                                       stamps);
      CHECK_CUDA(cudaGetLastError());
    }
  }
  EXPECT_TRUE(cudaStreamQuery(low) == cudaErrorNotReady, "the low stream ran past the gate");
  EXPECT_TRUE(cudaStreamQuery(high) == cudaErrorNotReady, "the high stream ran past the gate");
  open.store(true);
  CHECK_CUDA(cudaDeviceSynchronize());

  unsigned int got[2 * kKernels];
  unsigned long long when[2 * kKernels];
  CHECK_CUDA(cudaMemcpy(got, tickets, sizeof(got), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(when, stamps, sizeof(when), cudaMemcpyDeviceToHost));
  std::printf("%s fed first: tickets high", low_first ? "low" : "high");
  for (int k = 0; k < kKernels; ++k) std::printf(" %u", got[k]);
  std::printf(", low");
  for (int k = 0; k < kKernels; ++k) std::printf(" %u", got[kKernels + k]);
  std::printf("\n");
  for (int k = 0; k < kKernels; ++k) {
    // In stream order within each stream; every high kernel before every low one.
    EXPECT_TRUE(got[k] == static_cast<unsigned int>(k), "high kernel %d took ticket %u", k, got[k]);
    EXPECT_TRUE(got[kKernels + k] == static_cast<unsigned int>(kKernels + k),
                "low kernel %d took ticket %u", k, got[kKernels + k]);
  }
  EXPECT_TRUE(when[kKernels - 1] <= when[kKernels], "last high kernel at %llu, first low at %llu",
              when[kKernels - 1], when[kKernels]);
  CHECK_CUDA(cudaEventDestroy(gate));
  CHECK_CUDA(cudaFree(tickets));
  CHECK_CUDA(cudaFree(stamps));
  CHECK_CUDA(cudaStreamDestroy(low));
  CHECK_CUDA(cudaStreamDestroy(high));
  CHECK_CUDA(cudaStreamDestroy(gate_stream));
}

// cudaLaunchAttributePriority: a kernel launched with the greatest priority into a
// least-priority stream runs before the queued kernels of another least-priority stream,
// and the stream's next kernel still runs after it (stream order).
void check_launch_priority_attribute(int least, int greatest) {
  constexpr int kKernels = 4;
  cudaStream_t plain, boosted, gate_stream;
  CHECK_CUDA(cudaStreamCreateWithPriority(&plain, cudaStreamNonBlocking, least));
  CHECK_CUDA(cudaStreamCreateWithPriority(&boosted, cudaStreamNonBlocking, least));
  CHECK_CUDA(cudaStreamCreateWithFlags(&gate_stream, cudaStreamNonBlocking));
  unsigned int* tickets = nullptr;
  unsigned long long* stamps = nullptr;
  CHECK_CUDA(cudaMalloc(&tickets, (kKernels + 2) * sizeof(unsigned int)));
  CHECK_CUDA(cudaMalloc(&stamps, (kKernels + 2) * sizeof(unsigned long long)));
  const unsigned int zero = 0;
  CHECK_CUDA(cudaMemcpyToSymbol(g_ticket, &zero, sizeof(zero)));
  std::atomic<bool> open{false};
  cudaEvent_t gate;
  CHECK_CUDA(cudaEventCreateWithFlags(&gate, cudaEventDisableTiming));
  CHECK_CUDA(cudaLaunchHostFunc(gate_stream, hold_gate, &open));
  CHECK_CUDA(cudaEventRecord(gate, gate_stream));
  CHECK_CUDA(cudaStreamWaitEvent(plain, gate, 0));
  CHECK_CUDA(cudaStreamWaitEvent(boosted, gate, 0));
  for (int k = 0; k < kKernels; ++k) take_ticket<<<4, 64, 0, plain>>>(tickets, k, stamps);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(64);
  config.stream = boosted;
  cudaLaunchAttribute attribute;
  attribute.id = cudaLaunchAttributePriority;
  attribute.val.priority = greatest;
  config.attrs = &attribute;
  config.numAttrs = 1;
  CHECK_CUDA(cudaLaunchKernelEx(&config, take_ticket, tickets, kKernels, stamps));
  take_ticket<<<4, 64, 0, boosted>>>(tickets, kKernels + 1, stamps);
  int priority = 12345;
  CHECK_CUDA(cudaStreamGetPriority(boosted, &priority));
  EXPECT_TRUE(priority == least, "the attribute changed the stream's priority to %d", priority);
  open.store(true);
  CHECK_CUDA(cudaDeviceSynchronize());
  unsigned int got[kKernels + 2];
  CHECK_CUDA(cudaMemcpy(got, tickets, sizeof(got), cudaMemcpyDeviceToHost));
  std::printf("launch priority attribute: boosted kernel ticket %u, then %u; plain", got[kKernels],
              got[kKernels + 1]);
  for (int k = 0; k < kKernels; ++k) std::printf(" %u", got[k]);
  std::printf("\n");
  EXPECT_TRUE(got[kKernels] == 0, "the boosted kernel took ticket %u", got[kKernels]);
  EXPECT_TRUE(got[kKernels + 1] > got[kKernels], "stream order: %u after %u", got[kKernels + 1],
              got[kKernels]);
  for (int k = 1; k < kKernels; ++k) {
    EXPECT_TRUE(got[k] > got[k - 1], "plain stream order: %u after %u", got[k], got[k - 1]);
  }
  CHECK_CUDA(cudaEventDestroy(gate));
  CHECK_CUDA(cudaFree(tickets));
  CHECK_CUDA(cudaFree(stamps));
  CHECK_CUDA(cudaStreamDestroy(plain));
  CHECK_CUDA(cudaStreamDestroy(boosted));
  CHECK_CUDA(cudaStreamDestroy(gate_stream));
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
  } else {
    // The least priority is the default, 0; there is more than one level.
    EXPECT_TRUE(least == 0 && greatest < least, "priorities supported, range [%d, %d]", greatest,
                least);
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

  if (supported) {
    check_high_priority_runs_first(least, greatest, /*low_first=*/true);
    check_high_priority_runs_first(least, greatest, /*low_first=*/false);
    check_launch_priority_attribute(least, greatest);
  }
  std::printf("PASS stream_priorities\n");
  return 0;
}
