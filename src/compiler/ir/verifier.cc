#include <fmt/format.h>

#include "compiler/ir/ir.h"

namespace strata::compiler::ir {

std::string verify_function(const Function& f) {
  if (f.blocks.empty()) return "function has no blocks";
  std::vector<int> def_count(f.values.size(), 0);
  for (const Block& b : f.blocks)
    for (const Inst& i : b.insts)
      for (int d : i.defs) {
        if (d == kNoValue) continue;
        if (d < 0 || d >= static_cast<int>(f.values.size())) return fmt::format("def %{} out of range", d);
        ++def_count[d];
      }
  for (size_t bi = 0; bi < f.blocks.size(); ++bi) {
    const Block& b = f.blocks[bi];
    std::string where = fmt::format("{}: bb{}", f.name, bi);
    if (b.insts.empty() || !b.insts.back().is_terminator()) return where + " does not end in a terminator";
    bool phis_done = false;
    for (size_t k = 0; k < b.insts.size(); ++k) {
      const Inst& i = b.insts[k];
      if (i.is_terminator() && k + 1 != b.insts.size()) return where + " has a terminator before its end";
      if (i.op == Op::kPhi) {
        if (phis_done) return where + " has a phi after a non-phi";
        if (i.srcs.size() != b.preds.size())
          return fmt::format("{}: phi %{} has {} sources for {} predecessors", where, i.defs[0],
                             i.srcs.size(), b.preds.size());
      } else {
        phis_done = true;
      }
      for (int d : i.defs)
        if (d != kNoValue && def_count[d] != 1) return fmt::format("{}: %{} defined {} times", where, d, def_count[d]);
      for (const Operand& s : i.srcs) {
        if (s.is_imm()) continue;
        if (s.value < 0 || s.value >= static_cast<int>(f.values.size()) || def_count[s.value] != 1)
          return fmt::format("{}: use of undefined value %{}", where, s.value);
      }
      for (int s : i.succs)
        if (s < 0 || s >= static_cast<int>(f.blocks.size())) return where + " branches to a missing block";
      size_t want_defs = 1;
      switch (i.op) {
        case Op::kBranch: case Op::kExit: want_defs = 0; break;
        case Op::kCondBranch:
          want_defs = 0;
          if (i.srcs.size() != 1 || i.succs.size() != 2) return where + ": malformed conditional branch";
          if (!i.srcs[0].is_imm() && f.type_of(i.srcs[0].value) != DataType::Pred)
            return where + ": branch condition is not a predicate";
          break;
        case Op::kIsa: want_defs = i.defs.size(); break;
        default: break;
      }
      if (i.defs.size() != want_defs) return fmt::format("{}: wrong number of results", where);
    }
  }
  return "";
}

}  // namespace strata::compiler::ir
