// IR optimisation passes, one per file; each returns whether it changed the function.
#pragma once

#include "compiler/ir/ir.h"

namespace strata::compiler::passes {

// Removes instructions whose results are unused and that have no side effects.
bool dead_code_elimination(ir::Function& f);
// Replaces uses of copies by their source, folds integer operations on constants
// (IADD/ISUB/IMUL/AND/OR/XOR/SHL on 32/64-bit types) and removes trivial phis.
bool constant_fold_copy_prop(ir::Function& f);
// Removes blocks unreachable from the entry.
bool remove_unreachable_blocks(ir::Function& f);

}  // namespace strata::compiler::passes
