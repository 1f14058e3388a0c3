#include "hw/perf/detailed/model.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <vector>

#include "hw/perf/cache.h"
#include "hw/perf/detailed/memory.h"
#include "hw/perf/tensor_type.h"
#include "isa/encode.h"
#include "isa/latency.h"
#include "isa/pipe.h"
#include "isa/tensor.h"

namespace strata::hw::perf {

const char* stall_reason_name(StallReason r) {
  switch (r) {
    case StallReason::kBarrier:
      return "barrier";
    case StallReason::kDependency:
      return "dependency";
    case StallReason::kMemory:
      return "memory";
    case StallReason::kPipeBusy:
      return "pipe_busy";
    case StallReason::kNotSelected:
      return "not_selected";
    case StallReason::kSelected:
      return "selected";
  }
  return "?";
}

namespace {

using detailed::BandwidthQueue;

constexpr int kDepBarriers = 6;
constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

// What the cycle loop needs of one instruction, decoded once per pc.
struct StaticInst {
  uint8_t pipe = static_cast<uint8_t>(Pipe::kControl);
  uint8_t stall = 1;
  bool yield = false;
  uint8_t wbar = isa::kNoDepBarrier, rbar = isa::kNoDepBarrier;
  uint8_t wait = 0;
  bool late_reads = false;
  bool variable = false;
  bool memory = false;        // the memory/texture classes: completion from the access
  bool shared_space = false;  // an explicit shared-space memory instruction
  bool cta_barrier = false;   // BAR that waits for the CTA (SYNC and the reductions)
  uint32_t latency = 0;       // fixed latency, or the variable latency of a non-memory class
  double interval = 1;        // cycles the instruction occupies its scheduler's pipe
};

StaticInst decode_static(const uint8_t* word, const DetailedParams& p) {
  StaticInst s;
  isa::Word w;
  for (int i = 0; i < 8; ++i) {
    w.lo |= static_cast<uint64_t>(word[i]) << (8 * i);
    w.hi |= static_cast<uint64_t>(word[8 + i]) << (8 * i);
  }
  StatusOr<isa::Inst> d = isa::decode(w);
  if (!d.ok()) return s;  // a NOP (see model.h)
  const isa::Inst& in = *d;
  s.pipe = static_cast<uint8_t>(isa::pipe_of(in));
  s.stall = in.ctrl.stall == 0 ? 1 : in.ctrl.stall;
  s.yield = in.ctrl.yield;
  s.wbar = in.ctrl.wbar < kDepBarriers ? in.ctrl.wbar : isa::kNoDepBarrier;
  s.rbar = in.ctrl.rbar < kDepBarriers ? in.ctrl.rbar : isa::kNoDepBarrier;
  s.wait = static_cast<uint8_t>(in.ctrl.wait & ((1u << kDepBarriers) - 1));
  const isa::LatencyClass c = isa::latency_class(in);
  const isa::LatencyInfo& l = isa::latency_class_info(c);
  s.late_reads = l.reads == isa::SourceReads::kLate;
  s.variable = l.kind == isa::LatencyKind::kVariable;
  s.latency = l.kind == isa::LatencyKind::kFixed ? l.cycles : 0;
  switch (c) {
    case isa::LatencyClass::kMufu:
      s.latency = p.mufu_latency;
      break;
    case isa::LatencyClass::kIterative:
      s.latency = p.iterative_latency;
      break;
    case isa::LatencyClass::kSpecial:
      s.latency = p.special_latency;
      break;
    case isa::LatencyClass::kShuffle:
      s.latency = p.shuffle_latency;
      break;
    case isa::LatencyClass::kTensor:
      s.latency = p.tensor_latency;
      break;
    case isa::LatencyClass::kCtaBarrier:
      s.latency = p.barrier_latency;
      break;
    case isa::LatencyClass::kMemory:
    case isa::LatencyClass::kTexture:
      s.memory = true;
      s.latency = p.l1_hit_latency;
      break;
    default:
      break;
  }
  s.shared_space = s.memory && in.space == isa::MemSpace::SHARED;
  s.interval = p.pipe_interval[s.pipe];
  isa::MmaDesc desc;
  TensorType type;
  if (in.op == isa::Opcode::HMMA && isa::MmaDesc::decode(in.imm, &desc) &&
      tensor_type_of(desc.a, &type) && p.tensor_fmas_per_cycle[static_cast<int>(type)] > 0) {
    const isa::MmaDims d = isa::mma_dims(desc.shape);
    s.interval = static_cast<double>(d.m) * d.n * d.k * p.schedulers /
                 p.tensor_fmas_per_cycle[static_cast<int>(type)];
  }
  s.cta_barrier =
      in.op == isa::Opcode::BAR && static_cast<isa::BarOp>(in.mod) != isa::BarOp::ARRIVE;
  return s;
}

struct WarpState {
  const WarpTrace* trace = nullptr;
  uint32_t cursor = 0;  // next issue
  uint32_t access = 0;  // next TraceAccess
  uint32_t slot = 0;    // residency slot
  uint32_t scheduler = 0;
  bool live = false;  // resident and not finished
  bool at_barrier = false;
  uint8_t barrier_wbar = isa::kNoDepBarrier;  // the waiting BAR's wbar
  uint64_t next_issue = 0;
  uint64_t age = 0;      // residency order (oldest first)
  uint64_t done_at = 0;  // last issue + 1, and every result of the warp
  uint64_t bar_ready[kDepBarriers] = {};
  bool bar_memory[kDepBarriers] = {};
};

struct Slot {
  size_t cta = 0;  // index into trace.ctas
  bool busy = false;
  uint32_t live_warps = 0;
  uint32_t arrived = 0;
};

class Sm {
 public:
  Sm(const DetailedParams& p, const KernelTrace& t, uint32_t slots, double device_l2_miss_rate)
      : p_(p),
        t_(t),
        warps_per_cta_(std::max<uint32_t>(1, t.warps_per_cta)),
        l1_(p.l1_bytes > static_cast<uint64_t>(slots) * t.shared_bytes_per_cta
                ? p.l1_bytes - static_cast<uint64_t>(slots) * t.shared_bytes_per_cta
                : 0,
            p.l1_ways),
        l2_(p.l2_state != nullptr ? SectorCache() : SectorCache(p.l2_bytes, p.l2_ways)),
        l2p_(&l2_),
        device_l2_miss_rate_(device_l2_miss_rate),
        l1q_(p.l1_sectors_per_cycle),
        l2q_(p.l2_sectors_per_cycle),
        dramq_(p.dram_sectors_per_cycle),
        sharedq_(p.shared_wavefronts_per_cycle) {
    if (p.l2_state != nullptr) {  // the L2 contents persist from kernel to kernel
      if (p.l2_state->capacity_bytes() != SectorCache(p.l2_bytes, p.l2_ways).capacity_bytes() ||
          p.l2_state->ways() != p.l2_ways)
        *p.l2_state = SectorCache(p.l2_bytes, p.l2_ways);
      l2p_ = p.l2_state;
    }
    const size_t n = t.code.size() / 16;
    code_.reserve(n);
    for (size_t i = 0; i < n; ++i) code_.push_back(decode_static(&t.code[16 * i], p));
    slots_.resize(slots);
    warps_.resize(static_cast<size_t>(slots) * warps_per_cta_);
    for (size_t i = 0; i < warps_.size(); ++i)
      warps_[i].scheduler = static_cast<uint32_t>(i % p.schedulers);
    by_scheduler_.resize(p.schedulers);
    for (size_t i = 0; i < warps_.size(); ++i)
      by_scheduler_[i % p.schedulers].push_back(static_cast<uint32_t>(i));
    greedy_.assign(p.schedulers, -1);
    pipe_free_.assign(static_cast<size_t>(p.schedulers) * kNumPipes, 0.0);
  }

