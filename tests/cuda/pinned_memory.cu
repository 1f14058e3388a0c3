// Pinned, mapped and registered host memory, with the rules of the CUDA Runtime API
// reference (cuda_runtime_api.h): cudaSetDeviceFlags/cudaGetDeviceFlags,
// cudaMallocHost/cudaHostAlloc/cudaFreeHost, cudaHostGetDevicePointer, cudaHostGetFlags
// and cudaHostRegister/cudaHostUnregister. Kernels write mapped host memory through the
// pointer from cudaHostGetDevicePointer and, with unified addressing, through the host
// pointer itself; registered memory takes part in cudaMemcpyAsync and kernels. Every
// documented error case is checked. Expected values are computed on the host.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

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

__global__ void scale(const int* in, int* out, int n, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

static void check_fill(const int* data, int n, int base, const char* what) {
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(data[i] == base + 3 * i, "%s[%d] = %d, expected %d", what, i, data[i],
                base + 3 * i);
  }
}

static void device_flags() {
  // Valid schedule flags, alone and with cudaDeviceMapHost / cudaDeviceLmemResizeToMax.
  CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleBlockingSync | cudaDeviceMapHost));
  unsigned int flags = 0;
  CHECK_CUDA(cudaGetDeviceFlags(&flags));
  EXPECT_TRUE((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleBlockingSync,
              "flags %#x lack cudaDeviceScheduleBlockingSync", flags);
  EXPECT_TRUE((flags & cudaDeviceMapHost) != 0, "flags %#x lack cudaDeviceMapHost", flags);
  CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleYield | cudaDeviceLmemResizeToMax));
  CHECK_CUDA(cudaGetDeviceFlags(&flags));
  EXPECT_TRUE((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleYield,
              "flags %#x lack cudaDeviceScheduleYield", flags);
  CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleSpin));
  CHECK_CUDA(cudaGetDeviceFlags(&flags));
  EXPECT_TRUE((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleSpin,
              "flags %#x lack cudaDeviceScheduleSpin", flags);
  CHECK_CUDA(cudaSetDeviceFlags(cudaDeviceScheduleAuto));
  CHECK_CUDA(cudaGetDeviceFlags(&flags));
  EXPECT_TRUE((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleAuto,
              "flags %#x lack cudaDeviceScheduleAuto", flags);

  // Two schedule policies at once, or bits outside cudaDeviceMask: cudaErrorInvalidValue.
  EXPECT_ERROR(cudaSetDeviceFlags(cudaDeviceScheduleSpin | cudaDeviceScheduleYield),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaSetDeviceFlags(cudaDeviceScheduleYield | cudaDeviceScheduleBlockingSync),
               cudaErrorInvalidValue);
  EXPECT_ERROR(cudaSetDeviceFlags(cudaDeviceMask + 1), cudaErrorInvalidValue);
  // The failed calls left the flags alone.
  CHECK_CUDA(cudaGetDeviceFlags(&flags));
  EXPECT_TRUE((flags & cudaDeviceScheduleMask) == cudaDeviceScheduleAuto,
              "flags %#x changed by a failed cudaSetDeviceFlags", flags);
}

static void pinned_allocations(cudaStream_t stream) {
  constexpr int n = 5000;
  constexpr size_t bytes = n * sizeof(int);

  // cudaMallocHost memory is pinned: host writes, DMA to the device, a kernel, DMA back
  // into cudaHostAlloc(Default) memory.
  int* in = nullptr;
  int* out = nullptr;
  int* dev = nullptr;
  CHECK_CUDA(cudaMallocHost(reinterpret_cast<void**>(&in), bytes));
  EXPECT_TRUE(in != nullptr, "cudaMallocHost returned null");
  CHECK_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&out), bytes, cudaHostAllocDefault));
  EXPECT_TRUE(out != nullptr, "cudaHostAlloc returned null");
  CHECK_CUDA(cudaMalloc(&dev, bytes));
  for (int i = 0; i < n; ++i) in[i] = i - 77;
  CHECK_CUDA(cudaMemcpyAsync(dev, in, bytes, cudaMemcpyHostToDevice, stream));
  scale<<<(n + 255) / 256, 256, 0, stream>>>(dev, dev, n, 5);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpyAsync(out, dev, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(out[i] == (i - 77) * 5, "out[%d] = %d, expected %d", i, out[i], (i - 77) * 5);
  }
  unsigned int flags = 0;
  CHECK_CUDA(cudaHostGetFlags(&flags, in));

  // Mapped memory: a kernel writes it through the device pointer, and (unified
  // addressing) through the host pointer itself.
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  EXPECT_TRUE(prop.canMapHostMemory == 1, "canMapHostMemory is %d", prop.canMapHostMemory);
  int* mapped = nullptr;
  CHECK_CUDA(cudaHostAlloc(reinterpret_cast<void**>(&mapped), bytes, cudaHostAllocMapped));
  CHECK_CUDA(cudaHostGetFlags(&flags, mapped));
  EXPECT_TRUE((flags & cudaHostAllocMapped) != 0, "mapped allocation has flags %#x", flags);
  int* mapped_dev = nullptr;
  CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&mapped_dev), mapped, 0));
  EXPECT_TRUE(mapped_dev != nullptr, "cudaHostGetDevicePointer returned null");
  std::memset(mapped, 0, bytes);
  fill<<<(n + 127) / 128, 128>>>(mapped_dev, n, 1000);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  check_fill(mapped, n, 1000, "mapped (device pointer)");
  // An interior host pointer maps to the same offset of the device pointer.
  int* interior = nullptr;
  CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&interior), mapped + 10, 0));
  EXPECT_TRUE(interior == mapped_dev + 10, "interior device pointer %p, expected %p",
              static_cast<void*>(interior), static_cast<void*>(mapped_dev + 10));
  if (prop.unifiedAddressing) {
    fill<<<(n + 127) / 128, 128>>>(mapped, n, -500);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    check_fill(mapped, n, -500, "mapped (host pointer)");
  }

  // Every cudaHostAlloc flag together; the flags come back from cudaHostGetFlags.
  void* all = nullptr;
  const unsigned int all_flags =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  CHECK_CUDA(cudaHostAlloc(&all, 4096, all_flags));
  CHECK_CUDA(cudaHostGetFlags(&flags, all));
  EXPECT_TRUE((flags & all_flags) == all_flags, "flags %#x, expected %#x set", flags, all_flags);
  CHECK_CUDA(cudaFreeHost(all));

  // Error cases.
  void* unused = nullptr;
  EXPECT_ERROR(cudaHostAlloc(&unused, 4096, 0x8), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaHostAlloc(&unused, 4096, 0x80000000u), cudaErrorInvalidValue);
  void* dummy = nullptr;
  EXPECT_ERROR(cudaHostGetDevicePointer(&dummy, mapped, 1), cudaErrorInvalidValue);
  int* pageable = static_cast<int*>(std::malloc(bytes));
  EXPECT_ERROR(cudaHostGetDevicePointer(&dummy, pageable, 0), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaHostGetFlags(&flags, pageable), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaFreeHost(pageable), cudaErrorInvalidValue);
  std::free(pageable);
  CHECK_CUDA(cudaFreeHost(nullptr));  // a null pointer is a no-op

  CHECK_CUDA(cudaFree(dev));
  CHECK_CUDA(cudaFreeHost(in));
  CHECK_CUDA(cudaFreeHost(out));
  CHECK_CUDA(cudaFreeHost(mapped));
}

