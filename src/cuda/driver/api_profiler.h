// cuGetExportTable's tables: the profiler table (prof/abi.h) for prof::kProfilerTableId.
#pragma once

#include <cuda.h>

namespace strata::cuda::driver {

// The table for `id`, or null when `id` names no table Strata exports.
const void* profiler_export_table(const CUuuid& id);

}  // namespace strata::cuda::driver
