// CUDA arrays and mipmapped arrays (cudaMallocArray, cudaMalloc3DArray,
// cudaMallocMipmappedArray, ...) and channel descriptors, on the driver's cuArray* and
// cuMipmappedArray* entry points. The runtime's array flags (cudaArrayLayered, ...)
// have the driver's CUDA_ARRAY3D_* values and pass through unchanged.
#include "cuda/runtime/array_api.h"

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/error_map.h"

namespace rt = strata::cuda::runtime;

namespace strata::cuda::runtime {

cudaError_t to_array_format(const cudaChannelFormatDesc& desc, CUarray_format* format,
                            unsigned int* channels) {
  const int bits = desc.x;
  unsigned int n = 0;
  if (desc.x > 0 && desc.y == 0 && desc.z == 0 && desc.w == 0) {
    n = 1;
  } else if (desc.x > 0 && desc.y == bits && desc.z == 0 && desc.w == 0) {
    n = 2;
  } else if (desc.x > 0 && desc.y == bits && desc.z == bits && desc.w == bits) {
    n = 4;
  } else {
    return cudaErrorInvalidChannelDescriptor;
  }
  switch (desc.f) {
    case cudaChannelFormatKindSigned:
      if (bits == 8)
        *format = CU_AD_FORMAT_SIGNED_INT8;
      else if (bits == 16)
        *format = CU_AD_FORMAT_SIGNED_INT16;
      else if (bits == 32)
        *format = CU_AD_FORMAT_SIGNED_INT32;
      else
        return cudaErrorInvalidChannelDescriptor;
      break;
    case cudaChannelFormatKindUnsigned:
      if (bits == 8)
        *format = CU_AD_FORMAT_UNSIGNED_INT8;
      else if (bits == 16)
        *format = CU_AD_FORMAT_UNSIGNED_INT16;
      else if (bits == 32)
        *format = CU_AD_FORMAT_UNSIGNED_INT32;
      else
        return cudaErrorInvalidChannelDescriptor;
      break;
    case cudaChannelFormatKindFloat:
      if (bits == 16)
        *format = CU_AD_FORMAT_HALF;
      else if (bits == 32)
        *format = CU_AD_FORMAT_FLOAT;
      else
        return cudaErrorInvalidChannelDescriptor;
      break;
    default:
      return cudaErrorInvalidChannelDescriptor;
  }
  *channels = n;
  return cudaSuccess;
}

cudaChannelFormatDesc to_channel_desc(CUarray_format format, unsigned int channels) {
  int bits = 0;
  cudaChannelFormatKind kind = cudaChannelFormatKindNone;
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
      bits = 8;
      kind = cudaChannelFormatKindUnsigned;
      break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
      bits = 16;
      kind = cudaChannelFormatKindUnsigned;
      break;
    case CU_AD_FORMAT_UNSIGNED_INT32:
      bits = 32;
      kind = cudaChannelFormatKindUnsigned;
      break;
    case CU_AD_FORMAT_SIGNED_INT8:
      bits = 8;
      kind = cudaChannelFormatKindSigned;
      break;
    case CU_AD_FORMAT_SIGNED_INT16:
      bits = 16;
      kind = cudaChannelFormatKindSigned;
      break;
    case CU_AD_FORMAT_SIGNED_INT32:
      bits = 32;
      kind = cudaChannelFormatKindSigned;
      break;
    case CU_AD_FORMAT_HALF:
      bits = 16;
      kind = cudaChannelFormatKindFloat;
      break;
    case CU_AD_FORMAT_FLOAT:
      bits = 32;
      kind = cudaChannelFormatKindFloat;
      break;
    default:
      break;
  }
  cudaChannelFormatDesc out{};
  out.x = bits;
  out.y = channels >= 2 ? bits : 0;
  out.z = channels >= 4 ? bits : 0;
  out.w = channels >= 4 ? bits : 0;
  out.f = kind;
  return out;
}

cudaError_t array_element_size(cudaArray_const_t array, size_t* bytes) {
  CUDA_ARRAY3D_DESCRIPTOR d{};
  CUresult result =
      cuArray3DGetDescriptor(&d, reinterpret_cast<CUarray>(const_cast<cudaArray*>(array)));
  if (result != CUDA_SUCCESS) return to_cuda_error(result);
  size_t channel = 4;
  switch (d.Format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
    case CU_AD_FORMAT_SIGNED_INT8:
      channel = 1;
      break;
    case CU_AD_FORMAT_UNSIGNED_INT16:
    case CU_AD_FORMAT_SIGNED_INT16:
    case CU_AD_FORMAT_HALF:
      channel = 2;
      break;
    default:
      break;
  }
  *bytes = channel * d.NumChannels;
  return cudaSuccess;
}

}  // namespace strata::cuda::runtime

