// 3D memory: cudaMalloc3D here; the array and 3D copies and cudaMemset3D in
// memory_3d_api.inc, on the driver's cuMemAllocPitch, cuMemcpy2D/3D*, cuMemcpy*A* and
// cuMemsetD2D8 (the copy-engine path).
#include "cuda/runtime/memory_3d_api.inc"

extern "C" {

cudaError_t cudaMalloc3D(cudaPitchedPtr* pitchedDevPtr, cudaExtent extent) {
  if (pitchedDevPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *pitchedDevPtr = {};
  pitchedDevPtr->xsize = extent.width;
  pitchedDevPtr->ysize = extent.height;
  if (extent.width == 0 || extent.height == 0 || extent.depth == 0) return cudaSuccess;
  CUdeviceptr ptr = 0;
  size_t pitch = 0;
  CUresult result = cuMemAllocPitch(&ptr, &pitch, extent.width, extent.height * extent.depth,
                                    /*ElementSizeBytes=*/4);
  if (result != CUDA_SUCCESS) return rt::record(result);
  pitchedDevPtr->ptr = reinterpret_cast<void*>(ptr);
  pitchedDevPtr->pitch = pitch;
  return cudaSuccess;
}

}  // extern "C"
