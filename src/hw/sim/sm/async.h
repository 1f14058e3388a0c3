// Asynchronous copies (CPASYNC) and mbarrier objects: what other handlers need of them.
//
// Each thread's CPASYNC copies and CPARRIVE arrivals wait, in issue order, in its warp's
// Warp::async_ops until something requires them: CPWAIT (the thread's own committed
// groups), an MBTEST that would otherwise fail (every queued operation of the CTA, so
// arrivals queued behind copies reach the mbarrier), the thread's exit, or a queue that
// grows past a bound. Until then shared memory holds the old data, as on hardware when a
// program reads before waiting. docs/isa.md "Asynchronous copies and mbarrier" has the
// semantics and the mbarrier word's encoding.
//
// All functions run on the worker that owns the CTA.
#pragma once

#include <cstdint>

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// Performs every queued operation of the lanes in `lanes` of `w` (thread exit).
void complete_async_ops(Warp& w, uint32_t lanes);

// Performs every queued operation of every thread of `cta`.
void complete_all_async_ops(Cta& cta);

}  // namespace strata::hw::sim
