// The simulator's side of kernel traces (hw/perf/trace.h): the hooks through which
// functional execution feeds a TraceRecorder when GridLaunch::trace is set.
//
// Cost when off: one predictable branch per interpreted instruction (warp_run.cc tests
// Worker::trace) and one per memory access (record_memory_access, shared accesses).
// When on, only CTAs on SM 0 (cta.sm == 0, i.e. linear % sm_count == 0) are recorded.
// A warp's trace is looked up once per run_warp slice (ExecContext::trace_warp), and
// written only by the worker running the warp's SM.
#pragma once

#include <cstdint>
#include <memory>

#include "hw/perf/trace.h"
#include "hw/sim/sm/mem_model.h"
#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// A recorder for `launch` (launch shape, the SM count of its config and the program's
// instruction words filled in). Set launch.trace to it before execute_grid, and call
// finish() on it afterwards.
std::unique_ptr<perf::TraceRecorder> make_trace_recorder(const GridLaunch& launch);

// execute_grid(launch, stats) with recording on: *trace receives SM 0's trace (also when
// the grid faulted part-way: what ran until the fault). launch.trace is ignored.
FaultRecord execute_grid_traced(const GridLaunch& launch, GridStats* stats,
                                perf::KernelTrace* trace);

// The interpreter issued instruction ctx.pc - 1 for the running group (ctx.group) with
// `exec` the lanes whose guard held. Call only when ctx.worker->trace is set, before
// the instruction's handler runs.
[[gnu::noinline]] void trace_issue(ExecContext& ctx, uint32_t exec);

// The instruction being executed touched `count` distinct 32-byte sectors (ascending),
// as record_memory_access (mem_model.h) reports them. No-op unless this warp is being
// recorded.
void trace_memory(ExecContext& ctx, AccessKind kind, const uint64_t* sectors, uint32_t count);

// The shared-memory instruction being executed needed `wavefronts` wavefronts (32 banks
// x 4 bytes; the statistics' count). No-op unless this warp is being recorded.
void trace_shared(ExecContext& ctx, uint32_t wavefronts);

}  // namespace strata::hw::sim
