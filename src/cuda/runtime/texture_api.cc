// Texture and surface objects (cudaCreateTextureObject, cudaCreateSurfaceObject and
// their getters) on the driver's cuTexObject* / cuSurfObject*. The runtime descriptors
// are translated field by field; the getters translate the driver's copies back.
// cudaReadModeElementType is CU_TRSF_READ_AS_INTEGER (no conversion of integer texels).
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/array_api.h"
#include "cuda/runtime/error_map.h"

namespace rt = strata::cuda::runtime;

namespace {

cudaError_t to_driver(const cudaResourceDesc& in, CUDA_RESOURCE_DESC* out) {
  *out = {};
  out->flags = in.flags;
  switch (in.resType) {
    case cudaResourceTypeArray:
      out->resType = CU_RESOURCE_TYPE_ARRAY;
      out->res.array.hArray = reinterpret_cast<CUarray>(in.res.array.array);
      return cudaSuccess;
    case cudaResourceTypeMipmappedArray:
      out->resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
      out->res.mipmap.hMipmappedArray = reinterpret_cast<CUmipmappedArray>(in.res.mipmap.mipmap);
      return cudaSuccess;
    case cudaResourceTypeLinear: {
      out->resType = CU_RESOURCE_TYPE_LINEAR;
      out->res.linear.devPtr = reinterpret_cast<CUdeviceptr>(in.res.linear.devPtr);
      out->res.linear.sizeInBytes = in.res.linear.sizeInBytes;
      return rt::to_array_format(in.res.linear.desc, &out->res.linear.format,
                                 &out->res.linear.numChannels);
    }
    case cudaResourceTypePitch2D: {
      out->resType = CU_RESOURCE_TYPE_PITCH2D;
      out->res.pitch2D.devPtr = reinterpret_cast<CUdeviceptr>(in.res.pitch2D.devPtr);
      out->res.pitch2D.width = in.res.pitch2D.width;
      out->res.pitch2D.height = in.res.pitch2D.height;
      out->res.pitch2D.pitchInBytes = in.res.pitch2D.pitchInBytes;
      return rt::to_array_format(in.res.pitch2D.desc, &out->res.pitch2D.format,
                                 &out->res.pitch2D.numChannels);
    }
    default:
      return cudaErrorInvalidValue;
  }
}

cudaResourceDesc from_driver(const CUDA_RESOURCE_DESC& in) {
  cudaResourceDesc out{};
  out.flags = in.flags;
  switch (in.resType) {
    case CU_RESOURCE_TYPE_ARRAY:
      out.resType = cudaResourceTypeArray;
      out.res.array.array = reinterpret_cast<cudaArray_t>(in.res.array.hArray);
      break;
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY:
      out.resType = cudaResourceTypeMipmappedArray;
      out.res.mipmap.mipmap = reinterpret_cast<cudaMipmappedArray_t>(in.res.mipmap.hMipmappedArray);
      break;
    case CU_RESOURCE_TYPE_LINEAR:
      out.resType = cudaResourceTypeLinear;
      out.res.linear.devPtr = reinterpret_cast<void*>(in.res.linear.devPtr);
      out.res.linear.desc = rt::to_channel_desc(in.res.linear.format, in.res.linear.numChannels);
      out.res.linear.sizeInBytes = in.res.linear.sizeInBytes;
      break;
    case CU_RESOURCE_TYPE_PITCH2D:
      out.resType = cudaResourceTypePitch2D;
      out.res.pitch2D.devPtr = reinterpret_cast<void*>(in.res.pitch2D.devPtr);
      out.res.pitch2D.desc = rt::to_channel_desc(in.res.pitch2D.format, in.res.pitch2D.numChannels);
      out.res.pitch2D.width = in.res.pitch2D.width;
      out.res.pitch2D.height = in.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = in.res.pitch2D.pitchInBytes;
      break;
    default:
      break;
  }
  return out;
}

CUDA_TEXTURE_DESC to_driver(const cudaTextureDesc& in) {
  CUDA_TEXTURE_DESC out{};
  for (int i = 0; i < 3; ++i) out.addressMode[i] = static_cast<CUaddress_mode>(in.addressMode[i]);
  out.filterMode = static_cast<CUfilter_mode>(in.filterMode);
  if (in.readMode == cudaReadModeElementType) out.flags |= CU_TRSF_READ_AS_INTEGER;
  if (in.normalizedCoords) out.flags |= CU_TRSF_NORMALIZED_COORDINATES;
  if (in.sRGB) out.flags |= CU_TRSF_SRGB;
  if (in.disableTrilinearOptimization) out.flags |= CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
  if (in.seamlessCubemap) out.flags |= CU_TRSF_SEAMLESS_CUBEMAP;
  out.maxAnisotropy = in.maxAnisotropy;
  out.mipmapFilterMode = static_cast<CUfilter_mode>(in.mipmapFilterMode);
  out.mipmapLevelBias = in.mipmapLevelBias;
  out.minMipmapLevelClamp = in.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = in.maxMipmapLevelClamp;
  for (int i = 0; i < 4; ++i) out.borderColor[i] = in.borderColor[i];
  return out;
}

cudaTextureDesc from_driver(const CUDA_TEXTURE_DESC& in) {
  cudaTextureDesc out{};
  for (int i = 0; i < 3; ++i) {
    out.addressMode[i] = static_cast<cudaTextureAddressMode>(in.addressMode[i]);
  }
  out.filterMode = static_cast<cudaTextureFilterMode>(in.filterMode);
  out.readMode =
      (in.flags & CU_TRSF_READ_AS_INTEGER) ? cudaReadModeElementType : cudaReadModeNormalizedFloat;
  out.normalizedCoords = (in.flags & CU_TRSF_NORMALIZED_COORDINATES) ? 1 : 0;
  out.sRGB = (in.flags & CU_TRSF_SRGB) ? 1 : 0;
  out.disableTrilinearOptimization = (in.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) ? 1 : 0;
  out.seamlessCubemap = (in.flags & CU_TRSF_SEAMLESS_CUBEMAP) ? 1 : 0;
  out.maxAnisotropy = in.maxAnisotropy;
  out.mipmapFilterMode = static_cast<cudaTextureFilterMode>(in.mipmapFilterMode);
  out.mipmapLevelBias = in.mipmapLevelBias;
  out.minMipmapLevelClamp = in.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = in.maxMipmapLevelClamp;
  for (int i = 0; i < 4; ++i) out.borderColor[i] = in.borderColor[i];
  return out;
}

// cudaResourceViewFormat and CUresourceViewFormat share their values.
static_assert(static_cast<int>(cudaResViewFormatFloat4) ==
              static_cast<int>(CU_RES_VIEW_FORMAT_FLOAT_4X32));
static_assert(static_cast<int>(cudaResViewFormatUnsignedBlockCompressed7) ==
              static_cast<int>(CU_RES_VIEW_FORMAT_UNSIGNED_BC7));

CUDA_RESOURCE_VIEW_DESC to_driver(const cudaResourceViewDesc& in) {
  CUDA_RESOURCE_VIEW_DESC out{};
  out.format = static_cast<CUresourceViewFormat>(in.format);
  out.width = in.width;
  out.height = in.height;
  out.depth = in.depth;
  out.firstMipmapLevel = in.firstMipmapLevel;
  out.lastMipmapLevel = in.lastMipmapLevel;
  out.firstLayer = in.firstLayer;
  out.lastLayer = in.lastLayer;
  return out;
}

cudaResourceViewDesc from_driver(const CUDA_RESOURCE_VIEW_DESC& in) {
  cudaResourceViewDesc out{};
  out.format = static_cast<cudaResourceViewFormat>(in.format);
  out.width = in.width;
  out.height = in.height;
  out.depth = in.depth;
  out.firstMipmapLevel = in.firstMipmapLevel;
  out.lastMipmapLevel = in.lastMipmapLevel;
  out.firstLayer = in.firstLayer;
  out.lastLayer = in.lastLayer;
  return out;
}

}  // namespace