  DetailedResult run() {
    for (uint32_t s = 0; s < slots_.size() && next_cta_ < t_.ctas.size(); ++s) start_cta(s, 0);
    uint64_t t = 0;
    uint64_t resident_warp_cycles = 0;
    while (live_warps_ > 0) {
      bool issued = false;
      uint64_t next_event = kNever;
      reasons_now_.fill(0);
      idle_now_ = resident_now_ = 0;
      for (uint32_t s = 0; s < p_.schedulers; ++s) issued |= schedule(s, t, &next_event);
      const uint64_t span =
          issued ? 1 : (next_event == kNever ? 1 : std::max<uint64_t>(1, next_event - t));
      for (int r = 0; r < kNumStallReasons; ++r) result_.stall_cycles[r] += reasons_now_[r] * span;
      result_.idle_scheduler_cycles += idle_now_ * span;
      resident_warp_cycles += resident_now_ * span;
      if (!issued && next_event == kNever)
        break;  // nothing can ever issue (a barrier no warp completes)
      t += span;
    }
    uint64_t end = t;
    for (const WarpState& w : warps_) end = std::max(end, w.done_at);
    end = std::max(end, ctas_done_at_);
    result_.cycles = end;
    result_.ns =
        static_cast<uint64_t>(std::llround(static_cast<double>(end) * 1000.0 / p_.core_clock_mhz)) +
        p_.launch_overhead_ns;
    result_.achieved_occupancy = end == 0 ? 0.0
                                          : static_cast<double>(resident_warp_cycles) /
                                                static_cast<double>(end) / p_.max_warps_per_sm;
    return result_;
  }

