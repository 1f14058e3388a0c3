// Block layout: orders a function's blocks so that branches fall through.
#pragma once

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

// Renumbers the blocks of `f` (the entry stays block 0; the CFG, phis and preds are kept
// consistent): reverse postorder, the DFS taking a conditional branch's taken successor
// first so that the not-taken one tends to follow its block, with each natural loop made
// contiguous (its blocks, an inlined slow path's included, right after its header): a
// value live in a loop then has a live interval (regalloc.h) that ends with the loop
// instead of reaching blocks placed after the code that follows it. Unreachable blocks
// go last. A conditional branch whose taken successor comes next is inverted (negate
// flipped, successors swapped). Returns whether anything changed.
bool layout_blocks(ir::Function& f);

}  // namespace strata::compiler::sx
