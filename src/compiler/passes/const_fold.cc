#include <optional>
#include <vector>

#include "compiler/passes/passes.h"

namespace strata::compiler::passes {
namespace {

using isa::Opcode;

std::optional<uint64_t> fold(const ir::Inst& i, uint64_t a, uint64_t b) {
  int bits = isa::type_bits(i.type);
  if (bits != 32 && bits != 64) return std::nullopt;
  if (isa::type_is_float(i.type)) return std::nullopt;
  uint64_t r;
  switch (i.isa_op) {
    case Opcode::IADD: r = a + b; break;
    case Opcode::ISUB: r = a - b; break;
    case Opcode::IMUL: r = a * b; break;
    case Opcode::AND: r = a & b; break;
    case Opcode::OR: r = a | b; break;
    case Opcode::XOR: r = a ^ b; break;
    case Opcode::SHL: r = b >= static_cast<uint64_t>(bits) ? 0 : a << b; break;
    default: return std::nullopt;
  }
  if (bits == 32) r &= 0xffffffffu;
  return r;
}

}  // namespace

bool constant_fold_copy_prop(ir::Function& f) {
  bool changed = false;
  std::vector<int> repl(f.values.size(), ir::kNoValue);
  std::vector<std::optional<uint64_t>> konst(f.values.size());
  for (auto& b : f.blocks)
    for (auto& i : b.insts) {
      if (i.op == ir::Op::kConst && i.symbol.empty()) konst[i.defs[0]] = i.imm;
      if (i.op == ir::Op::kCopy && !i.srcs[0].is_imm() &&
          ir::reg_class(f.type_of(i.srcs[0].value)) == ir::reg_class(f.type_of(i.defs[0])))
        repl[i.defs[0]] = i.srcs[0].value;
      if (i.op == ir::Op::kPhi) {
        int same = ir::kNoValue;
        bool trivial = true;
        for (auto& s : i.srcs) {
          if (s.is_imm() || s.value == i.defs[0] || s.value == same) continue;
          if (same != ir::kNoValue) trivial = false;
          same = s.value;
        }
        if (trivial && same != ir::kNoValue) repl[i.defs[0]] = same;
      }
    }
  auto resolve = [&](int v) {
    for (int n = 0; n < 64 && repl[v] != ir::kNoValue; ++n) v = repl[v];
    return v;
  };
  for (auto& b : f.blocks)
    for (auto& i : b.insts) {
      for (auto& s : i.srcs)
        if (!s.is_imm()) {
          int r = resolve(s.value);
          if (r != s.value) {
            s.value = r;
            changed = true;
          }
        }
      if (i.op == ir::Op::kIsa && i.defs.size() == 1 && i.defs[0] != ir::kNoValue && i.srcs.size() == 2) {
        auto val = [&](const ir::Operand& o) -> std::optional<uint64_t> {
          if (o.is_imm()) return o.imm;
          return konst[o.value];
        };
        auto a = val(i.srcs[0]), c = val(i.srcs[1]);
        if (a && c) {
          if (auto r = fold(i, *a, *c)) {
            ir::Inst k;
            k.op = ir::Op::kConst;
            k.imm = *r;
            k.defs = i.defs;
            k.ptx_line = i.ptx_line;
            konst[i.defs[0]] = *r;
            i = k;
            changed = true;
          }
        }
      }
    }
  // Drop phis that became self-copies.
  for (auto& b : f.blocks)
    std::erase_if(b.insts, [&](const ir::Inst& i) {
      return i.op == ir::Op::kPhi && repl[i.defs[0]] != ir::kNoValue;
    });
  return changed;
}

bool remove_unreachable_blocks(ir::Function& f) {
  std::vector<bool> seen(f.blocks.size(), false);
  std::vector<int> stack = {0};
  seen[0] = true;
  while (!stack.empty()) {
    int b = stack.back();
    stack.pop_back();
    if (f.blocks[b].insts.empty()) continue;
    for (int s : f.blocks[b].insts.back().succs)
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back(s);
      }
  }
  std::vector<int> remap(f.blocks.size(), -1);
  std::vector<ir::Block> kept;
  for (size_t b = 0; b < f.blocks.size(); ++b)
    if (seen[b]) {
      remap[b] = static_cast<int>(kept.size());
      kept.push_back(std::move(f.blocks[b]));
    }
  bool changed = kept.size() != f.blocks.size();
  if (!changed) return false;
  // Phi sources from removed predecessors go away with recompute_preds' reordering.
  for (size_t b = 0; b < kept.size(); ++b) {
    std::vector<int> preds;
    for (int p : kept[b].preds)
      if (remap[p] >= 0) preds.push_back(remap[p]);
    // keep phi srcs aligned with surviving preds
    for (auto& i : kept[b].insts) {
      if (i.op != ir::Op::kPhi) break;
      std::vector<ir::Operand> srcs;
      for (size_t k = 0; k < kept[b].preds.size() && k < i.srcs.size(); ++k)
        if (remap[kept[b].preds[k]] >= 0) srcs.push_back(i.srcs[k]);
      i.srcs = srcs;
    }
    kept[b].preds = preds;
    if (!kept[b].insts.empty())
      for (int& s : kept[b].insts.back().succs) s = remap[s];
  }
  f.blocks = std::move(kept);
  f.recompute_preds();
  return true;
}

}  // namespace strata::compiler::passes
