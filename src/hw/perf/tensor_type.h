// The TensorType (kernel_stats.h) an MMA instruction's multiply-adds count as, by the
// format of its A operand: what the statistics count (KernelStats::tensor_fmas) and the
// detailed model times against the config's tensor rates.
#pragma once

#include "hw/perf/kernel_stats.h"
#include "isa/tensor.h"

namespace strata::hw::perf {

// False for formats without a tensor rate (b1).
bool tensor_type_of(isa::MmaFormat format, TensorType* out);

}  // namespace strata::hw::perf
