// Block-level liveness of an IR function: for each block, the values live on entry and on
// exit, as sorted lists. Computed per value by walking backwards from its uses to its
// definitions (path exploration), so the cost is proportional to the sizes of the live
// sets rather than blocks x values: large kernels (the cuBLAS tile kernels) stay linear.
//
// Semantics: a value used by a non-phi instruction before any definition in its block is
// live on entry to that block; a phi's i-th source is used at the end of the block's i-th
// predecessor (live on exit from it); a value live on entry to a block is live on exit from
// each predecessor (from the terminators' successors), and live on entry to a
// predecessor that does not define it. Values a block defines (phis included) are not live
// on entry to it through that path. The IR need not be in SSA form.
#pragma once

#include <vector>

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

struct BlockLiveness {
  std::vector<std::vector<int>> live_in, live_out;  // per block, sorted values
  bool live_out_has(int block, int value) const;
};

BlockLiveness compute_liveness(const ir::Function& f);

}  // namespace strata::compiler::sx
