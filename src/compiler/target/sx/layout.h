// Block layout: orders a function's blocks so that branches fall through.
#pragma once

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

// Renumbers the blocks of `f` (the entry stays block 0; the CFG, phis and preds are kept
// consistent) so that, where it can, a conditional branch's not-taken successor and an
// unconditional branch's single-predecessor target come right after it; the remaining
// blocks keep their relative order. A conditional branch whose taken successor is the
// only one left to place next is inverted (negate flipped, successors swapped). Returns
// whether anything changed.
bool layout_blocks(ir::Function& f);

}  // namespace strata::compiler::sx
