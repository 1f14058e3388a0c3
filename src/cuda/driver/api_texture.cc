// Entry points: texture and surface objects (cuTexObject*, cuSurfObject*).
#include "cuda/driver/api_util.h"
#include "cuda/driver/texture_object.h"

using namespace strata;
using namespace strata::cuda::driver;

CUresult CUDAAPI cuTexObjectCreate(CUtexObject* pTexObject, const CUDA_RESOURCE_DESC* pResDesc,
                                   const CUDA_TEXTURE_DESC* pTexDesc,
                                   const CUDA_RESOURCE_VIEW_DESC* pResViewDesc) {
  return api_call("cuTexObjectCreate", [&]() -> Status {
    if (pTexObject == nullptr || pResDesc == nullptr || pTexDesc == nullptr) {
      return null_arg("cuTexObjectCreate", "pTexObject, pResDesc or pTexDesc");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object,
                     create_texture_object(ctx, *pResDesc, pTexDesc, pResViewDesc,
                                           /*surface=*/false));
    *pTexObject = object->va;
    return ok_status();
  });
}

CUresult CUDAAPI cuTexObjectDestroy(CUtexObject texObject) {
  return api_call("cuTexObjectDestroy",
                  [&]() -> Status { return destroy_texture_object(texObject, /*surface=*/false); });
}

CUresult CUDAAPI cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc, CUtexObject texObject) {
  return api_call("cuTexObjectGetResourceDesc", [&]() -> Status {
    if (pResDesc == nullptr) return null_arg("cuTexObjectGetResourceDesc", "pResDesc");
    ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object,
                     resolve_texture_object(texObject, /*surface=*/false));
    *pResDesc = object->resource;
    return ok_status();
  });
}

CUresult CUDAAPI cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC* pTexDesc, CUtexObject texObject) {
  return api_call("cuTexObjectGetTextureDesc", [&]() -> Status {
    if (pTexDesc == nullptr) return null_arg("cuTexObjectGetTextureDesc", "pTexDesc");
    ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object,
                     resolve_texture_object(texObject, /*surface=*/false));
    *pTexDesc = object->texture;
    return ok_status();
  });
}

// As documented: CUDA_ERROR_INVALID_VALUE when the object was created without a view.
CUresult CUDAAPI cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC* pResViewDesc,
                                                CUtexObject texObject) {
  return api_call("cuTexObjectGetResourceViewDesc", [&]() -> Status {
    if (pResViewDesc == nullptr) return null_arg("cuTexObjectGetResourceViewDesc", "pResViewDesc");
    ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object,
                     resolve_texture_object(texObject, /*surface=*/false));
    if (!object->has_view) {
      return error(Code::kInvalidValue,
                   "cuTexObjectGetResourceViewDesc: the object has no resource view");
    }
    *pResViewDesc = object->view;
    return ok_status();
  });
}

CUresult CUDAAPI cuSurfObjectCreate(CUsurfObject* pSurfObject, const CUDA_RESOURCE_DESC* pResDesc) {
  return api_call("cuSurfObjectCreate", [&]() -> Status {
    if (pSurfObject == nullptr || pResDesc == nullptr) {
      return null_arg("cuSurfObjectCreate", "pSurfObject or pResDesc");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object,
                     create_texture_object(ctx, *pResDesc, nullptr, nullptr, /*surface=*/true));
    *pSurfObject = object->va;
    return ok_status();
  });
}

CUresult CUDAAPI cuSurfObjectDestroy(CUsurfObject surfObject) {
  return api_call("cuSurfObjectDestroy",
                  [&]() -> Status { return destroy_texture_object(surfObject, /*surface=*/true); });
}

CUresult CUDAAPI cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC* pResDesc,
                                             CUsurfObject surfObject) {
  return api_call("cuSurfObjectGetResourceDesc", [&]() -> Status {
    if (pResDesc == nullptr) return null_arg("cuSurfObjectGetResourceDesc", "pResDesc");
    ASSIGN_OR_RETURN(std::shared_ptr<TextureObject> object,
                     resolve_texture_object(surfObject, /*surface=*/true));
    *pResDesc = object->resource;
    return ok_status();
  });
}
