#include "compiler/target/sx/liveness.h"

#include <algorithm>

namespace strata::compiler::sx {

bool BlockLiveness::live_out_has(int block, int value) const {
  const auto& out = live_out[static_cast<size_t>(block)];
  return std::binary_search(out.begin(), out.end(), value);
}

BlockLiveness compute_liveness(const ir::Function& f) {
  const size_t nb = f.blocks.size(), nv = f.values.size();
  std::vector<std::vector<int>> preds(nb);
  for (size_t b = 0; b < nb; ++b) {
    if (f.blocks[b].insts.empty()) continue;
    for (int s : f.blocks[b].insts.back().succs)
      preds[static_cast<size_t>(s)].push_back(static_cast<int>(b));
  }
  // Per value: blocks defining it, blocks where it is upward-exposed, and blocks at whose
  // end a phi uses it.
  std::vector<std::vector<int>> def_blocks(nv), use_blocks(nv), phi_use_blocks(nv);
  {
    std::vector<int> defined_in(nv, -1);  // block index + 1 where last defined (this block)
    for (size_t b = 0; b < nb; ++b) {
      const int tag = static_cast<int>(b) + 1;
      const auto& block = f.blocks[b];
      for (const ir::Inst& i : block.insts) {
        if (i.op == ir::Op::kPhi) {
          for (size_t s = 0; s < i.srcs.size() && s < block.preds.size(); ++s)
            if (!i.srcs[s].is_imm())
              phi_use_blocks[static_cast<size_t>(i.srcs[s].value)].push_back(block.preds[s]);
        } else {
          for (const auto& s : i.srcs) {
            if (s.is_imm()) continue;
            const auto v = static_cast<size_t>(s.value);
            if (defined_in[v] != tag &&
                (use_blocks[v].empty() || use_blocks[v].back() != static_cast<int>(b)))
              use_blocks[v].push_back(static_cast<int>(b));
          }
        }
        for (int d : i.defs) {
          if (d == ir::kNoValue) continue;
          const auto v = static_cast<size_t>(d);
          if (defined_in[v] != tag) def_blocks[v].push_back(static_cast<int>(b));
          defined_in[v] = tag;
        }
      }
    }
  }
  BlockLiveness l;
  l.live_in.assign(nb, {});
  l.live_out.assign(nb, {});
  // Stamps: block marked for value v holds v + 1.
  std::vector<int> in_mark(nb, 0), out_mark(nb, 0), def_mark(nb, 0);
  std::vector<int> work;
  for (size_t v = 0; v < nv; ++v) {
    if (use_blocks[v].empty() && phi_use_blocks[v].empty()) continue;
    const int stamp = static_cast<int>(v) + 1;
    for (int b : def_blocks[v]) def_mark[static_cast<size_t>(b)] = stamp;
    auto add_in = [&](int b) {
      if (in_mark[static_cast<size_t>(b)] == stamp) return;
      in_mark[static_cast<size_t>(b)] = stamp;
      l.live_in[static_cast<size_t>(b)].push_back(static_cast<int>(v));
      work.push_back(b);
    };
    auto add_out = [&](int b) {
      if (out_mark[static_cast<size_t>(b)] == stamp) return;
      out_mark[static_cast<size_t>(b)] = stamp;
      l.live_out[static_cast<size_t>(b)].push_back(static_cast<int>(v));
      if (def_mark[static_cast<size_t>(b)] != stamp) add_in(b);
    };
    for (int b : use_blocks[v]) add_in(b);
    for (int b : phi_use_blocks[v]) add_out(b);
    while (!work.empty()) {
      const int b = work.back();
      work.pop_back();
      for (int p : preds[static_cast<size_t>(b)]) add_out(p);
    }
  }
  return l;  // values were appended in increasing order: every list is sorted
}

}  // namespace strata::compiler::sx
