// The one mapping from driver results (CUresult) to runtime errors (cudaError_t).
// Pure functions; thread-safe.
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

cudaError_t to_cuda_error(CUresult result);

// True for errors that corrupt the context: once seen, every later call returns them
// until the process exits (illegal address, assert, launch failure, ...).
bool is_sticky(cudaError_t error);

// "cudaErrorInvalidValue" / "invalid argument"; nullptr for values the toolkit does
// not define.
const char* error_name(cudaError_t error);
const char* error_description(cudaError_t error);

}  // namespace strata::cuda::runtime
