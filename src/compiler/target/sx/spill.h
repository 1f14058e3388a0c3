// Spill code: moves values the register allocator could not keep in registers into
// per-thread local memory (see codegen.h).
//
// A spilled GPR value (32/64/128 bits) gets a naturally aligned slot in LOCAL memory:
// every definition writes a fresh short-lived value and stores it to the slot right
// after the defining instruction; every use reloads the slot into a fresh value right
// before the using instruction. A spilled predicate is kept in a fresh 32-bit value
// (0/1, written by SEL after each definition and turned back into a predicate by
// ISETP before each use); that value is an ordinary GPR value, which a later round may
// spill to memory in turn. A spilled constant (one kConst definition without a symbol,
// such as the immediates share_immediates hoists to the entry) is rematerialised
// instead: its definition is dropped and a fresh kConst precedes each use. Works on
// functions after phi elimination (values may have several definitions).
#pragma once

#include <cstdint>
#include <vector>

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

struct SpillState {
  uint32_t local_top = 0;        // first free byte of the thread's local memory
  std::vector<bool> unspillable;  // per value: a spill temporary (never spilled again)
};

// Rewrites `f` so that none of `values` (distinct, each defined or used somewhere)
// needs a register across instructions. Extends `state->unspillable` to cover the new
// values and marks the short-lived temporaries. Returns the number of local bytes
// added (slot space, including alignment padding).
uint32_t spill_values(ir::Function& f, const std::vector<int>& values, SpillState* state);

}  // namespace strata::compiler::sx
