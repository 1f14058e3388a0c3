#include "cuda/driver/mem_pool.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "base/log.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/peer.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

namespace {

// Allocation sizes are rounded up to this (cuMemAlloc's alignment guarantee).
constexpr uint64_t kGranule = 256;

struct Pools {
  std::mutex mutex;
  std::map<int, std::shared_ptr<MemPool>> defaults;  // by device ordinal
  std::map<int, std::shared_ptr<MemPool>> current;
  std::map<const MemPool*, std::shared_ptr<MemPool>> created;
  // Destroyed pools that still have outstanding allocations or pending frees.
  std::vector<std::shared_ptr<MemPool>> zombies;
  std::map<uint64_t, std::weak_ptr<MemPool>> by_va;
};

Pools& pools() {
  static auto* state = new Pools();  // never destroyed (entry points may run at exit)
  return *state;
}

void note_va(uint64_t va, const std::shared_ptr<MemPool>& pool) {
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  if (pool) {
    p.by_va[va] = pool;
  } else {
    p.by_va.erase(va);
  }
}

}  // namespace

MemPool::~MemPool() {
  // The blocks leave the cross-device table (and their peers' address spaces) first.
  for_each_block_locked(
      [](const Block& block) { peer_untrack_allocation(*block.context, block.buffer->va()); });
  for (auto& [va, block] : used_) release_block(block);
  for (auto& [bytes, block] : free_) release_block(block);
  for (auto& [device, access] : access_) {
    if (access.retained_primary) (void)access.context->device().release_primary();
  }
}

void MemPool::release_block(Block& block) {
  block.buffer.reset();  // back to the device
  if (block.retained_primary) (void)block.context->device().release_primary();
  block.retained_primary = false;
}

template <typename Fn>
void MemPool::for_each_block_locked(Fn fn) {
  for (const auto& [va, block] : used_) fn(block);
  for (const auto& [bytes, block] : free_) fn(block);
}

Status MemPool::map_for_access_locked(const Block& block) {
  const uint64_t va = block.buffer->va();
  for (const auto& [device, access] : access_) {
    Status s = map_for_pool_access(*access.context, va,
                                   /*writable=*/access.flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
    if (!s.ok()) {
      for (const auto& [undo_device, undo] : access_) unmap_pool_access(*undo.context, va);
      return s;
    }
  }
  return ok_status();
}

Status MemPool::set_access(const CUmemAccessDesc* desc, size_t count) {
  if (desc == nullptr || count == 0) {
    return error(Code::kInvalidValue, "cuMemPoolSetAccess: no access descriptors");
  }
  for (size_t i = 0; i < count; ++i) {
    const CUmemLocation& location = desc[i].location;
    if (location.type != CU_MEM_LOCATION_TYPE_DEVICE || !driver::device(location.id).ok()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemPoolSetAccess: location (type {}, id {}) is not a device",
                               static_cast<int>(location.type), location.id));
    }
    const auto flags = desc[i].flags;
    if (flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
        flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemPoolSetAccess: access flags {:#x}", static_cast<int>(flags)));
    }
    if (location.id == device_ && flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemPoolSetAccess: device {} owns the pool and always has "
                               "read-write access",
                               device_));
    }
  }
  // Revoked accesses: unmapped and released after the lock (their contexts' work first).
  std::vector<std::pair<DeviceAccess, std::vector<uint64_t>>> revoked;
  Status result = ok_status();
  {
    std::lock_guard<std::mutex> lock(mutex_);
    for (size_t i = 0; i < count && result.ok(); ++i) {
      const int ordinal = desc[i].location.id;
      const auto flags = desc[i].flags;
      if (ordinal == device_) continue;
      auto existing = access_.find(ordinal);
      if (existing != access_.end()) {
        if (existing->second.flags == flags) continue;
        std::vector<uint64_t> vas;
        for_each_block_locked([&](const Block& block) { vas.push_back(block.buffer->va()); });
        revoked.emplace_back(std::move(existing->second), std::move(vas));
        access_.erase(existing);
      }
      if (flags == CU_MEM_ACCESS_FLAGS_PROT_NONE) continue;
      DeviceAccess access;
      access.flags = flags;
      if (std::shared_ptr<Context> current = current_context();
          current && current->device().ordinal() == ordinal) {
        access.context = std::move(current);
      } else {
        auto dev = driver::device(ordinal);
        auto primary = dev.ok() ? (*dev)->retain_primary() : dev.status();
        if (!primary.ok()) {
          result = primary.status();
          break;
        }
        access.context = std::move(primary).value();
        access.retained_primary = true;
      }
      if (!revoked.empty() && revoked.back().first.context == access.context) {
        // Changing the rights in one context: the old mappings go first.
        for (uint64_t va : revoked.back().second) unmap_pool_access(*access.context, va);
        revoked.back().second.clear();
      }
      const bool writable = flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      std::vector<uint64_t> mapped;
      for_each_block_locked([&](const Block& block) {
        if (!result.ok()) return;
        result = map_for_pool_access(*access.context, block.buffer->va(), writable);
        if (result.ok()) mapped.push_back(block.buffer->va());
      });
      if (!result.ok()) {
        revoked.emplace_back(std::move(access), std::move(mapped));
        break;
      }
      access_[ordinal] = std::move(access);
    }
  }
  for (auto& [access, vas] : revoked) {
    for (uint64_t va : vas) unmap_pool_access(*access.context, va);
    if (access.retained_primary) (void)access.context->device().release_primary();
  }
  return result;
}

