#include <vector>

#include "compiler/passes/passes.h"

namespace strata::compiler::passes {

bool dead_code_elimination(ir::Function& f) {
  bool changed = false, again = true;
  while (again) {
    again = false;
    std::vector<int> uses(f.values.size(), 0);
    for (auto& b : f.blocks)
      for (auto& i : b.insts)
        for (auto& s : i.srcs)
          if (!s.is_imm()) ++uses[s.value];
    for (auto& b : f.blocks) {
      std::erase_if(b.insts, [&](const ir::Inst& i) {
        if (i.has_side_effects() || i.defs.empty()) return false;
        for (int d : i.defs)
          if (d != ir::kNoValue && uses[d]) return false;
        again = changed = true;
        return true;
      });
    }
  }
  return changed;
}

}  // namespace strata::compiler::passes
