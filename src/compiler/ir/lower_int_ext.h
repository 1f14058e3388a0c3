// Integer forms that lower to sequences of the ISA's integer operations: the
// extended-precision carry chains (add.cc, addc, sub.cc, subc, mad.cc, madc) and bmsk,
// shf, szext, dp4a, dp2a, lop3, slct and min/max on .s16x2/.u16x2.
#pragma once

#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {

// Lowers `in` when it is one of the forms above (*handled = true), else leaves it to the
// other families (*handled = false). Invalid operand types and modifiers are
// kInvalidPtx; forms not yet implemented are kNotSupported naming the instruction.
Status lower_int_extended(Lowerer& l, const ptx::Instruction& in, bool* handled);

}  // namespace strata::compiler::ir
