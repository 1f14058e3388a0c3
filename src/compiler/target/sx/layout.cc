#include "compiler/target/sx/layout.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "compiler/target/sx/dominators.h"

namespace strata::compiler::sx {
namespace {

using ir::Op;

// Reverse postorder of the blocks reachable from the entry, the DFS visiting a branch's
// taken successor (succs[0]) before its not-taken one, so that the not-taken successor,
// when first reached there, comes right after its block. Unreachable blocks follow in
// index order.
std::vector<int> reverse_postorder(const ir::Function& f) {
  const int nb = static_cast<int>(f.blocks.size());
  std::vector<bool> seen(nb, false);
  std::vector<int> post;
  std::vector<std::pair<int, size_t>> stack{{0, 0}};
  seen[0] = true;
  while (!stack.empty()) {
    auto& [b, next] = stack.back();
    const std::vector<int>& succs = f.blocks[b].insts.back().succs;
    if (next < succs.size()) {
      const int s = succs[next++];
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back({s, 0});
      }
      continue;
    }
    post.push_back(b);
    stack.pop_back();
  }
  std::vector<int> order(post.rbegin(), post.rend());
  for (int b = 0; b < nb; ++b)
    if (!seen[b]) order.push_back(b);
  return order;
}

// The natural loops of `f`: per header, its blocks (back edges u -> h where h dominates
// u; the loop is h and every block reaching such a u without passing through h).
std::vector<std::pair<int, std::vector<bool>>> natural_loops(const ir::Function& f) {
  const int nb = static_cast<int>(f.blocks.size());
  const std::vector<int> idom = dominators(f);
  auto dominates = [&](int h, int u) {
    while (u >= 0) {
      if (u == h) return true;
      if (idom[u] == u) return false;
      u = idom[u];
    }
    return false;
  };
  std::vector<std::pair<int, std::vector<bool>>> loops;
  for (int u = 0; u < nb; ++u) {
    if (idom[u] < 0) continue;
    for (int h : f.blocks[u].insts.back().succs) {
      if (!dominates(h, u)) continue;
      auto it = std::find_if(loops.begin(), loops.end(), [&](const auto& l) { return l.first == h; });
      if (it == loops.end()) {
        loops.push_back({h, std::vector<bool>(nb, false)});
        it = loops.end() - 1;
        it->second[h] = true;
      }
      std::vector<bool>& in = it->second;
      std::vector<int> work;
      if (!in[u]) {
        in[u] = true;
        work.push_back(u);
      }
      while (!work.empty()) {
        const int b = work.back();
        work.pop_back();
        for (int p : f.blocks[b].preds)
          if (!in[p] && idom[p] >= 0) {
            in[p] = true;
            work.push_back(p);
          }
      }
    }
  }
  return loops;
}

}  // namespace

bool layout_blocks(ir::Function& f) {
  const int nb = static_cast<int>(f.blocks.size());
  if (nb <= 1) return false;
  std::vector<int> order = reverse_postorder(f);
  // Make each loop contiguous, outermost first: its blocks move up to follow its header
  // (a header precedes the blocks it dominates in reverse postorder), everything else
  // keeps its relative order, so loops made contiguous earlier stay so.
  auto loops = natural_loops(f);
  std::vector<int> pos(nb);
  for (int k = 0; k < nb; ++k) pos[order[k]] = k;
  std::sort(loops.begin(), loops.end(), [&](const auto& a, const auto& b) { return pos[a.first] < pos[b.first]; });
  for (const auto& [h, in] : loops) {
    auto first = std::find(order.begin(), order.end(), h) + 1;
    std::stable_partition(first, order.end(), [&](int b) { return in[b]; });
  }
  // Branches fall through where the order allows: a conditional branch whose taken
  // successor comes next is inverted.
  bool changed = false;
  std::vector<int> new_index(nb);
  for (int k = 0; k < nb; ++k) {
    new_index[order[k]] = k;
    changed |= order[k] != k;
  }
  for (int k = 0; k + 1 < nb; ++k) {
    ir::Inst& t = f.blocks[order[k]].insts.back();
    const int next = order[k + 1];
    if (t.op == Op::kCondBranch && t.succs[0] != t.succs[1] && t.succs[1] != next && t.succs[0] == next &&
        !t.srcs[0].is_imm()) {
      std::swap(t.succs[0], t.succs[1]);
      t.negate = !t.negate;
      changed = true;
    }
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
