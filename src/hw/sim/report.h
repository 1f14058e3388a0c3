// Work reports (hw/contract/report.h): the command processor's per-channel reporting
// state, filling a report's counter block from a grid's statistics, and storing a report.
#pragma once

#include <cstdint>

#include "hw/contract/report.h"
#include "hw/perf/fast_model.h"
#include "hw/perf/kernel_stats.h"

namespace strata::hw::perf {
struct DetailedResult;
}

namespace strata::hw::sim {

class PageWalker;

// Armed by kReport; command-processor thread only.
struct ReportState {
  uint64_t va = 0;  // 0: not reporting
  uint32_t flags = 0;
  uint32_t index = 0;  // next work packet's slot
};

// The counter block of a grid: `detailed` null under the fast model.
void fill_counters(const perf::KernelStats& stats, const perf::KernelTime& time,
                   const perf::DetailedResult* detailed, ReportTiming timing, KernelCounters* out);

// Stores `report` in slot state->index (then advances it); `written` last, with release.
// False when the slot is not mapped writable (the caller faults the channel).
bool store_report(const PageWalker& walker, ReportState* state, WorkReport report,
                  uint64_t* fault_va);

}  // namespace strata::hw::sim
