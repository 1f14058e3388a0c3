// PTX .ftz on F32 operands and results for instructions whose ISA form has no FTZ bit
// (FSETP, FABS/FNEG, MUFU): the flush is a separate FMUL.FTZ by 1.0, which is exact,
// keeps the sign (and NaN), and turns a subnormal into a zero of its sign.
#pragma once

#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {

inline int flush_f32(Lowerer& l, Operand x) {
  int v = x.is_imm() ? l.constant(DataType::F32, x.imm) : x.value;
  return l.isa_op(Opcode::FMUL, DataType::F32, DataType::F32, {Operand::val(v), Operand::immediate(0x3f800000u)},
                  isa::kModFtz);
}

}  // namespace strata::compiler::ir
