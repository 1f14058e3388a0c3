// execute_grid: validates the launch, computes occupancy, and runs the grid's CTAs in a
// deterministic modeled interleaving on the worker pool.
//
// The interleaving is a function of each SM alone, never of the host threads:
//   - CTA c runs on SM c % sm_count. Each SM keeps its resident CTAs (at most the
//     occupancy limit, started in CTA order; the next one starts when one finishes) and
//     runs them in rounds: each resident CTA in start order runs a slice of each of its
//     ready warps in warp order (run_warp).
//   - Time is cut into epochs: an SM's epoch ends at the first CTA-round boundary after
//     it has issued kEpochInstructions warp instructions in the epoch (or when it has no
//     work left). Within an epoch each SM is run by one worker: workers claim SMs from
//     the epoch's list of SMs with work left, in turn, so host cores stay busy whatever
//     the mix of SMs. Which worker runs an SM does not affect anything it computes.
//   - The cache models: an SM's L1 (SmState::l1) is touched only by the worker running
//     the SM; its L2 requests go to a per-SM log (SmState::l2_log). When every worker
//     has finished the epoch (a barrier), the last to arrive prepares the next epoch and
//     releases the others. The L2 consumes epoch e's logs in SM order (and each log in
//     issue order) during epoch e + 1: the L2's sets are independent, so every worker
//     replays the requests of the sets it owns (set % workers) before it runs SMs, and
//     each set sees the same sequence of requests whatever the number of workers.
//     The last epoch's logs are replayed the same way after the last barrier.
//   So with race-free kernels every statistic, the caches' counts and %clock are
//   bit-identical with any STRATA_THREADS. Kernels whose SMs communicate (spin waits,
//   atomics whose results steer control flow or addresses) see another SM's writes of
//   the same epoch at points that depend on host timing; they are reproducible with
//   STRATA_THREADS=1 only.
//
// Forward progress: all CTAs that may be co-resident are resident at once, so grid-wide
// waits and cooperative grid sync complete; the lowest-numbered unfinished CTA is always
// resident (its SM started its earlier CTAs first), so decoupled look-back completes;
// every SM with work runs in every epoch, so a CTA spinning on another SM's flag sees it
// set within an epoch of its being written. Within a CTA, warps and the diverged paths of
// a warp take turns (warp_run.h). A CTA in which no thread can run is reported as a
// deadlock; a grid without any store or atomic for STRATA_HANG_TIMEOUT_MS is reported hung.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "base/log.h"
#include "hw/perf/cache.h"
#include "hw/perf/trace.h"
#include "hw/sim/sm/exec.h"
#include "hw/sim/sm/state.h"
#include "hw/sim/sm/stats.h"
#include "hw/sim/sm/warp_run.h"
#include "hw/sim/sm/worker_pool.h"

