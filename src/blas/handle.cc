#include "blas/handle.h"

#include <shared_mutex>
#include <unordered_set>

#include "blas/kernels.h"

namespace strata::blas {
namespace {

// Live handles: every entry point checks its handle here first, so a null, destroyed or
// foreign pointer is an error, never a crash.
struct Registry {
  std::shared_mutex mu;
  std::unordered_set<const void*> live;
};

Registry& registry() {
  static auto* r = new Registry();  // leaked: handles may be destroyed at exit
  return *r;
}

}  // namespace

Handle::Handle() = default;
Handle::~Handle() {
  magic = 0;
}

Handle* handle_of(const void* handle) {
  if (handle == nullptr) return nullptr;
  Registry& r = registry();
  std::shared_lock lock(r.mu);
  if (r.live.count(handle) == 0) return nullptr;
  return static_cast<Handle*>(const_cast<void*>(handle));
}

void register_handle(Handle* handle) {
  Registry& r = registry();
  std::unique_lock lock(r.mu);
  r.live.insert(handle);
}

void unregister_handle(Handle* handle) {
  Registry& r = registry();
  std::unique_lock lock(r.mu);
  r.live.erase(handle);
}

}  // namespace strata::blas
