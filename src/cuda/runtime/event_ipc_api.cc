// cudaEventRecordWithFlags (and its per-thread-stream _ptsz form) and CUDA IPC
// (cudaIpcGetEventHandle, cudaIpcOpenEventHandle, cudaIpcGetMemHandle,
// cudaIpcOpenMemHandle, cudaIpcCloseMemHandle), on their driver counterparts. Strata has
// no IPC: the driver returns CUDA_ERROR_NOT_SUPPORTED (cudaErrorNotSupported) and logs
// why (cuda/driver/api_ipc.cc).
#include <cstring>

#include "cuda/runtime/api_common.h"

namespace rt = strata::cuda::runtime;

// Declared by cuda_runtime_api.h only under CUDA_API_PER_THREAD_DEFAULT_STREAM.
extern "C" __attribute__((visibility("default"))) cudaError_t cudaEventRecordWithFlags_ptsz(
    cudaEvent_t event, cudaStream_t stream, unsigned int flags);

static_assert(sizeof(cudaIpcEventHandle_t) == sizeof(CUipcEventHandle));
static_assert(sizeof(cudaIpcMemHandle_t) == sizeof(CUipcMemHandle));
static_assert(static_cast<unsigned>(cudaEventRecordExternal) == CU_EVENT_RECORD_EXTERNAL);

extern "C" {

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  // cudaEventRecordExternal matters only during stream capture (an external event
  // record node); otherwise the record is an ordinary one.
  return rt::record(cuEventRecordWithFlags(event, stream, flags));
}

cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                          unsigned int flags) {
  return cudaEventRecordWithFlags(event, stream == nullptr ? cudaStreamPerThread : stream, flags);
}

cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t* handle, cudaEvent_t event) {
  if (handle == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUipcEventHandle driver_handle{};
  CUresult result = cuIpcGetEventHandle(&driver_handle, event);
  if (result == CUDA_SUCCESS) std::memcpy(handle, &driver_handle, sizeof(driver_handle));
  return rt::record(result);
}

cudaError_t cudaIpcOpenEventHandle(cudaEvent_t* event, cudaIpcEventHandle_t handle) {
  if (event == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUipcEventHandle driver_handle;
  std::memcpy(&driver_handle, &handle, sizeof(handle));
  return rt::record(cuIpcOpenEventHandle(event, driver_handle));
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t* handle, void* devPtr) {
  if (handle == nullptr || devPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUipcMemHandle driver_handle{};
  CUresult result = cuIpcGetMemHandle(&driver_handle, reinterpret_cast<CUdeviceptr>(devPtr));
  if (result == CUDA_SUCCESS) std::memcpy(handle, &driver_handle, sizeof(driver_handle));
  return rt::record(result);
}

cudaError_t cudaIpcOpenMemHandle(void** devPtr, cudaIpcMemHandle_t handle, unsigned int flags) {
  if (devPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUipcMemHandle driver_handle;
  std::memcpy(&driver_handle, &handle, sizeof(handle));
  CUdeviceptr ptr = 0;
  CUresult result = cuIpcOpenMemHandle_v2(&ptr, driver_handle, flags);
  if (result == CUDA_SUCCESS) *devPtr = reinterpret_cast<void*>(ptr);
  return rt::record(result);
}

cudaError_t cudaIpcCloseMemHandle(void* devPtr) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuIpcCloseMemHandle(reinterpret_cast<CUdeviceptr>(devPtr)));
}

}  // extern "C"
