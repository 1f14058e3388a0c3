#include "compiler/target/sx/out_of_ssa.h"

#include <algorithm>
#include <numeric>
#include <utility>
#include <vector>

#include "compiler/target/sx/liveness.h"

namespace strata::compiler::sx {
namespace {

using ir::Op;

// Coalescing two classes tests every pair of their members; larger pairs stay apart.
constexpr size_t kMaxMergeTests = 4096;

// Exact SSA liveness (liveness.h) and the interference test of out_of_ssa.h.
class Interference {
 public:
  explicit Interference(const ir::Function& f) : f_(f), live_(compute_liveness(f)) {
    size_t nv = f.values.size(), nb = f.blocks.size();
    def_block_.assign(nv, -1);
    def_index_.assign(nv, -1);
    for (size_t b = 0; b < nb; ++b) {
      const auto& insts = f.blocks[b].insts;
      for (size_t k = 0; k < insts.size(); ++k) {
        const ir::Inst& i = insts[k];
        for (int d : i.defs)
          if (d != ir::kNoValue) {
            def_block_[d] = static_cast<int>(b);
            def_index_[d] = i.op == Op::kPhi ? -1 : static_cast<int>(k);
          }
      }
    }
  }

  bool interfere(int a, int b) const { return a != b && (live_after_def(a, b) || live_after_def(b, a)); }

 private:
  // Is `a` live right after the definition of `b`?
  bool live_after_def(int a, int b) const {
    int blk = def_block_[b];
    if (blk < 0 || def_block_[a] < 0) return false;
    int k = def_index_[b];
    if (def_block_[a] == blk) {
      if (def_index_[a] == k) return true;  // same instruction, or two phis of one block
      if (def_index_[a] > k) return false;  // defined later in the block
    }
    if (live_.live_out_has(blk, a)) return true;
    const auto& insts = f_.blocks[blk].insts;
    for (size_t j = static_cast<size_t>(k + 1); j < insts.size(); ++j) {
      if (insts[j].op == Op::kPhi) continue;
      for (const auto& s : insts[j].srcs)
        if (!s.is_imm() && s.value == a) return true;
    }
    return false;
  }

