// cudaPointerGetAttributes and cuPointerGetAttribute(s) for every kind of pointer.
// Expectations come from the CUDA 13 Runtime/Driver API reference:
//  - cudaPointerAttributes: type Device/Host/Managed/Unregistered; device is the device
//    the memory was allocated on (or current at allocation); devicePointer is the alias
//    usable on the current device, hostPointer the alias usable on the host, NULL if none.
//  - CUDA 11+: a host pointer CUDA does not know gives cudaSuccess and
//    cudaMemoryTypeUnregistered; hostPointer then holds the pointer itself.
//  - cuPointerGetAttribute: CUDA_ERROR_INVALID_VALUE for a pointer not allocated, mapped
//    or registered (CONTEXT, MEMORY_TYPE, ...); cuPointerGetAttributes instead returns
//    CUDA_SUCCESS with NULL/0 values. RANGE_START_ADDR/RANGE_SIZE describe the
//    allocation containing the pointer.
#include <cuda.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>

#include "test_check.h"

#define CHECK_CU(call)                                               \
  do {                                                               \
    CUresult check_cu_result_ = (call);                              \
    EXPECT_TRUE(check_cu_result_ == CUDA_SUCCESS, "%s -> %d", #call, \
                static_cast<int>(check_cu_result_));                 \
  } while (0)

namespace {

char* offset(void* p, size_t bytes) {
  return static_cast<char*>(p) + bytes;
}

cudaPointerAttributes attributes_of(const void* p) {
  cudaPointerAttributes a;
  CHECK_CUDA(cudaPointerGetAttributes(&a, p));
  return a;
}

void expect_device(void* base, size_t size, int device) {
  for (size_t at : {size_t{0}, size / 2, size - 1}) {
    void* p = offset(base, at);
    cudaPointerAttributes a = attributes_of(p);
    EXPECT_TRUE(a.type == cudaMemoryTypeDevice, "type %d", a.type);
    EXPECT_TRUE(a.device == device, "device %d", a.device);
    EXPECT_TRUE(a.devicePointer == p, "devicePointer %p != %p", a.devicePointer, p);
    EXPECT_TRUE(a.hostPointer == nullptr, "hostPointer %p", a.hostPointer);
  }
  // Driver view: the containing allocation starts at base and holds at least size bytes.
  CUdeviceptr start = 0;
  size_t range = 0;
  unsigned int type = 0;
  CHECK_CU(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR,
                                 reinterpret_cast<CUdeviceptr>(offset(base, size / 2))));
  CHECK_CU(cuPointerGetAttribute(&range, CU_POINTER_ATTRIBUTE_RANGE_SIZE,
                                 reinterpret_cast<CUdeviceptr>(offset(base, size - 1))));
  CHECK_CU(cuPointerGetAttribute(&type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 reinterpret_cast<CUdeviceptr>(base)));
  EXPECT_TRUE(type == CU_MEMORYTYPE_DEVICE, "driver memory type %u", type);
  EXPECT_TRUE(start <= reinterpret_cast<CUdeviceptr>(base) &&
                  start + range >= reinterpret_cast<CUdeviceptr>(base) + size,
              "range [%llx, +%zu) does not hold the allocation", (unsigned long long)start, range);
}

void expect_host(void* base, size_t size, int device, cudaMemoryType type) {
  for (size_t at : {size_t{0}, size / 2, size - 1}) {
    void* p = offset(base, at);
    cudaPointerAttributes a = attributes_of(p);
    EXPECT_TRUE(a.type == type, "type %d, expected %d", a.type, type);
    EXPECT_TRUE(a.device == device, "device %d", a.device);
    EXPECT_TRUE(a.hostPointer == p, "hostPointer %p != %p", a.hostPointer, p);
    if (type == cudaMemoryTypeHost) {
      void* mapped = nullptr;  // the device alias, as cudaHostGetDevicePointer gives it
      CHECK_CUDA(cudaHostGetDevicePointer(&mapped, base, 0));
      EXPECT_TRUE(a.devicePointer == offset(mapped, at), "devicePointer %p", a.devicePointer);
    } else {
      EXPECT_TRUE(a.devicePointer != nullptr, "managed memory has no device alias");
    }
  }
  unsigned int driver_type = 0;
  void* host = nullptr;
  CHECK_CU(cuPointerGetAttribute(&driver_type, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                 reinterpret_cast<CUdeviceptr>(base)));
  CHECK_CU(cuPointerGetAttribute(&host, CU_POINTER_ATTRIBUTE_HOST_POINTER,
                                 reinterpret_cast<CUdeviceptr>(offset(base, 1))));
  if (type == cudaMemoryTypeHost) {
    EXPECT_TRUE(driver_type == CU_MEMORYTYPE_HOST, "driver memory type %u", driver_type);
  }
  EXPECT_TRUE(host == offset(base, 1), "driver host pointer %p", host);
}

}  // namespace

