// The stream-ordered allocator, with the rules of the CUDA Runtime API reference
// (cuda_runtime_api.h) and the programming guide's stream-ordered allocator chapter:
// cudaMallocAsync/cudaFreeAsync ordered in a stream around kernels, reuse of freed
// memory by later allocations in the same stream, the default pool's release threshold
// (0: freed memory goes back at the next synchronisation), explicit pools
// (cudaMemPoolCreate/Destroy, cudaMallocFromPoolAsync, cudaDeviceSet/GetMemPool), pool
// attributes and their used/reserved counters, cudaMemPoolTrimTo, and invalid arguments.
// Expected values are computed on the host.
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

#include "test_check.h"

#define EXPECT_ERROR(call, expected)                                                              \
  do {                                                                                            \
    cudaError_t got_ = (call);                                                                    \
    EXPECT_TRUE(got_ == (expected), "%s returned %s, expected %s", #call, cudaGetErrorName(got_), \
                cudaGetErrorName(expected));                                                      \
    cudaGetLastError(); /* the expected error is not sticky; clear it */                          \
  } while (0)

__global__ void fill(int* out, int n, int base) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = base + 3 * i;
}

__global__ void add(const int* a, const int* b, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

static uint64_t attr(cudaMemPool_t pool, cudaMemPoolAttr a) {
  uint64_t v = 0;
  CHECK_CUDA(cudaMemPoolGetAttribute(pool, a, &v));
  return v;
}

constexpr int kN = 4096;
constexpr size_t kBytes = kN * sizeof(int);

// Allocate, compute and free in one stream; the results are read back in that stream.
static void alloc_kernel_free(cudaStream_t stream) {
  int *a = nullptr, *b = nullptr, *c = nullptr;
  CHECK_CUDA(cudaMallocAsync(&a, kBytes, stream));
  CHECK_CUDA(cudaMallocAsync(reinterpret_cast<void**>(&b), kBytes, stream));
  CHECK_CUDA(cudaMallocAsync(reinterpret_cast<void**>(&c), kBytes, stream));
  EXPECT_TRUE(a != nullptr && b != nullptr && c != nullptr, "null allocation");
  fill<<<kN / 256, 256, 0, stream>>>(a, kN, 1);
  fill<<<kN / 256, 256, 0, stream>>>(b, kN, 100);
  add<<<kN / 256, 256, 0, stream>>>(a, b, c, kN);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaFreeAsync(a, stream));
  CHECK_CUDA(cudaFreeAsync(b, stream));
  // Memory freed earlier in the stream may be reused by this allocation.
  int* d = nullptr;
  CHECK_CUDA(cudaMallocAsync(&d, kBytes, stream));
  fill<<<kN / 256, 256, 0, stream>>>(d, kN, 7);
  std::vector<int> host_c(kN), host_d(kN);
  CHECK_CUDA(cudaMemcpyAsync(host_c.data(), c, kBytes, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaMemcpyAsync(host_d.data(), d, kBytes, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaFreeAsync(c, stream));
  CHECK_CUDA(cudaFreeAsync(d, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < kN; ++i) {
    EXPECT_TRUE(host_c[i] == (1 + 3 * i) + (100 + 3 * i), "c[%d] = %d", i, host_c[i]);
    EXPECT_TRUE(host_d[i] == 7 + 3 * i, "d[%d] = %d", i, host_d[i]);
  }
}

static void default_pool(cudaStream_t stream) {
  cudaMemPool_t def = nullptr, cur = nullptr;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&def, 0));
  CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
  EXPECT_TRUE(def != nullptr && cur == def, "the current pool is not the default pool");
  // Defaults: release threshold 0, every reuse policy enabled.
  EXPECT_TRUE(attr(def, cudaMemPoolAttrReleaseThreshold) == 0, "threshold is not 0");
  for (cudaMemPoolAttr a :
       {cudaMemPoolReuseFollowEventDependencies, cudaMemPoolReuseAllowOpportunistic,
        cudaMemPoolReuseAllowInternalDependencies}) {
    int enabled = 0;
    CHECK_CUDA(cudaMemPoolGetAttribute(def, a, &enabled));
    EXPECT_TRUE(enabled == 1, "reuse policy %d is not enabled", static_cast<int>(a));
  }
  alloc_kernel_free(stream);
  // Threshold 0: everything freed went back at the synchronisation.
  EXPECT_TRUE(attr(def, cudaMemPoolAttrUsedMemCurrent) == 0, "used memory after all frees");
  EXPECT_TRUE(attr(def, cudaMemPoolAttrReservedMemCurrent) == 0, "reserved memory kept");
  EXPECT_TRUE(attr(def, cudaMemPoolAttrUsedMemHigh) >= 3 * kBytes, "used high watermark %llu",
              static_cast<unsigned long long>(attr(def, cudaMemPoolAttrUsedMemHigh)));
  EXPECT_TRUE(attr(def, cudaMemPoolAttrReservedMemHigh) >= 3 * kBytes, "reserved high");
  // Watermarks can be reset (to 0 only).
  uint64_t zero = 0, one = 1;
  CHECK_CUDA(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &zero));
  CHECK_CUDA(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReservedMemHigh, &zero));
  EXPECT_TRUE(attr(def, cudaMemPoolAttrUsedMemHigh) == 0, "used high not reset");
  EXPECT_TRUE(attr(def, cudaMemPoolAttrReservedMemHigh) == 0, "reserved high not reset");
  EXPECT_ERROR(cudaMemPoolSetAttribute(def, cudaMemPoolAttrUsedMemHigh, &one),
               cudaErrorInvalidValue);
}

