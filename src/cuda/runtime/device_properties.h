// Filling cudaDeviceProp from the driver's device attributes. Thread-safe.
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// Every field the driver has an attribute for is filled; the rest are zero.
CUresult fill_device_properties(int device, cudaDeviceProp* prop);

}  // namespace strata::cuda::runtime
