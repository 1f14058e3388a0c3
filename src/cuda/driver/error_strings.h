// The names and descriptions cuGetErrorName/cuGetErrorString return for every CUresult
// cuda.h declares, worded as the CUDA driver words them. Pure lookup tables; thread-safe.
#pragma once

#include <cuda.h>

namespace strata::cuda::driver {

// The enumerator's identifier ("CUDA_ERROR_INVALID_VALUE"), or nullptr if `result` is
// not a CUresult value.
const char* error_name(CUresult result);

// The human-readable description ("invalid argument"), or nullptr if unknown.
const char* error_description(CUresult result);

}  // namespace strata::cuda::driver