namespace strata::hw::sim {
namespace {

// Without any store or atomic anywhere in the grid for this long, the grid is presumed
// hung (threads spinning on a condition that nothing will change).
uint64_t hang_timeout_ms() {
  if (const char* env = std::getenv("STRATA_HANG_TIMEOUT_MS"); env != nullptr && *env != '\0') {
    const long long v = std::atoll(env);
    if (v > 0) return static_cast<uint64_t>(v);
  }
  return 60000;
}

uint64_t now_ms() {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::milliseconds>(
                                   std::chrono::steady_clock::now().time_since_epoch())
                                   .count());
}

// Resident CTAs per SM under the config's limits (0 in the config: no limit) and the
// limit that binds (the first of blocks, warps, registers, shared memory at the minimum).
struct Occupancy {
  uint64_t ctas = 0;
  perf::KernelStats::Limiter limiter = perf::KernelStats::Limiter::kNone;
};
Occupancy occupancy(const ArchConfig& cfg, const LaunchPacket& p, uint32_t warps) {
  using Limiter = perf::KernelStats::Limiter;
  Occupancy o;
  o.ctas = 32;  // without a block limit
  if (cfg.max_blocks_per_sm > 0)
    o.ctas = static_cast<uint64_t>(cfg.max_blocks_per_sm), o.limiter = Limiter::kBlocks;
  auto limit = [&](uint64_t n, Limiter why) {
    if (n < o.ctas) o.ctas = n, o.limiter = why;
  };
  if (cfg.max_threads_per_sm > 0) limit(cfg.max_threads_per_sm / (warps * 32ull), Limiter::kWarps);
  if (cfg.registers_per_sm > 0 && p.regs_per_thread > 0) {
    const uint64_t unit = cfg.register_alloc_unit > 0 ? cfg.register_alloc_unit : 1;
    const uint64_t per_warp = (p.regs_per_thread * 32ull + unit - 1) / unit * unit;
    limit(cfg.registers_per_sm / (per_warp * warps), Limiter::kRegisters);
  }
  const uint64_t smem = p.shared_bytes + static_cast<uint64_t>(std::max<int64_t>(
                                             cfg.reserved_shared_bytes_per_block, 0));
  if (smem > 0)
    limit(static_cast<uint64_t>(std::max<int64_t>(cfg.shared_bytes_per_sm, 0)) / smem,
          Limiter::kShared);
  return o;
}

FaultRecord bad_packet(const LaunchPacket* p, const std::string& why) {
  STRATA_LOG_ERROR("kernel {}: launch rejected: {}", p != nullptr ? p->kernel_id : 0, why);
  FaultRecord f;
  f.kind = FaultKind::kBadPacket;
  return f;
}

void init_cta(Cta& cta, const GridState& g, uint64_t linear) {
  const LaunchPacket& p = *g.packet;
  cta.linear = linear;
  cta.id[0] = static_cast<uint32_t>(linear % p.grid[0]);
  cta.id[1] = static_cast<uint32_t>((linear / p.grid[0]) % p.grid[1]);
  cta.id[2] = static_cast<uint32_t>(linear / (static_cast<uint64_t>(p.grid[0]) * p.grid[1]));
  cta.sm = static_cast<uint32_t>(linear % g.sm_count);
  cta.num_threads = g.block_threads;
  cta.live_threads = g.block_threads;
  cta.live_warps = g.warps_per_cta;
  cta.next_warp = 0;
  const size_t rows = g.program->num_rows();
  cta.regfile.assign(rows * 32 * g.warps_per_cta, 0);
  cta.shared.assign(p.shared_bytes, 0);
  cta.local.assign(g.local_stride * g.warps_per_cta * 32, 0);
  cta.warps.assign(g.warps_per_cta, Warp{});
  for (uint32_t i = 0; i < g.warps_per_cta; ++i) {
    Warp& w = cta.warps[i];
    w.index = i;
    w.regs = cta.regfile.data() + rows * 32 * i;
    w.preds[kPredTrueSlot] = 0xffffffffu;
    const uint32_t threads = std::min<uint32_t>(32, g.block_threads - i * 32);
    const uint32_t valid = threads == 32 ? 0xffffffffu : (1u << threads) - 1;
    w.exited = ~valid;
    w.ready = valid;
  }
  for (CtaBarrier& b : cta.bars) b = CtaBarrier{};
  if (g.check_hazards) {
    cta.hazard.resize(g.warps_per_cta);
    for (uint32_t i = 0; i < g.warps_per_cta; ++i) {
      hazard_reset(&cta.hazard[i], g.program->num_gpr_rows());
      cta.warps[i].hazard = &cta.hazard[i];
    }
  }
}

// Logs and faults a CTA in which no thread can run.
void report_deadlock(Worker& wk, Cta& cta) {
  GridState& g = *wk.grid;
  for (Warp& w : cta.warps) {
    const uint32_t live = ~w.exited;
    if (live == 0) continue;
    const int lane = std::countr_zero(live);
    const char* what = w.bar_wait & (1u << lane)        ? "a CTA barrier (BAR)"
                       : w.warpsync_wait & (1u << lane) ? "WARPSYNC"
                                                        : "a convergence barrier (BSYNC)";
    STRATA_LOG_ERROR(
        "kernel {}: deadlock in block ({},{},{}): no thread can run; warp {} lane {} waits at {} "
        "at pc {}",
        g.packet->kernel_id, cta.id[0], cta.id[1], cta.id[2], w.index, lane, what, w.pc[lane]);
    ExecContext ctx;
    ctx.grid = &g;
    ctx.cta = &cta;
    ctx.warp = &w;
    ctx.pc = w.pc[lane] + 1;
    raise_fault(ctx, FaultKind::kTrap, w.pc[lane], lane);
    return;
  }
}

void report_hang(Worker& wk, Cta& cta, uint64_t ms) {
  GridState& g = *wk.grid;
  for (Warp& w : cta.warps) {
    const uint32_t live = ~w.exited;
    if (live == 0) continue;
    const int lane = std::countr_zero(live);
    STRATA_LOG_ERROR(
        "kernel {}: presumed hung: no store or atomic in the grid for {} ms; block ({},{},{}) warp "
        "{} "
        "lane {} at pc {} (STRATA_HANG_TIMEOUT_MS sets the limit)",
        g.packet->kernel_id, ms, cta.id[0], cta.id[1], cta.id[2], w.index, lane, w.pc[lane]);
    ExecContext ctx;
    ctx.grid = &g;
    ctx.cta = &cta;
    ctx.warp = &w;
    ctx.pc = w.pc[lane] + 1;
    raise_fault(ctx, FaultKind::kTrap, w.pc[lane], lane);
    return;
  }
}

// Runs every ready warp of `cta` once. Returns false if the grid must stop.
bool run_cta_round(Worker& wk, Cta& cta) {
  bool any_ready = false;
  for (Warp& w : cta.warps) {
    if (w.ready == 0) continue;
    any_ready = true;
    if (!run_warp(wk, cta, w)) return false;
  }
  if (cta.live_threads != 0 && !any_ready) {
    report_deadlock(wk, cta);
    return false;
  }
  return true;
}

// Warp instructions an SM issues per epoch (at least; the epoch ends at the next CTA-
// round boundary). Large enough that the barrier costs little next to the work of an
// epoch (a few hundred microseconds of simulation per SM), small enough that the L2 sees
// the SMs' streams finely interleaved and a CTA spinning on another SM wastes little.
inline constexpr uint64_t kEpochInstructions = 8192;

// An SM's CTA scheduling state (parallel to GridState::sms), run by one worker at a time.
struct alignas(kCacheLine) SmQueue {
  std::vector<Cta*> resident;              // in start order
  size_t cursor = 0;                       // the next resident CTA of the current round
  uint64_t next_cta = 0;                   // the next CTA to start on this SM
  uint32_t started = 0;                    // CTAs started (KernelStats::sm_ctas)
  bool done = false;                       // no CTA left to run or start
  std::vector<std::unique_ptr<Cta>> ctas;  // every CTA object of this SM
  std::vector<Cta*> spare;                 // finished ones, for reuse
};

struct Scheduler {
  GridState* grid = nullptr;
  std::vector<std::unique_ptr<Worker>> workers;
  std::unique_ptr<SmState[]> sms;
  std::unique_ptr<SmQueue[]> queues;
  uint64_t per_sm = 0;      // resident CTAs per SM
  uint64_t timeout_ms = 0;  // hang detection
  perf::CacheState* caches = nullptr;

