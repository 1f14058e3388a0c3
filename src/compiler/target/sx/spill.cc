#include "compiler/target/sx/spill.h"

#include <map>

namespace strata::compiler::sx {
namespace {

using ir::Op;
using isa::DataType;
using isa::Opcode;

DataType slot_type(ir::RegClass c) {
  switch (c) {
    case ir::RegClass::k64: return DataType::U64;
    case ir::RegClass::k128: return DataType::B128;
    default: return DataType::U32;
  }
}

ir::Inst local_access(Opcode op, DataType t, uint32_t offset) {
  ir::Inst i;
  i.op = Op::kIsa;
  i.isa_op = op;
  i.type = t;
  i.space = isa::MemSpace::LOCAL;
  i.imm = offset;
  i.srcs = {ir::Operand::immediate(0)};  // address: RZ + offset
  return i;
}

// How one spilled value is kept.
struct Home {
  bool in_memory = false;
  uint32_t offset = 0;              // in_memory: the slot
  int holder = -1;                  // predicate: the 32-bit value holding 0/1
  const ir::Inst* remat = nullptr;  // a constant: its kConst, re-emitted before each use
};

// The definitions of `v` when it has exactly one and that is a plain constant (kConst
// without a symbol), else null.
std::vector<const ir::Inst*> constant_defs(const ir::Function& f) {
  std::vector<const ir::Inst*> def(f.values.size(), nullptr);
  std::vector<int> count(f.values.size(), 0);
  for (const auto& b : f.blocks)
    for (const ir::Inst& i : b.insts)
      for (int d : i.defs)
        if (d != ir::kNoValue) {
          ++count[static_cast<size_t>(d)];
          def[static_cast<size_t>(d)] = &i;
        }
  for (size_t v = 0; v < def.size(); ++v)
    if (count[v] != 1 || def[v]->op != Op::kConst || !def[v]->symbol.empty()) def[v] = nullptr;
  return def;
}

}  // namespace

uint32_t spill_values(ir::Function& f, const std::vector<int>& values, SpillState* state) {
  const uint32_t start_top = state->local_top;
  const std::vector<const ir::Inst*> consts = constant_defs(f);
  std::vector<ir::Inst> remat_defs;  // copies: the originals are dropped below
  remat_defs.reserve(values.size());
  std::map<int, Home> homes;
  for (int v : values) {
    Home h;
    ir::RegClass c = ir::reg_class(f.type_of(v));
    if (const ir::Inst* k = consts[static_cast<size_t>(v)]) {
      remat_defs.push_back(*k);
      h.remat = &remat_defs.back();
    } else if (c == ir::RegClass::kPred) {
      h.holder = f.new_value(DataType::U32);
    } else {
      uint32_t size = 4u * static_cast<uint32_t>(ir::class_regs(c));
      state->local_top = (state->local_top + size - 1) / size * size;
      h.in_memory = true;
      h.offset = state->local_top;
      state->local_top += size;
    }
    homes[v] = h;
  }
  auto fresh = [&](DataType t, bool temporary) {
    int v = f.new_value(t);
    state->unspillable.resize(f.values.size(), false);
    state->unspillable[v] = temporary;
    return v;
  };
  for (auto& block : f.blocks) {
    std::vector<ir::Inst> out;
    out.reserve(block.insts.size());
    for (ir::Inst& inst : block.insts) {
      // Reloads before the instruction (one per spilled source value).
      std::map<int, int> reloaded;
      for (ir::Operand& s : inst.srcs) {
        if (s.is_imm()) continue;
        auto it = homes.find(s.value);
        if (it == homes.end()) continue;
        auto [r, inserted] = reloaded.try_emplace(s.value, -1);
        if (inserted) {
          const Home& h = it->second;
          if (h.remat) {
            ir::Inst k = *h.remat;
            r->second = fresh(f.type_of(s.value), true);
            k.defs = {r->second};
            out.push_back(std::move(k));
          } else if (h.in_memory) {
            DataType t = f.type_of(s.value);
            ir::Inst ld = local_access(Opcode::LD, slot_type(ir::reg_class(t)), h.offset);
            r->second = fresh(t, true);
            ld.defs = {r->second};
            out.push_back(std::move(ld));
          } else {
            ir::Inst cmp;
            cmp.op = Op::kIsa;
            cmp.isa_op = Opcode::ISETP;
            cmp.type = DataType::U32;
            cmp.mod = static_cast<uint8_t>(isa::CmpOp::NE);  // BoolOp AND (0) with PT
            cmp.srcs = {ir::Operand::val(h.holder), ir::Operand::immediate(0), ir::Operand::immediate(1)};
            r->second = fresh(DataType::Pred, true);
            cmp.defs = {r->second};
            out.push_back(std::move(cmp));
          }
        }
        s.value = r->second;
      }
      // Definitions write a temporary that is saved right after the instruction.
      std::vector<ir::Inst> saves;
      for (int& d : inst.defs) {
        if (d == ir::kNoValue) continue;
        auto it = homes.find(d);
        if (it == homes.end()) continue;
        const Home& h = it->second;
        if (h.remat) continue;  // the constant's definition: dropped below
        DataType t = f.type_of(d);
        int tmp = fresh(t, true);
        d = tmp;
        if (h.in_memory) {
          ir::Inst st = local_access(Opcode::ST, slot_type(ir::reg_class(t)), h.offset);
          st.srcs.push_back(ir::Operand::val(tmp));
          saves.push_back(std::move(st));
        } else {
          ir::Inst sel;
          sel.op = Op::kIsa;
          sel.isa_op = Opcode::SEL;
          sel.type = DataType::U32;
          sel.srcs = {ir::Operand::immediate(1), ir::Operand::immediate(0), ir::Operand::val(tmp)};
          sel.defs = {h.holder};
          saves.push_back(std::move(sel));
        }
      }
      bool terminator = inst.is_terminator();
      if (inst.op == Op::kConst && inst.defs.size() == 1 && homes.count(inst.defs[0]) &&
          homes[inst.defs[0]].remat)
        continue;  // rematerialised at each use instead
      out.push_back(std::move(inst));
      // Terminators define nothing, so saves never follow one.
      if (!terminator) out.insert(out.end(), saves.begin(), saves.end());
    }
    block.insts = std::move(out);
  }
  state->unspillable.resize(f.values.size(), false);
  return state->local_top - start_top;
}

}  // namespace strata::compiler::sx