StatusOr<CUmemAccess_flags> MemPool::get_access(const CUmemLocation& location) {
  if (location.type != CU_MEM_LOCATION_TYPE_DEVICE || !driver::device(location.id).ok()) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemPoolGetAccess: location (type {}, id {}) is not a device",
                             static_cast<int>(location.type), location.id));
  }
  if (location.id == device_) return CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = access_.find(location.id);
  return it == access_.end() ? CU_MEM_ACCESS_FLAGS_PROT_NONE : it->second.flags;
}

bool MemPool::completed(const Block& block) {
  if (block.free_point.value == 0 || !block.free_point.semaphore) return true;
  auto done = block.free_point.semaphore->query();
  return done.ok() && *done >= block.free_point.value;
}

void MemPool::release_locked(uint64_t keep) {
  for (auto it = free_.begin(); it != free_.end() && reserved_ > keep;) {
    if (completed(it->second)) {
      reserved_ -= it->first;
      // Out of the cross-device table and its peers' address spaces, then back to the
      // device with the buffer.
      peer_untrack_allocation(*it->second.context, it->second.buffer->va());
      release_block(it->second);
      it = free_.erase(it);
    } else {
      ++it;
    }
  }
}

StatusOr<uint64_t> MemPool::allocate(Stream& stream, uint64_t size) {
  if (size == 0) return error(Code::kInvalidValue, "cuMemAllocAsync: size is 0");
  const uint64_t rounded = (size + kGranule - 1) / kGranule * kGranule;
  // The context whose address space holds the block: the stream's own, or for a stream
  // of another device the pool device's primary context.
  std::shared_ptr<Context> owner;
  bool retained_primary = false;
  if (stream.context().device().ordinal() == device_) {
    owner = stream.context().shared_from_this();
  } else {
    ASSIGN_OR_RETURN(Device * dev, driver::device(device_));
    ASSIGN_OR_RETURN(owner, dev->retain_primary());
    retained_primary = true;
  }
  auto drop_retain = [&] {  // a reused block holds its own reference; failures none
    if (retained_primary) (void)owner->device().release_primary();
    retained_primary = false;
  };
  Context& ctx = *owner;
  std::unique_lock<std::mutex> lock(mutex_);
  release_locked(release_threshold_);
  // The smallest fitting free block this stream may use (at most twice the request, so
  // small allocations do not pin large blocks).
  for (auto it = free_.lower_bound(rounded); it != free_.end() && it->first <= 2 * rounded; ++it) {
    Block& block = it->second;
    if (block.context.get() != &ctx) continue;
    const bool same_stream = block.freed_in == &stream;
    const bool done = completed(block);
    if (!same_stream && !(done && allow_opportunistic_) && !allow_internal_dependencies_) {
      continue;
    }
    if (!same_stream && !done) {
      // Make the allocating stream wait for the free (an internal dependency).
      hal::SemaphoreValue wait = block.free_point;
      if (Status s = stream.submit(nullptr, std::span<const hal::SemaphoreValue>(&wait, 1));
          !s.ok()) {
        lock.unlock();
        drop_retain();
        return s;
      }
    }
    Block reused = std::move(block);
    free_.erase(it);
    reused.freed_in = nullptr;
    reused.free_point = {};
    const uint64_t va = reused.buffer->va();
    used_bytes_ += reused.buffer->size();
    used_high_ = std::max(used_high_, used_bytes_);
    used_[va] = std::move(reused);
    lock.unlock();
    drop_retain();
    return va;
  }
  lock.unlock();
  auto buffer = ctx.hal().allocator().allocate_device(rounded);
  if (!buffer.ok() && buffer.status().code() == Code::kOutOfMemory) {
    // Give back every completed free block and retry once.
    lock.lock();
    release_locked(0);
    lock.unlock();
    buffer = ctx.hal().allocator().allocate_device(rounded);
  }
  if (!buffer.ok()) {
    drop_retain();
    return buffer.status();
  }
  // Copies between devices find the block in the table; kernels of other devices reach
  // it only through the pool's access list.
  peer_track_allocation(ctx, *buffer, /*follows_peer_access=*/false);
  lock.lock();
  const uint64_t va = (*buffer)->va();
  const uint64_t bytes = (*buffer)->size();
  Block block{ctx.shared_from_this(), std::move(buffer).value(), nullptr, {}, retained_primary};
  if (Status mapped = map_for_access_locked(block); !mapped.ok()) {
    peer_untrack_allocation(ctx, va);
    lock.unlock();
    block.buffer.reset();
    drop_retain();
    return mapped;
  }
  used_[va] = std::move(block);
  reserved_ += bytes;
  reserved_high_ = std::max(reserved_high_, reserved_);
  used_bytes_ += bytes;
  used_high_ = std::max(used_high_, used_bytes_);
  return va;
}

