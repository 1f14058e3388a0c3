// cudaDeviceSetLimit / cudaDeviceGetLimit for every cudaLimit, with the defaults and rules
// of the CUDA Driver API reference (cuCtxSetLimit): the malloc heap (8 MiB by default),
// the device runtime's pending launch count (2048) and sync depth (2, at most 24, below
// compute capability 9.0), the L2 hints (fetch granularity 0..128 bytes, persisting size
// up to cudaDevAttrMaxPersistingL2CacheSize), unknown limits (cudaErrorUnsupportedLimit),
// and the stack size: the driver raises it for a kernel that needs more, and a deep
// recursion runs after raising it.
#include <cstdio>

#include "test_check.h"

// depth(n) = (depth(n - 1) * 31 + n) % 1000003, recursing n levels (not a tail or
// accumulator recursion, so it stays a recursion); `pad` keeps every frame non-trivial.
__device__ int depth_hash(int n, volatile int* pad) {
  if (n == 0) return 0;
  int local[4];
  for (int i = 0; i < 4; ++i) local[i] = n + i + pad[i];
  int below = depth_hash(n - 1, pad);
  return (below * 31 + local[0] - pad[0]) % 1000003;
}

__global__ void deep_recursion(int n, int* pad, int* out) {
  out[threadIdx.x] = depth_hash(n + threadIdx.x % 2, pad);
}

// An 8 KiB local array: the kernel's known stack frame is larger than the default stack.
__global__ void big_frame(int* out) {
  volatile int buf[2048];
  for (int i = 0; i < 2048; ++i) buf[i] = threadIdx.x + i;
  int sum = 0;
  for (int i = 0; i < 2048; i += 256) sum += buf[i];
  out[threadIdx.x] = sum;
}

int main() {
  size_t value = 0;

  // Defaults documented by CUDA.
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize));
  EXPECT_TRUE(value == 8u << 20, "default malloc heap %zu", value);
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitDevRuntimePendingLaunchCount));
  EXPECT_TRUE(value == 2048, "default pending launch count %zu", value);
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitStackSize));
  EXPECT_TRUE(value > 0, "default stack size %zu", value);
  const size_t default_stack = value;
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitPrintfFifoSize));
  EXPECT_TRUE(value > 0, "default printf FIFO %zu", value);

  int major = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0));
  if (major < 9) {
    CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth));
    EXPECT_TRUE(value == 2, "default sync depth %zu", value);
    CHECK_CUDA(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4));
    CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitDevRuntimeSyncDepth));
    EXPECT_TRUE(value == 4, "sync depth %zu after setting 4", value);
  } else {
    EXPECT_TRUE(cudaDeviceSetLimit(cudaLimitDevRuntimeSyncDepth, 4) == cudaErrorUnsupportedLimit,
                "sync depth must be unsupported at compute capability %d", major);
    (void)cudaGetLastError();
  }

  // Set and read back.
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 32u << 20));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitMallocHeapSize));
  EXPECT_TRUE(value >= 32u << 20, "malloc heap %zu after setting 32 MiB", value);
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitDevRuntimePendingLaunchCount, 4096));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitDevRuntimePendingLaunchCount));
  EXPECT_TRUE(value == 4096, "pending launch count %zu after setting 4096", value);
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitPrintfFifoSize, 2u << 20));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitPrintfFifoSize));
  EXPECT_TRUE(value >= 2u << 20, "printf FIFO %zu after setting 2 MiB", value);

  // L2 hints: accepted, reported within their documented ranges.
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitMaxL2FetchGranularity, 32));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitMaxL2FetchGranularity));
  EXPECT_TRUE(value <= 128, "L2 fetch granularity %zu", value);
  int persisting_max = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&persisting_max, cudaDevAttrMaxPersistingL2CacheSize, 0));
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, 0));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitPersistingL2CacheSize));
  EXPECT_TRUE(value == 0, "persisting L2 %zu after setting 0", value);
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitPersistingL2CacheSize, persisting_max));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitPersistingL2CacheSize));
  EXPECT_TRUE(value <= static_cast<size_t>(persisting_max),
              "persisting L2 %zu above the maximum %d", value, persisting_max);

  // Invalid requests.
  cudaError_t e = cudaDeviceSetLimit(static_cast<cudaLimit>(0x7f), 1);
  EXPECT_TRUE(e == cudaErrorUnsupportedLimit, "unknown limit: %s", cudaGetErrorName(e));
  e = cudaDeviceGetLimit(&value, static_cast<cudaLimit>(0x7f));
  EXPECT_TRUE(e == cudaErrorUnsupportedLimit, "unknown limit: %s", cudaGetErrorName(e));
  e = cudaDeviceGetLimit(nullptr, cudaLimitStackSize);
  EXPECT_TRUE(e == cudaErrorInvalidValue, "null value: %s", cudaGetErrorName(e));
  (void)cudaGetLastError();        // reads and resets the last of these errors
  CHECK_CUDA(cudaGetLastError());  // none of them is sticky

  int* out;
  int* pad;
  CHECK_CUDA(cudaMalloc(&out, 64 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&pad, 4 * sizeof(int)));
  CHECK_CUDA(cudaMemset(pad, 0, 4 * sizeof(int)));

  // A kernel whose known frame needs more than the default stack: the driver raises the
  // limit for the launch and keeps the raised value.
  big_frame<<<1, 32>>>(out);
  CHECK_CUDA(cudaDeviceSynchronize());
  int host[64];
  CHECK_CUDA(cudaMemcpy(host, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    int expect = 0;
    for (int i = 0; i < 2048; i += 256) expect += t + i;
    EXPECT_TRUE(host[t] == expect, "big frame thread %d: %d, expected %d", t, host[t], expect);
  }
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitStackSize));
  EXPECT_TRUE(value >= 8192 && value >= default_stack, "stack size %zu after an 8 KiB frame",
              value);

  // Deep recursion after raising the stack: 2000 levels.
  CHECK_CUDA(cudaDeviceSetLimit(cudaLimitStackSize, 128u << 10));
  CHECK_CUDA(cudaDeviceGetLimit(&value, cudaLimitStackSize));
  EXPECT_TRUE(value >= 128u << 10, "stack size %zu after setting 128 KiB", value);
  const int n = 2000;
  deep_recursion<<<1, 32>>>(n, pad, out);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK_CUDA(cudaMemcpy(host, out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 32; ++t) {
    int expect = 0;
    for (int k = 1; k <= n + t % 2; ++k) expect = (expect * 31 + k) % 1000003;
    EXPECT_TRUE(host[t] == expect, "recursion thread %d: %d, expected %d", t, host[t], expect);
  }

  std::printf("PASS limits\n");
  return 0;
}
