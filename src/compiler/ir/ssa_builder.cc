#include "compiler/ir/ssa_builder.h"

#include <algorithm>

namespace strata::compiler::ir {

int SsaBuilder::resolve(int v) const {
  for (;;) {
    auto it = replaced_.find(v);
    if (it == replaced_.end()) return v;
    v = it->second;
  }
}

int SsaBuilder::read(const std::string& var, int block, DataType type) {
  auto it = defs_.find(var);
  if (it != defs_.end()) {
    auto jt = it->second.find(block);
    if (jt != it->second.end()) return resolve(jt->second);
  }
  return read_recursive(var, block, type);
}

int SsaBuilder::undef(DataType type) {
  auto it = undefs_.find(type);
  if (it != undefs_.end()) return it->second;
  Inst c;
  c.op = Op::kConst;
  c.defs = {f_->new_value(type)};
  auto& entry = f_->blocks[0].insts;
  entry.insert(entry.begin(), c);
  undefs_[type] = c.defs[0];
  return c.defs[0];
}

int SsaBuilder::new_phi(int block, DataType type) {
  Inst phi;
  phi.op = Op::kPhi;
  phi.defs = {f_->new_value(type)};
  auto& insts = f_->blocks[block].insts;
  insts.insert(insts.begin(), phi);
  phi_block_[phi.defs[0]] = block;
  return phi.defs[0];
}

Inst* SsaBuilder::find_phi(int phi) {
  auto it = phi_block_.find(phi);
  if (it == phi_block_.end()) return nullptr;
  for (Inst& i : f_->blocks[it->second].insts)
    if (i.op == Op::kPhi && i.defs[0] == phi) return &i;
  return nullptr;
}

int SsaBuilder::read_recursive(const std::string& var, int block, DataType type) {
  int val;
  const auto& preds = f_->blocks[block].preds;
  if (!sealed(block)) {
    val = new_phi(block, type);
    incomplete_[block].push_back({var, val});
  } else if (preds.empty()) {
    val = undef(type);
  } else if (preds.size() == 1) {
    val = read(var, preds[0], type);
  } else {
    val = new_phi(block, type);
    write(var, block, val);
    val = add_phi_operands(var, val, block, type);
  }
  write(var, block, val);
  return val;
}

int SsaBuilder::add_phi_operands(const std::string& var, int phi, int block, DataType type) {
  std::vector<Operand> srcs;
  // Read the operands first: reading may insert phis into this block, which would
  // invalidate a pointer to the phi.
  std::vector<int> preds = f_->blocks[block].preds;
  for (int p : preds) srcs.push_back(Operand::val(read(var, p, type)));
  Inst* inst = find_phi(phi);
  inst->srcs = std::move(srcs);
  return try_remove_trivial(phi);
}

int SsaBuilder::try_remove_trivial(int phi) {
  Inst* inst = find_phi(phi);
  int same = kNoValue;
  for (const Operand& o : inst->srcs) {
    int v = resolve(o.value);
    if (v == same || v == phi) continue;
    if (same != kNoValue) return phi;  // merges at least two values
    same = v;
  }
  if (same == kNoValue) same = undef(f_->type_of(phi));  // unreachable or only self
  replaced_[phi] = same;
  return same;
}

void SsaBuilder::seal(int block) {
  if (sealed(block)) return;
  sealed_.insert(block);
  auto pending = std::move(incomplete_[block]);
  incomplete_.erase(block);
  for (auto& [var, phi] : pending) add_phi_operands(var, phi, block, f_->type_of(phi));
}

void SsaBuilder::finish() {
  for (size_t b = 0; b < f_->blocks.size(); ++b) seal(static_cast<int>(b));
  // Iterate: removing one trivial phi can make another trivial.
  bool changed = true;
  while (changed) {
    changed = false;
    for (auto& [phi, block] : phi_block_) {
      if (replaced_.count(phi)) continue;
      if (try_remove_trivial(phi) != phi) changed = true;
    }
  }
  for (auto& b : f_->blocks) {
    std::erase_if(b.insts, [&](const Inst& i) { return i.op == Op::kPhi && replaced_.count(i.defs[0]); });
    for (Inst& i : b.insts)
      for (Operand& o : i.srcs)
        if (!o.is_imm()) o.value = resolve(o.value);
  }
}

}  // namespace strata::compiler::ir
