// Entry points: virtual memory management (cuMemCreate, cuMemAddressReserve, cuMemMap,
// cuMemSetAccess, ...). Validation of pointers and flags here; the model is vmm.h.
#include "cuda/driver/api_util.h"
#include "cuda/driver/device.h"
#include "cuda/driver/vmm.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

Status zero_flags(const char* api, unsigned long long flags) {
  if (flags == 0) return ok_status();
  return error(Code::kInvalidValue, fmt::format("{}: flags {:#x} must be 0", api, flags));
}

}  // namespace

CUresult CUDAAPI cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop,
                                               CUmemAllocationGranularity_flags option) {
  return api_call("cuMemGetAllocationGranularity", [&]() -> Status {
    if (granularity == nullptr) return null_arg("cuMemGetAllocationGranularity", "granularity");
    RETURN_IF_ERROR(devices().status());
    RETURN_IF_ERROR(vmm_check_prop("cuMemGetAllocationGranularity", prop));
    if (option != CU_MEM_ALLOC_GRANULARITY_MINIMUM &&
        option != CU_MEM_ALLOC_GRANULARITY_RECOMMENDED) {
      return error(Code::kInvalidValue, fmt::format("cuMemGetAllocationGranularity: option {}",
                                                    static_cast<int>(option)));
    }
    *granularity = kVmmGranularity;
    return ok_status();
  });
}

CUresult CUDAAPI cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size,
                             const CUmemAllocationProp* prop, unsigned long long flags) {
  return api_call("cuMemCreate", [&]() -> Status {
    if (handle == nullptr) return null_arg("cuMemCreate", "handle");
    RETURN_IF_ERROR(devices().status());
    RETURN_IF_ERROR(zero_flags("cuMemCreate", flags));
    RETURN_IF_ERROR(vmm_check_prop("cuMemCreate", prop));
    ASSIGN_OR_RETURN(*handle, vmm_create(size, *prop));
    return ok_status();
  });
}

CUresult CUDAAPI cuMemRelease(CUmemGenericAllocationHandle handle) {
  return api_call("cuMemRelease", [&]() -> Status { return vmm_release(handle); });
}

CUresult CUDAAPI cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment,
                                     CUdeviceptr addr, unsigned long long flags) {
  return api_call("cuMemAddressReserve", [&]() -> Status {
    if (ptr == nullptr) return null_arg("cuMemAddressReserve", "ptr");
    RETURN_IF_ERROR(devices().status());
    RETURN_IF_ERROR(zero_flags("cuMemAddressReserve", flags));
    // addr is a hint: taken when free and aligned, else another address is chosen.
    ASSIGN_OR_RETURN(*ptr, vmm_reserve(size, alignment, addr));
    return ok_status();
  });
}

CUresult CUDAAPI cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  return api_call("cuMemAddressFree", [&]() -> Status { return vmm_free_reservation(ptr, size); });
}

CUresult CUDAAPI cuMemMap(CUdeviceptr ptr, size_t size, size_t offset,
                          CUmemGenericAllocationHandle handle, unsigned long long flags) {
  return api_call("cuMemMap", [&]() -> Status {
    RETURN_IF_ERROR(zero_flags("cuMemMap", flags));
    return vmm_map(ptr, size, offset, handle);
  });
}

CUresult CUDAAPI cuMemUnmap(CUdeviceptr ptr, size_t size) {
  return api_call("cuMemUnmap", [&]() -> Status { return vmm_unmap(ptr, size); });
}

CUresult CUDAAPI cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc,
                                size_t count) {
  return api_call("cuMemSetAccess",
                  [&]() -> Status { return vmm_set_access(ptr, size, desc, count); });
}

CUresult CUDAAPI cuMemGetAccess(unsigned long long* flags, const CUmemLocation* location,
                                CUdeviceptr ptr) {
  return api_call("cuMemGetAccess", [&]() -> Status {
    if (flags == nullptr) return null_arg("cuMemGetAccess", "flags");
    if (location == nullptr) return null_arg("cuMemGetAccess", "location");
    ASSIGN_OR_RETURN(*flags, vmm_get_access(*location, ptr));
    return ok_status();
  });
}

CUresult CUDAAPI cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp* prop,
                                                        CUmemGenericAllocationHandle handle) {
  return api_call("cuMemGetAllocationPropertiesFromHandle", [&]() -> Status {
    if (prop == nullptr) return null_arg("cuMemGetAllocationPropertiesFromHandle", "prop");
    ASSIGN_OR_RETURN(*prop, vmm_properties(handle));
    return ok_status();
  });
}

CUresult CUDAAPI cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr) {
  return api_call("cuMemRetainAllocationHandle", [&]() -> Status {
    if (handle == nullptr) return null_arg("cuMemRetainAllocationHandle", "handle");
    ASSIGN_OR_RETURN(*handle, vmm_retain(reinterpret_cast<uint64_t>(addr)));
    return ok_status();
  });
}

CUresult CUDAAPI cuMemExportToShareableHandle(void* shareableHandle,
                                              CUmemGenericAllocationHandle handle,
                                              CUmemAllocationHandleType handleType,
                                              unsigned long long flags) {
  return api_call("cuMemExportToShareableHandle", [&]() -> Status {
    if (shareableHandle == nullptr)
      return null_arg("cuMemExportToShareableHandle", "shareableHandle");
    RETURN_IF_ERROR(zero_flags("cuMemExportToShareableHandle", flags));
    ASSIGN_OR_RETURN(CUmemAllocationProp prop, vmm_properties(handle));
    if ((prop.requestedHandleTypes & handleType) == 0 || handleType == CU_MEM_HANDLE_TYPE_NONE) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemExportToShareableHandle: handle type {:#x} was not "
                               "requested at cuMemCreate",
                               static_cast<int>(handleType)));
    }
    return error(Code::kNotSupported,
                 "cuMemExportToShareableHandle: shareable handles are not supported by Strata");
  });
}

CUresult CUDAAPI cuMemImportFromShareableHandle(CUmemGenericAllocationHandle* handle,
                                                void* osHandle,
                                                CUmemAllocationHandleType shHandleType) {
  return api_call("cuMemImportFromShareableHandle", [&]() -> Status {
    (void)osHandle;
    (void)shHandleType;
    if (handle == nullptr) return null_arg("cuMemImportFromShareableHandle", "handle");
    return error(Code::kNotSupported,
                 "cuMemImportFromShareableHandle: shareable handles are not supported by Strata");
  });
}
