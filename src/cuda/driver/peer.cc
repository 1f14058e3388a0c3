#include "cuda/driver/peer.h"

#include <map>
#include <mutex>
#include <set>
#include <utility>
#include <vector>

#include "base/log.h"
#include "cuda/driver/context.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/device.h"
#include "fmt/format.h"
#include "hal/allocator.h"

namespace strata::cuda::driver {
namespace {

struct Allocation {
  std::weak_ptr<Context> owner;
  const Context* owner_key;
  std::weak_ptr<hal::Buffer> buffer;
  uint64_t size;
  bool follows_peer_access;  // false: a pool block (cuMemPoolSetAccess decides)
};

// A mapping of an allocation into another context (peer access or a copy).
struct PeerMapping {
  const Context* owner;
  std::shared_ptr<hal::Buffer> buffer;  // in the mapping context
  bool copy_only;                       // for copies only: kernels fault on it
  bool pool_access = false;             // made by cuMemPoolSetAccess, not peer access
  bool writable = true;
};

struct Table {
  std::mutex mutex;
  std::map<uint64_t, Allocation> allocations;                           // va -> allocation
  std::set<std::pair<const Context*, const Context*>> access;           // (self, peer) enabled
  std::map<const Context*, std::weak_ptr<Context>> contexts;            // contexts in `access`
  std::map<std::pair<const Context*, uint64_t>, PeerMapping> mappings;  // (mapper, va)
};

Table& table() {
  static auto* t = new Table();  // used during static destruction too
  return *t;
}

// Requires t.mutex. Maps allocation `va` of `owner` into `mapper` (for copies only, or
// for kernels too) unless it is mapped so already; a copy-only mapping is upgraded.
// `pool_access`: the mapping is cuMemPoolSetAccess's (writable or not), which also
// replaces a mapping of other rights.
Status map_locked(Table& t, Context& mapper, const Context* owner, uint64_t va, bool copy_only,
                  bool pool_access = false, bool writable = true) {
  if (auto it = t.mappings.find({&mapper, va}); it != t.mappings.end()) {
    if (copy_only) return ok_status();
    if (!it->second.copy_only && it->second.writable == writable) {
      it->second.pool_access = it->second.pool_access || pool_access;
      return ok_status();
    }
    // Upgrade: no copy of `mapper` may be using the old entries while they change.
    RETURN_IF_ERROR(mapper.synchronize());
    t.mappings.erase(it);
  }
  auto owner_ctx = t.allocations.count(va) ? t.allocations[va].owner.lock() : nullptr;
  if (owner_ctx == nullptr) return error(Code::kInvalidValue, "peer: the allocation is gone");
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Memory> memory, owner_ctx->hal().allocator().memory_of(va));
  ASSIGN_OR_RETURN(
      std::shared_ptr<hal::Buffer> mapped,
      mapper.hal().allocator().map_memory(memory, 0, va, memory->size(), writable, copy_only));
  t.mappings[{&mapper, va}] =
      PeerMapping{owner, std::move(mapped), copy_only, pool_access, writable};
  return ok_status();
}

// Requires t.mutex. Removes the mappings matching `pred` (returned, to be dropped
// after the lock).
template <typename Pred>
std::vector<std::shared_ptr<hal::Buffer>> unmap_if_locked(Table& t, Pred pred) {
  std::vector<std::shared_ptr<hal::Buffer>> dead;
  for (auto it = t.mappings.begin(); it != t.mappings.end();) {
    if (pred(it->first.first, it->first.second, it->second)) {
      dead.push_back(std::move(it->second.buffer));
      it = t.mappings.erase(it);
    } else {
      ++it;
    }
  }
  return dead;
}

}  // namespace

void peer_track_allocation(Context& owner, const std::shared_ptr<hal::Buffer>& buffer,
                           bool follows_peer_access) {
  // Contexts locked below are released after the table lock (a last reference runs
  // ~Context, which comes back here through peer_forget_context).
  std::vector<std::shared_ptr<Context>> mappers;
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  t.allocations[buffer->va()] =
      Allocation{owner.shared_from_this(), &owner, buffer, buffer->size(), follows_peer_access};
  if (!follows_peer_access) return;
  for (const auto& [self, peer] : t.access) {
    if (peer != &owner) continue;
    auto it = t.contexts.find(self);
    std::shared_ptr<Context> mapper = it == t.contexts.end() ? nullptr : it->second.lock();
    if (mapper == nullptr) continue;
    mappers.push_back(mapper);
    Status s = map_locked(t, *mapper, &owner, buffer->va(), /*copy_only=*/false);
    if (!s.ok()) {
      STRATA_LOG_WARN("peer: allocation {:#x} not mapped for a peer: {}", buffer->va(),
                      s.message());
    }
  }
}

void peer_untrack_allocation(Context& owner, uint64_t va) {
  std::vector<std::shared_ptr<hal::Buffer>> dead;
  Table& t = table();
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.allocations.find(va);
    if (it == t.allocations.end() || it->second.owner_key != &owner) return;
    t.allocations.erase(it);
    dead = unmap_if_locked(t, [&](const Context*, uint64_t mva, const PeerMapping& m) {
      return mva == va && m.owner == &owner;
    });
  }
}

