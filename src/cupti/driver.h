// libcuda.so.1's public entry points, for the CUPTI calls that ask the driver about
// devices and contexts (cuptiGetDeviceId, cuptiDeviceSupported, cuptiDeviceGetChipName).
// libcupti.so.13 does not link libcuda.so.1: it finds the driver's functions at run time,
// so that it loads beside any driver (and the unit test can stand in for one).
#pragma once

#include <cuda.h>
#include <cupti_result.h>

namespace strata::cupti {

// A libcuda.so.1 function: the one already loaded in the process (or defined by the
// executable), else from loading libcuda.so.1; null when there is none. Thread-safe.
void* driver_symbol(const char* name);

// The CUPTI result of a failed driver device query: CUPTI_ERROR_INVALID_DEVICE for
// CUDA_ERROR_INVALID_DEVICE, CUPTI_ERROR_NOT_INITIALIZED for CUDA_ERROR_NOT_INITIALIZED
// and CUDA_ERROR_DEINITIALIZED (cuInit not called, or the driver shut down),
// CUPTI_ERROR_UNKNOWN otherwise. CUDA_SUCCESS maps to CUPTI_SUCCESS.
CUptiResult device_query_result(CUresult result);

// cuDeviceGetCount: the number of devices, or the error as device_query_result maps it
// (CUPTI_ERROR_NOT_INITIALIZED when there is no driver).
CUptiResult device_count(int* count);

// cuDeviceGetAttribute for `device` (errors as device_count's).
CUptiResult device_attribute(CUdevice device, CUdevice_attribute attribute, int* value);

}  // namespace strata::cupti
