// Entry points: CUDA arrays and mipmapped arrays (cuArray*, cuMipmappedArray*). The
// copies to and from arrays are stream operations (api_stream_ops_array.inc).
#include "cuda/driver/api_util.h"
#include "cuda/driver/array.h"
#include "cuda/driver/device.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

CUDA_ARRAY3D_DESCRIPTOR from_2d(const CUDA_ARRAY_DESCRIPTOR& d) {
  CUDA_ARRAY3D_DESCRIPTOR out{};
  out.Width = d.Width;
  out.Height = d.Height;
  out.Depth = 0;
  out.Format = d.Format;
  out.NumChannels = d.NumChannels;
  out.Flags = 0;
  return out;
}

// Strata arrays are never created with CUDA_ARRAY3D_DEFERRED_MAPPING or
// CUDA_ARRAY3D_SPARSE (both kNotSupported), so every array gets the documented answer
// for arrays without them.
Status not_deferred(const char* api) {
  return error(
      Code::kInvalidValue,
      fmt::format("{}: the array was not created with CUDA_ARRAY3D_DEFERRED_MAPPING", api));
}
Status not_sparse(const char* api) {
  return error(Code::kInvalidValue,
               fmt::format("{}: the array was not created with CUDA_ARRAY3D_SPARSE", api));
}

}  // namespace