  const ir::Function& f_;
  BlockLiveness live_;
  std::vector<int> def_block_, def_index_;
};

// Emits the parallel copy {dst_i = src_i} as a sequence of kCopy before `at`.
void sequentialise(ir::Function& f, std::vector<std::pair<int, ir::Operand>> pending, std::vector<ir::Inst>* out) {
  auto copy = [&](int d, ir::Operand s) {
    ir::Inst c;
    c.op = Op::kCopy;
    c.defs = {d};
    c.srcs = {s};
    out->push_back(std::move(c));
  };
  while (!pending.empty()) {
    bool progress = false;
    for (size_t k = 0; k < pending.size(); ++k) {
      int d = pending[k].first;
      bool read_later = false;
      for (size_t j = 0; j < pending.size(); ++j)
        if (j != k && !pending[j].second.is_imm() && pending[j].second.value == d) read_later = true;
      if (read_later) continue;
      copy(d, pending[k].second);
      pending.erase(pending.begin() + static_cast<long>(k));
      progress = true;
      break;
    }
    if (progress) continue;
    // Every destination is still read: a cycle. Save one destination in a temporary.
    int d = pending[0].first;
    int t = f.new_value(f.type_of(d));
    copy(t, ir::Operand::val(d));
    for (auto& [dd, s] : pending)
      if (!s.is_imm() && s.value == d) s = ir::Operand::val(t);
  }
}

}  // namespace

bool out_of_ssa(ir::Function& f) {
  bool any_phi = false;
  for (const auto& b : f.blocks) any_phi |= !b.insts.empty() && b.insts.front().op == Op::kPhi;
  if (!any_phi) return false;
  size_t nv = f.values.size();
  std::vector<int> parent(nv);
  std::iota(parent.begin(), parent.end(), 0);
  std::vector<std::vector<int>> members(nv);
  for (size_t v = 0; v < nv; ++v) members[v] = {static_cast<int>(v)};
  auto find = [&](int v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  {
    Interference ig(f);
    // Merges the classes of u and v unless they interfere (or would cost too many tests).
    auto merge = [&](int u, int v) {
      int x = find(u), y = find(v);
      if (x == y || ir::reg_class(f.type_of(x)) != ir::reg_class(f.type_of(y))) return;
      if (members[x].size() * members[y].size() > kMaxMergeTests) return;
      for (int a : members[x])
        for (int c : members[y])
          if (ig.interfere(a, c)) return;
      parent[y] = x;
      members[x].insert(members[x].end(), members[y].begin(), members[y].end());
      members[y].clear();
    };
    for (const auto& b : f.blocks)
      for (const ir::Inst& i : b.insts) {
        if (i.op != Op::kPhi) break;
        for (const auto& s : i.srcs)
          if (!s.is_imm()) merge(i.defs[0], s.value);
      }
    // Accumulators: a single result with the class of its last same-class source that
    // dies there (an HMMA's or IMAD's C) joins that source's class.
    for (const auto& b : f.blocks)
      for (const ir::Inst& i : b.insts) {
        if (i.op == Op::kPhi || i.op == Op::kCopy || i.op == Op::kPack || i.defs.size() != 1 ||
            i.defs[0] == ir::kNoValue)
          continue;
        const ir::RegClass c = ir::reg_class(f.type_of(i.defs[0]));
        for (auto s = i.srcs.rbegin(); s != i.srcs.rend(); ++s)
          if (!s->is_imm() && ir::reg_class(f.type_of(s->value)) == c) {
            merge(s->value, i.defs[0]);
            break;
          }
      }
  }
  for (auto& b : f.blocks)
    for (ir::Inst& i : b.insts) {
      for (int& d : i.defs)
        if (d != ir::kNoValue) d = find(d);
      for (auto& s : i.srcs)
        if (!s.is_imm()) s.value = find(s.value);
    }
  int nb = static_cast<int>(f.blocks.size());
  for (int b = 0; b < nb; ++b) {
    std::vector<ir::Inst> phis;
    auto& insts = f.blocks[b].insts;
    while (!insts.empty() && insts.front().op == Op::kPhi) {
      phis.push_back(std::move(insts.front()));
      insts.erase(insts.begin());
    }
    if (phis.empty()) continue;
    std::vector<int> preds = f.blocks[b].preds;
    std::vector<int> done;
    for (size_t k = 0; k < preds.size(); ++k) {
      int p = preds[k];
      if (std::find(done.begin(), done.end(), p) != done.end()) continue;  // same edge twice
      done.push_back(p);
      std::vector<std::pair<int, ir::Operand>> pending;
      for (const ir::Inst& phi : phis) {
        const ir::Operand& s = phi.srcs[k];
        if (s.is_imm() || s.value != phi.defs[0]) pending.push_back({phi.defs[0], s});
      }
      if (pending.empty()) continue;
      std::vector<ir::Inst> copies;
      sequentialise(f, std::move(pending), &copies);
      ir::Inst& term = f.blocks[p].insts.back();
      bool single = std::all_of(term.succs.begin(), term.succs.end(), [&](int s) { return s == b; });
      if (single) {
        auto& pi = f.blocks[p].insts;
        pi.insert(pi.end() - 1, copies.begin(), copies.end());
        continue;
      }
      int n = f.new_block();
      ir::Inst br;
      br.op = Op::kBranch;
      br.succs = {b};
      copies.push_back(std::move(br));
      f.blocks[n].insts = std::move(copies);
      for (int& s : f.blocks[p].insts.back().succs)
        if (s == b) s = n;
    }
  }
  f.recompute_preds();
  return true;
}

}  // namespace strata::compiler::sx
