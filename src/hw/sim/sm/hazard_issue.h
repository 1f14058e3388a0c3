// The hazard checker's per-instruction step (hazard_check.h), inline for the
// interpreter loop (warp_run.cc); the fault reports are out of line.
#pragma once

#include <bit>

#include "hw/sim/sm/hazard_check.h"
#include "hw/sim/sm/state.h"
#include "isa/latency.h"

namespace strata::hw::sim {

enum class HazardWhat : uint8_t { kEarlyRead, kUnwaitedRead, kWawVariable, kWar, kWawFixed };

// Logs the hazard and raises kHazard for `lanes`; returns false.
[[gnu::noinline, gnu::cold]] bool hazard_fault(ExecContext& ctx, uint16_t slot, uint32_t lanes,
                                               HazardWhat what, uint32_t cycles);

inline bool hazard_pending(const HazardState& h, uint8_t bar, uint32_t gen) {
  return bar >= kNumDepBarriers || h.gen[bar] == gen;
}

// Issues the instruction at ctx.pc - 1 for the checker: `exec` are the running group's
// lanes whose guard holds. Returns false after raising kHazard (ctx.stop is then set).
inline bool hazard_issue(ExecContext& ctx, const HazardOps& op, uint32_t exec) {
  HazardState& h = *ctx.warp->hazard;
  const uint32_t now = h.cycle;
  h.cycle += op.stall;
  for (uint32_t w = op.wait; w != 0; w &= w - 1) ++h.gen[std::countr_zero(w)];
  HazardReg* regs = h.regs.data();
  auto read = [&](uint16_t slot, uint32_t lanes) {
    const HazardReg& r = regs[slot];
    if ((r.fixed_lanes & lanes) != 0 && static_cast<int32_t>(r.ready - now) > 0) [[unlikely]]
      return hazard_fault(ctx, slot, r.fixed_lanes & lanes, HazardWhat::kEarlyRead, r.ready - now);
    if ((r.var_lanes & lanes) != 0 && hazard_pending(h, r.var_bar, r.var_gen)) [[unlikely]]
      return hazard_fault(ctx, slot, r.var_lanes & lanes, HazardWhat::kUnwaitedRead, 0);
    return true;
  };
  if (op.guard != kHazardNoSlot && !read(op.guard, ctx.group)) return false;
  if (exec == 0) return true;
  for (int k = 0; k < op.nreads; ++k)
    if (!read(op.slots[k], exec)) return false;
  const bool variable = op.kind == static_cast<uint8_t>(isa::LatencyKind::kVariable);
  const uint32_t ready = now + op.latency;
  for (int k = op.nreads; k < op.nreads + op.nwrites; ++k) {
    const uint16_t slot = op.slots[k];
    HazardReg& r = regs[slot];
    if ((r.var_lanes & exec) != 0 && hazard_pending(h, r.var_bar, r.var_gen)) [[unlikely]]
      return hazard_fault(ctx, slot, r.var_lanes & exec, HazardWhat::kWawVariable, 0);
    if ((r.read_lanes & exec) != 0 && hazard_pending(h, r.read_bar, r.read_gen)) [[unlikely]]
      return hazard_fault(ctx, slot, r.read_lanes & exec, HazardWhat::kWar, 0);
    if ((r.fixed_lanes & exec) != 0 && static_cast<int32_t>(r.ready - ready) > 0) [[unlikely]]
      return hazard_fault(ctx, slot, r.fixed_lanes & exec, HazardWhat::kWawFixed, r.ready - ready);
    const uint32_t pc = ctx.pc - 1;
    if (variable) {
      r.var_lanes = exec;
      r.var_bar = op.wbar;
      r.var_gen = op.wbar < kNumDepBarriers ? h.gen[op.wbar] : 0;
      r.var_pc = pc;
      r.fixed_lanes &= ~exec;
    } else {
      r.ready = ready;
      r.fixed_lanes = exec;
      r.fixed_pc = pc;
      r.var_lanes &= ~exec;
    }
    r.read_lanes &= ~exec;
  }
  if (op.late_reads) [[unlikely]] {
    const uint8_t bar = op.rbar < kNumDepBarriers ? op.rbar : op.wbar;
    const uint32_t gen = bar < kNumDepBarriers ? h.gen[bar] : 0;
    for (int k = 0; k < op.ngpr_reads; ++k) {
      HazardReg& r = regs[op.slots[k]];
      r.read_lanes = exec;
      r.read_bar = bar;
      r.read_gen = gen;
      r.read_pc = ctx.pc - 1;
    }
  }
  return true;
}

}  // namespace strata::hw::sim
