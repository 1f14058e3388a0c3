// Device-side malloc/free (CUDA Programming Guide, "Dynamic Global Memory Allocation and
// Operations"): per-thread allocations that are written and read back, 16-byte aligned
// pointers, free(NULL) as a no-op, memory that survives into a later kernel until it is
// freed, concurrent allocation from many blocks, __nv_aligned_device_malloc, and NULL
// once the heap (sized with cudaDeviceSetLimit(cudaLimitMallocHeapSize)) is exhausted.
#include <cstdint>
#include <cstdio>

#include "test_check.h"

constexpr int kBlocks = 64;
constexpr int kThreads = 128;
constexpr int kCount = kBlocks * kThreads;

// Each thread allocates a small array of its own size, fills it, reads it back, and keeps
// the pointer for the next kernel. errors[t] != 0 describes what went wrong.
__global__ void allocate_and_fill(int** keep, int* errors) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int n = 1 + t % 13;
  int* p = static_cast<int*>(malloc(n * sizeof(int)));
  if (p == nullptr) {
    errors[t] = 1;
    return;
  }
  if (reinterpret_cast<uintptr_t>(p) % 16 != 0) errors[t] = 2;
  for (int i = 0; i < n; ++i) p[i] = t * 100 + i;
  for (int i = 0; i < n; ++i)
    if (p[i] != t * 100 + i) errors[t] = 3;
  free(nullptr);  // a no-op
  keep[t] = p;
}

// A later launch reads what the first one wrote (the allocation persists), checks that
// no two threads got overlapping memory, and frees it.
__global__ void check_and_free(int** keep, int* errors) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int* p = keep[t];
  if (p == nullptr) return;
  int n = 1 + t % 13;
  for (int i = 0; i < n; ++i)
    if (p[i] != t * 100 + i) errors[t] = 4;
  free(p);
}

// Allocate and free repeatedly: freed memory is reused, so a heap much smaller than the
// total allocated never runs out.
__global__ void churn(int rounds, int* errors) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < rounds; ++r) {
    char* p = static_cast<char*>(malloc(128));
    if (p == nullptr) {
      errors[t] = 5;
      return;
    }
    p[0] = static_cast<char>(r);
    p[127] = static_cast<char>(t);
    if (p[0] != static_cast<char>(r) || p[127] != static_cast<char>(t)) errors[t] = 6;
    free(p);
  }
}

__global__ void aligned(int* errors) {
  int t = threadIdx.x;
  size_t align = size_t{32} << (t % 6);  // 32 .. 1024
  char* p = static_cast<char*>(__nv_aligned_device_malloc(100, align));
  if (p == nullptr || reinterpret_cast<uintptr_t>(p) % align != 0) {
    errors[t] = 7;
    return;
  }
  for (int i = 0; i < 100; ++i) p[i] = static_cast<char>(i + t);
  for (int i = 0; i < 100; ++i)
    if (p[i] != static_cast<char>(i + t)) errors[t] = 8;
  free(p);
  // CUDA: align must be a non-zero power of two, else NULL.
  if (__nv_aligned_device_malloc(16, 48) != nullptr) errors[t] = 9;
}

// Thread 0 allocates `chunk` bytes until malloc returns NULL; reports how many succeeded.
__global__ void exhaust(size_t chunk, int limit, int* count, char** first) {
  int n = 0;
  char* last = nullptr;
  while (n < limit) {
    char* p = static_cast<char*>(malloc(chunk));
    if (p == nullptr) break;
    p[0] = 1;
    p[chunk - 1] = 2;
    if (n == 0) *first = p;
    last = p;
    ++n;
  }
  *count = n;
  if (last != nullptr) free(last);
}

int* zeroed_errors(int count) {
  int* errors;
  CHECK_CUDA(cudaMalloc(&errors, count * sizeof(int)));
  CHECK_CUDA(cudaMemset(errors, 0, count * sizeof(int)));
  return errors;
}

void expect_no_errors(const int* device_errors, int count, const char* what) {
  int* host = new int[count];
  CHECK_CUDA(cudaMemcpy(host, device_errors, count * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < count; ++t)
    EXPECT_TRUE(host[t] == 0, "%s: thread %d error %d", what, t, host[t]);
  delete[] host;
}

int main() {
  // CUDA's default heap is 8 MiB; before any kernel uses it the size may change.
  size_t heap = 0;
  CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  EXPECT_TRUE(heap == 8u << 20, "default heap size %zu", heap);
  const size_t kSmallHeap = 4u << 20;
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, kSmallHeap));
  CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  EXPECT_TRUE(heap >= kSmallHeap, "heap size %zu after setting %zu", heap, kSmallHeap);

  int** keep;
  CHECK_CUDA(cudaMalloc(&keep, kCount * sizeof(int*)));
  CHECK_CUDA(cudaMemset(keep, 0, kCount * sizeof(int*)));
  int* errors = zeroed_errors(kCount);
  allocate_and_fill<<<kBlocks, kThreads>>>(keep, errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_no_errors(errors, kCount, "allocate_and_fill");

  // Distinct, non-overlapping allocations (checked on the host).
  int** pointers = new int*[kCount];
  CHECK_CUDA(cudaMemcpy(pointers, keep, kCount * sizeof(int*), cudaMemcpyDeviceToHost));
  for (int a = 0; a < kCount; ++a) {
    uintptr_t begin = reinterpret_cast<uintptr_t>(pointers[a]);
    uintptr_t end = begin + (1 + a % 13) * sizeof(int);
    for (int b = a + 1; b < kCount; ++b) {
      uintptr_t other = reinterpret_cast<uintptr_t>(pointers[b]);
      EXPECT_TRUE(other >= end || other + (1 + b % 13) * sizeof(int) <= begin,
                  "allocations of threads %d and %d overlap", a, b);
    }
  }
  delete[] pointers;

  // Once a kernel has used the heap, its size can no longer change (CUDA returns
  // cudaErrorInvalidValue).
  EXPECT_TRUE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 16u << 20) == cudaErrorInvalidValue,
              "resizing the heap in use must fail");
  EXPECT_TRUE(cudaGetLastError() == cudaErrorInvalidValue, "the failure is the last error");
  CHECK_CUDA(cudaGetLastError());  // and it is not sticky
  CHECK_CUDA(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize));
  EXPECT_TRUE(heap >= kSmallHeap && heap < (16u << 20), "heap size changed to %zu", heap);

  check_and_free<<<kBlocks, kThreads>>>(keep, errors);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_no_errors(errors, kCount, "check_and_free");

  // 8192 threads x 40 rounds x 128 bytes = 40 MiB through a 4 MiB heap.
  churn<<<kBlocks, kThreads>>>(40, errors);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_no_errors(errors, kCount, "churn");

  aligned<<<1, 64>>>(errors);
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_no_errors(errors, 64, "aligned");

  // Exhaustion: 64 KiB chunks from a 4 MiB heap run out after at most 64: NULL.
  int* count;
  char** first;
  CHECK_CUDA(cudaMalloc(&count, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&first, sizeof(char*)));
  exhaust<<<1, 1>>>(64 << 10, 1000, count, first);
  CHECK_CUDA(cudaDeviceSynchronize());
  int got = 0;
  CHECK_CUDA(cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(got >= 1 && got <= 64, "%d allocations of 64 KiB from a 4 MiB heap", got);
  // A request larger than the whole heap fails at once.
  exhaust<<<1, 1>>>(8u << 20, 1000, count, first);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(&got, count, sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(got == 0, "an 8 MiB allocation from a 4 MiB heap succeeded %d times", got);

  std::printf("PASS device_malloc\n");
  return 0;
}
