#include "compiler/target/sx/layout.h"

#include <utility>
#include <vector>

namespace strata::compiler::sx {

using ir::Op;

bool layout_blocks(ir::Function& f) {
  int nb = static_cast<int>(f.blocks.size());
  if (nb <= 1) return false;
  std::vector<int> order;
  std::vector<bool> placed(nb, false);
  bool changed = false;
  auto single_pred = [&](int b, int p) {
    for (int q : f.blocks[b].preds)
      if (q != p) return false;
    return true;
  };
  for (int seed = 0; seed < nb; ++seed) {
    int cur = seed;
    while (cur >= 0 && !placed[cur]) {
      placed[cur] = true;
      order.push_back(cur);
      ir::Inst& t = f.blocks[cur].insts.back();
      int next = -1;
      if (t.op == Op::kBranch) {
        int s = t.succs[0];
        if (!placed[s] && single_pred(s, cur)) next = s;
      } else if (t.op == Op::kCondBranch && t.succs[0] != t.succs[1]) {
        if (!placed[t.succs[1]]) {
          next = t.succs[1];
        } else if (!placed[t.succs[0]] && !t.srcs[0].is_imm() && single_pred(t.succs[0], cur)) {
          std::swap(t.succs[0], t.succs[1]);
          t.negate = !t.negate;
          next = t.succs[1];
          changed = true;
        }
      }
      cur = next;
    }
  }
  std::vector<int> new_index(nb);
  for (int k = 0; k < nb; ++k) {
    new_index[order[k]] = k;
    changed |= order[k] != k;
  }
  if (!changed) return false;
  std::vector<ir::Block> blocks(nb);
  for (int k = 0; k < nb; ++k) blocks[k] = std::move(f.blocks[order[k]]);
  for (ir::Block& b : blocks) {
    for (int& p : b.preds) p = new_index[p];
    for (int& s : b.insts.back().succs) s = new_index[s];
  }
  f.blocks = std::move(blocks);
  f.recompute_preds();
  return true;
}

}  // namespace strata::compiler::sx