int main() {
  int device = 0;
  CHECK_CUDA(cudaGetDevice(&device));
  constexpr size_t kBytes = 4096 + 24;

  // Device memory: cudaMalloc, pitched, stream-ordered pool allocations.
  void* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, kBytes));
  expect_device(d, kBytes, device);
  void* pitched = nullptr;
  size_t pitch = 0;
  CHECK_CUDA(cudaMallocPitch(&pitched, &pitch, 100, 7));
  expect_device(pitched, pitch * 7, device);
  void* pooled = nullptr;
  CHECK_CUDA(cudaMallocAsync(&pooled, kBytes, 0));
  CHECK_CUDA(cudaStreamSynchronize(0));
  expect_device(pooled, kBytes, device);

  // Driver: context and ordinal of device memory; MAPPED and IS_MANAGED booleans.
  CUcontext current = nullptr, owner = nullptr;
  CHECK_CU(cuCtxGetCurrent(&current));
  CHECK_CU(cuPointerGetAttribute(&owner, CU_POINTER_ATTRIBUTE_CONTEXT,
                                 reinterpret_cast<CUdeviceptr>(d)));
  EXPECT_TRUE(owner == current, "context %p != current %p", owner, current);
  int ordinal = -1;
  CHECK_CU(cuPointerGetAttribute(&ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
                                 reinterpret_cast<CUdeviceptr>(d)));
  EXPECT_TRUE(ordinal == device, "ordinal %d", ordinal);
  bool managed = true;
  CHECK_CU(cuPointerGetAttribute(&managed, CU_POINTER_ATTRIBUTE_IS_MANAGED,
                                 reinterpret_cast<CUdeviceptr>(d)));
  EXPECT_TRUE(!managed, "device memory reported managed");
  bool mapped = false;
  CHECK_CU(cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MAPPED,
                                 reinterpret_cast<CUdeviceptr>(d)));
  EXPECT_TRUE(mapped, "device memory not mapped");
  void* no_host = &current;
  EXPECT_TRUE(cuPointerGetAttribute(&no_host, CU_POINTER_ATTRIBUTE_HOST_POINTER,
                                    reinterpret_cast<CUdeviceptr>(d)) == CUDA_ERROR_INVALID_VALUE,
              "device memory has a host alias");

  // Pinned host memory, mapped or not; registered host memory; managed memory.
  void* pinned = nullptr;
  CHECK_CUDA(cudaMallocHost(&pinned, kBytes));
  expect_host(pinned, kBytes, device, cudaMemoryTypeHost);
  void* pinned_mapped = nullptr;
  CHECK_CUDA(cudaHostAlloc(&pinned_mapped, kBytes, cudaHostAllocMapped));
  expect_host(pinned_mapped, kBytes, device, cudaMemoryTypeHost);
  void* plain = std::malloc(3 * kBytes);
  EXPECT_TRUE(plain != nullptr, "malloc");
  void* registered = offset(plain, 8);
  CHECK_CUDA(cudaHostRegister(registered, kBytes, cudaHostRegisterDefault));
  expect_host(registered, kBytes, device, cudaMemoryTypeHost);
  void* um = nullptr;
  CHECK_CUDA(cudaMallocManaged(&um, kBytes));
  expect_host(um, kBytes, device, cudaMemoryTypeManaged);

  // Ordinary host memory and NULL: cudaSuccess, cudaMemoryTypeUnregistered.
  // Without pageable memory access the device cannot dereference it: no device alias.
  int pageable_access = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&pageable_access, cudaDevAttrPageableMemoryAccess, device));
  void* unregistered = offset(plain, 2 * kBytes + 64);
  for (void* p : {unregistered, static_cast<void*>(nullptr)}) {
    cudaPointerAttributes a = attributes_of(p);
    EXPECT_TRUE(a.type == cudaMemoryTypeUnregistered, "type %d for %p", a.type, p);
    EXPECT_TRUE(pageable_access || a.devicePointer == nullptr, "devicePointer %p for %p",
                a.devicePointer, p);
  }
  EXPECT_TRUE(attributes_of(unregistered).hostPointer == unregistered, "unregistered hostPointer");
  CUcontext none = current;
  EXPECT_TRUE(cuPointerGetAttribute(&none, CU_POINTER_ATTRIBUTE_CONTEXT,
                                    reinterpret_cast<CUdeviceptr>(unregistered)) ==
                  CUDA_ERROR_INVALID_VALUE,
              "unregistered memory has a context");
  EXPECT_TRUE(cuPointerGetAttribute(&mapped, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                    reinterpret_cast<CUdeviceptr>(unregistered)) ==
                  CUDA_ERROR_INVALID_VALUE,
              "unregistered memory has a memory type");
  // cuPointerGetAttributes: no error, NULL/0 values for an unknown pointer.
  CUpointer_attribute keys[] = {CU_POINTER_ATTRIBUTE_CONTEXT, CU_POINTER_ATTRIBUTE_MEMORY_TYPE,
                                CU_POINTER_ATTRIBUTE_DEVICE_POINTER};
  CUcontext ctx_value = current;
  unsigned int type_value = 7;
  CUdeviceptr dptr_value = 1;
  void* values[] = {&ctx_value, &type_value, &dptr_value};
  CHECK_CU(cuPointerGetAttributes(3, keys, values, reinterpret_cast<CUdeviceptr>(unregistered)));
  EXPECT_TRUE(ctx_value == nullptr && type_value == 0 && dptr_value == 0, "defaults %p %u %llx",
              ctx_value, type_value, (unsigned long long)dptr_value);
  CHECK_CU(cuPointerGetAttributes(3, keys, values, reinterpret_cast<CUdeviceptr>(d)));
  EXPECT_TRUE(ctx_value == current && type_value == CU_MEMORYTYPE_DEVICE &&
                  dptr_value == reinterpret_cast<CUdeviceptr>(d),
              "device values %p %u", ctx_value, type_value);
  EXPECT_TRUE(cudaPointerGetAttributes(nullptr, d) == cudaErrorInvalidValue,
              "null attributes accepted");
  cudaGetLastError();

  CHECK_CUDA(cudaFree(um));
  CHECK_CUDA(cudaHostUnregister(registered));
  std::free(plain);
  CHECK_CUDA(cudaFreeHost(pinned_mapped));
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFreeAsync(pooled, 0));
  CHECK_CUDA(cudaFree(pitched));
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaDeviceSynchronize());
  std::printf("PASS pointer_attributes\n");
  return 0;
}
