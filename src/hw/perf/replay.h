// Record and replay (issue 5 item 7, `strata sweep`): the timing of a kernel recorded
// once (STRATA_RECORD_DIR, hw/perf/trace.h's RecordInfo) recomputed under another
// architecture config, without re-running the program. docs/perf-model.md, "Record and
// replay", describes the approximations; in short:
//
// Occupancy. Resident CTAs per SM are recomputed from the new config's limits (blocks,
// threads, registers, shared memory: the rules of hw/sim/sm/grid.cc) and the recorded
// launch shape.
//
// SM count. SM 0 runs CTAs linear % N' == 0 under N' SMs, ceil(C / N') of them. The
// recorded CTAs (SM 0's under the recording config) stand for any CTA: the replay uses
// them cyclically (the first ceil(C / N') of them when there are more; repeated in
// order when there are fewer), renumbered to SM 0's linear indices under N'.
//
// L1. SM 0's recorded sector streams are replayed (replay_caches) through an L1 of the
// config's capacity less the resident CTAs' shared memory and an L2 slice of
// l2_bytes / sm_count (the detailed model's view of one SM), with the policies of
// hw/perf/cache.h: resident CTAs' warps take turns one memory instruction at a time;
// the caches start empty. Only the recorded CTAs are replayed (at most ceil(C / N')
// of them: repeats would hit on data the real CTAs would not share). The grid's L1
// counters are the recorded ones scaled by how the replayed miss rate per L1-visible
// sector changed between the recording config and the new one:
//   c' = c_recorded x rate'(c) / rate_recorded(c)
// (c' = rate'(c) x the grid's L1-visible sectors when the recording config's replay
// saw none).
//
// L2 and DRAM. The recording holds the whole device's L2 request stream (every SM's L1
// misses, stores, atomics and write-backs, in the order the simulator's L2 consumed
// them). It is replayed through the config's L2, which the sweep carries from kernel to
// kernel of a device as the simulator does: exact for any L2 size and associativity as
// long as the L1s send the same requests. When the L1 or the SM count changes, the
// counts are scaled by how SM 0's replayed L2 traffic per L1-visible sector changed
// (the addresses are the recorded ones). Traces without the stream (version 1, or
// recorded without STRATA_RECORD_DIR) fall back to SM 0's L2 slice, scaled as the L1.
// Replayed under the recording config, every counter is the recorded one.
//
// Timing. Fast model: model_kernel(config, stats') with the recorded statistics, the
// recomputed occupancy and cache counters, and, when the SM count changed, per-SM counts
// rebuilt by taking each CTA to cost its recording SM's average and dealing CTA c to SM
// c % N' (without recorded per-SM counts, the fast model spreads the CTAs evenly).
// Detailed model: model_kernel_detailed on SM 0's CTAs as above.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/status.h"
#include "hw/config/arch_config.h"
#include "hw/perf/cache.h"
#include "hw/perf/detailed/model.h"
#include "hw/perf/fast_model.h"
#include "hw/perf/kernel_stats.h"
#include "hw/perf/trace.h"

namespace strata::hw::perf {

// ---- Configs under a sweep -------------------------------------------------------

// One `--set section.field=v1,v2,...`: the field and the values to sweep, in order.
struct ConfigOverride {
  std::string key;  // "section.field", a field of arch_fields.def
  std::vector<std::string> values;
};
// Parses "section.field=v1,v2,...". Errors (Code::kInvalidValue): no '=', an empty value,
// or a key that is not a config field (naming it).
StatusOr<ConfigOverride> parse_override(std::string_view text);

// One config of a sweep: the assignment of one value to every overridden field.
using Assignment = std::vector<std::pair<std::string, std::string>>;  // {key, value}
// The cartesian product of the overrides, the first override varying slowest; one
// empty assignment when there are none.
std::vector<Assignment> override_product(const std::vector<ConfigOverride>& overrides);

// The config text `toml_text` (from `path`) with each assigned field's value replaced
// (its source comment kept), parsed and validated by parse_arch_config: a value of the
// wrong type, out of range or contradicting another field is rejected as the loader
// rejects it, with the message prefixed by the assignment ("device.sm_count=0: ...").
StatusOr<ArchConfig> apply_overrides(std::string_view toml_text, std::string_view path,
                                     const Assignment& assignment);

// ---- Recording --------------------------------------------------------------------

// Every config field as {"section.name", value text} (strings unquoted), for RecordInfo.
std::vector<std::pair<std::string, std::string>> config_fields(const ArchConfig& config);
// STRATA_RECORD_DIR (read once): the directory the launch path records every kernel
// into; null when unset or empty.
const char* record_dir();
// Records one kernel into record_dir(): fills trace->record (launch, config fields, the
// grid's statistics) and writes <dir>/<device>-<seq>-k<kernel_id>.strace, seq counting the
// device's recorded launches from 0 (six digits, zero-padded). The directory is created
// when missing. Failures are logged as warnings: recording never fails a launch.
void record_kernel(const ArchConfig& config, uint32_t device, uint64_t kernel_id, uint64_t grid_id,
                   const uint32_t grid[3], const uint32_t block[3], const KernelStats& stats,
                   KernelTrace* trace);
// The recording config rebuilt from trace.record.config_fields (fields missing there
// keep their defaults). Code::kInvalidValue when the trace has no recording.
StatusOr<ArchConfig> recorded_config(const KernelTrace& trace);

// ---- Replay -----------------------------------------------------------------------

// Resident CTAs per SM for the trace's launch shape under `config` (grid.cc's rules);
// 0 when a CTA does not fit.
uint32_t resident_ctas(const ArchConfig& config, const KernelTrace& trace,
                       KernelStats::Limiter* limiter = nullptr);

// What replaying SM 0's sector streams under a config gave (32-byte sectors).
struct CacheReplay {
  uint64_t ctas = 0;        // CTAs replayed
  uint64_t l1_sectors = 0;  // global/local/texture sectors and atomics (L1-visible)
  uint64_t l1_hits = 0, l1_misses = 0;
  uint64_t l2_hits = 0, l2_misses = 0;
  uint64_t dram_read_sectors = 0, dram_write_sectors = 0;
  uint64_t l2_sectors = 0;  // sectors the L1 sent to the L2 (misses, stores, atomics, write-backs)
};
CacheReplay replay_caches(const KernelTrace& trace, const ArchConfig& config);

enum class ReplayTiming : uint8_t { kFast, kDetailed, kBoth };

struct KernelReplay {
  KernelStats stats;        // the statistics under the config (what the fast model got)
  uint32_t sm0_ctas = 0;    // CTAs SM 0 runs under the config: ceil(C / N')
  KernelTime fast;          // the fast model (kFast, kBoth)
  DetailedResult detailed;  // the detailed model (kDetailed, kBoth)
  KernelTime detailed_time;
};

// Replays `trace` (with a recording) under `config`. `l2`: the device's L2 as left by the
// kernels replayed before this one under the same config (the simulator's L2 persists
// from grid to grid); null: an empty L2 of the config. Errors: Code::kInvalidValue when
// the trace has no recording, or a CTA does not fit on an SM of `config` (naming the
// limits).
StatusOr<KernelReplay> replay_kernel(const KernelTrace& trace, const ArchConfig& config,
                                     ReplayTiming timing, CacheState* l2 = nullptr);

}  // namespace strata::hw::perf
