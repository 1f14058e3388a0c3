// The per-opcode handler selectors, one per line of isa/opcodes.def. Each returns the
// handler specialised for the instruction's type and modifiers, or nullptr when the
// combination is not defined by the ISA (it then executes as an illegal instruction).
// The dispatch table in program.cc is built from this list, so an opcode without a
// selector fails to link.
#pragma once

#include "hw/sim/sm/program.h"

namespace strata::hw::sim {

#define STRATA_OP(NAME, PIPE, OPERANDS, FLAGS, SUMMARY) Handler select_##NAME(const isa::Inst& inst);
#include "isa/opcodes.def"
#undef STRATA_OP

}  // namespace strata::hw::sim
