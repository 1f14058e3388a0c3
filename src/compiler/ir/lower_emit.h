// Small IR emitters shared by the lowering files that build code by hand (the device
// runtime's printf/assert/heap and device-side launches): a read of the driver bank c[3]
// and plain weak loads and stores.
#pragma once

#include <cstdint>
#include <utility>

#include "compiler/ir/lowerer.h"
#include "compiler/sxbin/sxbin.h"

namespace strata::compiler::ir::emit {

// The 64-bit value at `offset` of the driver bank (sxbin.h, "DEVICE PRINTF" and after).
inline int driver_bank_u64(Lowerer& l, uint32_t offset) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = isa::Opcode::LDC;
  i.type = DataType::U64;
  i.mod = static_cast<uint8_t>(sxbin::kDriverBank);
  i.imm = offset;
  i.srcs = {Operand::immediate(0)};
  i.defs = {l.f_.new_value(DataType::U64)};
  return l.emit(std::move(i));
}

// A weak load of type `t` from [base + offset] in `space`.
inline int load(Lowerer& l, isa::MemSpace space, DataType t, int base, uint64_t offset) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = isa::Opcode::LD;
  i.space = space;
  i.sem = isa::MemSem::WEAK;
  i.scope = isa::MemScope::CTA;
  i.type = t;
  i.imm = offset;
  i.srcs = {Operand::val(base)};
  i.defs = {l.f_.new_value(t)};
  return l.emit(std::move(i));
}

// A weak store of `value` (type `t`) to [base + offset] in `space`.
inline void store(Lowerer& l, isa::MemSpace space, DataType t, int base, uint64_t offset,
                  Operand value) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = isa::Opcode::ST;
  i.space = space;
  i.sem = isa::MemSem::WEAK;
  i.scope = isa::MemScope::CTA;
  i.type = t;
  i.imm = offset;
  i.srcs = {Operand::val(base), value};
  l.emit(std::move(i));
}

}  // namespace strata::compiler::ir::emit