  // The current epoch: the SMs with work left, in SM order, claimed through next_index.
  // Written only by the last worker to arrive at the barrier, before it releases the
  // others (generation); read by all during the epoch.
  std::vector<uint32_t> active;
  std::vector<uint32_t> replay;  // the SMs whose SmState::l2_replay holds the previous epoch's log
  bool finished = false;
  alignas(kCacheLine) std::atomic<uint32_t> next_index{0};
  alignas(kCacheLine) std::atomic<uint32_t> arrived{0};
  alignas(kCacheLine) std::atomic<uint32_t> generation{0};
};

// Starts the SM's next CTA (reusing a finished CTA's storage) at the end of its rounds.
void start_cta(GridState& g, SmQueue& q) {
  Cta* cta;
  if (!q.spare.empty()) {
    cta = q.spare.back();
    q.spare.pop_back();
  } else {
    q.ctas.push_back(std::make_unique<Cta>());
    cta = q.ctas.back().get();
  }
  init_cta(*cta, g, q.next_cta);
  q.next_cta += g.sm_count;
  ++q.started;
  q.resident.push_back(cta);
}

// Per-worker hang detection state.
struct Progress {
  uint64_t published_writes = 0;
  uint64_t seen_global = 0;
  uint64_t last_progress_ms = 0;
  uint64_t next_check_insts = 1u << 16;
};

// Runs SM `sm` until the end of its epoch, its work or the grid. Returns false if the
// grid must stop.
bool run_sm_epoch(Scheduler& s, Worker& wk, Progress& pr, uint32_t sm) {
  GridState& g = *s.grid;
  SmState& st = g.sms[sm];
  SmQueue& q = s.queues[sm];
  const uint64_t end = st.instructions + kEpochInstructions;
  if (q.started == 0) {  // the SM's first epoch: start its first CTAs
    while (q.started < s.per_sm && q.next_cta < g.total_ctas) start_cta(g, q);
  }
  while (!g.stop.load(std::memory_order_relaxed)) {
    if (q.resident.empty()) {
      q.done = true;
      return true;
    }
    if (q.cursor >= q.resident.size()) q.cursor = 0;
    Cta* cta = q.resident[q.cursor];
    if (!run_cta_round(wk, *cta)) {
      // A fault on this SM: it runs no further; the other SMs finish the epoch, so the
      // grid reports the same fault whatever the number of host threads (end_epoch).
      if (st.fault.kind == FaultKind::kNone) return false;
      q.done = true;
      return true;
    }
    if (cta->live_threads == 0) {
      q.resident.erase(q.resident.begin() + static_cast<ptrdiff_t>(q.cursor));
      q.spare.push_back(cta);
      if (q.next_cta < g.total_ctas) start_cta(g, q);
    } else {
      ++q.cursor;
    }
    if (wk.writes != pr.published_writes) {
      g.writes.fetch_add(wk.writes - pr.published_writes, std::memory_order_relaxed);
      pr.published_writes = wk.writes;
    }
    if (wk.warp_instructions >= pr.next_check_insts) {
      pr.next_check_insts = wk.warp_instructions + (1u << 16);
      const uint64_t global = g.writes.load(std::memory_order_relaxed);
      const uint64_t now = now_ms();
      if (global != pr.seen_global) {
        pr.seen_global = global;
        pr.last_progress_ms = now;
      } else if (now - pr.last_progress_ms > s.timeout_ms && cta->live_threads != 0) {
        report_hang(wk, *cta, now - pr.last_progress_ms);
        q.done = true;
        return true;
      }
    }
    if (q.cursor >= q.resident.size() && st.instructions >= end) return true;  // a round boundary
  }
  return false;
}

// The end of an epoch, by the last worker to arrive: the epoch's logs become the ones to
// replay, and the next epoch's SMs are listed.
void end_epoch(Scheduler& s) {
  GridState& g = *s.grid;
  for (uint32_t sm : s.replay) g.sms[sm].l2_replay.clear();
  std::vector<uint32_t> next;
  // Recording for `strata sweep` (trace.h): the L2's input in the order it consumes it.
  if (perf::TraceRecorder* rec = s.workers.front()->trace; rec != nullptr && rec->records_l2())
    for (uint32_t sm : s.active)
      for (const perf::L2Request& r : g.sms[sm].l2_log)
        rec->add_l2_request(r.address, r.sectors, static_cast<uint8_t>(r.op));
  for (uint32_t sm : s.active) {
    g.sms[sm].l2_log.swap(g.sms[sm].l2_replay);
    if (!s.queues[sm].done) next.push_back(sm);
  }
  s.replay = s.active;
  // The first fault of the lowest-numbered SM that faulted this epoch stops the grid.
  bool faulted = false;
  for (uint32_t sm : s.replay) {
    if (g.sms[sm].fault.kind == FaultKind::kNone) continue;
    std::lock_guard<std::mutex> lock(g.fault_mutex);
    g.fault = g.sms[sm].fault;
    faulted = true;
    break;
  }
  s.active.swap(next);
  s.finished = s.active.empty() || faulted || g.stop.load(std::memory_order_relaxed);
  s.next_index.store(0, std::memory_order_relaxed);
  s.arrived.store(0, std::memory_order_relaxed);
}

// Applies the previous epoch's L2 requests to the sets worker `self` of `threads` owns,
// in SM order; the L2's counts go to the worker's statistics.
void replay_l2(Scheduler& s, Worker& wk, uint32_t self, uint32_t threads) {
  for (uint32_t sm : s.replay) {
    const std::vector<perf::L2Request>& log = s.grid->sms[sm].l2_replay;
    if (threads == 1) {  // one worker owns every set: no division per request
      for (const perf::L2Request& r : log) s.caches->apply(r, wk.stats);
      continue;
    }
    for (const perf::L2Request& r : log) {
      if (r.set % threads == self) s.caches->apply(r, wk.stats);
    }
  }
}

void worker_main(Scheduler& s, int self) {
  GridState& g = *s.grid;
  Worker& wk = *s.workers[self];
  const uint32_t threads = static_cast<uint32_t>(s.workers.size());
  Progress pr;
  pr.last_progress_ms = now_ms();
  uint32_t generation = 0;
  for (;;) {
    replay_l2(s, wk, static_cast<uint32_t>(self), threads);
    while (!g.stop.load(std::memory_order_relaxed)) {
      const uint32_t i = s.next_index.fetch_add(1, std::memory_order_relaxed);
      if (i >= s.active.size()) break;
      if (!run_sm_epoch(s, wk, pr, s.active[i])) break;
    }
    // The barrier: the arrivals' release sequence hands every SM's state to the last
    // worker, whose generation bump hands the next epoch to everyone.
    if (s.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == threads) {
      end_epoch(s);
      s.generation.store(generation + 1, std::memory_order_release);
      s.generation.notify_all();
    } else {
      for (int spin = 0; spin < 64 && s.generation.load(std::memory_order_acquire) == generation;
           ++spin) {
        std::this_thread::yield();
      }
      while (s.generation.load(std::memory_order_acquire) == generation)
        s.generation.wait(generation);
    }
    ++generation;
    if (s.finished) {
      replay_l2(s, wk, static_cast<uint32_t>(self), threads);
      return;
    }
  }
}

}  // namespace

