// Out-of-SSA translation with phi coalescing (see codegen.h).
#pragma once

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

// Removes every phi of `f` (which must be in SSA form); the function leaves SSA form.
//
// COALESCING: a phi's result and each of its value operands are merged into one
// congruence class (renamed to one value, so they share a register) when no member of
// the one class interferes with a member of the other and their register classes
// match. Two values interfere when one is live right after the other's definition
// (liveness is exact: phi operands are live at the end of their predecessor, phi
// results are defined at their block's entry; results of one instruction, and phis of
// one block, always interfere). Merging only non-interfering values keeps every
// program point's live values in distinct registers. Then each instruction with one
// result (not a copy or pack) tries to merge that result with its last source of the same
// register class (an accumulator such as an HMMA's or IMAD's C), which succeeds when the
// source dies there: the instruction then updates it in place, so a loop's unrolled
// accumulator chain stays in one set of registers. Pairs of classes needing more than
// 4096 interference tests are not merged.
//
// COPIES: what remains of a phi (operands not merged, immediates) becomes a parallel
// copy per predecessor edge, sequentialised (cycles broken through a fresh temporary)
// at the end of the predecessor when that has one successor, else in a new block that
// splits the edge. Returns whether anything changed.
bool out_of_ssa(ir::Function& f);

}  // namespace strata::compiler::sx