 private:
  void start_cta(uint32_t s, uint64_t t) {
    Slot& slot = slots_[s];
    slot.cta = next_cta_++;
    slot.busy = true;
    slot.arrived = 0;
    slot.live_warps = 0;
    const CtaTrace& c = t_.ctas[slot.cta];
    ++result_.ctas;
    for (uint32_t w = 0; w < warps_per_cta_; ++w) {
      WarpState& ws = warps_[static_cast<size_t>(s) * warps_per_cta_ + w];
      const uint32_t sched = ws.scheduler;
      ws = WarpState{};
      ws.scheduler = sched;
      ws.slot = s;
      ws.age = next_age_++;
      ws.next_issue = t;
      ws.done_at = t;
      if (w < c.warps.size() && !c.warps[w].issues.empty()) {
        ws.trace = &c.warps[w];
        ws.live = true;
        ++slot.live_warps;
        ++live_warps_;
      }
    }
    if (slot.live_warps == 0) finish_cta(s, t);
  }

  void finish_cta(uint32_t s, uint64_t t) {
    Slot& slot = slots_[s];
    slot.busy = false;
    for (uint32_t w = 0; w < warps_per_cta_; ++w)
      ctas_done_at_ =
          std::max(ctas_done_at_, warps_[static_cast<size_t>(s) * warps_per_cta_ + w].done_at);
    if (next_cta_ < t_.ctas.size()) start_cta(s, t + 1);
  }

  // Releases the slot's barrier when every live warp has arrived.
  void check_barrier(uint32_t s, uint64_t t) {
    Slot& slot = slots_[s];
    if (slot.arrived == 0 || slot.arrived < slot.live_warps) return;
    slot.arrived = 0;
    const uint64_t release = t + p_.barrier_latency;
    for (uint32_t w = 0; w < warps_per_cta_; ++w) {
      WarpState& ws = warps_[static_cast<size_t>(s) * warps_per_cta_ + w];
      if (!ws.live || !ws.at_barrier) continue;
      ws.at_barrier = false;
      ws.next_issue = std::max(ws.next_issue, release);
      if (ws.barrier_wbar < kDepBarriers) {
        ws.bar_ready[ws.barrier_wbar] = std::max(ws.bar_ready[ws.barrier_wbar], release);
        ws.bar_memory[ws.barrier_wbar] = false;
      }
      ws.done_at = std::max(ws.done_at, release);
    }
  }

