// Pitched device memory: cudaMallocPitch here, cudaMemcpy2D(+Async) and
// cudaMemset2D(+Async) in memory_2d_api.inc, on the driver's cuMemAllocPitch,
// cuMemcpy2D and cuMemsetD2D8 (the copy-engine path).
#include "cuda/runtime/memory_2d_api.inc"

extern "C" {

cudaError_t cudaMallocPitch(void** devPtr, size_t* pitch, size_t width, size_t height) {
  if (devPtr == nullptr || pitch == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *devPtr = nullptr;
  if (width == 0 || height == 0) {  // like cudaMalloc(0): nothing allocated
    *pitch = 0;
    return cudaSuccess;
  }
  CUdeviceptr ptr = 0;
  CUresult result = cuMemAllocPitch(&ptr, pitch, width, height, /*ElementSizeBytes=*/4);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *devPtr = reinterpret_cast<void*>(ptr);
  return cudaSuccess;
}

}  // extern "C"
