// Control handlers: branches, convergence barriers, warp and CTA barriers, yields,
// exit and trap. These change which threads run; see state.h for the lane states and
// warp_run.cc for how groups are picked.
#include <bit>

#include "hw/sim/sm/async.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"
#include "hw/sim/sm/sync.h"

namespace strata::hw::sim {

void merge_ready_lanes(ExecContext& ctx) {
  Warp& w = *ctx.warp;
  const uint32_t others = w.ready & ~ctx.group;
  if (others == 0) return;
  for (uint32_t mm = others; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    if (w.pc[l] == ctx.pc) ctx.group |= 1u << l;
  }
}

void release_bsync_waiters(Warp& w) {
  for (int n = 0; n < isa::kNumConvBarriers; ++n) {
    const uint32_t waiting = w.bsync_wait[n];
    if (waiting == 0 || (w.conv[n] & ~w.exited & ~waiting) != 0) continue;
    for (uint32_t mm = waiting; mm != 0; mm &= mm - 1) ++w.pc[std::countr_zero(mm)];
    w.ready |= waiting;
    w.bsync_wait[n] = 0;
  }
}

void release_warpsync_waiters(Warp& w) {
  const uint32_t waiting = w.warpsync_wait;
  uint32_t released = 0;
  for (uint32_t mm = waiting; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    if ((w.warpsync_mask[l] & ~w.exited & ~waiting) == 0) released |= 1u << l;
  }
  for (uint32_t mm = released; mm != 0; mm &= mm - 1) ++w.pc[std::countr_zero(mm)];
  w.warpsync_wait &= ~released;
  w.ready |= released;
}

bool try_complete_cta_barrier(ExecContext& ctx, Cta& cta, uint32_t id) {
  CtaBarrier& bar = cta.bars[id];
  if (bar.arrived == 0) return false;
  const uint32_t expected = bar.expected != 0 ? bar.expected : cta.live_threads;
  if (bar.arrived < expected) return false;
  const DecodedInst* code = ctx.program->code();
  for (Warp& w : cta.warps) {
    uint32_t released = 0;
    for (uint32_t mm = w.bar_wait; mm != 0; mm &= mm - 1) {
      const int l = std::countr_zero(mm);
      if (w.bar_id[l] != id) continue;
      released |= 1u << l;
      const DecodedInst& in = code[w.pc[l]];
      switch (static_cast<isa::BarOp>(in.inst.mod)) {
        case isa::BarOp::RED_POPC: w.regs[static_cast<size_t>(in.d) * 32 + l] = bar.popc; break;
        case isa::BarOp::RED_AND: w.preds[in.pd] = (w.preds[in.pd] & ~(1u << l)) | (bar.all ? 1u << l : 0); break;
        case isa::BarOp::RED_OR: w.preds[in.pd] = (w.preds[in.pd] & ~(1u << l)) | (bar.any ? 1u << l : 0); break;
        default: break;
      }
      ++w.pc[l];
    }
    w.bar_wait &= ~released;
    w.ready |= released;
  }
  bar.arrived = 0;
  bar.expected = 0;
  bar.popc = 0;
  bar.all = true;
  bar.any = false;
  std::fill(bar.counted_warps.begin(), bar.counted_warps.end(), 0);
  return true;
}

void recheck_cta_barriers(ExecContext& ctx, Cta& cta) {
  for (uint32_t id = 0; id < kNumCtaBarriers; ++id) try_complete_cta_barrier(ctx, cta, id);
}

namespace {

// Blocks the lanes of `lanes` of the running group at the current instruction.
void block_lanes(ExecContext& ctx, const DecodedInst& in, uint32_t lanes) {
  Warp& w = *ctx.warp;
  for (uint32_t mm = lanes; mm != 0; mm &= mm - 1) w.pc[std::countr_zero(mm)] = in.pc;
  w.ready &= ~lanes;
  ctx.group &= ~lanes;
  if (ctx.group == 0) ctx.stop = true;
}

void h_bra(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  if (exec != ctx.group) {  // divergence: the taken lanes wait at the target, ready
    Warp& w = *ctx.warp;
    for (uint32_t mm = exec; mm != 0; mm &= mm - 1) w.pc[std::countr_zero(mm)] = in.target;
    ctx.group &= ~exec;
    return;
  }
  ctx.pc = in.target;
  merge_ready_lanes(ctx);
  if (in.target <= in.pc && --ctx.backward_budget <= 0) ctx.stop = true;
}

// Sends each lane of `exec` to its own target (targets[l]); a target outside the
// program faults kInvalidPc. Lanes sharing the first lane's target keep running as the
// group when every running lane goes there; otherwise the lanes wait, ready, at their
// targets and are picked up as groups of their own (divergence by target).
void jump_lanes(ExecContext& ctx, const DecodedInst& in, uint32_t exec, const uint32_t* targets) {
  Warp& w = *ctx.warp;
  const uint32_t size = ctx.program->size();
  const int first = std::countr_zero(exec);
  const uint32_t t0 = targets[first];
  bool uniform = true;
  for (uint32_t mm = exec; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    if (targets[l] >= size) {
      raise_fault(ctx, FaultKind::kInvalidPc, targets[l], l);
      return;
    }
    uniform = uniform && targets[l] == t0;
  }
  if (uniform && exec == ctx.group) {
    ctx.pc = t0;
    merge_ready_lanes(ctx);
    if (t0 <= in.pc && --ctx.backward_budget <= 0) ctx.stop = true;
    return;
  }
  for (uint32_t mm = exec; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    w.pc[l] = targets[l];
  }
  ctx.group &= ~exec;
  if (ctx.group == 0) ctx.stop = true;
}

void h_call(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  const uint32_t* b = ctx.src_b(in);
  uint32_t targets[32];
  for (uint32_t mm = exec; mm != 0; mm &= mm - 1) targets[std::countr_zero(mm)] = b[std::countr_zero(mm)];
  uint32_t* d = ctx.row(in.d);
  for (uint32_t mm = exec; mm != 0; mm &= mm - 1) d[std::countr_zero(mm)] = in.pc + 1;
  jump_lanes(ctx, in, exec, targets);
}

void h_ret(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  jump_lanes(ctx, in, exec, ctx.row(in.a));
}

void h_bssy(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  ctx.warp->conv[in.inst.mod & 15] = exec;
}

void h_bsync(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  Warp& w = *ctx.warp;
  const int n = in.inst.mod & 15;
  const uint32_t members = w.conv[n];
  const uint32_t arriving = exec & members;  // threads outside the barrier pass through
  if (arriving == 0) return;
  const uint32_t waiting = w.bsync_wait[n] | arriving;
  if ((members & ~w.exited & ~waiting) == 0) {
    const uint32_t earlier = w.bsync_wait[n];
    for (uint32_t mm = earlier; mm != 0; mm &= mm - 1) ++w.pc[std::countr_zero(mm)];
    w.bsync_wait[n] = 0;
    w.ready |= earlier;
    merge_ready_lanes(ctx);
    return;
  }
  w.bsync_wait[n] = waiting;
  block_lanes(ctx, in, arriving);
}

void h_warpsync(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  Warp& w = *ctx.warp;
  const uint32_t* b = ctx.src_b(in);
  // Fast path: every named thread is here (or exited) and nobody else waits.
  if (w.warpsync_wait == 0) {
    bool all_here = true;
    for (uint32_t mm = exec; mm != 0 && all_here; mm &= mm - 1) {
      all_here = (b[std::countr_zero(mm)] & ~w.exited & ~exec) == 0;
    }
    if (all_here) return;
  }
  for (uint32_t mm = exec; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    w.warpsync_mask[l] = b[l];
  }
  w.warpsync_wait |= exec;
  block_lanes(ctx, in, exec);
  ctx.stop = false;
  release_warpsync_waiters(w);
  if ((w.ready & exec) == exec) {
    // Everyone arrived: the arriving lanes continue with whoever was released here.
    ctx.group |= exec;
    w.ready |= exec;
    merge_ready_lanes(ctx);
  }
  if (ctx.group == 0) ctx.stop = true;
}

void h_bar(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  Warp& w = *ctx.warp;
  Cta& cta = *ctx.cta;
  const int first = std::countr_zero(exec);
  const uint32_t id = in.a_is_rz ? in.imm : ctx.row(in.a)[first];
  const uint32_t count = in.b_is_rz ? 0 : ctx.src_b(in)[first];
  if (id >= kNumCtaBarriers || (count % 32) != 0) {
    raise_fault(ctx, FaultKind::kIllegalInstruction, in.pc, first);
    return;
  }
  CtaBarrier& bar = cta.bars[id];
  if (bar.counted_warps.size() != cta.warps.size()) bar.counted_warps.assign(cta.warps.size(), 0);
  bar.expected = count;
  if (count == 0) {
    bar.arrived += std::popcount(exec);
  } else if (!bar.counted_warps[w.index]) {  // warp granularity: the whole warp counts
    bar.counted_warps[w.index] = 1;
    bar.arrived += 32;
  }
  const auto op = static_cast<isa::BarOp>(in.inst.mod);
  if (op == isa::BarOp::RED_POPC || op == isa::BarOp::RED_AND || op == isa::BarOp::RED_OR) {
    const uint32_t p = pred_src(ctx, in.ps, in.ps_xor) & exec;
    bar.popc += std::popcount(p);
    bar.all = bar.all && p == exec;
    bar.any = bar.any || p != 0;
  }
  if (op != isa::BarOp::ARRIVE) {
    for (uint32_t mm = exec; mm != 0; mm &= mm - 1) w.bar_id[std::countr_zero(mm)] = static_cast<uint8_t>(id);
    w.bar_wait |= exec;
    block_lanes(ctx, in, exec);
  }
  const bool completed = try_complete_cta_barrier(ctx, cta, id);
  // Statistics: a warp arrival, which waits unless it completed the barrier or only arrives.
  ++ctx.worker->stats.barrier_arrivals;
  if (!completed && op != isa::BarOp::ARRIVE) ++ctx.worker->stats.barrier_waits;
  if (completed) ctx.stop = true;  // let the released warps run
}

void h_yield(ExecContext& ctx, const DecodedInst&, uint32_t) { ctx.stop = true; }

void h_exit(ExecContext& ctx, const DecodedInst&, uint32_t exec) {
  Warp& w = *ctx.warp;
  Cta& cta = *ctx.cta;
  complete_async_ops(w, exec);  // a thread's queued cp.async copies still land
  w.exited |= exec;
  w.ready &= ~exec;
  ctx.group &= ~exec;
  cta.live_threads -= std::popcount(exec);
  if (w.exited == kAllLanes) --cta.live_warps;
  release_bsync_waiters(w);
  release_warpsync_waiters(w);
  recheck_cta_barriers(ctx, cta);
  if (ctx.group == 0) {
    ctx.stop = true;
  } else {
    merge_ready_lanes(ctx);
  }
}

void h_trap(ExecContext& ctx, const DecodedInst& in, uint32_t exec) {
  raise_fault(ctx, in.imm == 1 ? FaultKind::kAssert : FaultKind::kTrap, in.pc, std::countr_zero(exec));
}

}  // namespace

Handler select_BRA(const isa::Inst&) { return &h_bra; }
Handler select_BSSY(const isa::Inst& i) { return i.mod < isa::kNumConvBarriers ? &h_bssy : nullptr; }
Handler select_BSYNC(const isa::Inst& i) { return i.mod < isa::kNumConvBarriers ? &h_bsync : nullptr; }
Handler select_WARPSYNC(const isa::Inst&) { return &h_warpsync; }
Handler select_BAR(const isa::Inst& i) { return i.mod < static_cast<int>(isa::BarOp::kCount) ? &h_bar : nullptr; }
Handler select_NANOSLEEP(const isa::Inst&) { return &h_yield; }
Handler select_YIELD(const isa::Inst&) { return &h_yield; }
Handler select_EXIT(const isa::Inst&) { return &h_exit; }
Handler select_TRAP(const isa::Inst&) { return &h_trap; }
Handler select_CALL(const isa::Inst&) { return &h_call; }
Handler select_RET(const isa::Inst&) { return &h_ret; }

}  // namespace strata::hw::sim
