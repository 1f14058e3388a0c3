// The boundary between the memory handlers (which compute what a warp instruction
// touches) and the cache models (hw/perf/cache.h, fed in the deterministic modeled
// interleaving of grid.cc). Called once per warp memory instruction with at least one
// active lane, after coalescing: `sectors` are the distinct 32-byte-aligned sector
// addresses (virtual) the active lanes touch, in ascending order, `count` of them.
#pragma once

#include <cstdint>

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

enum class AccessKind : uint8_t { kLoad, kStore, kAtomic, kLocalLoad, kLocalStore, kTexture };

void record_memory_access(ExecContext& ctx, AccessKind kind, const uint64_t* sectors, uint32_t count);

}  // namespace strata::hw::sim
