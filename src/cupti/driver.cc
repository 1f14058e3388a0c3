#include "cupti/driver.h"

#include <dlfcn.h>

namespace strata::cupti {

void* driver_symbol(const char* name) {
  if (void* f = dlsym(RTLD_DEFAULT, name)) return f;
  static void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
  return handle != nullptr ? dlsym(handle, name) : nullptr;
}

CUptiResult device_query_result(CUresult result) {
  switch (result) {
    case CUDA_SUCCESS:
      return CUPTI_SUCCESS;
    case CUDA_ERROR_INVALID_DEVICE:
      return CUPTI_ERROR_INVALID_DEVICE;
    case CUDA_ERROR_NOT_INITIALIZED:
    case CUDA_ERROR_DEINITIALIZED:
      return CUPTI_ERROR_NOT_INITIALIZED;
    default:
      return CUPTI_ERROR_UNKNOWN;
  }
}

CUptiResult device_count(int* count) {
  using GetCount = CUresult (*)(int*);
  static auto get_count = reinterpret_cast<GetCount>(driver_symbol("cuDeviceGetCount"));
  if (get_count == nullptr) return CUPTI_ERROR_NOT_INITIALIZED;
  return device_query_result(get_count(count));
}

CUptiResult device_attribute(CUdevice device, CUdevice_attribute attribute, int* value) {
  using GetAttribute = CUresult (*)(int*, CUdevice_attribute, CUdevice);
  static auto get_attribute = reinterpret_cast<GetAttribute>(driver_symbol("cuDeviceGetAttribute"));
  if (get_attribute == nullptr) return CUPTI_ERROR_NOT_INITIALIZED;
  return device_query_result(get_attribute(value, attribute, device));
}

}  // namespace strata::cupti
