#include "cuda/driver/mem_pool.h"

#include <algorithm>

#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
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

MemPool::~MemPool() = default;

bool MemPool::completed(const Block& block) {
  if (block.free_point.value == 0 || !block.free_point.semaphore) return true;
  auto done = block.free_point.semaphore->query();
  return done.ok() && *done >= block.free_point.value;
}

void MemPool::release_locked(uint64_t keep) {
  for (auto it = free_.begin(); it != free_.end() && reserved_ > keep;) {
    if (completed(it->second)) {
      reserved_ -= it->first;
      it = free_.erase(it);  // drops the buffer: back to the device
    } else {
      ++it;
    }
  }
}

StatusOr<uint64_t> MemPool::allocate(Stream& stream, uint64_t size) {
  if (size == 0) return error(Code::kInvalidValue, "cuMemAllocAsync: size is 0");
  const uint64_t rounded = (size + kGranule - 1) / kGranule * kGranule;
  Context& ctx = stream.context();
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
      RETURN_IF_ERROR(stream.submit(nullptr, std::span<const hal::SemaphoreValue>(&wait, 1)));
    }
    Block reused = std::move(block);
    free_.erase(it);
    reused.freed_in = nullptr;
    reused.free_point = {};
    const uint64_t va = reused.buffer->va();
    used_bytes_ += reused.buffer->size();
    used_high_ = std::max(used_high_, used_bytes_);
    used_[va] = std::move(reused);
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
  if (!buffer.ok()) return buffer.status();
  lock.lock();
  const uint64_t va = (*buffer)->va();
  const uint64_t bytes = (*buffer)->size();
  used_[va] = Block{ctx.shared_from_this(), std::move(buffer).value(), nullptr, {}};
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
