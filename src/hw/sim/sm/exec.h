// The boundary between the command processor and the SMs: execute one grid.
// Implemented under hw/sim/sm/ (owner: SM core).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "base/status.h"
#include "hw/config/arch_config.h"
#include "hw/contract/fault.h"
#include "hw/contract/packets.h"
#include "hw/contract/report.h"
#include "hw/perf/kernel_stats.h"
#include "hw/sim/memory.h"

namespace strata::hw::perf {
class CacheState;  // hw/perf/cache.h
class TraceRecorder;  // hw/perf/trace.h
struct WarpTrace;
}  // namespace strata::hw::perf

namespace strata::hw::sim {

// Pre-decoded kernel code (decoded once, cached by the command processor keyed by
// address-space id and code VA; dropped on kIcacheInvalidate).
class Program;

// Decodes `bytes` (a whole number of 16-byte instruction words). An undecodable word
// is not an error here: executing it raises kIllegalInstruction.
std::shared_ptr<const Program> decode_program(const uint8_t* code, uint64_t bytes);

struct FaultRecord {
  FaultKind kind = FaultKind::kNone;
  uint64_t address = 0;
  uint32_t pc = 0;          // instruction index
  uint32_t cta[3] = {0, 0, 0};
  uint32_t tid[3] = {0, 0, 0};
};

// Statistics of one grid, collected with statistics on (cheap, always collected).
struct GridStats {
  uint64_t warp_instructions = 0;    // executed Strata instructions, counted per warp
  uint64_t thread_instructions = 0;  // sum of active lanes over executed instructions
  std::vector<uint64_t> warp_instructions_per_sm;  // for the timing model
  perf::KernelStats kernel;          // everything the timing models consume
};

struct GridLaunch {
  const LaunchPacket* packet = nullptr;
  const Program* program = nullptr;
  const PageWalker* memory = nullptr;      // the channel's address space
  const ArchConfig* config = nullptr;
  uint64_t shared_window = 0;              // SHARED_WINDOW register
  uint64_t local_window = 0;               // LOCAL_WINDOW register
  uint64_t start_time_ns = 0;              // device clock at launch (for %globaltimer)
  // Fault kHazard when the code's control bits do not cover a dependency
  // (hw/sim/sm/hazard_check.h). The command processor sets it from STRATA_CHECK_HAZARDS.
  bool check_hazards = false;
  // The device's cache contents, which persist from grid to grid (owned by the command
  // processor); null: the grid starts with empty caches of its own.
  perf::CacheState* caches = nullptr;
  // Records the instruction and address streams of SM 0's CTAs into this recorder
  // (caller-owned, hw/sim/sm/trace_hook.h) for the detailed timing model; null: off.
  perf::TraceRecorder* trace = nullptr;
  // Receives one record per instruction of the program that ran (warp_instructions != 0;
  // the end sentinel excluded), by ascending pc, with the grid's per-instruction counts
  // (hw/sim/sm/stats.h), also when the grid faulted part-way; the same whatever the
  // number of worker threads. Null: not collected. Caller-owned; replaced, not appended.
  std::vector<PcCounters>* pc_counters = nullptr;
};

// Executes every CTA of the grid on the SM worker threads (STRATA_THREADS, default:
// host cores) and returns when the grid has finished or faulted. CTAs stay resident
// for their whole life within the occupancy limits of the config; resident CTAs, their
// warps and the diverged paths of a warp are interleaved so that every forward-progress
// pattern CUDA guarantees since Volta completes, with any number of threads. A faulting
// SM stops at once; the others finish the current epoch of the modeled interleaving
// (grid.cc), then the grid stops and returns the first fault of the lowest-numbered SM
// that faulted in that epoch (kind kNone: success) — the same fault whatever the number
// of host threads.
FaultRecord execute_grid(const GridLaunch& launch, GridStats* stats);

}  // namespace strata::hw::sim
