// Execution state of a grid, its resident CTAs and their warps. Plain data: switching
// between warps or CTAs costs nothing but a pointer.
//
// Ownership and threads: a GridState is shared by all worker threads (its mutable parts
// are atomics); an SM (SmState) with its resident CTAs, their warps, registers, shared
// and local memory, is run by one worker thread at a time: grid.cc hands SMs to workers
// between epochs, behind a barrier that orders every access of the old worker before
// those of the new one; a Worker is one thread's private state. Shared atomics, each SM
// and each Worker sit on cache lines of their own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "hw/perf/cache.h"
#include "hw/sim/sm/exec.h"
#include "hw/sim/sm/hazard_state.h"
#include "hw/sim/sm/program.h"

namespace strata::hw::sim {

inline constexpr uint64_t kWindowBytes = 16ull << 20;  // shared/local generic windows
inline constexpr int kNumCtaBarriers = 16;
inline constexpr size_t kCacheLine = 64;  // host cache line (false-sharing boundary)

// A thread's asynchronous copy (CPASYNC) or cp.async mbarrier arrival (CPARRIVE),
// queued until performed (hw/sim/sm/async.h).
struct AsyncOp {
  uint8_t* dst = nullptr;        // shared memory; for an arrival, the mbarrier word
  const uint8_t* src = nullptr;  // global memory (null when nothing is read)
  uint32_t group = 0;            // the thread's committed-group count at issue
  uint8_t lane = 0;
  uint8_t bytes = 0;             // 4, 8 or 16; 0 for an arrival
  uint8_t src_bytes = 0;         // bytes read from src; the rest are zero-filled
};

// Per-warp thread state. A lane is in exactly one of: exited, waiting at BSYNC,
// waiting at WARPSYNC, waiting at a CTA barrier, or ready. pc[] is authoritative for
// every lane that is not in the group currently running.
struct Warp {
  uint32_t* regs = nullptr;          // num_rows x 32 words (Program::num_rows)
  uint32_t preds[kPredSlots] = {};   // lane masks; slot 7 all ones
  uint32_t pc[32] = {};
  uint32_t exited = 0;               // includes lanes beyond the CTA's thread count
  uint32_t ready = 0;
  uint32_t conv[isa::kNumConvBarriers] = {};        // BSSY masks
  uint32_t bsync_wait[isa::kNumConvBarriers] = {};  // lanes waiting at BSYNC Bn
  uint32_t warpsync_wait = 0;
  uint32_t warpsync_mask[32] = {};
  uint32_t bar_wait = 0;             // lanes waiting at a CTA barrier
  uint8_t bar_id[32] = {};           // which barrier each waiting lane waits on
  uint32_t next_lane = 0;            // round-robin cursor over diverged groups
  uint32_t index = 0;                // warp index in the CTA
  HazardState* hazard = nullptr;     // the hazard checker's state, when checking
  std::vector<AsyncOp> async_ops;    // queued async operations of all lanes, in issue order
  uint32_t async_committed[32] = {}; // cp.async groups each lane has committed
};

// A named CTA barrier (BAR). Counts arrivals until the expected number is reached,
// then releases every waiting lane.
struct CtaBarrier {
  uint32_t arrived = 0;          // threads (or warps x 32 when a count was given)
  uint32_t expected = 0;         // 0: all unexited threads of the CTA
  uint32_t popc = 0;             // RED reductions over the arrivals' predicates
  bool all = true;
  bool any = false;
  std::vector<uint32_t> counted_warps;  // warps already counted (warp granularity)
};

struct Cta {
  uint32_t id[3] = {};
  uint64_t linear = 0;
  uint32_t sm = 0;
  uint32_t num_threads = 0;
  uint32_t live_threads = 0;     // not exited
  uint32_t live_warps = 0;
  std::vector<Warp> warps;
  std::vector<HazardState> hazard;  // one per warp when the grid checks hazards
  std::vector<uint32_t> regfile;
  std::vector<uint8_t> shared;
  std::vector<uint8_t> local;    // num_threads x local_bytes_per_thread
  CtaBarrier bars[kNumCtaBarriers];
  uint32_t next_warp = 0;        // round-robin cursor
};

// One SM's modeled state: what grid.cc's deterministic interleaving and the cache models
// keep per SM. Touched only by the worker that currently runs the SM.
struct alignas(kCacheLine) SmState {
  uint64_t instructions = 0;              // warp instructions issued on this SM (its clock)
  perf::SectorCache l1;                   // this SM's L1 (hw/perf/cache.h)
  const perf::SectorCache* l2 = nullptr;  // the device's L2 (for the set of each request)
  std::vector<perf::L2Request> l2_log;    // L2 requests of the current epoch, in issue order
  std::vector<perf::L2Request> l2_replay; // the previous epoch's, being replayed into the L2
  // The SM's first fault (kind kNone: none). A faulted SM runs no further; the grid stops
  // at the end of the epoch, reporting the fault of the lowest-numbered faulted SM, so
  // which fault a grid reports does not depend on the host threads (grid.cc).
  FaultRecord fault;
};

// Grid-wide, read-mostly launch facts plus the cross-thread stop/fault state.
struct GridState {
  const LaunchPacket* packet = nullptr;
  const Program* program = nullptr;
  const PageWalker* memory = nullptr;
  const ArchConfig* config = nullptr;
  uint64_t shared_window = 0;
  uint64_t local_window = 0;
  uint64_t start_time_ns = 0;
  uint64_t local_stride = 0;       // bytes between threads' local memory (16-aligned)
  uint32_t block_threads = 0;
  uint32_t warps_per_cta = 0;
  uint64_t total_ctas = 0;
  uint32_t sm_count = 1;
  uint32_t nwarpid = 1;
  double ns_per_cycle = 1.0;
  bool check_hazards = false;      // GridLaunch::check_hazards
  SmState* sms = nullptr;          // sm_count of them (grid.cc owns them)

