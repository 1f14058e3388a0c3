#include "compiler/target/sx/regalloc.h"

#include <algorithm>
#include <fmt/format.h>

namespace strata::compiler::sx {

using ir::Op;

void eliminate_phis(ir::Function& f) {
  for (size_t b = 0; b < f.blocks.size(); ++b) {
    auto& insts = f.blocks[b].insts;
    std::vector<ir::Inst> phis;
    while (!insts.empty() && insts.front().op == Op::kPhi) {
      phis.push_back(insts.front());
      insts.erase(insts.begin());
    }
    std::vector<ir::Inst> heads;
    for (const ir::Inst& phi : phis) {
      int t = f.new_value(f.type_of(phi.defs[0]));
      const auto preds = f.blocks[b].preds;
      for (size_t k = 0; k < preds.size(); ++k) {
        ir::Inst c;
        c.op = Op::kCopy;
        c.defs = {t};
        c.srcs = {phi.srcs[k]};
        auto& pi = f.blocks[preds[k]].insts;
        pi.insert(pi.end() - 1, c);
      }
      ir::Inst c;
      c.op = Op::kCopy;
      c.defs = phi.defs;
      c.srcs = {ir::Operand::val(t)};
      heads.push_back(c);
    }
    f.blocks[b].insts.insert(f.blocks[b].insts.begin(), heads.begin(), heads.end());
  }
}

StatusOr<std::vector<int>> allocate_registers(const ir::Function& f, uint32_t* regs_used) {
  size_t nv = f.values.size(), nb = f.blocks.size();
  // Linear positions: two per instruction (use at 2i, def at 2i+1).
  std::vector<int> block_start(nb), block_end(nb);
  int pos = 0;
  for (size_t b = 0; b < nb; ++b) {
    block_start[b] = pos;
    pos += 2 * static_cast<int>(f.blocks[b].insts.size());
    block_end[b] = pos - 1;
  }
  // Liveness (sets of values) per block.
  std::vector<std::vector<bool>> live_in(nb, std::vector<bool>(nv)), live_out(nb, std::vector<bool>(nv));
  std::vector<std::vector<int>> gen(nb), kill(nb);
  for (size_t b = 0; b < nb; ++b) {
    std::vector<bool> defined(nv);
    for (const auto& i : f.blocks[b].insts) {
      for (const auto& s : i.srcs)
        if (!s.is_imm() && !defined[s.value]) gen[b].push_back(s.value);
      for (int d : i.defs)
        if (d != ir::kNoValue) {
          defined[d] = true;
          kill[b].push_back(d);
        }
    }
  }
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t bi = nb; bi-- > 0;) {
      const auto& term = f.blocks[bi].insts.back();
      std::vector<bool> out(nv);
      for (int s : term.succs)
        for (size_t v = 0; v < nv; ++v)
          if (live_in[s][v]) out[v] = true;
      std::vector<bool> in = out;
      for (int k : kill[bi]) in[k] = false;
      for (int g : gen[bi]) in[g] = true;
      if (in != live_in[bi] || out != live_out[bi]) {
        live_in[bi] = std::move(in);
        live_out[bi] = std::move(out);
        changed = true;
      }
    }
  }
  std::vector<int> start(nv, INT32_MAX), end(nv, -1);
  auto touch = [&](int v, int p) {
    start[v] = std::min(start[v], p);
    end[v] = std::max(end[v], p);
  };
  for (size_t b = 0; b < nb; ++b) {
    for (size_t v = 0; v < nv; ++v) {
      if (live_in[b][v]) touch(static_cast<int>(v), block_start[b]);
      if (live_out[b][v]) touch(static_cast<int>(v), block_end[b]);
    }
    int p = block_start[b];
    for (const auto& i : f.blocks[b].insts) {
      for (const auto& s : i.srcs)
        if (!s.is_imm()) touch(s.value, p);
      // A pack writes its parts one by one: its result must not share registers with
      // its sources (early clobber).
      for (int d : i.defs)
        if (d != ir::kNoValue) touch(d, i.op == Op::kPack ? p : p + 1);
      p += 2;
    }
  }
  std::vector<int> order;
  for (size_t v = 0; v < nv; ++v)
    if (end[v] >= 0) order.push_back(static_cast<int>(v));
  std::sort(order.begin(), order.end(), [&](int a, int b) { return start[a] < start[b]; });
  std::vector<int> reg(nv, -1);
  std::vector<int> gpr_free_at(kFirstScratch, -1), pred_free_at(isa::kNumPreds, -1);
  uint32_t used = 0;
  for (int v : order) {
    ir::RegClass c = ir::reg_class(f.type_of(v));
    if (c == ir::RegClass::kPred) {
      int chosen = -1;
      for (int p = 0; p < isa::kNumPreds; ++p)
        if (pred_free_at[p] < start[v]) {
          chosen = p;
          break;
        }
      if (chosen < 0)
        return error(Code::kNotSupported,
                     fmt::format("kernel '{}': more than {} predicates live at once (predicate spilling is not supported yet)",
                                 f.name, isa::kNumPreds));
      pred_free_at[chosen] = end[v];
      reg[v] = chosen;
      continue;
    }
    int n = ir::class_regs(c);
    int chosen = -1;
    for (int r = 0; r + n <= kFirstScratch; r += n) {
      bool ok = true;
      for (int k = 0; k < n; ++k) ok &= gpr_free_at[r + k] < start[v];
      if (ok) {
        chosen = r;
        break;
      }
    }
    if (chosen < 0)
      return error(Code::kNotSupported,
                   fmt::format("kernel '{}': register pressure exceeds {} registers (spilling is not supported yet)",
                               f.name, kFirstScratch));
    for (int k = 0; k < n; ++k) gpr_free_at[chosen + k] = end[v];
    reg[v] = chosen;
    used = std::max<uint32_t>(used, static_cast<uint32_t>(chosen + n));
  }
  *regs_used = used;
  return reg;
}

}  // namespace strata::compiler::sx