Status MemPool::free(Stream& stream, uint64_t va) {
  std::lock_guard<std::mutex> lock(mutex_);
  auto it = used_.find(va);
  if (it == used_.end()) {
    return error(Code::kNotFound,
                 fmt::format("cuMemFreeAsync: {:#x} is not an allocation of this pool", va));
  }
  Block block = std::move(it->second);
  used_.erase(it);
  block.freed_in = &stream;
  block.free_point = stream.tail();
  const uint64_t bytes = block.buffer->size();
  used_bytes_ -= bytes;
  free_.emplace(bytes, std::move(block));
  return ok_status();
}

bool MemPool::owns(uint64_t va) {
  std::lock_guard<std::mutex> lock(mutex_);
  return used_.count(va) != 0;
}

bool MemPool::idle() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!used_.empty()) return false;
  return std::all_of(free_.begin(), free_.end(),
                     [](const auto& entry) { return completed(entry.second); });
}

void MemPool::trim_to(uint64_t keep) {
  std::lock_guard<std::mutex> lock(mutex_);
  release_locked(keep);
}

Status MemPool::set_attribute(CUmemPool_attribute attr, const void* value) {
  if (value == nullptr) return error(Code::kInvalidValue, "cuMemPoolSetAttribute: value is null");
  std::lock_guard<std::mutex> lock(mutex_);
  auto flag = [&](bool* field) {
    *field = *static_cast<const int*>(value) != 0;
    return ok_status();
  };
  const auto u64 = [&] { return *static_cast<const cuuint64_t*>(value); };
  switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
      return flag(&follow_event_dependencies_);
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
      return flag(&allow_opportunistic_);
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      return flag(&allow_internal_dependencies_);
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      release_threshold_ = u64();
      return ok_status();
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      // Only resetting (to 0) is allowed; the mark restarts at the current value.
      if (u64() != 0) {
        return error(Code::kInvalidValue,
                     "cuMemPoolSetAttribute: a high watermark can only be reset to 0");
      }
      if (attr == CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH) {
        reserved_high_ = reserved_;
      } else {
        used_high_ = used_bytes_;
      }
      return ok_status();
    default:
      return error(
          Code::kInvalidValue,
          fmt::format("cuMemPoolSetAttribute: attribute {} cannot be set", static_cast<int>(attr)));
  }
}