  // Written by different workers at different rates: one cache line each.
  alignas(kCacheLine) std::atomic<bool> stop{false};
  alignas(kCacheLine) std::atomic<uint64_t> writes{0};  // published count of stores/atomics (hang detection)
  alignas(kCacheLine) std::mutex fault_mutex;
  FaultRecord fault;                // the grid's fault (grid.cc picks it); guarded by fault_mutex
};

// A worker's view of the SMs' instruction counters (SmState::instructions): a worker
// only touches the counters of the SMs it currently runs.
class SmInstructionCounts {
 public:
  explicit SmInstructionCounts(SmState* sms) : sms_(sms) {}
  uint64_t& operator[](uint32_t sm) { return sms_[sm].instructions; }
  uint64_t operator[](uint32_t sm) const { return sms_[sm].instructions; }

 private:
  SmState* sms_;
};

// Executions of one instruction by one worker: warp instructions and the active lanes
// (the running group's lanes, guard-predicated-off ones included) summed over them, and
// what its memory accesses added to the worker's KernelStats (stats.h), so that the sum
// over pcs equals the kernel's counts: global requests, sectors and bytes (loads,
// stores and atomics), local requests and sectors (loads and stores), and the shared
// counts.
struct PcCount {
  uint64_t warps = 0;
  uint64_t lanes = 0;
  uint64_t global_requests = 0, global_sectors = 0, global_bytes = 0;
  uint64_t local_requests = 0, local_sectors = 0;
  uint64_t shared_requests = 0, shared_wavefronts = 0, shared_bank_conflicts = 0;
};

// One worker thread's private state.
struct alignas(kCacheLine) Worker {
  Worker(const PageWalker* walker, SmState* sms) : tlb(walker), sm_instructions(sms) {}
  Tlb tlb;
  GridState* grid = nullptr;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t writes = 0;               // stores/atomics executed (per instruction)
  SmInstructionCounts sm_instructions;  // the SMs' counters (SmState::instructions)
  perf::KernelStats stats;           // this worker's share of the grid's statistics
  // ---- statistics collection (hw/sim/sm/stats.h) ----
  // Executions and memory counts per program counter (index = pc, size() + 1 entries
  // once run_warp has sized it), folded by fold_pc_counts when the grid ends.
  std::vector<PcCount> pc_counts;
  perf::TraceRecorder* trace = nullptr;  // GridLaunch::trace (hw/sim/sm/trace_hook.h)

  // The SM's clock: warp instructions issued on it so far (deterministic, monotonic).
  uint64_t sm_clock(uint32_t sm) const { return sm_instructions[sm]; }
};

// The running group of one warp, as the interpreter and handlers see it.
struct ExecContext {
  uint32_t pc = 0;
  uint32_t group = 0;      // lanes running; handlers remove lanes that block or exit
  bool stop = false;       // end this group's run (yield, block, fault)
  int backward_budget = 0;
  Warp* warp = nullptr;
  Cta* cta = nullptr;
  Worker* worker = nullptr;
  GridState* grid = nullptr;
  const Program* program = nullptr;
  uint32_t* regs = nullptr;
  uint64_t insts = 0;         // instructions executed in this slice
  uint64_t thread_insts = 0;
  perf::WarpTrace* trace_warp = nullptr;  // the warp's trace while recording (trace_hook.h)

  uint32_t* row(uint16_t r) const { return regs + static_cast<size_t>(r) * 32; }
  const uint32_t* src_b(const DecodedInst& in) const { return in.bimm ? in.bimm : row(in.b); }
  uint32_t* preds() const { return warp->preds; }
};

// Records a fault for `lane` (first fault of the grid wins) and stops the grid.
void raise_fault(ExecContext& ctx, FaultKind kind, uint64_t address, int lane);
// Ends the running group's slice: the group's lanes stay ready at ctx.pc.
inline void yield_group(ExecContext& ctx) { ctx.stop = true; }

// Thread index (x, y, z) of `lane` in warp `warp` of a CTA of the grid's block shape.
void thread_index(const GridState& grid, uint32_t warp, int lane, uint32_t out[3]);

}  // namespace strata::hw::sim
