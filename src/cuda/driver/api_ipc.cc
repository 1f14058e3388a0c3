// Entry points: CUDA IPC (cuIpcGetEventHandle, cuIpcOpenEventHandle, cuIpcGetMemHandle,
// cuIpcOpenMemHandle, cuIpcCloseMemHandle).
//
// Strata has no interprocess sharing of device memory or events: every simulated device
// lives inside one process. The calls validate their arguments and then fail with
// CUDA_ERROR_NOT_SUPPORTED, what CUDA returns on systems without IPC support (its
// documented result for these calls), and log why once per process.
#include <cuda.h>

#include <atomic>

#include "base/log.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/event.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

Status not_supported(const char* api) {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) {
    STRATA_LOG_WARN(
        "driver: {}: CUDA IPC (sharing memory or events with another process) is "
        "not supported by Strata; IPC calls return CUDA_ERROR_NOT_SUPPORTED",
        api);
  }
  return error(Code::kNotSupported, fmt::format("{}: CUDA IPC is not supported", api));
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuIpcGetEventHandle(CUipcEventHandle* pHandle, CUevent event) {
  return api_call("cuIpcGetEventHandle", [&]() -> Status {
    if (pHandle == nullptr) return null_arg("cuIpcGetEventHandle", "pHandle");
    ASSIGN_OR_RETURN(std::shared_ptr<Event> e, live(handles().events, event, "event"));
    return not_supported("cuIpcGetEventHandle");
  });
}

CUresult CUDAAPI cuIpcOpenEventHandle(CUevent* phEvent, CUipcEventHandle handle) {
  return api_call("cuIpcOpenEventHandle", [&]() -> Status {
    if (phEvent == nullptr) return null_arg("cuIpcOpenEventHandle", "phEvent");
    RETURN_IF_ERROR(checked_current_context().status());
    return not_supported("cuIpcOpenEventHandle");
  });
}

CUresult CUDAAPI cuIpcGetMemHandle(CUipcMemHandle* pHandle, CUdeviceptr dptr) {
  return api_call("cuIpcGetMemHandle", [&]() -> Status {
    if (pHandle == nullptr || dptr == 0) return null_arg("cuIpcGetMemHandle", "pHandle or dptr");
    RETURN_IF_ERROR(checked_current_context().status());
    return not_supported("cuIpcGetMemHandle");
  });
}

CUresult CUDAAPI cuIpcOpenMemHandle_v2(CUdeviceptr* pdptr, CUipcMemHandle handle,
                                       unsigned int Flags) {
  return api_call("cuIpcOpenMemHandle", [&]() -> Status {
    if (pdptr == nullptr) return null_arg("cuIpcOpenMemHandle", "pdptr");
    if ((Flags & ~static_cast<unsigned int>(CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)) != 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuIpcOpenMemHandle: unknown flags {:#x}", Flags));
    }
    RETURN_IF_ERROR(checked_current_context().status());
    return not_supported("cuIpcOpenMemHandle");
  });
}

CUresult CUDAAPI cuIpcCloseMemHandle(CUdeviceptr dptr) {
  return api_call("cuIpcCloseMemHandle", [&]() -> Status {
    if (dptr == 0) return null_arg("cuIpcCloseMemHandle", "dptr");
    RETURN_IF_ERROR(checked_current_context().status());
    return not_supported("cuIpcCloseMemHandle");
  });
}

}  // extern "C"
