// Register-tuple folding (passes.h, fold_register_tuples).
//
// Tensor-core fragments reach the IR as 32-bit parts: mma.sync / ldmatrix are lowered
// as pack(parts) -> HMMA/LDSM -> extract(result, k) (lower_tensor.cc), and loop-carried
// accumulators and fragments merged after an if become per-part phis. Left alone, every
// HMMA needs a pack (one MOV per part, and the pack's early clobber keeps the parts and
// the tuple live at once) and every result an extract per part, and the allocator sees
// the parts and the tuple as separate values. Two rewrites keep the tuple whole:
//
//   pack(extract(X, 0), ..., extract(X, n-1))  ->  X      (X of n registers)
//   phis p_k = phi(o_k0, o_k1, ...) of one block, k = 0..n-1 (the phis a pack reads in
//   this order, or the phis whose operands on one edge are extract(X, 0..n-1))
//     ->  P = phi(t_0, t_1, ...), p_k = extract(P, k), where t_j is X_j when every o_kj
//   is extract(X_j, k), P itself when every o_kj is p_k, and otherwise a new
//   pack(o_0j, ..., o_{n-1}j) at the end of predecessor j. Applied only when at least
//   one edge is of the extract form, so the tuple already exists on that path.
//
// After both, a loop of HMMAs over a carried accumulator is phi(P) -> HMMA -> HMMA ...
// with no pack or extract, and out-of-SSA coalesces the phi with the last HMMA's result.
// The second form also covers the phis after a loop (zero-trip path vs. the last
// HMMA): without it the loop's last HMMA result is extracted into parts that live to
// the epilogue beside the tuple, and the allocator spills them inside the loop.
#include <algorithm>
#include <map>
#include <vector>

#include "compiler/passes/passes.h"

