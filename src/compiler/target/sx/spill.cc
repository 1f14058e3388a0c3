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
  uint32_t offset = 0;   // in_memory: the slot
  int holder = -1;       // predicate: the 32-bit value holding 0/1
};

}  // namespace

uint32_t spill_values(ir::Function& f, const std::vector<int>& values, SpillState* state) {
  const uint32_t start_top = state->local_top;
  std::map<int, Home> homes;
  for (int v : values) {
    Home h;
    ir::RegClass c = ir::reg_class(f.type_of(v));
    if (c == ir::RegClass::kPred) {
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
          if (h.in_memory) {
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