namespace {

cudaExtent extent_of(size_t width, size_t height, size_t depth) {
  cudaExtent e;
  e.width = width;
  e.height = height;
  e.depth = depth;
  return e;
}

CUarray driver(cudaArray_const_t array) {
  return reinterpret_cast<CUarray>(const_cast<cudaArray*>(array));
}
CUmipmappedArray driver(cudaMipmappedArray_const_t array) {
  return reinterpret_cast<CUmipmappedArray>(const_cast<cudaMipmappedArray*>(array));
}

cudaError_t descriptor_for(const cudaChannelFormatDesc* desc, cudaExtent extent, unsigned int flags,
                           CUDA_ARRAY3D_DESCRIPTOR* out) {
  if (desc == nullptr) return cudaErrorInvalidValue;
  *out = {};
  if (cudaError_t error = rt::to_array_format(*desc, &out->Format, &out->NumChannels);
      error != cudaSuccess) {
    return error;
  }
  out->Width = extent.width;
  out->Height = extent.height;
  out->Depth = extent.depth;
  out->Flags = flags;
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  cudaChannelFormatDesc desc;
  desc.x = x;
  desc.y = y;
  desc.z = z;
  desc.w = w;
  desc.f = f;
  return desc;
}

cudaError_t cudaMalloc3DArray(cudaArray_t* array, const cudaChannelFormatDesc* desc,
                              cudaExtent extent, unsigned int flags) {
  if (array == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY3D_DESCRIPTOR d;
  if (cudaError_t error = descriptor_for(desc, extent, flags, &d); error != cudaSuccess) {
    return rt::record(error);
  }
  CUarray handle = nullptr;
  CUresult result = cuArray3DCreate(&handle, &d);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *array = reinterpret_cast<cudaArray_t>(handle);
  return cudaSuccess;
}

cudaError_t cudaMallocArray(cudaArray_t* array, const cudaChannelFormatDesc* desc, size_t width,
                            size_t height, unsigned int flags) {
  // A 2D (or, with height 0, 1D) array; layered and cubemap arrays need cudaMalloc3DArray.
  if ((flags & (cudaArrayLayered | cudaArrayCubemap)) != 0) {
    return rt::record(cudaErrorInvalidValue);
  }
  return cudaMalloc3DArray(array, desc, extent_of(width, height, 0), flags);
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t* mipmappedArray,
                                     const cudaChannelFormatDesc* desc, cudaExtent extent,
                                     unsigned int numLevels, unsigned int flags) {
  if (mipmappedArray == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY3D_DESCRIPTOR d;
  if (cudaError_t error = descriptor_for(desc, extent, flags, &d); error != cudaSuccess) {
    return rt::record(error);
  }
  CUmipmappedArray handle = nullptr;
  CUresult result = cuMipmappedArrayCreate(&handle, &d, numLevels);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *mipmappedArray = reinterpret_cast<cudaMipmappedArray_t>(handle);
  return cudaSuccess;
}

cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t* levelArray,
                                       cudaMipmappedArray_const_t mipmappedArray,
                                       unsigned int level) {
  if (levelArray == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUarray handle = nullptr;
  CUresult result = cuMipmappedArrayGetLevel(&handle, driver(mipmappedArray), level);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *levelArray = reinterpret_cast<cudaArray_t>(handle);
  return cudaSuccess;
}

cudaError_t cudaFreeArray(cudaArray_t array) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (array == nullptr) return cudaSuccess;  // "If array is 0, no operation is performed"
  return rt::record(cuArrayDestroy(driver(array)));
}

cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t mipmappedArray) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (mipmappedArray == nullptr) return cudaSuccess;
  return rt::record(cuMipmappedArrayDestroy(driver(mipmappedArray)));
}

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc* desc, cudaExtent* extent, unsigned int* flags,
                             cudaArray_t array) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  CUresult result = cuArray3DGetDescriptor(&d, driver(array));
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (desc != nullptr) *desc = rt::to_channel_desc(d.Format, d.NumChannels);
  if (extent != nullptr) *extent = extent_of(d.Width, d.Height, d.Depth);
  if (flags != nullptr) *flags = d.Flags;
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc* desc, cudaArray_const_t array) {
  if (desc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY3D_DESCRIPTOR d{};
  CUresult result = cuArray3DGetDescriptor(&d, driver(array));
  if (result != CUDA_SUCCESS) return rt::record(result);
  *desc = rt::to_channel_desc(d.Format, d.NumChannels);
  return cudaSuccess;
}

cudaError_t cudaArrayGetMemoryRequirements(cudaArrayMemoryRequirements* memoryRequirements,
                                           cudaArray_t array, int device) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY_MEMORY_REQUIREMENTS r{};
  CUresult result = cuArrayGetMemoryRequirements(&r, driver(array), device);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (memoryRequirements == nullptr) return rt::record(cudaErrorInvalidValue);
  memoryRequirements->size = r.size;
  memoryRequirements->alignment = r.alignment;
  return cudaSuccess;
}

cudaError_t cudaMipmappedArrayGetMemoryRequirements(cudaArrayMemoryRequirements* memoryRequirements,
                                                    cudaMipmappedArray_t mipmap, int device) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY_MEMORY_REQUIREMENTS r{};
  CUresult result = cuMipmappedArrayGetMemoryRequirements(&r, driver(mipmap), device);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (memoryRequirements == nullptr) return rt::record(cudaErrorInvalidValue);
  memoryRequirements->size = r.size;
  memoryRequirements->alignment = r.alignment;
  return cudaSuccess;
}

cudaError_t cudaArrayGetSparseProperties(cudaArraySparseProperties* sparseProperties,
                                         cudaArray_t array) {
  if (sparseProperties == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY_SPARSE_PROPERTIES p{};
  return rt::record(cuArrayGetSparseProperties(&p, driver(array)));
}

cudaError_t cudaMipmappedArrayGetSparseProperties(cudaArraySparseProperties* sparseProperties,
                                                  cudaMipmappedArray_t mipmap) {
  if (sparseProperties == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_ARRAY_SPARSE_PROPERTIES p{};
  return rt::record(cuMipmappedArrayGetSparseProperties(&p, driver(mipmap)));
}

cudaError_t cudaArrayGetPlane(cudaArray_t* pPlaneArray, cudaArray_t hArray, unsigned int planeIdx) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUarray plane = nullptr;
  CUresult result = cuArrayGetPlane(&plane, driver(hArray), planeIdx);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (pPlaneArray == nullptr) return rt::record(cudaErrorInvalidValue);
  *pPlaneArray = reinterpret_cast<cudaArray_t>(plane);
  return cudaSuccess;
}

}  // extern "C"
