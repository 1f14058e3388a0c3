// The detailed (cycle-level) timing model, STRATA_TIMING=detailed (issue 5 item 5):
// replays a recorded kernel trace (hw/perf/trace.h) on one representative SM.
//
// What it simulates. SM 0's CTAs, in ascending linear index, with at most
// stats.ctas_per_sm resident at once (the occupancy of KernelStats; when 0, as many as
// max_warps_per_sm allows); a CTA starts the cycle after the last instruction of the one it
// replaces issued. Warp w of residency slot s belongs to scheduler (s * warps_per_cta + w) %
// schedulers. Each cycle each scheduler issues at most one instruction, choosing
// greedy-then-oldest: the warp it issued last if that warp is eligible and did not set
// `yield`, else the eligible warp that became resident first (lowest warp slot on a tie).
//
// A warp is eligible at cycle t when
//   - t >= its previous instruction's issue cycle + that instruction's stall count
//     (control bits, docs/isa.md: 0 counts as 1);
//   - every dependency barrier in the instruction's wait mask has completed: a barrier
//     completes when the last variable-latency result (wbar) or late source read (rbar)
//     that set it is done;
//   - the pipe it needs (isa/pipes.def) is free: one scheduler sends a pipe at most one
//     warp instruction per DetailedParams::pipe_interval cycles; an HMMA holds the
//     tensor pipe for its shape's m*n*k multiply-adds at 1/schedulers of the SM's tensor
//     rate for its input type (tensor_fmas_per_cycle);
//   - it is not waiting at a CTA barrier (BAR.SYNC / BAR.RED with an active lane).
// The model honours the control bits the compiler wrote, like the hardware: a
// fixed-latency result's readiness is the compiler's stall counts' business (the hazard
// checker verifies them), so fixed latencies only extend the kernel's end.
//
// Latencies. Fixed classes: isa/latencies.def. Variable classes: DetailedParams (MUFU,
// IDIV, S2R, SHFL, HMMA, BAR). Memory instructions use the access recorded for them,
// through the cache model and policies the functional statistics use (hw/perf/cache.h:
// 128-byte lines of 32-byte sectors, LRU; loads allocate in L1 (not cp.async.cg's, which go
// to the L2 only), global stores write
// through, local stores write back, atomics are performed in L2): an L1 of the config's
// capacity less the resident CTAs' shared memory, and this SM's share of the L2
// (l2_bytes / sm_count) in place of the device's. Each level is a BandwidthQueue with
// this SM's share of the level's bandwidth (1/sm_count of the device's L2 and DRAM: all
// SMs are assumed to behave like SM 0); a load's result arrives when its last sector
// has: queue exit + the load-to-use latency of the farthest level it reached (L1 hit,
// L2 hit, DRAM). A store completes (for its wbar) when the L2 has it.
// Sharing the L2 with the other SMs. The share sees only SM 0's requests, but the
// device's L2 also holds what other SMs' CTAs brought in (the operand panels concurrent
// GEMM CTAs all read). When the stats carry the functional model's L2 counters (whose L2
// every SM shares), a read or atomic sector that misses in the share goes to DRAM only
// while SM 0's DRAM sectors so far stay within the grid's L2 read miss rate
// (dram_read_sectors / non-store L2 lookups) times its L2 lookups so far; the others
// are L2 hits (timed as such, counted in l2_hits). Without those counters the share
// decides alone. Shared accesses
// queue their wavefronts at shared_wavefronts_per_cycle and arrive shared_latency after
// the last. A memory instruction without a recorded access (constants, fences, guard
// false) completes after l1_hit_latency (or operand_read_cycles when no lane ran it).
// Write-backs (dirty L1 lines to L2, dirty L2 sectors to DRAM) take their level's
// bandwidth from later requests; no warp waits for them.
//
// Time. cycles = the cycle by which every warp has issued its last instruction and
// every result has arrived. SM 0 runs ceil(total_ctas / sm_count) CTAs under the
// simulator's round-robin assignment, the most of any SM, so its time is the kernel's:
// ns = cycles / core clock + launch_overhead_ns. (A trace replayed under a config
// with a different SM count still replays the recorded CTAs.)
//
// Stall reasons are warp-cycles: each cycle, every resident, unfinished warp is counted
// once: kSelected if it issued, kNotSelected if it could have, else under the first that
// applies of kBarrier, kDependency (stall count), the wait mask's barriers in order
// (kMemory when the latest producer of the barrier was a memory instruction, else
// kDependency), kPipeBusy. A scheduler with no resident unfinished warp counts an idle
// cycle. The loop skips the cycles in which no warp's state can change.
//
// Deterministic: the result depends only on the trace, the stats and the parameters.
#pragma once

