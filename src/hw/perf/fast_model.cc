// Placeholder until the fast model lands (owner: fast-model helper): keeps the
// previous analytical clock model's kernel formula so the tree builds.
#include "hw/perf/fast_model.h"

#include <algorithm>
#include <cmath>

namespace strata::hw::perf {

const char* bound_name(Bound bound) {
  switch (bound) {
    case Bound::kIssue: return "issue";
    case Bound::kPipe: return "pipe";
    case Bound::kShared: return "shared";
    case Bound::kL1: return "l1";
    case Bound::kL2: return "l2";
    case Bound::kDram: return "dram";
    case Bound::kLatency: return "latency";
    case Bound::kLaunch: return "launch";
  }
  return "?";
}

KernelTime model_kernel(const ArchConfig& config, const KernelStats& stats, double) {
  KernelTime t;
  uint64_t busiest = 0;
  for (uint64_t v : stats.sm_warp_instructions) busiest = std::max(busiest, v);
  const double per_clock = static_cast<double>(std::max<int64_t>(config.warp_schedulers_per_sm, 1));
  t.issue_cycles = static_cast<double>(busiest) / per_clock;
  t.cycles = static_cast<uint64_t>(std::ceil(t.issue_cycles));
  t.launch_ns = static_cast<uint64_t>(std::max<int64_t>(config.launch_overhead_ns, 0));
  t.ns = t.launch_ns + static_cast<uint64_t>(std::ceil(t.issue_cycles * 1000.0 /
                                                       static_cast<double>(std::max<int64_t>(config.core_clock_mhz, 1))));
  return t;
}

CopyTime model_copy(const ArchConfig&, MemoryKind, MemoryKind, uint64_t) { return {}; }
CopyTime model_fill(const ArchConfig&, MemoryKind, uint64_t) { return {}; }
uint64_t model_api_ns(const ArchConfig&, ApiCost) { return 0; }

}  // namespace strata::hw::perf
