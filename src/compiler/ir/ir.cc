#include "compiler/ir/ir.h"

#include <algorithm>

namespace strata::compiler::ir {

bool Inst::has_side_effects() const {
  if (is_terminator()) return true;
  if (op != Op::kIsa) return false;
  const auto& info = isa::op_info(isa_op);
  if (info.flags & (isa::kStore | isa::kAtomic | isa::kBarrier | isa::kExit | isa::kSync |
                    isa::kBranch))
    return true;
  switch (isa_op) {
    case isa::Opcode::MEMBAR:
    case isa::Opcode::NOP:
    case isa::Opcode::BSSY:
      return true;
    case isa::Opcode::LD:
      // Volatile/acquire loads and loads that may fault are kept; ordinary loads whose
      // result is unused are dropped, as the PTX memory model allows.
      return sem != isa::MemSem::WEAK;
    case isa::Opcode::S2R:
      return false;
    default:
      return false;
  }
}

void Function::recompute_preds() {
  std::vector<std::vector<int>> old(blocks.size());
  for (size_t i = 0; i < blocks.size(); ++i) old[i] = blocks[i].preds;
  for (auto& b : blocks) b.preds.clear();
  for (size_t i = 0; i < blocks.size(); ++i) {
    if (blocks[i].insts.empty()) continue;
    const Inst& t = blocks[i].insts.back();
    if (!t.is_terminator()) continue;
    for (int s : t.succs) blocks[s].preds.push_back(static_cast<int>(i));
  }
  for (size_t b = 0; b < blocks.size(); ++b) {
    for (Inst& inst : blocks[b].insts) {
      if (inst.op != Op::kPhi) break;
      std::vector<Operand> srcs;
      for (int p : blocks[b].preds) {
        auto it = std::find(old[b].begin(), old[b].end(), p);
        size_t k = static_cast<size_t>(it - old[b].begin());
        srcs.push_back(k < inst.srcs.size() ? inst.srcs[k] : Operand::immediate(0));
      }
      inst.srcs = std::move(srcs);
    }
  }
}

RegClass reg_class(DataType t) {
  if (t == DataType::Pred) return RegClass::kPred;
  int bits = isa::type_bits(t);
  if (bits > 64) return RegClass::k128;
  if (bits > 32) return RegClass::k64;
  return RegClass::k32;
}

int class_regs(RegClass c) {
  switch (c) {
    case RegClass::k64: return 2;
    case RegClass::k128: return 4;
    default: return 1;
  }
}

}  // namespace strata::compiler::ir
