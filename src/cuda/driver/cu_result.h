// The one place where a Strata Status becomes a CUresult (the driver API boundary).
#pragma once

#include <cuda.h>

#include "base/status.h"

namespace strata::cuda::driver {

// Status codes mirror CUresult values (base/status.h); codes that exist only in the
// runtime (kInvalidConfiguration) map to CUDA_ERROR_INVALID_VALUE, anything cuda.h
// does not declare to CUDA_ERROR_UNKNOWN.
CUresult to_cu_result(Code code);

// Maps `status` and logs its message (info level; errors the user must see are logged
// where they arise, e.g. JIT failures and device faults). `api` names the entry point.
CUresult to_cu_result(const char* api, const Status& status);

// The inverse, for statuses built from a CUresult (sticky context errors).
Code to_code(CUresult result);

}  // namespace strata::cuda::driver
