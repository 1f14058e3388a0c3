// The strata backend's Allocator: device memory = KMD VRAM object (StrataMemory) + VA +
// mapping; host memory = host pages mapped at their own address; memory of a peer
// device = the peer's VRAM object mapped through the KMD's peer map (bus addresses of
// the peer's VRAM aperture).
#include <fmt/format.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>
#include <vector>

#include "hal/backends/strata/strata_backend.h"
#include "hw/contract/page_table.h"

namespace strata::hal::strata_backend {
namespace {

uint64_t round_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

// A KMD VRAM object, freed with the last reference.
class StrataMemory final : public Memory {
 public:
  static StatusOr<std::shared_ptr<StrataMemory>> create(std::shared_ptr<StrataDevice> device,
                                                        uint64_t size, uint64_t alignment) {
    kmd::KmdMemAlloc mem{size, alignment};
    RETURN_IF_ERROR(kmd::kmd_ioctl(device->kmd(), kmd::kIoctlMemAlloc, &mem));
    return std::shared_ptr<StrataMemory>(new StrataMemory(std::move(device), mem.memory,
                                                          mem.phys_addr, size));
  }
  ~StrataMemory() override {
    kmd::KmdMemFree mf{id_};
    (void)kmd::kmd_ioctl(device_->kmd(), kmd::kIoctlMemFree, &mf);
  }
  const std::shared_ptr<StrataDevice>& device() const { return device_; }
  kmd::MemoryId id() const { return id_; }
  // Host view of the first byte (the owning device's VRAM aperture, BAR1).
  uint8_t* host() const { return device_->aperture() + phys_; }

 private:
  StrataMemory(std::shared_ptr<StrataDevice> device, kmd::MemoryId id, uint64_t phys, uint64_t size)
      : Memory(static_cast<int>(device->info().device_index), size), device_(std::move(device)),
        id_(id), phys_(phys) {}
  std::shared_ptr<StrataDevice> device_;
  kmd::MemoryId id_;
  uint64_t phys_;
};

class StrataAllocator final : public Allocator {
 public:
  explicit StrataAllocator(std::shared_ptr<ContextState> state)
      : state_(std::move(state)), tracker_(std::make_shared<Tracker>()) {}

 private:
  struct Entry {
    std::weak_ptr<Buffer> buffer;
    uint64_t size;
    MemoryKind kind;
    uint8_t* host;     // host view of the first byte (VRAM aperture for device memory)
    std::shared_ptr<StrataMemory> memory;  // device memory: the whole object at va (else null)
  };
  // Shared with buffers' release functions, which may run after the allocator is gone.
  struct Tracker {
    std::mutex mu;
    std::map<uint64_t, Entry> entries;  // va -> entry
    uint64_t device_bytes = 0;
    // Host buffers' first and last pages -> how many host buffers map them. Only these
    // can be shared (two registrations of byte ranges within one page, e.g. two
    // malloc'd buffers); a page is mapped while any of them lasts.
    std::map<uint64_t, int> edge_page_refs;
  };

  // Requires tracker->mu. Counts (delta +1) or uncounts (-1) the host pages
  // [page_start, page_start + page_bytes) of one buffer and returns the KMD mappings
  // that changes: unmapped pages to map (+1), mappings no buffer uses any more (-1).
  // Each edge page is a mapping of its own and the interior pages one more, so the
  // unmaps name exactly the mappings made (KmdUnmap takes whole mappings).
  static std::vector<std::pair<uint64_t, uint64_t>> host_page_runs(Tracker& tracker,
                                                                   uint64_t page_start,
                                                                   uint64_t page_bytes, int delta) {
    const uint64_t last = page_start + page_bytes - hw::kPageSize;
    std::vector<std::pair<uint64_t, uint64_t>> runs;
    auto add = [&](uint64_t start, uint64_t bytes) {
      if (bytes != 0) runs.emplace_back(start, bytes);
    };
    auto edge = [&](uint64_t page) {
      int& refs = tracker.edge_page_refs[page];
      const bool changes = delta > 0 ? refs == 0 : refs == 1;
      refs += delta;
      if (refs == 0) tracker.edge_page_refs.erase(page);
      if (changes) add(page, hw::kPageSize);
    };
    edge(page_start);
    if (last != page_start) {
      add(page_start + hw::kPageSize, last - page_start - hw::kPageSize);  // interior: its own
      edge(last);
    }
    return runs;
  }