static void explicit_pool(cudaStream_t stream) {
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof(props));
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool = nullptr;
  CHECK_CUDA(cudaMemPoolCreate(&pool, &props));
  cudaMemPool_t def = nullptr;
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&def, 0));
  EXPECT_TRUE(pool != nullptr && pool != def, "created pool is the default pool");

  uint64_t keep_all = UINT64_MAX;
  CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep_all));
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX, "threshold not set");
  int off = 0;
  CHECK_CUDA(cudaMemPoolSetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &off));
  int got = 1;
  CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &got));
  EXPECT_TRUE(got == 0, "opportunistic reuse still enabled");

  int* p = nullptr;
  CHECK_CUDA(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), kBytes, pool, stream));
  fill<<<kN / 256, 256, 0, stream>>>(p, kN, 5);
  std::vector<int> host(kN);
  CHECK_CUDA(cudaMemcpyAsync(host.data(), p, kBytes, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < kN; ++i) EXPECT_TRUE(host[i] == 5 + 3 * i, "p[%d] = %d", i, host[i]);
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= kBytes, "used < allocation");
  const uint64_t reserved = attr(pool, cudaMemPoolAttrReservedMemCurrent);
  EXPECT_TRUE(reserved >= kBytes, "reserved < allocation");
  CHECK_CUDA(cudaFreeAsync(p, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrUsedMemCurrent) == 0, "used after free");
  // The threshold keeps the freed memory in the pool ...
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrReservedMemCurrent) == reserved, "pool released memory");
  // ... and a same-sized allocation in the same stream reuses it.
  CHECK_CUDA(cudaMallocFromPoolAsync(reinterpret_cast<void**>(&p), kBytes, pool, stream));
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrReservedMemCurrent) == reserved, "pool grew on reuse");
  CHECK_CUDA(cudaFreeAsync(p, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  // Trimming releases the unused memory.
  CHECK_CUDA(cudaMemPoolTrimTo(pool, 0));
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrReservedMemCurrent) == 0, "trim kept memory");

  // As the device's current pool, it serves cudaMallocAsync.
  CHECK_CUDA(cudaDeviceSetMemPool(0, pool));
  cudaMemPool_t cur = nullptr;
  CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
  EXPECT_TRUE(cur == pool, "cudaDeviceGetMemPool did not return the set pool");
  void* q = nullptr;
  CHECK_CUDA(cudaMallocAsync(&q, kBytes, stream));
  EXPECT_TRUE(attr(pool, cudaMemPoolAttrUsedMemCurrent) >= kBytes, "not allocated from pool");
  CHECK_CUDA(cudaFreeAsync(q, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  // Destroying the current pool makes the default pool current again.
  CHECK_CUDA(cudaMemPoolDestroy(pool));
  CHECK_CUDA(cudaDeviceGetMemPool(&cur, 0));
  EXPECT_TRUE(cur == def, "the default pool is not current after destroy");
}

static void invalid_arguments(cudaStream_t stream) {
  cudaMemPool_t pool = nullptr;
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  EXPECT_ERROR(cudaDeviceGetDefaultMemPool(&pool, count), cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaDeviceGetMemPool(&pool, -1), cudaErrorInvalidDevice);
  EXPECT_ERROR(cudaMallocAsync(nullptr, 16, stream), cudaErrorInvalidValue);
  CHECK_CUDA(cudaDeviceGetDefaultMemPool(&pool, 0));
  uint64_t v = 1;
  // The current counters are read-only.
  EXPECT_ERROR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &v),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &v),
               cudaErrorInvalidValue);
  cudaMemPoolProps props;
  std::memset(&props, 0, sizeof(props));
  props.allocType = cudaMemAllocationTypeInvalid;
  props.location.type = cudaMemLocationTypeDevice;
  EXPECT_ERROR(cudaMemPoolCreate(&pool, &props), cudaErrorInvalidValue);
}

int main() {
  cudaStream_t stream = nullptr;
  CHECK_CUDA(cudaStreamCreate(&stream));
  default_pool(stream);
  alloc_kernel_free(nullptr);  // the legacy default stream
  explicit_pool(stream);
  invalid_arguments(stream);
  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("PASS mem_pools\n");
  return 0;
}