Status MemPool::get_attribute(CUmemPool_attribute attr, void* value) {
  if (value == nullptr) return error(Code::kInvalidValue, "cuMemPoolGetAttribute: value is null");
  std::lock_guard<std::mutex> lock(mutex_);
  release_locked(release_threshold_);
  auto flag = [&](bool field) {
    *static_cast<int*>(value) = field ? 1 : 0;
    return ok_status();
  };
  auto u64 = [&](uint64_t field) {
    *static_cast<cuuint64_t*>(value) = field;
    return ok_status();
  };
  switch (attr) {
    case CU_MEMPOOL_ATTR_REUSE_FOLLOW_EVENT_DEPENDENCIES:
      return flag(follow_event_dependencies_);
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC:
      return flag(allow_opportunistic_);
    case CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES:
      return flag(allow_internal_dependencies_);
    case CU_MEMPOOL_ATTR_RELEASE_THRESHOLD:
      return u64(release_threshold_);
    case CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT:
      return u64(reserved_);
    case CU_MEMPOOL_ATTR_RESERVED_MEM_HIGH:
      return u64(reserved_high_);
    case CU_MEMPOOL_ATTR_USED_MEM_CURRENT:
      return u64(used_bytes_);
    case CU_MEMPOOL_ATTR_USED_MEM_HIGH:
      return u64(used_high_);
    default:
      return error(Code::kInvalidValue, fmt::format("cuMemPoolGetAttribute: unknown attribute {}",
                                                    static_cast<int>(attr)));
  }
}

StatusOr<std::shared_ptr<MemPool>> default_mem_pool(int device) {
  RETURN_IF_ERROR(driver::device(device).status());
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto& pool = p.defaults[device];
  if (!pool) pool = std::make_shared<MemPool>(device, /*is_default=*/true);
  return pool;
}

StatusOr<std::shared_ptr<MemPool>> current_mem_pool(int device) {
  {
    Pools& p = pools();
    std::lock_guard<std::mutex> lock(p.mutex);
    auto it = p.current.find(device);
    if (it != p.current.end()) return it->second;
  }
  return default_mem_pool(device);
}

Status set_current_mem_pool(int device, std::shared_ptr<MemPool> pool) {
  RETURN_IF_ERROR(driver::device(device).status());
  if (pool->device() != device) {
    return error(Code::kInvalidValue,
                 fmt::format("cuDeviceSetMemPool: the pool holds memory of device {}, not {}",
                             pool->device(), device));
  }
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.current[device] = std::move(pool);
  return ok_status();
}

std::shared_ptr<MemPool> create_mem_pool(int device) {
  auto pool = std::make_shared<MemPool>(device, /*is_default=*/false);
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  p.created[pool.get()] = pool;
  return pool;
}

Status destroy_mem_pool(CUmemoryPool handle) {
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.created.find(reinterpret_cast<const MemPool*>(handle));
  if (it == p.created.end()) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemPoolDestroy: {} is not a pool made by cuMemPoolCreate "
                             "(default pools cannot be destroyed)",
                             fmt::ptr(handle)));
  }
  std::shared_ptr<MemPool> pool = std::move(it->second);
  p.created.erase(it);
  // A device whose current pool this was falls back to its default pool.
  auto cur = p.current.find(pool->device());
  if (cur != p.current.end() && cur->second == pool) p.current.erase(cur);
  // Outstanding allocations keep the pool alive until they are freed.
  std::erase_if(p.zombies, [](const std::shared_ptr<MemPool>& z) { return z->idle(); });
  if (!pool->idle()) p.zombies.push_back(std::move(pool));
  return ok_status();
}

StatusOr<std::shared_ptr<MemPool>> find_mem_pool(CUmemoryPool handle) {
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.created.find(reinterpret_cast<const MemPool*>(handle));
  if (it != p.created.end()) return it->second;
  for (const auto& [device, pool] : p.defaults) {
    if (pool->handle() == handle) return pool;
  }
  return error(Code::kInvalidValue, fmt::format("{} is not a live memory pool", fmt::ptr(handle)));
}

std::shared_ptr<MemPool> mem_pool_of(uint64_t va) {
  Pools& p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  auto it = p.by_va.find(va);
  return it == p.by_va.end() ? nullptr : it->second.lock();
}

void remember_pool_allocation(uint64_t va, const std::shared_ptr<MemPool>& pool) {
  note_va(va, pool);
}

}  // namespace strata::cuda::driver
