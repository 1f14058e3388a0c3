// Dominator and post-dominator trees of an IR function (Cooper, Harvey, Kennedy: "A
// Simple, Fast Dominance Algorithm").
#pragma once

#include <vector>

#include "compiler/ir/ir.h"

namespace strata::compiler::sx {

// idom[b] for every block (entry: itself; unreachable: -1).
std::vector<int> dominators(const ir::Function& f);
// ipdom[b]; the virtual exit is index f.blocks.size(); blocks that cannot reach an exit: -1.
std::vector<int> post_dominators(const ir::Function& f);

}  // namespace strata::compiler::sx
