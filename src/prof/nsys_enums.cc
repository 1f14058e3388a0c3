#include "prof/nsys_enums.h"

#include <cstring>

namespace strata::prof {

const std::vector<EnumTable>& enum_tables() {
  static const std::vector<EnumTable> tables = {
      {"ENUM_NSYS_EVENT_TYPE",
       {{kNvtxCategory, "NvtxCategory", "NvtxCategory"},
        {kNvtxMark, "NvtxMark", "NvtxMark"},
        {kNvtxPushPopRange, "NvtxPushPopRange", "NvtxPushPopRange"},
        {kNvtxStartEndRange, "NvtxStartEndRange", "NvtxStartEndRange"},
        {kNvtxDomainCreate, "NvtxDomainCreate", "NvtxDomainCreate"}}},
      {"ENUM_NSYS_EVENT_CLASS",
       {{kEventClassCudaRuntime, "TRACE_PROCESS_EVENT_CUDA_RUNTIME", "CUDA runtime"},
        {kEventClassCudaDriver, "TRACE_PROCESS_EVENT_CUDA_DRIVER", "CUDA driver"}}},
      {"ENUM_CUDA_MEMCPY_OPER",
       {{0, "CUDA_MEMCPY_KIND_UNKNOWN", "Unknown"},
        {1, "CUDA_MEMCPY_KIND_HTOD", "Host-to-Device"},
        {2, "CUDA_MEMCPY_KIND_DTOH", "Device-to-Host"},
        {3, "CUDA_MEMCPY_KIND_HTOA", "Host-to-Array"},
        {4, "CUDA_MEMCPY_KIND_ATOH", "Array-to-Host"},
        {5, "CUDA_MEMCPY_KIND_ATOA", "Array-to-Array"},
        {6, "CUDA_MEMCPY_KIND_ATOD", "Array-to-Device"},
        {7, "CUDA_MEMCPY_KIND_DTOA", "Device-to-Array"},
        {8, "CUDA_MEMCPY_KIND_DTOD", "Device-to-Device"},
        {9, "CUDA_MEMCPY_KIND_HTOH", "Host-to-Host"},
        {10, "CUDA_MEMCPY_KIND_PTOP", "Peer-to-Peer"},
        {11, "CUDA_MEMCPY_KIND_UVM_HTOD", "Unified Host-to-Device"},
        {12, "CUDA_MEMCPY_KIND_UVM_DTOH", "Unified Device-to-Host"},
        {13, "CUDA_MEMCPY_KIND_UVM_DTOD", "Unified Device-to-Device"}}},
      {"ENUM_CUDA_MEM_KIND",
       {{0, "CUDA_MEMOPR_MEMORY_KIND_PAGEABLE", "Pageable"},
        {1, "CUDA_MEMOPR_MEMORY_KIND_PINNED", "Pinned"},
        {2, "CUDA_MEMOPR_MEMORY_KIND_DEVICE", "Device"},
        {3, "CUDA_MEMOPR_MEMORY_KIND_ARRAY", "Array"},
        {4, "CUDA_MEMOPR_MEMORY_KIND_MANAGED", "Managed"},
        {5, "CUDA_MEMOPR_MEMORY_KIND_DEVICE_STATIC", "Device Static"},
        {6, "CUDA_MEMOPR_MEMORY_KIND_MANAGED_STATIC", "Managed Static"},
        {kNsysMemKindUnknown, "CUDA_MEMOPR_MEMORY_KIND_UNKNOWN", "Unknown"}}},
      {"ENUM_CUPTI_SYNC_TYPE",
       {{0, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_UNKNOWN", "Unknown"},
        {1, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE", "Event sync"},
        {2, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_WAIT_EVENT", "Stream wait sync"},
        {3, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE", "Stream sync"},
        {4, "CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE", "Context sync"}}},
      {"ENUM_CUDA_DEV_MEM_EVENT_OPER",
       {{0, "CUDA_DEV_MEM_EVENT_OPR_ALLOCATION", "Allocation"},
        {1, "CUDA_DEV_MEM_EVENT_OPR_DEALLOCATION", "Deallocation"}}},
      {"ENUM_CUDA_KERNEL_LAUNCH_TYPE",
       {{0, "CUDA_KERNEL_LAUNCH_TYPE_UNKNOWN", "Unknown"},
        {kLaunchRegular, "CUDA_KERNEL_LAUNCH_TYPE_REGULAR", "Regular"},
        {kLaunchCooperativeSingleDevice, "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE",
         "Coop Single Device"}}},
      {"ENUM_CUDA_FUNC_CACHE_CONFIG",
       {{0, "CU_FUNC_CACHE_PREFER_NONE", "None"},
        {1, "CU_FUNC_CACHE_PREFER_SHARED", "Shared"},
        {2, "CU_FUNC_CACHE_PREFER_L1", "L1"},
        {3, "CU_FUNC_CACHE_PREFER_EQUAL", "Equal"}}},
      {"ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG",
       {{kSharedMemLimitDefault, "CUDA_SHARED_MEM_LIMIT_DEFAULT", "Default"},
        {kSharedMemLimitOptin, "CUDA_SHARED_MEM_LIMIT_OPTIN", "Opt in"}}},
      {"ENUM_CUPTI_STREAM_TYPE",
       {{0, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_UNKNOWN", "Unknown"},
        {1, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_DEFAULT", "Default stream"},
        {2, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NON_BLOCKING", "Non-blocking stream"},
        {3, "CUPTI_ACTIVITY_STREAM_CREATE_FLAG_NULL", "Null stream"}}},
  };
  return tables;
}

int nsys_mem_kind(uint32_t cupti_kind) {
  if (cupti_kind == 0 || cupti_kind > 7) return kNsysMemKindUnknown;
  return static_cast<int>(cupti_kind) - 1;
}

const char* enum_label(const char* table, int id) {
  for (const EnumTable& t : enum_tables()) {
    if (std::strcmp(t.table, table) != 0) continue;
    for (const EnumRow& row : t.rows)
      if (row.id == id) return row.label;
  }
  return "Unknown";
}

}  // namespace strata::prof
