// The strata backend's Allocator: device memory = KMD VRAM object + VA + mapping; host
// memory = host pages mapped at their own address.
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "hal/backends/strata/strata_backend.h"
#include "hw/contract/page_table.h"

namespace strata::hal::strata_backend {
namespace {

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

class StrataAllocator final : public Allocator {
 public:
  explicit StrataAllocator(std::shared_ptr<ContextState> state)
      : state_(std::move(state)), tracker_(std::make_shared<Tracker>()) {}

 private:
  struct Entry {
    std::weak_ptr<Buffer> buffer;
    uint64_t size;
    MemoryKind kind;
    uint64_t phys;     // device memory
    uint8_t* host;     // host memory
  };
  // Shared with buffers' release functions, which may run after the allocator is gone.
  struct Tracker {
    std::mutex mu;
    std::map<uint64_t, Entry> entries;  // va -> entry
    uint64_t device_bytes = 0;
  };

  kmd::KmdHandle kmd() const { return state_->device->kmd(); }

  StatusOr<std::shared_ptr<Buffer>> do_allocate_device(uint64_t size, uint64_t alignment) override {
    const uint64_t granule = size >= hw::kHugePageSize ? hw::kHugePageSize : hw::kPageSize;
    if (alignment < granule) alignment = granule;
    const uint64_t bytes = round_up(size, granule);
    kmd::KmdMemAlloc mem{bytes, alignment};
    RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlMemAlloc, &mem));
    kmd::KmdVaAlloc va{bytes, alignment};
    Status s = kmd::kmd_ioctl(kmd(), kmd::kIoctlVaAlloc, &va);
    kmd::KmdMap map{state_->id, mem.memory, va.va, 0, bytes, kmd::kMapWritable};
    if (s.ok()) s = kmd::kmd_ioctl(kmd(), kmd::kIoctlMap, &map);
    if (!s.ok()) {
      if (va.va != 0) {
        kmd::KmdVaFree vf{va.va};
        (void)kmd::kmd_ioctl(kmd(), kmd::kIoctlVaFree, &vf);
      }
      kmd::KmdMemFree mf{mem.memory};
      (void)kmd::kmd_ioctl(kmd(), kmd::kIoctlMemFree, &mf);
      return s;
    }
    auto state = state_;
    auto tracker = tracker_;
    const uint64_t addr = va.va;
    const kmd::MemoryId memory = mem.memory;
    auto buffer = std::make_shared<Buffer>(MemoryKind::kDevice, addr, size, nullptr, [=] {
      {
        std::lock_guard lock(tracker->mu);
        tracker->entries.erase(addr);
        tracker->device_bytes -= bytes;
      }
      kmd::KmdUnmap um{state->id, 0, addr, bytes};
      (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlUnmap, &um);
      kmd::KmdVaFree vf{addr};
      (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlVaFree, &vf);
      kmd::KmdMemFree mf{memory};
      (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlMemFree, &mf);
    });
    std::lock_guard lock(tracker_->mu);
    tracker_->entries[addr] = Entry{buffer, size, MemoryKind::kDevice, mem.phys_addr, nullptr};
    tracker_->device_bytes += bytes;
    return buffer;
  }

