// Immediate operands of the Strata ISA: which need a register, and sharing those.
#pragma once

#include <cstddef>

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

// True if operand slot `slot` ('a', 'b', 'c') of `i` (a kIsa instruction) reads a
// register pair (a 64-bit operand).
bool is_wide_slot(const ir::Inst& i, char slot);

// True if the emitter must materialise immediate source `index` of `i` (a kIsa
// instruction) into a register: the ISA encodes an immediate only in the b slot (32
// bits, when the instruction's imm field is free), zero as RZ in a 32-bit slot, and an
// all-lanes VOTE mask as RZ. Predicate immediates never need one.
bool immediate_needs_register(const ir::Inst& i, size_t index);

// For every immediate that needs a register (above) and occurs at least twice with the
// same bits and width, defines it once (kConst at the start of the entry block, which
// dominates every use) and makes the uses read that value instead of each
// materialising it with MOVs. Returns whether anything changed.
bool share_immediates(ir::Function& f);

}  // namespace strata::compiler::sx