  // Why `w` cannot issue at cycle t (kSelected when it can), and the first cycle after t
  // at which that could change (kNever: only another warp's issue changes it).
  StallReason state(const WarpState& w, uint32_t sched, uint64_t t, uint64_t* change) const {
    *change = kNever;
    if (w.at_barrier) return StallReason::kBarrier;
    const StaticInst& si = code_[w.trace->issues[w.cursor].pc];
    StallReason why = StallReason::kSelected;
    auto consider = [&](uint64_t ready, StallReason reason) {
      if (ready <= t) return;
      *change = std::min(*change, ready);
      if (why == StallReason::kSelected) why = reason;
    };
    consider(w.next_issue, StallReason::kDependency);
    for (uint32_t m = si.wait; m != 0; m &= m - 1) {
      const int b = std::countr_zero(m);
      consider(w.bar_ready[b], w.bar_memory[b] ? StallReason::kMemory : StallReason::kDependency);
    }
    const double pipe_free = pipe_free_[static_cast<size_t>(sched) * kNumPipes + si.pipe];
    consider(static_cast<uint64_t>(std::ceil(pipe_free)), StallReason::kPipeBusy);
    return why;
  }

  // One scheduler's cycle t: picks and issues; records the warps' states.
  bool schedule(uint32_t sched, uint64_t t, uint64_t* next_event) {
    int pick = -1;
    uint64_t pick_age = kNever;
    uint32_t resident = 0;
    for (uint32_t i : by_scheduler_[sched]) {
      const WarpState& w = warps_[i];
      if (!w.live) continue;
      ++resident;
      uint64_t ready;
      const StallReason why = state(w, sched, t, &ready);
      if (why != StallReason::kSelected) {
        ++reasons_now_[static_cast<int>(why)];
        *next_event = std::min(*next_event, ready);
        continue;
      }
      ++reasons_now_[static_cast<int>(StallReason::kNotSelected)];
      if (static_cast<int>(i) == greedy_[sched]) {
        pick = static_cast<int>(i);
        pick_age = 0;
      } else if (w.age < pick_age) {
        pick = static_cast<int>(i);
        pick_age = w.age;
      }
    }
    resident_now_ += resident;
    if (resident == 0) ++idle_now_;
    if (pick < 0) return false;
    --reasons_now_[static_cast<int>(StallReason::kNotSelected)];
    ++reasons_now_[static_cast<int>(StallReason::kSelected)];
    issue(static_cast<uint32_t>(pick), sched, t);
    return true;
  }