  // Maps host pages [page_start, page_start + page_bytes) and tracks [addr, addr + size).
  StatusOr<std::shared_ptr<Buffer>> map_host(MemoryKind kind, uint8_t* ptr, uint64_t size,
                                             bool owned) {
    const uint64_t addr = reinterpret_cast<uint64_t>(ptr);
    const uint64_t page_start = addr & ~(hw::kPageSize - 1);
    const uint64_t page_bytes = round_up(addr + size, hw::kPageSize) - page_start;
    {
      std::lock_guard lock(tracker_->mu);
      auto it = tracker_->entries.lower_bound(page_start);
      if (it != tracker_->entries.begin()) --it;
      for (; it != tracker_->entries.end() && it->first < page_start + page_bytes; ++it) {
        if (it->first + it->second.size > page_start) {
          return error(Code::kInvalidValue,
                       fmt::format("host range [0x{:x}, +{}) shares pages with the {} buffer at 0x{:x}",
                                   addr, size, memory_kind_name(it->second.kind), it->first));
        }
      }
    }
    kmd::KmdHostMap map{state_->id, kmd::kMapWritable, page_start, page_bytes};
    RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlHostMap, &map));
    auto state = state_;
    auto tracker = tracker_;
    auto buffer = std::make_shared<Buffer>(kind, addr, size, ptr, [=] {
      {
        std::lock_guard lock(tracker->mu);
        tracker->entries.erase(addr);
      }
      kmd::KmdUnmap um{state->id, 0, page_start, page_bytes};
      (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlUnmap, &um);
      if (owned) std::free(ptr);
    });
    std::lock_guard lock(tracker_->mu);
    tracker_->entries[addr] = Entry{buffer, size, kind, 0, ptr};
    return buffer;
  }

  StatusOr<std::shared_ptr<Buffer>> do_allocate_host(uint64_t size) override {
    const uint64_t bytes = round_up(size, hw::kPageSize);
    auto* ptr = static_cast<uint8_t*>(std::aligned_alloc(hw::kPageSize, bytes));
    if (ptr == nullptr) return error(Code::kOutOfMemory, fmt::format("no host memory for {} bytes", size));
    std::memset(ptr, 0, bytes);
    auto buffer = map_host(MemoryKind::kHostPinned, ptr, size, /*owned=*/true);
    if (!buffer.ok()) std::free(ptr);
    return buffer;
  }

  StatusOr<std::shared_ptr<Buffer>> do_register_host(void* ptr, uint64_t size) override {
    return map_host(MemoryKind::kHostRegistered, static_cast<uint8_t*>(ptr), size, /*owned=*/false);
  }

  // Requires tracker_->mu. The entry containing [va, va + bytes), or null.
  const Entry* find_locked(uint64_t va, uint64_t bytes, uint64_t* start) {
    auto it = tracker_->entries.upper_bound(va);
    if (it == tracker_->entries.begin()) return nullptr;
    --it;
    if (va - it->first >= it->second.size || bytes > it->second.size - (va - it->first)) return nullptr;
    *start = it->first;
    return &it->second;
  }

  StatusOr<std::shared_ptr<Buffer>> do_find(uint64_t va) override {
    std::lock_guard lock(tracker_->mu);
    uint64_t start;
    const Entry* e = find_locked(va, 1, &start);
    std::shared_ptr<Buffer> b = e ? e->buffer.lock() : nullptr;
    if (b == nullptr) return error(Code::kNotFound, fmt::format("0x{:x} is not in any allocation", va));
    return b;
  }

  StatusOr<uint8_t*> host_view(uint64_t va, uint64_t bytes) {
    std::lock_guard lock(tracker_->mu);
    uint64_t start;
    const Entry* e = find_locked(va, bytes, &start);
    if (e == nullptr) {
      return error(Code::kInvalidValue,
                   fmt::format("[0x{:x}, +{}) is not inside one allocation of this context", va, bytes));
    }
    if (e->kind == MemoryKind::kDevice) return state_->device->aperture() + e->phys + (va - start);
    return e->host + (va - start);
  }

  Status do_write(uint64_t dst_va, const void* src, uint64_t bytes) override {
    ASSIGN_OR_RETURN(uint8_t* dst, host_view(dst_va, bytes));
    std::memcpy(dst, src, bytes);
    return ok_status();
  }

  Status do_read(uint64_t src_va, void* dst, uint64_t bytes) override {
    ASSIGN_OR_RETURN(uint8_t* src, host_view(src_va, bytes));
    std::memcpy(dst, src, bytes);
    return ok_status();
  }

  uint64_t do_device_bytes_in_use() override {
    std::lock_guard lock(tracker_->mu);
    return tracker_->device_bytes;
  }

  std::shared_ptr<ContextState> state_;
  std::shared_ptr<Tracker> tracker_;
};

}  // namespace

std::unique_ptr<Allocator> create_allocator(std::shared_ptr<ContextState> state) {
  return std::make_unique<StrataAllocator>(std::move(state));
}

}  // namespace strata::hal::strata_backend
