// Phi elimination, liveness and linear-scan register allocation (see codegen.h).
#pragma once

#include <vector>

#include "base/status.h"
#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

inline constexpr int kFirstScratch = 244;  // R244..R253 are reserved for legalisation

// Replaces phis by copies (the function leaves SSA form).
void eliminate_phis(ir::Function& f);

// Assigns value -> register (GPR base index, or predicate index for Pred values).
// Values never used or defined get -1. kNotSupported when registers run out.
StatusOr<std::vector<int>> allocate_registers(const ir::Function& f, uint32_t* regs_used);

}  // namespace strata::compiler::sx