#include <array>
#include <cstdint>

#include "hw/config/arch_config.h"
#include "hw/perf/detailed/params.h"
#include "hw/perf/fast_model.h"
#include "hw/perf/kernel_stats.h"
#include "hw/perf/trace.h"

namespace strata::hw::perf {

enum class StallReason : uint8_t {
  kBarrier,      // waiting at a CTA barrier for the CTA's other warps
  kDependency,   // stall count not elapsed, or waiting on a non-memory dependency barrier
  kMemory,       // waiting on a dependency barrier set by a memory instruction
  kPipeBusy,     // its pipe is still busy with an earlier instruction of the scheduler
  kNotSelected,  // eligible, but the scheduler issued another warp's instruction
  kSelected,     // issued an instruction
};
inline constexpr int kNumStallReasons = 6;
const char* stall_reason_name(
    StallReason r);  // "barrier", "dependency", "memory", "pipe_busy", "not_selected", "selected"

struct DetailedResult {
  uint64_t cycles = 0;  // SM 0's work, core cycles
  uint64_t ns = 0;      // the kernel's modeled duration, launch overhead included
  uint64_t ctas = 0;    // CTAs simulated
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;  // active lanes summed over them
  // Average resident (unfinished) warps per cycle over max_warps_per_sm.
  double achieved_occupancy = 0;
  std::array<uint64_t, kNumStallReasons> stall_cycles{};  // warp-cycles, by StallReason
  uint64_t idle_scheduler_cycles = 0;
  // The memory system as SM 0 saw it, in 32-byte sectors (shared: wavefronts).
  uint64_t l1_hits = 0, l1_misses = 0;
  uint64_t l2_hits = 0, l2_misses = 0;
  uint64_t shared_wavefronts = 0;
  // Sampled simulation (detailed/sampled.h); a full replay leaves these as they are.
  bool sampled = false;
  int64_t main_loop_pc = -1;          // the loop head the iterations count (-1: none found)
  uint64_t waves_total = 0;           // waves of SM 0's CTAs (ceil(ctas / resident slots))
  uint64_t waves_simulated = 0;       // of them, simulated (the first and any partial last)
  uint64_t iterations_total = 0;      // main-loop iterations of all waves (inferred for full ones)
  uint64_t iterations_simulated = 0;  // of them, in the replays the estimate extends
  double extrapolation = 1.0;         // cycles / cycles of those replays (1: nothing inferred)

  uint64_t stall(StallReason r) const { return stall_cycles[static_cast<int>(r)]; }
};

// Models `trace` under `config` (detailed_params(config)); `stats` gives the occupancy
// (ctas_per_sm). An instruction word of the trace that does not decode is timed as a
// NOP (the recorder stores words that decoded, so only a corrupt file has one).
DetailedResult model_kernel_detailed(const ArchConfig& config, const KernelTrace& trace,
                                     const KernelStats& stats);
DetailedResult model_kernel_detailed(const DetailedParams& params, const KernelTrace& trace,
                                     const KernelStats& stats);

// The result as the timing models' common KernelTime (fast_model.h), for the timeline
// and the report: ns and cycles from `result`; launch_ns = params.launch_overhead_ns;
// bound: kLatency when memory stalls are the largest reason a warp could not issue,
// kPipe (busiest_pipe unset) when pipe-busy stalls are, else kIssue. sm_share is the
// fraction of the CTA slots the grid can fill that it holds (1 when it runs alone or gets
// all it can use); with sm_share < 1 (concurrent kernels hold the rest) SM 0's cycles are
// scaled by 1 / sm_share:
// its CTAs spread over fewer SMs (an approximation; recording under a config with that
// many SMs is exact).
KernelTime detailed_kernel_time(const DetailedResult& result, const DetailedParams& params,
                                double sm_share = 1.0);

}  // namespace strata::hw::perf