  kmd::KmdHandle kmd() const { return state_->device->kmd(); }

  StatusOr<std::shared_ptr<Buffer>> do_allocate_device(uint64_t size, uint64_t alignment) override {
    const uint64_t granule = size >= hw::kHugePageSize ? hw::kHugePageSize : hw::kPageSize;
    if (alignment < granule) alignment = granule;
    const uint64_t bytes = round_up(size, granule);
    ASSIGN_OR_RETURN(std::shared_ptr<StrataMemory> memory,
                     StrataMemory::create(state_->device, bytes, alignment));
    kmd::KmdVaAlloc va{bytes, alignment};
    RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlVaAlloc, &va));
    auto buffer = map(memory, 0, va.va, bytes, kmd::kMapWritable, size, /*owns_va=*/true);
    if (!buffer.ok()) {
      kmd::KmdVaFree vf{va.va};
      (void)kmd::kmd_ioctl(kmd(), kmd::kIoctlVaFree, &vf);
    }
    return buffer;
  }

  // Maps [va, va + bytes) onto `memory` at `offset` (own device: KmdMap; a peer's:
  // KmdPeerMap) with the kmd::kMap* `flags` and tracks a kDevice buffer of `size` bytes
  // at va. With `owns_va`, the buffer's release also frees the VA range.
  StatusOr<std::shared_ptr<Buffer>> map(std::shared_ptr<StrataMemory> memory, uint64_t offset,
                                        uint64_t va, uint64_t bytes, uint32_t flags,
                                        uint64_t size, bool owns_va) {
    const int own_index = static_cast<int>(state_->device->info().device_index);
    if (memory->device_index() == own_index) {
      kmd::KmdMap m{state_->id, memory->id(), va, offset, bytes, flags};
      RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlMap, &m));
    } else {
      kmd::KmdPeerMap m{state_->id, static_cast<uint32_t>(memory->device_index()), memory->id(),
                        flags, va, offset, bytes};
      RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlPeerMap, &m));
    }
    const bool counts = memory->device_index() == own_index && owns_va;
    auto state = state_;
    auto tracker = tracker_;
    auto buffer = std::make_shared<Buffer>(MemoryKind::kDevice, va, size, nullptr, [=] {
      {
        std::lock_guard lock(tracker->mu);
        tracker->entries.erase(va);
        if (counts) tracker->device_bytes -= bytes;
      }
      kmd::KmdUnmap um{state->id, 0, va, bytes};
      (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlUnmap, &um);
      if (owns_va) {
        kmd::KmdVaFree vf{va};
        (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlVaFree, &vf);
      }
      // `memory` (captured) is released after the unmap, freeing it if it was the last.
      (void)memory;
    });
    std::lock_guard lock(tracker_->mu);
    tracker_->entries[va] = Entry{buffer, size, MemoryKind::kDevice, memory->host() + offset,
                                  offset == 0 ? memory : nullptr};
    if (counts) tracker_->device_bytes += bytes;
    return buffer;
  }

  StatusOr<std::shared_ptr<Memory>> do_create_memory(uint64_t size) override {
    const uint64_t alignment = size % hw::kHugePageSize == 0 ? hw::kHugePageSize : hw::kPageSize;
    ASSIGN_OR_RETURN(std::shared_ptr<StrataMemory> memory,
                     StrataMemory::create(state_->device, size, alignment));
    return std::shared_ptr<Memory>(std::move(memory));
  }

  StatusOr<std::shared_ptr<Memory>> do_memory_of(uint64_t va) override {
    std::lock_guard lock(tracker_->mu);
    auto it = tracker_->entries.find(va);
    if (it == tracker_->entries.end() || it->second.memory == nullptr ||
        it->second.buffer.expired()) {
      return error(Code::kNotFound, fmt::format("0x{:x} starts no device allocation", va));
    }
    return std::shared_ptr<Memory>(it->second.memory);
  }

  StatusOr<uint64_t> do_reserve_va(uint64_t size, uint64_t alignment, uint64_t hint) override {
    kmd::KmdVaAlloc va{size, alignment, 0, hint};
    RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlVaAlloc, &va));
    return va.va;
  }

  Status do_free_va(uint64_t va) override {
    kmd::KmdVaFree vf{va};
    return kmd::kmd_ioctl(kmd(), kmd::kIoctlVaFree, &vf);
  }

  StatusOr<std::shared_ptr<Buffer>> do_map_memory(std::shared_ptr<Memory> memory, uint64_t offset,
                                                  uint64_t va, uint64_t size, bool writable,
                                                  bool copy_only) override {
    auto strata = std::dynamic_pointer_cast<StrataMemory>(memory);
    if (strata == nullptr) {
      return error(Code::kInvalidDevice, "map_memory: the memory belongs to another HAL backend");
    }
    const uint32_t flags = (writable ? kmd::kMapWritable : 0) | (copy_only ? kmd::kMapCopyOnly : 0);
    return map(std::move(strata), offset, va, size, flags, size, /*owns_va=*/false);
  }

  // Maps host pages [page_start, page_start + page_bytes) and tracks [addr, addr + size).
  // Byte ranges of host buffers never overlap, but their edge pages may be shared: such
  // a page is mapped by the first buffer using it and unmapped with the last.
  StatusOr<std::shared_ptr<Buffer>> map_host(MemoryKind kind, uint8_t* ptr, uint64_t size,
                                             bool owned) {
    const uint64_t addr = reinterpret_cast<uint64_t>(ptr);
    const uint64_t page_start = addr & ~(hw::kPageSize - 1);
    const uint64_t page_bytes = round_up(addr + size, hw::kPageSize) - page_start;
    std::lock_guard lock(tracker_->mu);
    auto it = tracker_->entries.lower_bound(addr);
    if (it != tracker_->entries.begin()) --it;
    for (; it != tracker_->entries.end() && it->first < addr + size; ++it) {
      if (it->first + it->second.size > addr) {
        return error(Code::kInvalidValue,
                     fmt::format("host range [0x{:x}, +{}) overlaps the {} buffer at 0x{:x}", addr,
                                 size, memory_kind_name(it->second.kind), it->first));
      }
    }
    const auto runs = host_page_runs(*tracker_, page_start, page_bytes, +1);
    for (size_t i = 0; i < runs.size(); ++i) {
      kmd::KmdHostMap map{state_->id, kmd::kMapWritable, runs[i].first, runs[i].second};
      if (Status s = kmd::kmd_ioctl(kmd(), kmd::kIoctlHostMap, &map); !s.ok()) {
        for (size_t j = 0; j < i; ++j) {
          kmd::KmdUnmap um{state_->id, 0, runs[j].first, runs[j].second};
          (void)kmd::kmd_ioctl(kmd(), kmd::kIoctlUnmap, &um);
        }
        (void)host_page_runs(*tracker_, page_start, page_bytes, -1);
        return s;
      }
    }
    auto state = state_;
    auto tracker = tracker_;
    auto buffer = std::make_shared<Buffer>(kind, addr, size, ptr, [=] {
      {
        std::lock_guard lock(tracker->mu);
        tracker->entries.erase(addr);
        for (const auto& [start, bytes] : host_page_runs(*tracker, page_start, page_bytes, -1)) {
          kmd::KmdUnmap um{state->id, 0, start, bytes};
          (void)kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlUnmap, &um);
        }
      }
      if (owned) std::free(ptr);
    });
    tracker_->entries[addr] = Entry{buffer, size, kind, ptr, nullptr};
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
