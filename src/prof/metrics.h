// Per-kernel metrics in Nsight Compute's names, computed from a kernel's raw counters
// (Kernel::counters, hw/contract/report.h) and its device's configuration. One table
// (metrics.def) holds, per metric: the Nsight Compute name, its definition (the Kernel
// Profiling Guide's meaning), Strata's formula, the unit and the timing modes that can
// produce it. A metric whose inputs the kernel's counters lack (e.g. stall reasons
// under the fast model) is absent from the result, never estimated.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "prof/trace.h"

namespace strata::prof {

struct MetricDef {
  const char* name;        // e.g. "smsp__inst_executed.sum"
  const char* unit;        // "inst", "sector", "byte", "ns", "%", ...
  const char* definition;  // what Nsight Compute means by it
  const char* formula;     // how Strata computes it, in words
  const char* modes;       // "fast,detailed,sampled" or "detailed,sampled"
};

// Every metric of the table, in table order.
const std::vector<MetricDef>& metric_table();

struct MetricValue {
  std::string name;
  double value = 0;
  std::string unit;
};

// The metrics `kernel`'s counters support, in table order.
std::vector<MetricValue> kernel_metrics(const Kernel& kernel, const Device& device);

}  // namespace strata::prof
