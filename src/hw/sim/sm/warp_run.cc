// The interpreter loop and group selection (Volta-style independent thread scheduling:
// per-thread PCs, one group of same-PC threads runs at a time).
#include "hw/sim/sm/warp_run.h"

#include <bit>

#include "base/log.h"
#include "hw/sim/sm/hazard_issue.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/stats.h"
#include "hw/sim/sm/sync.h"
#include "hw/sim/sm/trace_hook.h"

namespace strata::hw::sim {
namespace {

inline constexpr int kGroupsPerVisit = 4;
// Backward branches a group may take before it yields: tight loops run long slices,
// spinning threads still let the threads they wait for run.
inline constexpr int kBackwardBudget = 64;

// Picks the next group: preferably one other than `last` (so a spinning group cannot
// starve the group it waits for), scanning lanes round-robin from the warp's cursor.
uint32_t pick_group(Warp& w, uint32_t last, uint32_t* pc) {
  uint32_t candidates = w.ready & ~last;
  if (candidates == 0) candidates = w.ready;
  const uint32_t rot = std::rotr(candidates, static_cast<int>(w.next_lane));
  const int leader = (std::countr_zero(rot) + static_cast<int>(w.next_lane)) & 31;
  w.next_lane = (leader + 1) & 31;
  *pc = w.pc[leader];
  uint32_t group = 0;
  for (int l = 0; l < 32; ++l) group |= static_cast<uint32_t>(w.pc[l] == *pc) << l;
  return group & w.ready;
}

// Runs the group in ctx until it stops. With kCheckHazards, every instruction first
// goes through the hazard checker (hazard_check.h), which may fault instead.
template <bool kCheckHazards>
void run_group(ExecContext& ctx, const DecodedInst* code, const uint32_t* preds, PcCount* counts,
               uint64_t* insts_out, uint64_t* thread_insts_out) {
  uint64_t insts = 0, thread_insts = 0;
  // Lanes of the group, recounted only when a handler changed the group (population
  // count is a library call on baseline x86-64).
  uint32_t counted = ctx.group;
  uint64_t lanes = static_cast<uint64_t>(std::popcount(counted));
  [[maybe_unused]] const HazardOps* hazards = ctx.program->hazard_ops();
  do {
    const DecodedInst& in = code[ctx.pc];
    ++insts;
    if (ctx.group != counted) [[unlikely]] {
      counted = ctx.group;
      lanes = static_cast<uint64_t>(std::popcount(counted));
    }
    thread_insts += lanes;
    PcCount& count = counts[ctx.pc];  // the per-instruction profile (stats.h)
    ++count.warps;
    count.lanes += lanes;
    const uint32_t exec = ctx.group & (preds[in.guard] ^ in.guard_xor);
    ++ctx.pc;
    if (ctx.worker->trace != nullptr) [[unlikely]]
      trace_issue(ctx, exec);  // recording a trace (trace_hook.h)
    if constexpr (kCheckHazards) {
      if (!hazard_issue(ctx, hazards[ctx.pc - 1], exec)) break;
    }
    if (exec != 0) {
      ctx.insts = insts;
      in.fn(ctx, in, exec);
    }
  } while (!ctx.stop);
  *insts_out = insts;
  *thread_insts_out = thread_insts;
}

}  // namespace

void thread_index(const GridState& grid, uint32_t warp, int lane, uint32_t out[3]) {
  const uint32_t t = warp * 32 + static_cast<uint32_t>(lane);
  const uint32_t bx = grid.packet->block[0], by = grid.packet->block[1];
  out[0] = t % bx;
  out[1] = (t / bx) % by;
  out[2] = t / (bx * by);
}

void raise_fault(ExecContext& ctx, FaultKind kind, uint64_t address, int lane) {
  ctx.stop = true;
  GridState& g = *ctx.grid;
  FaultRecord& f = g.sms[ctx.cta->sm].fault;  // the SM's owner is the only writer
  if (f.kind != FaultKind::kNone) return;
  f.kind = kind;
  f.address = address;
  f.pc = ctx.pc - 1;
  for (int i = 0; i < 3; ++i) f.cta[i] = ctx.cta->id[i];
  thread_index(g, ctx.warp->index, lane, f.tid);
  STRATA_LOG_INFO("kernel {}: {} at pc {} address {:#x}, block ({},{},{}) thread ({},{},{})",
                  g.packet->kernel_id, fault_kind_name(kind), f.pc, address, f.cta[0], f.cta[1],
                  f.cta[2], f.tid[0], f.tid[1], f.tid[2]);
}

bool run_warp(Worker& worker, Cta& cta, Warp& warp) {
  GridState& g = *worker.grid;
  ExecContext ctx;
  ctx.warp = &warp;
  ctx.cta = &cta;
  ctx.worker = &worker;
  ctx.grid = &g;
  ctx.program = g.program;
  ctx.regs = warp.regs;
  const DecodedInst* code = g.program->code();
  const uint32_t* preds = warp.preds;
  PcCount* const counts = pc_counts(worker, *g.program);
  uint32_t last = 0;
  bool ok = true;
  for (int visit = 0; visit < kGroupsPerVisit && warp.ready != 0; ++visit) {
    uint32_t pc;
    ctx.group = pick_group(warp, last, &pc);
    ctx.pc = pc;
    ctx.stop = false;
    ctx.backward_budget = kBackwardBudget;
    uint64_t insts = 0, thread_insts = 0;
    if (g.check_hazards) [[unlikely]] {
      run_group<true>(ctx, code, preds, counts, &insts, &thread_insts);
    } else {
      run_group<false>(ctx, code, preds, counts, &insts, &thread_insts);
    }
    for (uint32_t mm = ctx.group; mm != 0; mm &= mm - 1) warp.pc[std::countr_zero(mm)] = ctx.pc;
    worker.warp_instructions += insts;
    worker.thread_instructions += thread_insts;
    worker.sm_instructions[cta.sm] += insts;
    last = ctx.group;
    if (g.stop.load(std::memory_order_relaxed) || g.sms[cta.sm].fault.kind != FaultKind::kNone) {
      ok = false;
      break;
    }
    if (ctx.group != 0) break;  // the group yielded (spin, sleep, yield): let others run
  }
  return ok;
}

}  // namespace strata::hw::sim