  // When a memory instruction's result arrives (and counts the caches).
  uint64_t memory_completion(const StaticInst& si, const TraceAccess* a, const WarpTrace& wt,
                             uint64_t t) {
    const double now = static_cast<double>(t);
    if (a == nullptr) {
      if (si.shared_space) {
        ++result_.shared_wavefronts;
        return static_cast<uint64_t>(std::ceil(sharedq_.serve(now, 1))) + p_.shared_latency;
      }
      return t + p_.l1_hit_latency;
    }
    if (a->kind == TraceAccessKind::kShared) {
      const uint64_t n = std::max<uint32_t>(1, a->count);
      result_.shared_wavefronts += n;
      return static_cast<uint64_t>(std::ceil(sharedq_.serve(now, n))) + p_.shared_latency;
    }
    const uint64_t* sectors = wt.sectors.data() + a->first;
    const TraceAccessKind kind = a->kind;
    const bool load = kind == TraceAccessKind::kLoad || kind == TraceAccessKind::kLocalLoad ||
                      kind == TraceAccessKind::kTexture || kind == TraceAccessKind::kLoadL2;
    // Sectors served by each level, with hw/perf/cache.h's policies, line by line.
    uint64_t l1_hits = 0, l2_sectors = 0, l2_hits = 0, dram = 0;
    for (uint32_t i = 0; i < a->count;) {
      const uint64_t line = sectors[i] & ~uint64_t{kLineBytes - 1};
      uint32_t mask = 0;
      for (; i < a->count && (sectors[i] & ~uint64_t{kLineBytes - 1}) == line; ++i)
        mask |= 1u << ((sectors[i] / kSectorBytes) % kSectorsPerLine);
      const int n = std::popcount(mask);
      if (kind == TraceAccessKind::kAtomic) {
        l1_.invalidate(line, mask);
        const uint32_t hit = l2_access(line, mask, SectorCache::Fill::kDirty) & mask;
        const uint32_t to_dram = dram_sectors(n, n - std::popcount(hit));
        l2_sectors += n;
        l2_hits += n - to_dram;
        dram += to_dram;
      } else if (kind == TraceAccessKind::kStore) {
        l1_.access(line, mask, SectorCache::Fill::kNone);  // write-through, no allocate
        l2_access(line, mask, SectorCache::Fill::kDirty);
        l2_sectors += n;
      } else if (kind == TraceAccessKind::kLocalStore) {
        l1_access(line, mask, SectorCache::Fill::kDirty);  // write-back
      } else {
        // L2-only loads (cp.async.cg) neither look up nor fill the L1.
        const uint32_t hit = kind == TraceAccessKind::kLoadL2
                                 ? 0
                                 : l1_access(line, mask, SectorCache::Fill::kClean) & mask;
        l1_hits += std::popcount(hit);
        const uint32_t miss = mask & ~hit;
        if (miss != 0) {
          const uint32_t hit2 = l2_access(line, miss, SectorCache::Fill::kClean) & miss;
          const uint32_t n2 = std::popcount(miss);
          const uint32_t to_dram = dram_sectors(n2, std::popcount(miss & ~hit2));
          l2_sectors += n2;
          l2_hits += n2 - to_dram;
          dram += to_dram;
        }
      }
    }
    if (load && kind != TraceAccessKind::kLoadL2) {
      result_.l1_hits += l1_hits;
      result_.l1_misses += a->count - l1_hits;
    }
    if (load || kind == TraceAccessKind::kAtomic) {
      result_.l2_hits += l2_hits;
      result_.l2_misses += dram;
    }
    if (a->count == 0) return t + p_.l1_hit_latency;
    double arrival = now;
    if (kind != TraceAccessKind::kAtomic && kind != TraceAccessKind::kLoadL2) {
      const double l1_out = l1q_.serve(now, a->count);
      if (l1_hits > 0 || l2_sectors == 0) arrival = std::max(arrival, l1_out + p_.l1_hit_latency);
    }
    if (l2_sectors > 0)
      arrival = std::max(arrival, l2q_.serve(now, l2_sectors) + p_.l2_hit_latency);
    if (dram > 0) arrival = std::max(arrival, dramq_.serve(now, dram) + p_.dram_latency);
    // Write-backs the access caused take bandwidth from later requests (nobody waits for
    // them): dirty L1 lines into the L2, dirty L2 sectors into DRAM.
    if (l1_writebacks_ != 0) l2q_.serve(now, l1_writebacks_), l1_writebacks_ = 0;
    if (l2_writebacks_ != 0) dramq_.serve(now, l2_writebacks_), l2_writebacks_ = 0;
    return static_cast<uint64_t>(std::ceil(arrival));
  }

  // Cache accesses; a dirty line evicted from the L1 is written back to the L2, a dirty
  // sector evicted from the L2 to DRAM (counted here, timed by the caller).
  uint32_t l1_access(uint64_t line, uint32_t mask, SectorCache::Fill fill) {
    const SectorCache::Result r = l1_.access(line, mask, fill);
    if (r.evicted_dirty != 0) {
      l1_writebacks_ += static_cast<uint64_t>(std::popcount(r.evicted_dirty));
      l2_access(r.evicted_line, r.evicted_dirty, SectorCache::Fill::kDirty);
    }
    return r.hits;
  }
  // Of `lookups` sectors looked up in this SM's L2 share, `share_misses` missed there;
  // how many go to DRAM. Without the device's miss rate, all of them. With it, the others
  // are taken as lines other SMs' CTAs brought into the device's L2: the share sends to
  // DRAM only as many as keep this SM's running DRAM sectors at the device's miss rate
  // times its running lookups (never more than missed here).
  uint32_t dram_sectors(uint32_t lookups, uint32_t share_misses) {
    l2_lookups_ += lookups;
    uint32_t n = share_misses;
    if (device_l2_miss_rate_ >= 0) {
      const double allowed =
          device_l2_miss_rate_ * static_cast<double>(l2_lookups_) - static_cast<double>(l2_dram_);
      n = allowed <= 0 ? 0 : std::min(share_misses, static_cast<uint32_t>(std::llround(allowed)));
    }
    l2_dram_ += n;
    return n;
  }
  uint32_t l2_access(uint64_t line, uint32_t mask, SectorCache::Fill fill) {
    const SectorCache::Result r = l2p_->access(line, mask, fill);
    l2_writebacks_ += static_cast<uint64_t>(std::popcount(r.evicted_dirty));
    return r.hits;
  }