CUresult CUDAAPI cuArrayCreate(CUarray* pHandle, const CUDA_ARRAY_DESCRIPTOR* pAllocateArray) {
  return api_call("cuArrayCreate", [&]() -> Status {
    if (pHandle == nullptr || pAllocateArray == nullptr) {
      return null_arg("cuArrayCreate", "pHandle or pAllocateArray");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Array> array, create_array(ctx, from_2d(*pAllocateArray)));
    *pHandle = array->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuArray3DCreate(CUarray* pHandle, const CUDA_ARRAY3D_DESCRIPTOR* pAllocateArray) {
  return api_call("cuArray3DCreate", [&]() -> Status {
    if (pHandle == nullptr || pAllocateArray == nullptr) {
      return null_arg("cuArray3DCreate", "pHandle or pAllocateArray");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<Array> array, create_array(ctx, *pAllocateArray));
    *pHandle = array->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR* pArrayDescriptor, CUarray hArray) {
  return api_call("cuArrayGetDescriptor", [&]() -> Status {
    if (pArrayDescriptor == nullptr) return null_arg("cuArrayGetDescriptor", "pArrayDescriptor");
    ASSIGN_OR_RETURN(std::shared_ptr<Array> array, resolve_array(hArray));
    const CUDA_ARRAY3D_DESCRIPTOR& d = array->descriptor();
    pArrayDescriptor->Width = d.Width;
    pArrayDescriptor->Height = d.Height;
    pArrayDescriptor->Format = d.Format;
    pArrayDescriptor->NumChannels = d.NumChannels;
    return ok_status();
  });
}

CUresult CUDAAPI cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR* pArrayDescriptor, CUarray hArray) {
  return api_call("cuArray3DGetDescriptor", [&]() -> Status {
    if (pArrayDescriptor == nullptr) return null_arg("cuArray3DGetDescriptor", "pArrayDescriptor");
    ASSIGN_OR_RETURN(std::shared_ptr<Array> array, resolve_array(hArray));
    *pArrayDescriptor = array->descriptor();
    return ok_status();
  });
}

CUresult CUDAAPI cuArrayDestroy(CUarray hArray) {
  return api_call("cuArrayDestroy", [&]() -> Status { return destroy_array(hArray); });
}

CUresult CUDAAPI cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS* memoryRequirements,
                                              CUarray array, CUdevice device) {
  return api_call("cuArrayGetMemoryRequirements", [&]() -> Status {
    if (memoryRequirements == nullptr) {
      return null_arg("cuArrayGetMemoryRequirements", "memoryRequirements");
    }
    RETURN_IF_ERROR(strata::cuda::driver::device(device).status());
    RETURN_IF_ERROR(resolve_array(array).status());
    return not_deferred("cuArrayGetMemoryRequirements");
  });
}

CUresult CUDAAPI cuMipmappedArrayGetMemoryRequirements(
    CUDA_ARRAY_MEMORY_REQUIREMENTS* memoryRequirements, CUmipmappedArray mipmap, CUdevice device) {
  return api_call("cuMipmappedArrayGetMemoryRequirements", [&]() -> Status {
    if (memoryRequirements == nullptr) {
      return null_arg("cuMipmappedArrayGetMemoryRequirements", "memoryRequirements");
    }
    RETURN_IF_ERROR(strata::cuda::driver::device(device).status());
    RETURN_IF_ERROR(resolve_mipmapped_array(mipmap).status());
    return not_deferred("cuMipmappedArrayGetMemoryRequirements");
  });
}

CUresult CUDAAPI cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES* sparseProperties,
                                            CUarray array) {
  return api_call("cuArrayGetSparseProperties", [&]() -> Status {
    if (sparseProperties == nullptr) {
      return null_arg("cuArrayGetSparseProperties", "sparseProperties");
    }
    RETURN_IF_ERROR(resolve_array(array).status());
    return not_sparse("cuArrayGetSparseProperties");
  });
}

CUresult CUDAAPI cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES* sparseProperties,
                                                     CUmipmappedArray mipmap) {
  return api_call("cuMipmappedArrayGetSparseProperties", [&]() -> Status {
    if (sparseProperties == nullptr) {
      return null_arg("cuMipmappedArrayGetSparseProperties", "sparseProperties");
    }
    RETURN_IF_ERROR(resolve_mipmapped_array(mipmap).status());
    return not_sparse("cuMipmappedArrayGetSparseProperties");
  });
}

// Only planar (YUV) formats have planes, and Strata does not create those.
CUresult CUDAAPI cuArrayGetPlane(CUarray* pPlaneArray, CUarray hArray, unsigned int planeIdx) {
  return api_call("cuArrayGetPlane", [&]() -> Status {
    if (pPlaneArray == nullptr) return null_arg("cuArrayGetPlane", "pPlaneArray");
    RETURN_IF_ERROR(resolve_array(hArray).status());
    return error(Code::kInvalidValue,
                 fmt::format("cuArrayGetPlane: plane {} of an array without planes", planeIdx));
  });
}

CUresult CUDAAPI cuMipmappedArrayCreate(CUmipmappedArray* pHandle,
                                        const CUDA_ARRAY3D_DESCRIPTOR* pMipmappedArrayDesc,
                                        unsigned int numMipmapLevels) {
  return api_call("cuMipmappedArrayCreate", [&]() -> Status {
    if (pHandle == nullptr || pMipmappedArrayDesc == nullptr) {
      return null_arg("cuMipmappedArrayCreate", "pHandle or pMipmappedArrayDesc");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<MipmappedArray> mipmapped,
                     create_mipmapped_array(ctx, *pMipmappedArrayDesc, numMipmapLevels));
    *pHandle = mipmapped->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuMipmappedArrayGetLevel(CUarray* pLevelArray, CUmipmappedArray hMipmappedArray,
                                          unsigned int level) {
  return api_call("cuMipmappedArrayGetLevel", [&]() -> Status {
    if (pLevelArray == nullptr) return null_arg("cuMipmappedArrayGetLevel", "pLevelArray");
    ASSIGN_OR_RETURN(std::shared_ptr<MipmappedArray> mipmapped,
                     resolve_mipmapped_array(hMipmappedArray));
    ASSIGN_OR_RETURN(std::shared_ptr<Array> array, mipmapped->level(level));
    *pLevelArray = array->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuMipmappedArrayDestroy(CUmipmappedArray hMipmappedArray) {
  return api_call("cuMipmappedArrayDestroy",
                  [&]() -> Status { return destroy_mipmapped_array(hMipmappedArray); });
}