void peer_forget_context(const Context* context) {
  std::vector<std::shared_ptr<hal::Buffer>> dead;
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  std::erase_if(t.allocations, [&](const auto& e) { return e.second.owner_key == context; });
  std::erase_if(t.access, [&](const auto& p) { return p.first == context || p.second == context; });
  t.contexts.erase(context);
  dead = unmap_if_locked(t, [&](const Context* mapper, uint64_t, const PeerMapping& m) {
    return mapper == context || m.owner == context;
  });
}

bool devices_can_access_peer(int device, int peer_device) {
  return device != peer_device;
}

Status enable_peer_access(Context& self, Context& peer) {
  if (&self == &peer) {
    return error(Code::kInvalidContext, "cuCtxEnablePeerAccess: the peer is the current context");
  }
  if (!devices_can_access_peer(self.device().ordinal(), peer.device().ordinal())) {
    return error(to_code(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED),
                 fmt::format("cuCtxEnablePeerAccess: both contexts are on device {}",
                             self.device().ordinal()));
  }
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  if (t.access.count({&self, &peer}) != 0) {
    return error(to_code(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED),
                 fmt::format("peer access from device {} to device {} is already enabled",
                             self.device().ordinal(), peer.device().ordinal()));
  }
  t.access.insert({&self, &peer});
  t.contexts[&self] = self.shared_from_this();
  t.contexts[&peer] = peer.shared_from_this();
  for (const auto& [va, a] : t.allocations) {
    if (a.owner_key != &peer || !a.follows_peer_access) continue;
    if (a.buffer.expired()) continue;
    Status s = map_locked(t, self, &peer, va, /*copy_only=*/false);
    if (!s.ok()) {
      // Undo: leave no half-enabled state behind.
      (void)unmap_if_locked(t, [&](const Context* mapper, uint64_t, const PeerMapping& m) {
        return mapper == &self && m.owner == &peer;
      });
      t.access.erase({&self, &peer});
      return s;
    }
  }
  return ok_status();
}

Status disable_peer_access(Context& self, Context& peer) {
  std::vector<std::shared_ptr<hal::Buffer>> dead;
  Table& t = table();
  {
    std::lock_guard<std::mutex> lock(t.mutex);
    if (t.access.erase({&self, &peer}) == 0) {
      return error(to_code(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED),
                   fmt::format("peer access from device {} to device {} is not enabled",
                               self.device().ordinal(), peer.device().ordinal()));
    }
    dead = unmap_if_locked(t, [&](const Context* mapper, uint64_t, const PeerMapping& m) {
      return mapper == &self && m.owner == &peer && !m.pool_access;
    });
  }
  // Work already queued in `self` may still use the mappings: let it finish first.
  (void)self.synchronize();
  dead.clear();
  return ok_status();
}

bool peer_access_enabled(const Context& self, const Context& peer) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return t.access.count({&self, &peer}) != 0;
}

std::optional<OwnedAllocation> find_allocation(uint64_t va) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.allocations.upper_bound(va);
  if (it == t.allocations.begin()) return std::nullopt;
  --it;
  if (va - it->first >= it->second.size) return std::nullopt;
  OwnedAllocation out{it->second.owner.lock(), it->second.buffer.lock()};
  if (out.owner == nullptr || out.buffer == nullptr) return std::nullopt;
  return out;
}

Status map_for_copy(Context& copier, uint64_t va) {
  auto found = find_allocation(va);
  if (!found.has_value()) {
    return error(Code::kInvalidValue, fmt::format("{:#x} is not in any device allocation", va));
  }
  if (found->owner.get() == &copier) return ok_status();
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  return map_locked(t, copier, found->owner.get(), found->buffer->va(), /*copy_only=*/true);
}

Status map_for_pool_access(Context& mapper, uint64_t va, bool writable) {
  Table& t = table();
  std::lock_guard<std::mutex> lock(t.mutex);
  auto it = t.allocations.find(va);
  if (it == t.allocations.end()) {
    return error(Code::kInvalidValue, fmt::format("{:#x} starts no device allocation", va));
  }
  if (it->second.owner_key == &mapper) return ok_status();
  return map_locked(t, mapper, it->second.owner_key, va, /*copy_only=*/false,
                    /*pool_access=*/true, writable);
}

void unmap_pool_access(Context& mapper, uint64_t va) {
  std::shared_ptr<hal::Buffer> dead;
  {
    Table& t = table();
    std::lock_guard<std::mutex> lock(t.mutex);
    auto it = t.mappings.find({&mapper, va});
    if (it == t.mappings.end() || !it->second.pool_access) return;
    dead = std::move(it->second.buffer);
    t.mappings.erase(it);
  }
  // Work already queued in `mapper` may still use the mapping: let it finish first.
  (void)mapper.synchronize();
}

}  // namespace strata::cuda::driver
