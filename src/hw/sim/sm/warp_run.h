// The interpreter loop: runs the groups of one warp for a slice.
#pragma once

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// Runs ready groups of `warp` until one yields, none is ready, or a few groups have run.
// Counts instructions into `worker`. Returns false if the grid must stop (a fault).
bool run_warp(Worker& worker, Cta& cta, Warp& warp);

}  // namespace strata::hw::sim
