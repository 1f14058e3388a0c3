// Device memory: cudaMalloc/Free, cudaMemcpy(+Async), cudaMemset(+Async).
#include <cstring>

#include "cuda/runtime/api_common.h"
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

}  // extern "C"
