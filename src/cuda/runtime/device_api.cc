// Device management: count, selection, properties, attributes, synchronize, reset.
#include "base/log.h"
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/device_properties.h"

namespace rt = strata::cuda::runtime;

namespace {

// Ordinal check without creating a context.
cudaError_t check_device(int device) {
  CUresult result = rt::init_driver();
  if (result != CUDA_SUCCESS) return rt::record(result);
  int count = 0;
  result = cuDeviceGetCount(&count);
  if (result != CUDA_SUCCESS) return rt::record(result);
  if (count == 0) return rt::record(cudaErrorNoDevice);
  if (device < 0 || device >= count) return rt::record(cudaErrorInvalidDevice);
  return cudaSuccess;
}

}  // namespace

extern "C" {

cudaError_t cudaGetDeviceCount(int* count) {
  if (count == nullptr) return rt::record(cudaErrorInvalidValue);
  *count = 0;
  CUresult result = rt::init_driver();
  if (result != CUDA_SUCCESS) return rt::record(result);
  result = cuDeviceGetCount(count);
  if (result != CUDA_SUCCESS) return rt::record(result);
  return *count == 0 ? rt::record(cudaErrorNoDevice) : cudaSuccess;
}

cudaError_t cudaSetDevice(int device) {
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  rt::set_current_device(device);
  return rt::record(rt::activate_device(device));
}

cudaError_t cudaGetDevice(int* device) {
  if (device == nullptr) return rt::record(cudaErrorInvalidValue);
  *device = rt::current_device();
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (prop == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  return rt::record(rt::fill_device_properties(device, prop));
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (value == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  CUdevice handle = 0;
  CUresult result = cuDeviceGet(&handle, device);
  if (result != CUDA_SUCCESS) return rt::record(result);
  // cudaDeviceAttr and CUdevice_attribute share their values.
  return rt::record(cuDeviceGetAttribute(value, static_cast<CUdevice_attribute>(attr), handle));
}

cudaError_t cudaDeviceSynchronize(void) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuCtxSynchronize());
}

// cudaLimit and CUlimit share their values; the driver implements the limits.
cudaError_t cudaDeviceSetLimit(enum cudaLimit limit, size_t value) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuCtxSetLimit(static_cast<CUlimit>(limit), value));
}

cudaError_t cudaDeviceGetLimit(size_t* value, enum cudaLimit limit) {
  if (value == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuCtxGetLimit(value, static_cast<CUlimit>(limit)));
}

cudaError_t cudaDeviceReset(void) {
  int device = rt::current_device();
  if (cudaError_t error = check_device(device); error != cudaSuccess) return error;
  CUdevice handle = 0;
  CUresult result = cuDeviceGet(&handle, device);
  if (result != CUDA_SUCCESS) return rt::record(result);
  result = cuDevicePrimaryCtxReset(handle);
  if (result != CUDA_SUCCESS) return rt::record(result);
  rt::forget_device_context(device);
  rt::clear_sticky_error();
  return cudaSuccess;
}

}  // extern "C"
