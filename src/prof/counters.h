// A kernel's counter block (hw/contract/report.h) as the named raw counters of
// prof::Kernel::counters: scalar fields under their field names, arrays as
// "<field>.<name>" (pipes by perf::pipe_name, tensor types "f16", "tf32", "i8", "i4",
// "f64", "f8", stall reasons by perf::stall_reason_name). Only the groups the block's
// `valid` bits mark are present.
#pragma once

#include <map>
#include <string>

#include "hw/contract/report.h"

namespace strata::prof {

std::map<std::string, double> counter_map(const hw::KernelCounters& counters);

// "fast", "detailed" or "sampled".
const char* timing_name(uint32_t timing_mode);

}  // namespace strata::prof