  void issue(uint32_t index, uint32_t sched, uint64_t t) {
    WarpState& w = warps_[index];
    const WarpTrace& wt = *w.trace;
    const TraceIssue& ti = wt.issues[w.cursor];
    const StaticInst& si = code_[ti.pc];
    ++result_.warp_instructions;
    result_.thread_instructions += static_cast<uint64_t>(std::popcount(ti.active));
    greedy_[sched] = si.yield ? -1 : static_cast<int>(index);
    w.next_issue = t + si.stall;
    double& pipe_free = pipe_free_[static_cast<size_t>(sched) * kNumPipes + si.pipe];
    pipe_free = std::max(pipe_free, static_cast<double>(t)) + si.interval;
    w.done_at = std::max(w.done_at, t + 1);

    const TraceAccess* access = nullptr;
    while (w.access < wt.accesses.size() && wt.accesses[w.access].issue < w.cursor) ++w.access;
    if (w.access < wt.accesses.size() && wt.accesses[w.access].issue == w.cursor)
      access = &wt.accesses[w.access++];

    if (!si.variable) {
      w.done_at = std::max(w.done_at, t + si.latency);
    } else if (si.cta_barrier && ti.exec != 0) {
      w.at_barrier = true;
      w.barrier_wbar = si.wbar;
      if (si.wbar < kDepBarriers) w.bar_ready[si.wbar] = kNever;  // set at the release
      ++slots_[w.slot].arrived;
    } else {
      uint64_t done;
      if (ti.exec == 0) {
        done = t + p_.operand_read_cycles;
      } else if (si.memory) {
        done = memory_completion(si, access, wt, t);
      } else {
        done = t + si.latency;
      }
      if (si.wbar < kDepBarriers) {
        if (done >= w.bar_ready[si.wbar]) w.bar_memory[si.wbar] = si.memory && ti.exec != 0;
        w.bar_ready[si.wbar] = std::max(w.bar_ready[si.wbar], done);
      }
      w.done_at = std::max(w.done_at, done);
    }
    if (si.late_reads && si.rbar < kDepBarriers && si.rbar != si.wbar) {
      const uint64_t read = t + p_.operand_read_cycles;
      if (read >= w.bar_ready[si.rbar]) w.bar_memory[si.rbar] = false;
      w.bar_ready[si.rbar] = std::max(w.bar_ready[si.rbar], read);
    }

    const uint32_t s = w.slot;
    if (w.at_barrier) check_barrier(s, t);
    if (++w.cursor == wt.issues.size()) {
      w.live = false;
      w.at_barrier = false;
      --live_warps_;
      Slot& slot = slots_[s];
      --slot.live_warps;
      if (slot.live_warps == 0) {
        finish_cta(s, t);
      } else {
        check_barrier(s, t);
      }
    }
  }