FaultRecord execute_grid(const GridLaunch& launch, GridStats* stats) {
  const LaunchPacket* p = launch.packet;
  if (launch.pc_counters != nullptr) launch.pc_counters->clear();
  if (p == nullptr || launch.program == nullptr || launch.memory == nullptr ||
      launch.config == nullptr) {
    return bad_packet(p, "incomplete launch (packet, program, memory and config are required)");
  }
  const ArchConfig& cfg = *launch.config;
  for (int i = 0; i < 3; ++i) {
    if (p->grid[i] == 0 || p->block[i] == 0)
      return bad_packet(p, "grid and block dimensions must be positive");
  }
  const uint64_t block_threads = static_cast<uint64_t>(p->block[0]) * p->block[1] * p->block[2];
  const uint64_t max_block =
      cfg.max_threads_per_block > 0 ? static_cast<uint64_t>(cfg.max_threads_per_block) : 1024;
  if (block_threads > max_block) {
    return bad_packet(p, "block of " + std::to_string(block_threads) + " threads exceeds " +
                             std::to_string(max_block));
  }
  if (p->regs_per_thread > isa::kNumGprs + 1)
    return bad_packet(p, "more than 256 registers per thread");
  if (p->local_bytes_per_thread > kWindowBytes)
    return bad_packet(p, "local memory per thread exceeds the 16 MiB window");
  if (p->shared_bytes > kWindowBytes)
    return bad_packet(p, "shared memory exceeds the 16 MiB window");
  if (p->dynamic_shared_bytes > p->shared_bytes)
    return bad_packet(p, "dynamic shared memory exceeds shared_bytes");

  GridState g;
  g.packet = p;
  g.program = launch.program;
  g.memory = launch.memory;
  g.config = launch.config;
  g.shared_window = launch.shared_window;
  g.local_window = launch.local_window;
  g.start_time_ns = launch.start_time_ns;
  g.check_hazards = launch.check_hazards;
  g.local_stride = (static_cast<uint64_t>(p->local_bytes_per_thread) + 15) & ~uint64_t{15};
  g.block_threads = static_cast<uint32_t>(block_threads);
  g.warps_per_cta = static_cast<uint32_t>((block_threads + 31) / 32);
  g.total_ctas = static_cast<uint64_t>(p->grid[0]) * p->grid[1] * p->grid[2];
  g.sm_count = cfg.sm_count > 0 ? static_cast<uint32_t>(cfg.sm_count) : 1;
  g.nwarpid = cfg.max_threads_per_sm > 0 ? static_cast<uint32_t>(cfg.max_threads_per_sm / 32) : 64;
  g.ns_per_cycle = cfg.core_clock_mhz > 0 ? 1000.0 / static_cast<double>(cfg.core_clock_mhz) : 1.0;

  const Occupancy occ = occupancy(cfg, *p, g.warps_per_cta);
  const uint64_t per_sm = occ.ctas;
  if (per_sm == 0)
    return bad_packet(p, "a block does not fit on an SM (threads, registers or shared memory)");

  Scheduler s;
  s.grid = &g;
  s.per_sm = per_sm;
  s.timeout_ms = hang_timeout_ms();
  std::unique_ptr<perf::CacheState> own_caches;
  s.caches = launch.caches;
  if (s.caches == nullptr) {
    own_caches = std::make_unique<perf::CacheState>(cfg);
    s.caches = own_caches.get();
  }
  // Every SM's L1 loses the shared memory of its resident CTAs (the carve-out).
  const uint64_t busiest_sm_ctas =
      std::min<uint64_t>(per_sm, (g.total_ctas + g.sm_count - 1) / g.sm_count);
  const uint64_t smem_per_cta = p->shared_bytes + static_cast<uint64_t>(std::max<int64_t>(
                                                      cfg.reserved_shared_bytes_per_block, 0));
  const uint64_t l1_bytes = perf::l1_capacity(cfg, busiest_sm_ctas * smem_per_cta);
  s.sms = std::make_unique<SmState[]>(g.sm_count);
  s.queues = std::make_unique<SmQueue[]>(g.sm_count);
  g.sms = s.sms.get();
  const uint32_t busy_sms = static_cast<uint32_t>(std::min<uint64_t>(g.sm_count, g.total_ctas));
  for (uint32_t sm = 0; sm < g.sm_count; ++sm) {
    s.sms[sm].l1 = perf::SectorCache(l1_bytes, perf::l1_ways(cfg));
    s.sms[sm].l2 = &s.caches->l2();
    s.queues[sm].next_cta = sm;
    s.queues[sm].done = sm >= busy_sms;
    if (sm < busy_sms) s.active.push_back(sm);
  }
  const int threads = static_cast<int>(std::min<uint64_t>(worker_thread_count(), busy_sms));
  for (int i = 0; i < threads; ++i) {
    s.workers.push_back(std::make_unique<Worker>(launch.memory, g.sms));
    s.workers.back()->grid = &g;
    s.workers.back()->trace = launch.trace;  // recording (trace_hook.h); usually null
  }
  WorkerPool::instance().run(threads, [&](int i) { worker_main(s, i); });

  if (stats != nullptr) {
    *stats = GridStats{};
    perf::KernelStats& k = stats->kernel;
    stats->warp_instructions_per_sm.assign(g.sm_count, 0);
    for (const auto& w : s.workers) {
      stats->warp_instructions += w->warp_instructions;
      stats->thread_instructions += w->thread_instructions;
      k.merge(w->stats);
    }
    k.ctas = g.total_ctas;
    k.threads_per_cta = g.block_threads;
    k.warps_per_cta = g.warps_per_cta;
    k.regs_per_thread = p->regs_per_thread;
    k.shared_bytes_per_cta = p->shared_bytes;
    k.ctas_per_sm = static_cast<uint32_t>(per_sm);
    k.max_warps_per_sm = g.nwarpid;
    k.occupancy_limiter = occ.limiter;
    k.sm_warp_instructions.assign(g.sm_count, 0);
    k.sm_ctas.assign(g.sm_count, 0);
    for (uint32_t sm = 0; sm < g.sm_count; ++sm) {
      stats->warp_instructions_per_sm[sm] = s.sms[sm].instructions;
      k.sm_warp_instructions[sm] = s.sms[sm].instructions;
      k.sm_ctas[sm] = s.queues[sm].started;
    }
  }
  if (stats != nullptr)
    for (const auto& w : s.workers) fold_pc_counts(*g.program, *w, &stats->kernel);  // stats.h
  if (launch.pc_counters != nullptr) {
    std::vector<PcCount> sum;
    for (const auto& w : s.workers) add_pc_counts(*g.program, *w, &sum);
    *launch.pc_counters = pc_counters_of(sum);
  }
  std::lock_guard<std::mutex> lock(g.fault_mutex);
  return g.fault;
}

}  // namespace strata::hw::sim
