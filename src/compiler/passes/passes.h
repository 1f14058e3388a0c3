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
// Keeps register tuples (tensor-core fragments) whole: pack(extract(X, 0..n-1)) becomes
// a copy of X, and per-part phis that a pack reads in order become one tuple phi when
// some edge brings the parts of one tuple (fold_tuples.cc). Leaves dead extracts and
// copies to dead_code_elimination and constant_fold_copy_prop. Needs SSA form.
bool fold_register_tuples(ir::Function& f);
// Folds `IADD x, c` into the offset of the LD / ST / LDSM whose address it computes (the
// access then addresses x + c directly; 64-bit addresses only while the offset fits 32
// signed bits). Needs SSA form (fold_addresses.cc).
bool fold_address_offsets(ir::Function& f);
// Removes a full-mask WARPSYNC when an earlier one in the same block already converged
// the warp and nothing since can split it (warpsync.cc).
bool remove_redundant_warpsyncs(ir::Function& f);

}  // namespace strata::compiler::passes
