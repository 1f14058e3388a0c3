#include "compiler/target/sx/dominators.h"

#include <algorithm>

namespace strata::compiler::sx {
namespace {

// Generic CHK over a graph given as successor/predecessor lists with root `root`.
std::vector<int> compute(int n, int root, const std::vector<std::vector<int>>& succ,
                         const std::vector<std::vector<int>>& pred) {
  std::vector<int> order, rpo_index(n, -1);
  std::vector<bool> seen(n, false);
  // iterative post-order DFS
  std::vector<std::pair<int, size_t>> stack = {{root, 0}};
  seen[root] = true;
  while (!stack.empty()) {
    auto& [v, k] = stack.back();
    if (k < succ[v].size()) {
      int s = succ[v][k++];
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(v);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  for (size_t i = 0; i < order.size(); ++i) rpo_index[order[i]] = static_cast<int>(i);
  std::vector<int> idom(n, -1);
  idom[root] = root;
  auto intersect = [&](int a, int b) {
    while (a != b) {
      while (rpo_index[a] > rpo_index[b]) a = idom[a];
      while (rpo_index[b] > rpo_index[a]) b = idom[b];
    }
    return a;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (int v : order) {
      if (v == root) continue;
      int nd = -1;
      for (int p : pred[v]) {
        if (idom[p] < 0) continue;
        nd = nd < 0 ? p : intersect(p, nd);
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  return idom;
}

}  // namespace

std::vector<int> dominators(const ir::Function& f) {
  int n = static_cast<int>(f.blocks.size());
  std::vector<std::vector<int>> succ(n), pred(n);
  for (int b = 0; b < n; ++b)
    for (int s : f.blocks[b].insts.back().succs) {
      succ[b].push_back(s);
      pred[s].push_back(b);
    }
  return compute(n, 0, succ, pred);
}

std::vector<int> post_dominators(const ir::Function& f) {
  int n = static_cast<int>(f.blocks.size());
  int exit = n;
  std::vector<std::vector<int>> rsucc(n + 1), rpred(n + 1);
  for (int b = 0; b < n; ++b) {
    const auto& t = f.blocks[b].insts.back();
    if (t.op == ir::Op::kExit) {
      rsucc[exit].push_back(b);
      rpred[b].push_back(exit);
    }
    for (int s : t.succs) {
      rsucc[s].push_back(b);
      rpred[b].push_back(s);
    }
  }
  return compute(n + 1, exit, rsucc, rpred);
}

}  // namespace strata::compiler::sx
