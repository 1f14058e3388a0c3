// The boundary between the memory handlers (which compute what a warp instruction
// touches) and the cache models (hw/perf/cache.h, fed in the deterministic modeled
// interleaving of grid.cc). Called once per warp memory instruction with at least one
// active lane, after coalescing: `sectors` are the distinct 32-byte-aligned sector
// addresses (virtual) the active lanes touch, in ascending order, `count` of them.
#pragma once

#include <cstdint>

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// kLoadL2: a global load cached in L2 only (cp.async.cg): the L1 is neither looked up
// nor filled. (Its value is perf::TraceAccessKind's, after kShared.)
enum class AccessKind : uint8_t {
  kLoad,
  kStore,
  kAtomic,
  kLocalLoad,
  kLocalStore,
  kTexture,
  kLoadL2 = 7,
};

void record_memory_access(ExecContext& ctx, AccessKind kind, const uint64_t* sectors,
                          uint32_t count);

// The same, for an access whose sectors all lie in the 4 KiB-aligned block at `block`:
// bit i of the 128-bit map bits[0] | bits[1] << 64 is the sector at block + 32 i (four
// bits per 128-byte line, so each nibble is a line's sector mask). Equivalent to
// record_memory_access with those sectors in ascending order, without building the list.
void record_block_access(ExecContext& ctx, AccessKind kind, uint64_t block, const uint64_t* bits);

}  // namespace strata::hw::sim
