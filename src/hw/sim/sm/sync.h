// Thread-state transitions shared by the control handlers and the scheduler: releasing
// threads that wait at convergence barriers (BSYNC), warp barriers (WARPSYNC) and CTA
// barriers (BAR) once their condition holds, and rejoining released threads with the
// running group. All functions run on the CTA's owning worker thread.
#pragma once

#include <cstdint>

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// Releases BSYNC waiters of every convergence barrier of `w` whose unexited members
// have all arrived (after an exit). Released threads continue after their BSYNC.
void release_bsync_waiters(Warp& w);
// Releases WARPSYNC waiters whose whole mask has arrived (or exited).
void release_warpsync_waiters(Warp& w);
// Completes CTA barrier `id` if enough threads have arrived: every waiting thread
// continues after its BAR with the reduction result written. Returns true if completed.
bool try_complete_cta_barrier(ExecContext& ctx, Cta& cta, uint32_t id);
// Re-checks every CTA barrier (after threads exited).
void recheck_cta_barriers(ExecContext& ctx, Cta& cta);
// Adds to the running group every ready, not-running lane of the warp whose pc is
// ctx.pc, so that threads released at the same point run converged.
void merge_ready_lanes(ExecContext& ctx);

}  // namespace strata::hw::sim
