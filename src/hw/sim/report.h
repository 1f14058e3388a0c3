// Work reports (hw/contract/report.h): the command processor's per-channel reporting
// state, filling a report's counter block from a grid's statistics, and storing a report.
#pragma once

#include <cstdint>
#include <vector>

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
  // The pc area (kReportPcCounters): pc_capacity PcCounters records at pc_va, of which
  // the launches since the kReport packet stored pc_used.
  uint64_t pc_va = 0;
  uint32_t pc_capacity = 0;
  uint32_t pc_used = 0;
};

// The counter block of a grid: `detailed` null under the fast model.
void fill_counters(const perf::KernelStats& stats, const perf::KernelTime& time,
                   const perf::DetailedResult* detailed, ReportTiming timing, KernelCounters* out);

// Stores `report` in slot state->index (then advances it); `written` last, with release.
// False when the slot is not mapped writable (the caller faults the channel).
bool store_report(const PageWalker& walker, ReportState* state, WorkReport report,
                  uint64_t* fault_va);

// Stores a launch's per-instruction records in the pc area from record state->pc_used
// on, as many as fit (the rest are dropped), advances pc_used, and sets counters->pc_first,
// pc_count and pc_executed (= records.size()). False when a record's address is not
// mapped writable (*fault_va: the first such byte; the caller faults the channel).
bool store_pc_counters(const PageWalker& walker, ReportState* state,
                       const std::vector<PcCounters>& records, KernelCounters* counters,
                       uint64_t* fault_va);

}  // namespace strata::hw::sim