namespace strata::compiler::passes {
namespace {

using ir::Op;

struct Def {
  int block = -1;
  const ir::Inst* inst = nullptr;  // valid until the function is edited
};

std::vector<Def> definitions(const ir::Function& f) {
  std::vector<Def> defs(f.values.size());
  for (size_t b = 0; b < f.blocks.size(); ++b)
    for (const ir::Inst& i : f.blocks[b].insts)
      for (int d : i.defs)
        if (d != ir::kNoValue) defs[static_cast<size_t>(d)] = {static_cast<int>(b), &i};
  return defs;
}

int tuple_regs(const ir::Function& f, int v) {
  return ir::class_regs(ir::reg_class(f.type_of(v)));
}

// X when `parts` are extract(X, 0..n-1) of one X of n registers, else kNoValue.
int extracted_tuple(const ir::Function& f, const std::vector<Def>& defs,
                    const std::vector<ir::Operand>& parts) {
  int x = ir::kNoValue;
  for (size_t k = 0; k < parts.size(); ++k) {
    if (parts[k].is_imm()) return ir::kNoValue;
    const ir::Inst* i = defs[static_cast<size_t>(parts[k].value)].inst;
    if (!i || i->op != Op::kExtract || i->imm != k || i->srcs[0].is_imm()) return ir::kNoValue;
    if (k == 0)
      x = i->srcs[0].value;
    else if (i->srcs[0].value != x)
      return ir::kNoValue;
  }
  if (x == ir::kNoValue || f.type_of(x) == isa::DataType::Pred ||
      tuple_regs(f, x) != static_cast<int>(parts.size()))
    return ir::kNoValue;
  return x;
}

// pack(extract(X, 0..n-1)) -> copy of X.
bool fold_packs(ir::Function& f) {
  const std::vector<Def> defs = definitions(f);
  std::vector<std::pair<ir::Inst*, int>> folds;
  for (auto& b : f.blocks)
    for (ir::Inst& i : b.insts) {
      if (i.op != Op::kPack || i.defs[0] == ir::kNoValue) continue;
      int x = extracted_tuple(f, defs, i.srcs);
      if (x != ir::kNoValue && ir::reg_class(f.type_of(x)) == ir::reg_class(f.type_of(i.defs[0])))
        folds.push_back({&i, x});
    }
  for (auto& [i, x] : folds) {
    i->op = Op::kCopy;
    i->srcs = {ir::Operand::val(x)};
  }
  return !folds.empty();
}

// Rewrites the phis `phis` (results p_0..p_{n-1}, all of block `pb`) into one tuple phi
// of `type` followed by extracts, when some edge brings the parts of one tuple (file
// comment). Returns whether it did.
bool fold_phi_group(ir::Function& f, const std::vector<Def>& defs, int pb,
                    const std::vector<const ir::Inst*>& phis, isa::DataType type) {
  const size_t n = phis.size();
  const std::vector<int> preds = f.blocks[static_cast<size_t>(pb)].preds;
  // Per edge: the tuple (X_j), the phi itself (self), or the parts to pack.
  std::vector<int> tuple(preds.size(), ir::kNoValue);
  std::vector<bool> self(preds.size(), false);
  std::vector<std::vector<ir::Operand>> edge_parts(preds.size());
  bool any_extract = false;
  for (size_t j = 0; j < preds.size(); ++j) {
    bool is_self = true;
    for (size_t k = 0; k < n; ++k) {
      const ir::Operand& o = phis[k]->srcs[j];
      edge_parts[j].push_back(o);
      is_self &= !o.is_imm() && o.value == phis[k]->defs[0];
    }
    self[j] = is_self;
    if (is_self) continue;
    tuple[j] = extracted_tuple(f, defs, edge_parts[j]);
    if (tuple[j] != ir::kNoValue && ir::reg_class(f.type_of(tuple[j])) != ir::reg_class(type))
      tuple[j] = ir::kNoValue;
    any_extract |= tuple[j] != ir::kNoValue;
  }
  if (!any_extract) return false;
  std::vector<int> part_values;
  for (size_t k = 0; k < n; ++k) part_values.push_back(phis[k]->defs[0]);
  const int ptx_line = phis[0]->ptx_line;
  // `phis` point into the block edited below: nothing reads them from here on.
  const int p = f.new_value(type);
  ir::Inst phi;
  phi.op = Op::kPhi;
  phi.defs = {p};
  phi.ptx_line = ptx_line;
  std::map<int, int> packed;  // predecessor -> its pack (a predecessor may repeat)
  for (size_t j = 0; j < preds.size(); ++j) {
    if (self[j]) {
      phi.srcs.push_back(ir::Operand::val(p));
      continue;
    }
    if (tuple[j] != ir::kNoValue) {
      phi.srcs.push_back(ir::Operand::val(tuple[j]));
      continue;
    }
    auto it = packed.find(preds[j]);
    if (it == packed.end()) {
      ir::Inst pk;
      pk.op = Op::kPack;
      pk.defs = {f.new_value(type)};
      pk.srcs = edge_parts[j];
      pk.ptx_line = ptx_line;
      auto& insts = f.blocks[static_cast<size_t>(preds[j])].insts;
      it = packed.emplace(preds[j], pk.defs[0]).first;
      insts.insert(insts.end() - 1, std::move(pk));
    }
    phi.srcs.push_back(ir::Operand::val(it->second));
  }
  auto& insts = f.blocks[static_cast<size_t>(pb)].insts;
  std::erase_if(insts, [&](const ir::Inst& i) {
    return i.op == Op::kPhi &&
           std::find(part_values.begin(), part_values.end(), i.defs[0]) != part_values.end();
  });
  auto first_non_phi =
      std::find_if(insts.begin(), insts.end(), [](const ir::Inst& i) { return i.op != Op::kPhi; });
  std::vector<ir::Inst> extracts;
  for (size_t k = 0; k < n; ++k) {
    ir::Inst e;
    e.op = Op::kExtract;
    e.defs = {part_values[k]};
    e.srcs = {ir::Operand::val(p)};
    e.imm = k;
    e.ptx_line = ptx_line;
    extracts.push_back(std::move(e));
  }
  insts.insert(first_non_phi, extracts.begin(), extracts.end());
  insts.insert(insts.begin(), std::move(phi));
  return true;
}

// One phi-tuple rewrite; returns whether it made one. Groups: the phis a pack reads in
// order, and the phis of a block whose operands on one edge are extract(X, 0..n-1).
bool fold_one_phi_tuple(ir::Function& f) {
  const std::vector<Def> defs = definitions(f);
  auto phi_part = [&](const ir::Operand& s) -> const Def* {
    if (s.is_imm()) return nullptr;
    const Def& d = defs[static_cast<size_t>(s.value)];
    if (!d.inst || d.inst->op != Op::kPhi || ir::reg_class(f.type_of(s.value)) != ir::RegClass::k32)
      return nullptr;
    return &d;
  };
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    const auto& insts = f.blocks[b].insts;
    for (const ir::Inst& i : insts) {
      std::vector<const ir::Inst*> phis;
      int pb = -1;
      isa::DataType type = isa::DataType::kNone;
      if (i.op == Op::kPack && i.defs[0] != ir::kNoValue &&
          tuple_regs(f, i.defs[0]) == static_cast<int>(i.srcs.size())) {
        // The parts of a pack, each a distinct phi of one block.
        for (const auto& s : i.srcs) {
          const Def* d = phi_part(s);
          if (!d || (pb >= 0 && d->block != pb) ||
              std::find(phis.begin(), phis.end(), d->inst) != phis.end())
            break;
          pb = d->block;
          phis.push_back(d->inst);
        }
        if (phis.size() != i.srcs.size()) continue;
        type = f.type_of(i.defs[0]);
      } else if (i.op == Op::kPhi && ir::reg_class(f.type_of(i.defs[0])) == ir::RegClass::k32) {
        // The phis of this block taking extract(X, 0..n-1) on some edge, found from part 0.
        for (size_t j = 0; j < i.srcs.size() && phis.empty(); ++j) {
          const ir::Operand& o = i.srcs[j];
          if (o.is_imm()) continue;
          const ir::Inst* e = defs[static_cast<size_t>(o.value)].inst;
          if (!e || e->op != Op::kExtract || e->imm != 0 || e->srcs[0].is_imm()) continue;
          const int x = e->srcs[0].value;
          const int n = tuple_regs(f, x);
          if (f.type_of(x) == isa::DataType::Pred || n < 2) continue;
          std::vector<const ir::Inst*> group(static_cast<size_t>(n), nullptr);
          group[0] = &i;
          for (const ir::Inst& q : insts) {
            if (q.op != Op::kPhi) break;
            if (&q == &i || q.srcs[j].is_imm() ||
                ir::reg_class(f.type_of(q.defs[0])) != ir::RegClass::k32)
              continue;
            const ir::Inst* qe = defs[static_cast<size_t>(q.srcs[j].value)].inst;
            if (qe && qe->op == Op::kExtract && !qe->srcs[0].is_imm() && qe->srcs[0].value == x &&
                qe->imm > 0 && qe->imm < static_cast<uint64_t>(n) && !group[qe->imm])
              group[qe->imm] = &q;
          }
          if (std::find(group.begin(), group.end(), nullptr) != group.end()) continue;
          phis = std::move(group);
          pb = static_cast<int>(b);
          type = f.type_of(x);
        }
        if (phis.empty()) continue;
      } else {
        continue;
      }
      if (fold_phi_group(f, defs, pb, phis, type)) return true;
    }
  }
  return false;
}

}  // namespace

bool fold_register_tuples(ir::Function& f) {
  bool changed = false;
  for (;;) {
    bool again = fold_one_phi_tuple(f);
    again |= fold_packs(f);
    if (!again) break;
    changed = true;
  }
  return changed;
}

}  // namespace strata::compiler::passes
