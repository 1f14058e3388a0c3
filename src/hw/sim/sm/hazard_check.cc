#include "hw/sim/sm/hazard_check.h"

#include <fmt/format.h>

#include <cstdlib>
#include <string>

#include "base/check.h"
#include "base/log.h"
#include "hw/sim/sm/hazard_issue.h"
#include "isa/latency.h"
#include "isa/reg_uses.h"

namespace strata::hw::sim {
namespace {

std::string reg_name(uint16_t slot) {
  return slot < kHazardGprSlot ? fmt::format("P{}", slot - kHazardPredSlot)
                               : fmt::format("R{}", slot - kHazardGprSlot);
}

uint64_t fault_address(uint16_t slot) {
  return slot < kHazardGprSlot ? 256u + (slot - kHazardPredSlot) : slot - kHazardGprSlot;
}

std::string barrier_name(uint8_t bar) {
  return bar < kNumDepBarriers ? std::to_string(bar) : std::string("none");
}

}  // namespace

HazardOps hazard_ops(const isa::Inst& inst) {
  HazardOps o;
  const isa::RegisterUses u = isa::register_uses(inst);
  // Sources first, then destinations.
  auto add = [&](int slot, uint8_t* count) {
    CHECK_MSG(o.nreads + o.nwrites < HazardOps::kMaxSlots,
              "too many registers for the hazard checker");
    o.slots[o.nreads + o.nwrites] = static_cast<uint16_t>(slot);
    ++*count;
  };
  for (const isa::RegRun& r : u.reads)
    for (int k = 0; k < r.count && r.first + k < isa::kNumGprs; ++k)
      add(kHazardGprSlot + r.first + k, &o.nreads);
  o.ngpr_reads = o.nreads;
  for (int p = 0; p < isa::kNumPreds; ++p)
    if (u.pred_reads & (1u << p)) add(kHazardPredSlot + p, &o.nreads);
  for (int k = 0; k < u.write.count && u.write.first + k < isa::kNumGprs; ++k)
    add(kHazardGprSlot + u.write.first + k, &o.nwrites);
  for (int p = 0; p < isa::kNumPreds; ++p)
    if (u.pred_writes & (1u << p)) add(kHazardPredSlot + p, &o.nwrites);
  o.guard = u.guard < isa::kPT ? static_cast<uint8_t>(kHazardPredSlot + u.guard) : kHazardNoSlot;
  const isa::LatencyInfo& l = isa::latency(inst);
  o.kind = static_cast<uint8_t>(l.kind);
  o.latency = l.kind == isa::LatencyKind::kFixed ? l.cycles : 0;
  o.late_reads = l.reads == isa::SourceReads::kLate && o.ngpr_reads > 0;
  o.stall = inst.ctrl.stall == 0 ? 1 : inst.ctrl.stall;
  o.wait = static_cast<uint8_t>(inst.ctrl.wait & ((1u << kNumDepBarriers) - 1));
  o.wbar = inst.ctrl.wbar;
  o.rbar = inst.ctrl.rbar;
  return o;
}

bool hazard_check_from_environment() {
  const char* env = std::getenv("STRATA_CHECK_HAZARDS");
  return env != nullptr && env[0] != '\0' && std::string(env) != "0";
}

void hazard_reset(HazardState* state, uint32_t gpr_rows) {
  state->cycle = 0;
  for (uint32_t& g : state->gen) g = 0;
  state->regs.assign(kHazardGprSlot + gpr_rows, HazardReg{});
}

bool hazard_fault(ExecContext& ctx, uint16_t slot, uint32_t lanes, HazardWhat what,
                  uint32_t cycles) {
  const HazardReg& r = ctx.warp->hazard->regs[slot];
  std::string why;
  switch (what) {
    case HazardWhat::kEarlyRead:
      why = fmt::format("read {} cycle(s) before the result of pc {} is ready", cycles, r.fixed_pc);
      break;
    case HazardWhat::kUnwaitedRead:
      why =
          r.var_bar >= kNumDepBarriers
              ? fmt::format(
                    "read while the variable-latency result of pc {} (no wbar) may be outstanding",
                    r.var_pc)
              : fmt::format("read without waiting on dependency barrier {} set by pc {}", r.var_bar,
                            r.var_pc);
      break;
    case HazardWhat::kWawVariable:
      why = fmt::format(
          "written while the variable-latency write of pc {} may be outstanding (barrier {})",
          r.var_pc, barrier_name(r.var_bar));
      break;
    case HazardWhat::kWar:
      why = fmt::format("written while pc {} may not have read it yet (barrier {})", r.read_pc,
                        barrier_name(r.read_bar));
      break;
    case HazardWhat::kWawFixed:
      why = fmt::format(
          "written {} cycle(s) too early: the earlier write of pc {} would land after it", cycles,
          r.fixed_pc);
      break;
  }
  const GridState& g = *ctx.grid;
  STRATA_LOG_ERROR("kernel {}: scheduling hazard at pc {} (warp {} of block ({},{},{})): {} {}",
                   g.packet->kernel_id, ctx.pc - 1, ctx.warp->index, ctx.cta->id[0], ctx.cta->id[1],
                   ctx.cta->id[2], reg_name(slot), why);
  raise_fault(ctx, FaultKind::kHazard, fault_address(slot), std::countr_zero(lanes));
  return false;
}

}  // namespace strata::hw::sim
