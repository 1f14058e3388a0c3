// Placeholder until the cache models land (owner: cache-model helper).
#include "hw/sim/sm/mem_model.h"

namespace strata::hw::sim {

void record_memory_access(ExecContext&, AccessKind, const uint64_t*, uint32_t) {}

}  // namespace strata::hw::sim