static void registered_memory(cudaStream_t stream) {
  constexpr size_t page = 4096;
  constexpr int n = 16 * 1024;  // 64 KiB: whole pages, so no page is shared
  constexpr size_t bytes = n * sizeof(int);
  int value = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&value, cudaDevAttrHostRegisterSupported, 0));
  EXPECT_TRUE(value == 1, "cudaDevAttrHostRegisterSupported is %d", value);

  int* src = static_cast<int*>(std::aligned_alloc(page, bytes));
  int* dst = static_cast<int*>(std::aligned_alloc(page, bytes));
  for (int i = 0; i < n; ++i) src[i] = 7 * i + 1;
  std::memset(dst, 0, bytes);
  CHECK_CUDA(cudaHostRegister(src, bytes, cudaHostRegisterDefault));
  CHECK_CUDA(cudaHostRegister(dst, bytes, cudaHostRegisterMapped | cudaHostRegisterPortable));

  // Registering any part of a registered range again fails.
  EXPECT_ERROR(cudaHostRegister(src, bytes, cudaHostRegisterDefault),
               cudaErrorHostMemoryAlreadyRegistered);
  EXPECT_ERROR(cudaHostRegister(reinterpret_cast<char*>(src) + page, page, 0),
               cudaErrorHostMemoryAlreadyRegistered);

  // Stream-ordered copies from and to registered memory around a kernel.
  int* dev = nullptr;
  CHECK_CUDA(cudaMalloc(&dev, bytes));
  CHECK_CUDA(cudaMemcpyAsync(dev, src, bytes, cudaMemcpyHostToDevice, stream));
  scale<<<n / 256, 256, 0, stream>>>(dev, dev, n, -2);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpyAsync(dst, dev, bytes, cudaMemcpyDeviceToHost, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(dst[i] == (7 * i + 1) * -2, "dst[%d] = %d, expected %d", i, dst[i],
                (7 * i + 1) * -2);
  }

  // A kernel reads and writes registered memory through the device pointer...
  int* dst_dev = nullptr;
  CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&dst_dev), dst, 0));
  fill<<<n / 256, 256>>>(dst_dev, n, 42);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  check_fill(dst, n, 42, "registered (device pointer)");
  // ...and, where the device can use the host pointer, through the host pointer.
  CHECK_CUDA(cudaDeviceGetAttribute(&value, cudaDevAttrCanUseHostPointerForRegisteredMem, 0));
  if (value) {
    scale<<<n / 256, 256>>>(src, dst, n, 3);
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaDeviceSynchronize());
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(dst[i] == (7 * i + 1) * 3, "dst[%d] = %d, expected %d", i, dst[i],
                  (7 * i + 1) * 3);
    }
  }

  // Invalid registrations.
  EXPECT_ERROR(cudaHostRegister(nullptr, bytes, 0), cudaErrorInvalidValue);
  void* other = std::aligned_alloc(page, 4 * page);
  EXPECT_ERROR(cudaHostRegister(other, 0, 0), cudaErrorInvalidValue);
  EXPECT_ERROR(cudaHostRegister(other, 4 * page, 0x100), cudaErrorInvalidValue);
  // cudaHostRegisterReadOnly needs cudaDevAttrHostRegisterReadOnlySupported.
  CHECK_CUDA(cudaDeviceGetAttribute(&value, cudaDevAttrHostRegisterReadOnlySupported, 0));
  if (value) {
    CHECK_CUDA(cudaHostRegister(other, 4 * page, cudaHostRegisterReadOnly));
    CHECK_CUDA(cudaHostUnregister(other));
  } else {
    EXPECT_ERROR(cudaHostRegister(other, 4 * page, cudaHostRegisterReadOnly),
                 cudaErrorNotSupported);
  }
  // Unregistering memory that is not registered.
  EXPECT_ERROR(cudaHostUnregister(other), cudaErrorHostMemoryNotRegistered);

  CHECK_CUDA(cudaFree(dev));
  CHECK_CUDA(cudaHostUnregister(src));
  CHECK_CUDA(cudaHostUnregister(dst));
  EXPECT_ERROR(cudaHostUnregister(src), cudaErrorHostMemoryNotRegistered);
  // Unregistered memory may be registered again.
  CHECK_CUDA(cudaHostRegister(src, bytes, 0));
  CHECK_CUDA(cudaHostUnregister(src));
  std::free(other);
  std::free(src);
  std::free(dst);
}

int main() {
  device_flags();
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  pinned_allocations(stream);
  registered_memory(stream);
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaGetLastError());
  std::printf("PASS pinned_memory\n");
  return 0;
}