  const DetailedParams& p_;
  const KernelTrace& t_;
  uint32_t warps_per_cta_;
  std::vector<StaticInst> code_;
  std::vector<Slot> slots_;
  std::vector<WarpState> warps_;
  std::vector<std::vector<uint32_t>> by_scheduler_;
  std::vector<int> greedy_;
  std::vector<double>
      pipe_free_;  // per scheduler x pipe: the cycle the pipe accepts the next instruction
  SectorCache l1_, l2_;
  SectorCache* l2p_;                                // l2_, or DetailedParams::l2_state
  uint64_t l1_writebacks_ = 0, l2_writebacks_ = 0;  // sectors, not yet charged to a queue
  const double device_l2_miss_rate_;                // -1: unknown (the share decides alone)
  uint64_t l2_lookups_ = 0, l2_dram_ = 0;           // sectors, for dram_sectors()
  BandwidthQueue l1q_, l2q_, dramq_, sharedq_;
  size_t next_cta_ = 0;
  uint64_t next_age_ = 0;
  uint64_t live_warps_ = 0;
  uint64_t ctas_done_at_ = 0;
  std::array<uint64_t, kNumStallReasons> reasons_now_{};
  uint64_t idle_now_ = 0, resident_now_ = 0;
  DetailedResult result_;
};

}  // namespace

DetailedResult model_kernel_detailed(const DetailedParams& params, const KernelTrace& trace,
                                     const KernelStats& stats) {
  DetailedParams p = params;
  p.schedulers = std::max<uint32_t>(1, p.schedulers);
  p.max_warps_per_sm = std::max<uint32_t>(1, p.max_warps_per_sm);
  p.core_clock_mhz = p.core_clock_mhz > 0 ? p.core_clock_mhz : 1000;
  const uint32_t warps_per_cta = std::max<uint32_t>(1, trace.warps_per_cta);
  uint32_t slots = stats.ctas_per_sm;
  if (slots == 0) slots = std::max<uint32_t>(1, p.max_warps_per_sm / warps_per_cta);
  // Fewer CTAs than SMs: only that many SMs share the L2 and DRAM.
  if (p.device_sms > 0 && trace.total_ctas > 0 && trace.total_ctas < p.device_sms) {
    const double scale = static_cast<double>(p.device_sms) / static_cast<double>(trace.total_ctas);
    p.l2_bytes = static_cast<uint64_t>(static_cast<double>(p.l2_bytes) * scale);
    p.l2_sectors_per_cycle *= scale;
    p.dram_sectors_per_cycle *= scale;
  }
  // The grid's L2 read miss rate under the functional model, whose L2 every SM shares:
  // DRAM reads over the L2 lookups that were not stores (L2 lookups count store sectors
  // and L1 write-backs; local store sectors bound the latter).
  const uint64_t l2_lookups = stats.l2_hits + stats.l2_misses;
  const uint64_t writes = stats.global_stores.sectors + stats.local_stores.sectors;
  const uint64_t reads = l2_lookups > writes ? l2_lookups - writes : 0;
  const double device_l2_miss_rate =
      reads > 0
          ? std::min(1.0, static_cast<double>(stats.dram_read_sectors) / static_cast<double>(reads))
          : -1;
  Sm sm(p, trace, slots, device_l2_miss_rate);
  return sm.run();
}

DetailedResult model_kernel_detailed(const ArchConfig& config, const KernelTrace& trace,
                                     const KernelStats& stats) {
  return model_kernel_detailed(detailed_params(config), trace, stats);
}

KernelTime detailed_kernel_time(const DetailedResult& result, const DetailedParams& params,
                                double sm_share) {
  KernelTime t;
  const double share = sm_share > 0 && sm_share < 1 ? sm_share : 1.0;
  t.cycles = static_cast<uint64_t>(std::ceil(static_cast<double>(result.cycles) / share));
  t.launch_ns = params.launch_overhead_ns;
  const double clock_mhz = params.core_clock_mhz > 0 ? params.core_clock_mhz : 1000;
  t.ns = static_cast<uint64_t>(std::llround(static_cast<double>(t.cycles) * 1000.0 / clock_mhz)) +
         t.launch_ns;
  const uint64_t memory = result.stall(StallReason::kMemory);
  const uint64_t pipe = result.stall(StallReason::kPipeBusy);
  const uint64_t other =
      result.stall(StallReason::kDependency) + result.stall(StallReason::kBarrier);
  t.bound = memory > pipe && memory > other ? Bound::kLatency
            : pipe > other                  ? Bound::kPipe
                                            : Bound::kIssue;
  return t;
}

}  // namespace strata::hw::perf
