// Sampled simulation for large grids (issue 5 item 6), STRATA_TIMING=sampled: the
// detailed model (detailed/model.h) replays only as much of SM 0's trace as it takes
// for the kernel's main loop to reach a steady rate, and extrapolates the rest.
//
// Method (all on SM 0's recorded CTAs, ascending linear index):
//   1. Waves. `slots` = the CTAs resident at once (stats.ctas_per_sm, or as many as
//      max_warps_per_sm allows when 0, as model_kernel_detailed). The CTAs form
//      full_waves = ctas / slots full waves and one partial wave of ctas % slots.
//   2. Main loop. The most frequently taken backward-branch target of the first wave's
//      warps: a backward branch is two successive issues of a warp whose second pc is not
//      above the first; its target is the second pc (ties: the lowest pc). An iteration
//      of a warp starts at each issue of that pc; M_w = the warp's iterations.
//   3. Replays of k iterations. The wave's warps with M_w > k + 1 are cut to their first
//      k iterations followed by their last one (iterations k+1 .. M_w-1 are removed, with
//      their memory accesses), so prologue, epilogue and the drain of the wave are
//      simulated as they are; R(k) = max over the warps of the iterations removed. The
//      wave is replayed by model_kernel_detailed for k = 1, 2, 4, 8, ... giving T(k).
//   4. Settling. The cycles per iteration of window j is
//      r_j = (T(k_j) - T(k_{j-1})) / (R(k_{j-1}) - R(k_j)); windows of fewer than
//      min_window iterations (the first, [1, 2], by default) are skipped as warm-up. When
//      two successive windows agree, |r_j - r_{j-1}| <= tolerance * r_j (1% by default),
//      the wave's cycles are T(k_j) + r_j * R(k_j). When R(k) reaches 0 before that (the
//      wave ends: k + 1 >= every M_w), the last replay is the whole wave and its cycles
//      are exact. (The windows double rather than slide by one iteration: each T(k) is a
//      fresh replay, so the replays cost about twice the last one.)
//   5. Total. cycles = full_waves * (first wave's cycles) + the partial wave's cycles,
//      simulated whole. A grid of less than one wave has only the partial wave, which is
//      then the first wave and sampled as in 3-4. ns as the detailed model: cycles / core
//      clock + launch overhead.
// Consequences: a grid of one wave whose loop never settles is modeled exactly as
// model_kernel_detailed models it. Later full waves are assumed to take as long as the
// first (which starts with cold caches, and whose CTAs start together); a kernel
// without a backward branch has its waves simulated whole.
//
// The result's counters (instructions, stalls, cache sectors, ctas) are those of the
// replays the estimate extends (the final replay of each simulated wave), not scaled;
// achieved_occupancy is their cycle-weighted mean. The sampling fields of
// DetailedResult (sampled, main_loop_pc, waves_*, iterations_*, extrapolation = cycles
// / those replays' cycles) say what was simulated.
//
// Recording: the trace is still recorded whole (trace_hook.h records all of SM 0's
// warps); sampling bounds the model's time, not the trace's memory.
//
// Deterministic: the result depends only on the trace, the stats and the parameters.
#pragma once

#include <cstdint>

#include "hw/config/arch_config.h"
#include "hw/perf/detailed/model.h"
#include "hw/perf/detailed/params.h"
#include "hw/perf/kernel_stats.h"
#include "hw/perf/trace.h"

namespace strata::hw::perf {

struct SamplingParams {
  double tolerance = 0.01;  // two successive windows' cycles per iteration agree within this
  uint32_t min_window = 2;  // windows of fewer iterations are not compared (warm-up)
};

DetailedResult model_kernel_sampled(const DetailedParams& params, const KernelTrace& trace,
                                    const KernelStats& stats, const SamplingParams& sampling = {});
DetailedResult model_kernel_sampled(const ArchConfig& config, const KernelTrace& trace,
                                    const KernelStats& stats, const SamplingParams& sampling = {});

// The main loop's head pc of CTAs [first, first + count) of `trace` (step 2 above), or -1
// when their warps take no backward branch.
int64_t find_main_loop(const KernelTrace& trace, size_t first, size_t count);

// Policy for STRATA_TIMING=detailed (hw/sim/launch.cc): sample when SM 0's trace holds
// more than `threshold` warp instructions; threshold 0 means never.
bool should_sample(const KernelTrace& trace, uint64_t threshold);

}  // namespace strata::hw::perf
