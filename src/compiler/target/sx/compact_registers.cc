#include "compiler/target/sx/compact_registers.h"

#include <algorithm>

#include "compiler/target/sx/regalloc.h"
#include "isa/operands.h"

namespace strata::compiler::sx {
namespace {

// Calls f(field) for every instruction field that names a GPR (as opposed to a
// predicate in rb, an immediate in b, or an unused field).
template <typename F>
void for_each_gpr_field(isa::Inst& inst, F&& f) {
  for (isa::OperandKind kind : isa::operand_kinds(inst.op)) {
    switch (kind) {
      case isa::OperandKind::kD: f(inst.rd); break;
      case isa::OperandKind::kA:
      case isa::OperandKind::kMemory:
      case isa::OperandKind::kConstBank: f(inst.ra); break;
      case isa::OperandKind::kB:
        if (!inst.b_imm) f(inst.rb);
        break;
      case isa::OperandKind::kC: f(inst.rc); break;
      default: break;
    }
  }
}

}  // namespace

uint32_t compact_registers(std::vector<isa::Inst>* code, uint32_t allocated) {
  const uint32_t base = (std::max<uint32_t>(allocated, 1) + 3) / 4 * 4;
  const bool move = base < kFirstScratch;
  uint32_t top = std::max<uint32_t>(allocated, 1);
  for (isa::Inst& inst : *code) {
    for_each_gpr_field(inst, [&](uint8_t& reg) {
      if (reg == isa::kRZ || reg < kFirstScratch) return;
      if (move) reg = static_cast<uint8_t>(base + (reg - kFirstScratch));
      // Scratch values are at most 64 bits wide.
      top = std::max<uint32_t>(top, std::min<uint32_t>(reg + 2u, isa::kNumGprs));
    });
  }
  return top;
}

}  // namespace strata::compiler::sx
