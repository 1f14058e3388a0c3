// execute_grid: validates the launch, computes occupancy, and runs CTAs on the worker
// pool. Each worker starts up to its share of the resident CTAs and interleaves them
// warp by warp; a new CTA starts when a resident one finishes. A worker with nothing
// left to run or start takes over half of the busiest worker's queued CTAs, so that
// a grid's tail (or a worker the host deschedules) does not leave host cores idle.
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <memory>
#include <string>
#include <thread>

#include "base/log.h"
#include "hw/sim/sm/exec.h"
#include "hw/sim/sm/state.h"
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
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now().time_since_epoch()).count());
}

// Resident CTAs per SM under the config's limits; a limit of 0 in the config is "none".
uint64_t ctas_per_sm(const ArchConfig& cfg, const LaunchPacket& p, uint32_t warps) {
  uint64_t n = cfg.max_blocks_per_sm > 0 ? static_cast<uint64_t>(cfg.max_blocks_per_sm) : 32;
  if (cfg.max_threads_per_sm > 0) n = std::min<uint64_t>(n, cfg.max_threads_per_sm / (warps * 32ull));
  if (cfg.registers_per_sm > 0 && p.regs_per_thread > 0) {
    const uint64_t unit = cfg.register_alloc_unit > 0 ? cfg.register_alloc_unit : 1;
    const uint64_t per_warp = (p.regs_per_thread * 32ull + unit - 1) / unit * unit;
    n = std::min<uint64_t>(n, cfg.registers_per_sm / (per_warp * warps));
  }
  const uint64_t smem = p.shared_bytes + static_cast<uint64_t>(std::max<int64_t>(cfg.reserved_shared_bytes_per_block, 0));
  if (smem > 0) n = std::min<uint64_t>(n, static_cast<uint64_t>(std::max<int64_t>(cfg.shared_bytes_per_sm, 0)) / smem);
  return n;
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
  cta.clock_seen = 0;  // a recycled Cta must not carry another SM's clock (%clock, %globaltimer)
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
    const char* what = w.bar_wait & (1u << lane) ? "a CTA barrier (BAR)"
                       : w.warpsync_wait & (1u << lane) ? "WARPSYNC"
                                                        : "a convergence barrier (BSYNC)";
    STRATA_LOG_ERROR("kernel {}: deadlock in block ({},{},{}): no thread can run; warp {} lane {} waits at {} at pc {}",
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
    STRATA_LOG_ERROR("kernel {}: presumed hung: no store or atomic in the grid for {} ms; block ({},{},{}) warp {} "
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

// The resident CTAs a worker runs, in round-robin order: the owner takes the front,
// runs one round of it and re-queues it at the back; an idle worker takes CTAs from
// the back of another worker's queue. One cache line per queue.
struct alignas(kCacheLine) CtaQueue {
  std::mutex mutex;
  std::deque<Cta*> ctas;
};

struct Scheduler {
  std::vector<std::unique_ptr<Worker>> workers;
  std::unique_ptr<CtaQueue[]> queues;
  uint64_t cap = 0;         // CTAs a worker may start while it holds fewer
  uint64_t timeout_ms = 0;  // hang detection
};

Cta* pop_front(CtaQueue& q) {
  std::lock_guard<std::mutex> lock(q.mutex);
  if (q.ctas.empty()) return nullptr;
  Cta* cta = q.ctas.front();
  q.ctas.pop_front();
  return cta;
}

void push_back(CtaQueue& q, Cta* cta) {
  std::lock_guard<std::mutex> lock(q.mutex);
  q.ctas.push_back(cta);
}

size_t queued(CtaQueue& q) {
  std::lock_guard<std::mutex> lock(q.mutex);
  return q.ctas.size();
}

// Moves half (rounded up) of the queued CTAs of the fullest other worker to `self`'s
// queue and returns one of them, or nullptr if every other queue is empty. Only idle
// workers steal, once no CTA is left to start, so occupancy is unchanged.
Cta* steal(Scheduler& s, int self) {
  const int n = static_cast<int>(s.workers.size());
  int victim = -1;
  size_t most = 0;
  for (int i = 0; i < n; ++i) {
    if (i == self) continue;
    const size_t k = queued(s.queues[i]);
    if (k > most) most = k, victim = i;
  }
  if (victim < 0) return nullptr;
  std::vector<Cta*> taken;
  {
    std::lock_guard<std::mutex> lock(s.queues[victim].mutex);
    std::deque<Cta*>& v = s.queues[victim].ctas;
    const size_t k = (v.size() + 1) / 2;
    for (size_t i = 0; i < k; ++i) {
      taken.push_back(v.back());
      v.pop_back();
    }
  }
  if (taken.empty()) return nullptr;
  {
    std::lock_guard<std::mutex> lock(s.queues[self].mutex);
    for (size_t i = taken.size(); i-- > 1;) s.queues[self].ctas.push_back(taken[i]);
  }
  return taken.front();
}

// Starts CTA `idx` on `wk` (reusing a finished CTA's storage) and queues it.
void start_cta(GridState& g, Worker& wk, CtaQueue& q, uint64_t idx) {
  Cta* cta;
  if (!wk.spare.empty()) {
    cta = wk.spare.back();
    wk.spare.pop_back();
  } else {
    wk.ctas.push_back(std::make_unique<Cta>());
    cta = wk.ctas.back().get();
  }
  init_cta(*cta, g, idx);
  push_back(q, cta);
}

// Idle wait while other workers hold every remaining CTA: yield first, then sleep in
// growing steps (a worker waiting for a long last CTA must not take a host core).
void idle_wait(int& rounds) {
  if (rounds < 64) {
    std::this_thread::yield();
  } else {
    std::this_thread::sleep_for(std::chrono::microseconds(std::min(1000, 10 << std::min(rounds - 64, 7))));
  }
  ++rounds;
}

void worker_main(GridState& g, Scheduler& s, int self) {
  Worker& wk = *s.workers[self];
  CtaQueue& q = s.queues[self];
  uint64_t published_writes = 0, seen_global = 0;
  uint64_t last_progress = now_ms();
  uint64_t next_check_insts = 1u << 16;
  int idle_rounds = 0;
  while (!g.stop.load(std::memory_order_relaxed)) {
    // Start CTAs while this worker holds fewer than its share and any are left.
    if (g.next_cta.load(std::memory_order_relaxed) < g.total_ctas) {
      for (size_t held = queued(q); held < s.cap; ++held) {
        const uint64_t idx = g.next_cta.fetch_add(1, std::memory_order_relaxed);
        if (idx >= g.total_ctas) break;
        g.live_ctas.fetch_add(1, std::memory_order_relaxed);
        start_cta(g, wk, q, idx);
      }
    }
    Cta* cta = pop_front(q);
    if (cta == nullptr) {
      if (g.next_cta.load(std::memory_order_relaxed) < g.total_ctas) continue;
      cta = steal(s, self);
      if (cta == nullptr) {
        // Every started CTA is running on another worker or finished.
        if (g.live_ctas.load(std::memory_order_acquire) == 0) break;
        idle_wait(idle_rounds);
        continue;
      }
    }
    idle_rounds = 0;
    // A CTA taken over from another worker keeps a monotonic SM clock.
    const uint64_t clock = wk.sm_clock(cta->sm);
    if (cta->clock_seen > clock) wk.sm_clock_bias[cta->sm] += cta->clock_seen - clock;
    if (!run_cta_round(wk, *cta)) return;
    cta->clock_seen = wk.sm_clock(cta->sm);
    if (cta->live_threads == 0) {
      wk.spare.push_back(cta);
      g.live_ctas.fetch_sub(1, std::memory_order_release);
    } else {
      push_back(q, cta);
    }
    if (wk.writes != published_writes) {
      g.writes.fetch_add(wk.writes - published_writes, std::memory_order_relaxed);
      published_writes = wk.writes;
    }
    if (wk.warp_instructions >= next_check_insts) {
      next_check_insts = wk.warp_instructions + (1u << 16);
      const uint64_t global = g.writes.load(std::memory_order_relaxed);
      const uint64_t now = now_ms();
      if (global != seen_global) {
        seen_global = global;
        last_progress = now;
      } else if (now - last_progress > s.timeout_ms && cta->live_threads != 0) {
        report_hang(wk, *cta, now - last_progress);
        return;
      }
    }
  }
}

}  // namespace

FaultRecord execute_grid(const GridLaunch& launch, GridStats* stats) {
  const LaunchPacket* p = launch.packet;
  if (p == nullptr || launch.program == nullptr || launch.memory == nullptr || launch.config == nullptr) {
    return bad_packet(p, "incomplete launch (packet, program, memory and config are required)");
  }
  const ArchConfig& cfg = *launch.config;
  for (int i = 0; i < 3; ++i) {
    if (p->grid[i] == 0 || p->block[i] == 0) return bad_packet(p, "grid and block dimensions must be positive");
  }
  const uint64_t block_threads = static_cast<uint64_t>(p->block[0]) * p->block[1] * p->block[2];
  const uint64_t max_block = cfg.max_threads_per_block > 0 ? static_cast<uint64_t>(cfg.max_threads_per_block) : 1024;
  if (block_threads > max_block) {
    return bad_packet(p, "block of " + std::to_string(block_threads) + " threads exceeds " + std::to_string(max_block));
  }
  if (p->regs_per_thread > isa::kNumGprs + 1) return bad_packet(p, "more than 256 registers per thread");
  if (p->local_bytes_per_thread > kWindowBytes) return bad_packet(p, "local memory per thread exceeds the 16 MiB window");
  if (p->shared_bytes > kWindowBytes) return bad_packet(p, "shared memory exceeds the 16 MiB window");
  if (p->dynamic_shared_bytes > p->shared_bytes) return bad_packet(p, "dynamic shared memory exceeds shared_bytes");

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

  const uint64_t per_sm = ctas_per_sm(cfg, *p, g.warps_per_cta);
  if (per_sm == 0) return bad_packet(p, "a block does not fit on an SM (threads, registers or shared memory)");
  const uint64_t resident_limit = per_sm * g.sm_count;
  // Every CTA that may be co-resident is started at once (split evenly between the
  // workers), so grid-wide waits complete; later CTAs start as earlier ones finish.
  const uint64_t resident = std::min(resident_limit, g.total_ctas);
  const int threads = static_cast<int>(std::min<uint64_t>(worker_thread_count(), resident));
  Scheduler s;
  s.cap = (resident + threads - 1) / threads;
  s.timeout_ms = hang_timeout_ms();
  s.queues = std::make_unique<CtaQueue[]>(threads);
  for (int i = 0; i < threads; ++i) {
    s.workers.push_back(std::make_unique<Worker>(launch.memory, g.sm_count));
    s.workers.back()->grid = &g;
  }
  WorkerPool::instance().run(threads, [&](int i) { worker_main(g, s, i); });
  const std::vector<std::unique_ptr<Worker>>& workers = s.workers;

  if (stats != nullptr) {
    *stats = GridStats{};
    stats->warp_instructions_per_sm.assign(g.sm_count, 0);
    for (const auto& w : workers) {
      stats->warp_instructions += w->warp_instructions;
      stats->thread_instructions += w->thread_instructions;
      for (uint32_t s = 0; s < g.sm_count; ++s) stats->warp_instructions_per_sm[s] += w->sm_instructions[s];
    }
  }
  std::lock_guard<std::mutex> lock(g.fault_mutex);
  return g.fault;
}

}  // namespace strata::hw::sim
