// Liveness and linear-scan register allocation (see codegen.h).
#pragma once

#include <vector>

#include "base/status.h"
#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

inline constexpr int kFirstScratch = 244;  // R244..R253 are reserved for legalisation

// Assigns value -> register (GPR base index among R0..R`gprs`-1, gprs at most
// kFirstScratch; or predicate index for Pred values) by linear scan over live intervals
// (the function must be out of SSA: out_of_ssa.h; hints: a value defined by a copy prefers
// its source's register, any other its last same-class source's). When registers or
// predicates run out it spills (spill.h): the values cheapest to spill (fewest
// definitions and uses, each weighted by 8^loop depth, a quarter of that for a constant,
// which is rematerialised; ties: the interval reaching furthest) go to local memory slots placed from byte `local_bytes` on (predicates go to
// GPR values first), rewriting `f`, and allocates again. Values never used or defined get
// -1. `*regs_used` = highest GPR + 1; `*local_bytes_out` = local memory per thread
// including the spill slots. Fails only if a single instruction needs more registers
// than exist.
StatusOr<std::vector<int>> allocate_registers(ir::Function& f, uint32_t local_bytes, uint32_t gprs, uint32_t* regs_used,
                                              uint32_t* local_bytes_out);

}  // namespace strata::compiler::sx
