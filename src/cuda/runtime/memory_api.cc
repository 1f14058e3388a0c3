// Device memory: cudaMalloc/Free, cudaMemcpy(+Async), cudaMemset(+Async).
// Pinned host memory: cudaMallocHost/HostAlloc/FreeHost, cudaHostGetDevicePointer/
// GetFlags, cudaHostRegister/Unregister. With unified addressing every pinned or
// registered range is mapped at its host address, so the device pointer equals the host
// pointer (the driver, src/cuda/driver/api_memory.cc, owns the tables).
#include <cstring>

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/managed_memory.h"
#include "cuda/runtime/memory_copy.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaMalloc(void** devPtr, size_t size) {
  if (devPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *devPtr = nullptr;
  if (size == 0) return cudaSuccess;
  CUdeviceptr ptr = 0;
  CUresult result = cuMemAlloc(&ptr, size);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *devPtr = reinterpret_cast<void*>(ptr);
  return cudaSuccess;
}

cudaError_t cudaFree(void* devPtr) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (devPtr == nullptr) return cudaSuccess;
  CUresult result = cuMemFree(reinterpret_cast<CUdeviceptr>(devPtr));
  if (result == CUDA_ERROR_INVALID_VALUE) return rt::record(cudaErrorInvalidDevicePointer);
  return rt::record(result);
}

// Free and total memory of the current device (cuMemGetInfo in its primary context).
cudaError_t cudaMemGetInfo(size_t* free, size_t* total) {
  if (free == nullptr || total == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemGetInfo(free, total));
}

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(rt::copy(dst, src, count, kind, nullptr, /*async=*/false));
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(rt::copy(dst, src, count, kind, stream, /*async=*/true));
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (count == 0) return cudaSuccess;
  return rt::record(cuMemsetD8(reinterpret_cast<CUdeviceptr>(devPtr),
                               static_cast<unsigned char>(value), count));
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (count == 0) return cudaSuccess;
  return rt::record(cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(devPtr),
                                    static_cast<unsigned char>(value), count, stream));
}

// cudaHostAlloc* and cudaHostRegister* flag values equal the driver's CU_MEMHOSTALLOC_*
// and CU_MEMHOSTREGISTER_* values, so flags pass through unchanged.
static_assert(cudaHostAllocPortable == CU_MEMHOSTALLOC_PORTABLE &&
              cudaHostAllocMapped == CU_MEMHOSTALLOC_DEVICEMAP &&
              cudaHostAllocWriteCombined == CU_MEMHOSTALLOC_WRITECOMBINED);
static_assert(cudaHostRegisterPortable == CU_MEMHOSTREGISTER_PORTABLE &&
              cudaHostRegisterMapped == CU_MEMHOSTREGISTER_DEVICEMAP &&
              cudaHostRegisterIoMemory == CU_MEMHOSTREGISTER_IOMEMORY &&
              cudaHostRegisterReadOnly == CU_MEMHOSTREGISTER_READ_ONLY);

cudaError_t cudaHostAlloc(void** pHost, size_t size, unsigned int flags) {
  if (pHost == nullptr) return rt::record(cudaErrorInvalidValue);
  constexpr unsigned int kKnown =
      cudaHostAllocPortable | cudaHostAllocMapped | cudaHostAllocWriteCombined;
  if ((flags & ~kKnown) != 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *pHost = nullptr;
  if (size == 0) return cudaSuccess;  // as cudaMalloc: a null pointer, no allocation
  return rt::record(cuMemHostAlloc(pHost, size, flags));
}

cudaError_t cudaMallocHost(void** ptr, size_t size) {
  return cudaHostAlloc(ptr, size, cudaHostAllocDefault);
}

cudaError_t cudaFreeHost(void* ptr) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (ptr == nullptr) return cudaSuccess;
  if (rt::is_managed(ptr)) return rt::record(cudaErrorInvalidValue);  // cudaFree frees it
  return rt::record(cuMemFreeHost(ptr));  // not from cudaHostAlloc: cudaErrorInvalidValue
}

cudaError_t cudaHostGetDevicePointer(void** pDevice, void* pHost, unsigned int flags) {
  if (pDevice == nullptr || pHost == nullptr || flags != 0) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUdeviceptr dptr = 0;
  CUresult result = cuMemHostGetDevicePointer(&dptr, pHost, 0);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pDevice = reinterpret_cast<void*>(dptr);
  return cudaSuccess;
}

cudaError_t cudaHostGetFlags(unsigned int* pFlags, void* pHost) {
  if (pFlags == nullptr || pHost == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemHostGetFlags(pFlags, pHost));
}

cudaError_t cudaHostRegister(void* ptr, size_t size, unsigned int flags) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemHostRegister(ptr, size, flags));
}

cudaError_t cudaHostUnregister(void* ptr) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuMemHostUnregister(ptr));
}

}  // extern "C"