extern "C" {

cudaError_t cudaCreateTextureObject(cudaTextureObject_t* pTexObject,
                                    const cudaResourceDesc* pResDesc,
                                    const cudaTextureDesc* pTexDesc,
                                    const cudaResourceViewDesc* pResViewDesc) {
  if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_RESOURCE_DESC resource;
  if (cudaError_t error = to_driver(*pResDesc, &resource); error != cudaSuccess) {
    return rt::record(error);
  }
  // Normalized-float reads exist only for 8- and 16-bit integer texels.
  if (pTexDesc->readMode == cudaReadModeNormalizedFloat) {
    CUarray_format format = CU_AD_FORMAT_FLOAT;
    if (resource.resType == CU_RESOURCE_TYPE_LINEAR) format = resource.res.linear.format;
    if (resource.resType == CU_RESOURCE_TYPE_PITCH2D) format = resource.res.pitch2D.format;
    if (format == CU_AD_FORMAT_UNSIGNED_INT32 || format == CU_AD_FORMAT_SIGNED_INT32) {
      return rt::record(cudaErrorInvalidValue);
    }
  }
  const CUDA_TEXTURE_DESC texture = to_driver(*pTexDesc);
  CUDA_RESOURCE_VIEW_DESC view{};
  if (pResViewDesc != nullptr) view = to_driver(*pResViewDesc);
  CUtexObject object = 0;
  CUresult result =
      cuTexObjectCreate(&object, &resource, &texture, pResViewDesc != nullptr ? &view : nullptr);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pTexObject = object;
  return cudaSuccess;
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuTexObjectDestroy(texObject));
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc* pResDesc,
                                             cudaTextureObject_t texObject) {
  if (pResDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_RESOURCE_DESC resource{};
  CUresult result = cuTexObjectGetResourceDesc(&resource, texObject);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pResDesc = from_driver(resource);
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc* pTexDesc,
                                            cudaTextureObject_t texObject) {
  if (pTexDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_TEXTURE_DESC texture{};
  CUresult result = cuTexObjectGetTextureDesc(&texture, texObject);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pTexDesc = from_driver(texture);
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc* pResViewDesc,
                                                 cudaTextureObject_t texObject) {
  if (pResViewDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_RESOURCE_VIEW_DESC view{};
  CUresult result = cuTexObjectGetResourceViewDesc(&view, texObject);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pResViewDesc = from_driver(view);
  return cudaSuccess;
}

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t* pSurfObject,
                                    const cudaResourceDesc* pResDesc) {
  if (pSurfObject == nullptr || pResDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_RESOURCE_DESC resource;
  if (cudaError_t error = to_driver(*pResDesc, &resource); error != cudaSuccess) {
    return rt::record(error);
  }
  CUsurfObject object = 0;
  CUresult result = cuSurfObjectCreate(&object, &resource);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pSurfObject = object;
  return cudaSuccess;
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuSurfObjectDestroy(surfObject));
}

cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc* pResDesc,
                                             cudaSurfaceObject_t surfObject) {
  if (pResDesc == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUDA_RESOURCE_DESC resource{};
  CUresult result = cuSurfObjectGetResourceDesc(&resource, surfObject);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *pResDesc = from_driver(resource);
  return cudaSuccess;
}

}  // extern "C"
