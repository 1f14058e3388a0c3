// Execution state of a grid, its resident CTAs and their warps. Plain data: switching
// between warps or CTAs costs nothing but a pointer.
//
// Ownership and threads: a GridState is shared by all worker threads (its mutable parts
// are atomics); a Cta, with its warps, registers, shared and local memory, is run by one
// worker thread at a time: it stays with the worker that started it unless an idle
// worker takes it over (grid.cc hands it over under a mutex, which orders every access
// of the old worker before those of the new one); a Worker is one thread's private
// state. Shared atomics and each Worker sit on cache lines of their own.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

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
  uint64_t clock_seen = 0;       // SM clock (sm_cycles) at the end of its last round
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

  // Written by different workers at different rates: one cache line each.
  alignas(kCacheLine) std::atomic<uint64_t> next_cta{0};
  alignas(kCacheLine) std::atomic<uint64_t> live_ctas{0};  // started and not finished
  alignas(kCacheLine) std::atomic<bool> stop{false};
  alignas(kCacheLine) std::atomic<uint64_t> writes{0};  // published count of stores/atomics (hang detection)
  alignas(kCacheLine) std::mutex fault_mutex;
  FaultRecord fault;                // first fault; guarded by fault_mutex
};

// A per-SM counter array of one worker, on cache lines no other data shares.
class SmCounters {
 public:
  explicit SmCounters(uint32_t sms)
      : size_((sms + kPerLine - 1) / kPerLine * kPerLine),
        v_(new (std::align_val_t{kCacheLine}) uint64_t[size_]()) {}
  uint64_t& operator[](uint32_t sm) { return v_[sm]; }
  uint64_t operator[](uint32_t sm) const { return v_[sm]; }

 private:
  static constexpr uint32_t kPerLine = kCacheLine / sizeof(uint64_t);
  struct Free {
    void operator()(uint64_t* p) const { ::operator delete[](p, std::align_val_t{kCacheLine}); }
  };
  uint32_t size_;
  std::unique_ptr<uint64_t[], Free> v_;
};

// One worker thread's private state (the CTAs it created are freed with it).
struct alignas(kCacheLine) Worker {
  Worker(const PageWalker* walker, uint32_t sms) : tlb(walker), sm_instructions(sms), sm_clock_bias(sms) {}
  Tlb tlb;
  GridState* grid = nullptr;
  uint64_t warp_instructions = 0;
  uint64_t thread_instructions = 0;
  uint64_t writes = 0;               // stores/atomics executed (per instruction)
  SmCounters sm_instructions;        // per SM, exact (statistics)
  // Added to sm_instructions to form the SM clock, so that a CTA taken over from
  // another worker never sees its clock go backwards.
  SmCounters sm_clock_bias;
  perf::KernelStats stats;           // this worker's share of the grid's statistics
  std::vector<std::unique_ptr<Cta>> ctas;  // every CTA object this worker allocated
  std::vector<Cta*> spare;                 // finished ones, for reuse

  uint64_t sm_clock(uint32_t sm) const { return sm_instructions[sm] + sm_clock_bias[sm]; }
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
