// cudaSetDeviceFlags / cudaGetDeviceFlags: the flags of the current device's primary
// context (cuDevicePrimaryCtxSetFlags / cuDevicePrimaryCtxGetState).
#include "cuda/runtime/api_common.h"

namespace rt = strata::cuda::runtime;

namespace {

// The current device's driver handle (initialising the driver on first use).
CUresult current_cu_device(CUdevice* device) {
  if (CUresult result = rt::init_driver(); result != CUDA_SUCCESS) return result;
  int count = 0;
  if (CUresult result = cuDeviceGetCount(&count); result != CUDA_SUCCESS) return result;
  if (count == 0) return CUDA_ERROR_NO_DEVICE;
  return cuDeviceGet(device, rt::current_device());
}

}  // namespace

extern "C" {

cudaError_t cudaSetDeviceFlags(unsigned int flags) {
  const unsigned int sched = flags & cudaDeviceScheduleMask;
  if ((flags & ~static_cast<unsigned int>(cudaDeviceMask)) != 0 ||
      (sched != cudaDeviceScheduleAuto && sched != cudaDeviceScheduleSpin &&
       sched != cudaDeviceScheduleYield && sched != cudaDeviceScheduleBlockingSync)) {
    return rt::record(cudaErrorInvalidValue);
  }
  if (cudaError_t sticky = rt::sticky_error(); sticky != cudaSuccess) return rt::record(sticky);
  CUdevice device = 0;
  if (CUresult result = current_cu_device(&device); result != CUDA_SUCCESS) {
    return rt::record(result);
  }
  // The runtime always maps host memory; cudaDeviceLmemResizeToMax is the default
  // behaviour (cuda_runtime_api.h). Both are recorded as given.
  if (CUresult result = cuDevicePrimaryCtxSetFlags(device, flags); result != CUDA_SUCCESS) {
    return rt::record(result);
  }
  // An uninitialised device is initialised with the new flags.
  return rt::record(rt::activate_current_device());
}

cudaError_t cudaGetDeviceFlags(unsigned int* flags) {
  if (flags == nullptr) return rt::record(cudaErrorInvalidValue);
  CUdevice device = 0;
  if (CUresult result = current_cu_device(&device); result != CUDA_SUCCESS) {
    return rt::record(result);
  }
  unsigned int primary_flags = 0;
  int active = 0;
  if (CUresult result = cuDevicePrimaryCtxGetState(device, &primary_flags, &active);
      result != CUDA_SUCCESS) {
    return rt::record(result);
  }
  *flags = primary_flags | cudaDeviceMapHost;  // implicit in runtime API flags
  return cudaSuccess;
}

}  // extern "C"
