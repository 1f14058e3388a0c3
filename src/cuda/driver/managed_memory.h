// Managed (unified) memory in the driver: cuMemAllocManaged allocations and the storage
// of __managed__ variables (`.global .attribute(.managed)`, sxbin VarSpace::kManaged).
//
// MODEL. Strata has one copy of managed memory and never migrates it: page-aligned host
// memory owned by this table and registered (hal::Allocator::register_host) at its host
// address in every context, so one address is valid on the host and on every device
// (as CUDA's single managed address for all devices). Contexts created later get every
// live allocation mapped when they are created (map_managed_memory, called by
// Context::create); a destroyed context's mappings are dropped (forget_managed_memory,
// from ~Context). A kernel's writes are visible to the host after the host has
// synchronised with it; concurrent host access while a kernel runs is a data race, as on
// devices without concurrentManagedAccess. Prefetch, advice and stream attachment are
// validated and recorded per allocation (a range must lie inside one allocation) and
// reported by cuMemRangeGetAttribute(s); they move nothing.
//
// MANAGED VARIABLES. A module's managed variable is a managed allocation bound by
// (the module's content key, the variable's name): the first load of a module allocates
// and initialises it, and a load of the same module in ANOTHER context binds to the same
// allocation (one address for all devices, as the CUDA runtime needs for __managed__);
// a second load of the same module in the same context gets its own variables. The
// storage is never freed: when no module is bound to it any more, the next load of the
// module binds to it again and re-initialises it. So the address host code holds stays
// valid across cuModuleUnload / cudaDeviceReset, and repeated load/unload cycles reuse
// the same storage (only loads alive at the same time need more).
//
// Thread-safe. No function here calls into a Context while holding the table's lock.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "base/status.h"

namespace strata::cuda::driver {

class Context;

// What cuMemAdvise / cuMemPrefetchAsync / cuStreamAttachMemAsync recorded.
struct ManagedAdvice {
  unsigned int attach = CU_MEM_ATTACH_GLOBAL;
  bool read_mostly = false;
  CUmemLocation preferred{CU_MEM_LOCATION_TYPE_INVALID, 0};
  CUmemLocation last_prefetch{CU_MEM_LOCATION_TYPE_INVALID, 0};
  std::set<std::pair<int, int>> accessed_by;  // (CUmemLocationType, id)
};

struct ManagedRange {
  uint64_t base = 0;
  uint64_t size = 0;
  ManagedAdvice advice;
};

// cuMemAllocManaged: `size` > 0 bytes of zeroed managed memory mapped in every context.
// `flags` is CU_MEM_ATTACH_GLOBAL or CU_MEM_ATTACH_HOST (kInvalidValue otherwise).
StatusOr<uint64_t> allocate_managed(uint64_t size, unsigned int flags);

// Frees the managed allocation whose base is `va` after synchronising every context that
// maps it (no queued work still uses it). kNotFound if `va` is not such a base (the
// caller then tries other kinds of memory). Variables' storage cannot be freed this way.
Status free_managed(uint64_t va);

// The managed allocation holding [va, va + count) (count 0: just va); nullopt if none.
std::optional<ManagedRange> find_managed(uint64_t va, uint64_t count = 0);

// Applies `update` to the advice of the allocation holding [va, va + count) under the
// table's lock. kInvalidValue if the range is not inside one managed allocation.
Status update_managed_advice(uint64_t va, uint64_t count, const char* api,
                             const std::function<Status(ManagedAdvice&)>& update);

// Context lifetime hooks (see MODEL).
void map_managed_memory(const std::shared_ptr<Context>& context);
void forget_managed_memory(const Context* context);

// A module's binding to a managed variable; the storage lives while any binding does.
class ManagedVariable {
 public:
  virtual ~ManagedVariable() = default;
  virtual uint64_t va() const = 0;
};

// Binds the managed variable `name` of the module with content key `module_key` in
// `context` (see MANAGED VARIABLES). *fresh is true when no other module is bound to the
// storage (new and zeroed, or unbound since): the caller writes the initial image then.
StatusOr<std::shared_ptr<ManagedVariable>> bind_managed_variable(Context& context,
                                                                 uint64_t module_key,
                                                                 const std::string& name,
                                                                 uint64_t size, bool* fresh);

}  // namespace strata::cuda::driver
