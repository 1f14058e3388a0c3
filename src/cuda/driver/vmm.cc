#include "cuda/driver/vmm.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <vector>

#include "cuda/driver/context.h"
#include "cuda/driver/cu_result.h"
#include "cuda/driver/device.h"
#include "fmt/format.h"
#include "hal/allocator.h"
#include "hal/context.h"

namespace strata::cuda::driver {
namespace {

struct Allocation {
  CUmemGenericAllocationHandle handle;
  CUmemAllocationProp prop;
  std::shared_ptr<hal::Memory> memory;
  int refs = 1;  // handle references (cuMemCreate, cuMemRetainAllocationHandle)
};

// One device's access to one mapping.
struct Access {
  unsigned long long flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
  std::shared_ptr<Context> context;     // the address space it is mapped into
  bool retained_primary = false;        // context is a primary retained for this
  std::shared_ptr<hal::Buffer> buffer;  // the page-table mapping
};

// A piece of a cuMemMap mapping: cuMemSetAccess on a sub-range splits the mapping into
// pieces with their own access; cuMemUnmap still takes whole cuMemMap ranges.
struct Mapping {
  uint64_t size;
  uint64_t offset;
  std::shared_ptr<Allocation> allocation;
  std::map<int, Access> access;  // device ordinal -> access
  uint64_t map_start = 0;        // the cuMemMap range this piece belongs to
  uint64_t map_size = 0;
};

struct State {
  std::mutex mutex;
  CUmemGenericAllocationHandle next_handle = 1;
  std::map<CUmemGenericAllocationHandle, std::shared_ptr<Allocation>> handles;  // unreleased
  std::map<uint64_t, uint64_t> reservations;                                    // va -> size
  std::map<uint64_t, Mapping> mappings;                                         // va -> mapping
  std::map<int, std::shared_ptr<hal::Context>> private_contexts;  // device -> HAL context
};

State& state() {
  static auto* s = new State();  // entry points may run during static destruction
  return *s;
}

Status invalid(const std::string& message) {
  return error(Code::kInvalidValue, message);
}

// Requires s.mutex. The private HAL context of `device` (memory creation, VA).
StatusOr<hal::Context*> private_context(State& s, int ordinal) {
  auto it = s.private_contexts.find(ordinal);
  if (it != s.private_contexts.end()) return it->second.get();
  ASSIGN_OR_RETURN(Device * dev, device(ordinal));
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Context> ctx, dev->hal().create_context());
  hal::Context* raw = ctx.get();
  s.private_contexts[ordinal] = std::move(ctx);
  return raw;
}

// Requires s.mutex. The mappings exactly covering [va, va + size) (whole mappings, no
// gaps), or an error naming `api`.
StatusOr<std::vector<uint64_t>> whole_mappings(State& s, const char* api, uint64_t va,
                                               uint64_t size) {
  std::vector<uint64_t> out;
  uint64_t at = va;
  auto it = s.mappings.upper_bound(va);
  if (it != s.mappings.begin()) {
    auto prev = std::prev(it);
    if (prev->first < va && prev->first + prev->second.size > va) {
      return error(Code::kNotSupported,
                   fmt::format("{}: {:#x} is inside the mapping at {:#x}; the range must "
                               "start at a mapping",
                               api, va, prev->first));
    }
  }
  for (it = s.mappings.lower_bound(va); it != s.mappings.end() && at < va + size; ++it) {
    if (it->first != at) break;
    if (it->first + it->second.size > va + size) {
      return error(Code::kNotSupported,
                   fmt::format("{}: [{:#x}, +{:#x}) ends inside the mapping at {:#x}", api, va,
                               size, it->first));
    }
    out.push_back(it->first);
    at += it->second.size;
  }
  if (at != va + size || out.empty()) {
    return invalid(
        fmt::format("{}: [{:#x}, +{:#x}) is not fully mapped (hole at {:#x})", api, va, size, at));
  }
  return out;
}

// Requires s.mutex. kInvalidValue unless every byte of [va, va + size) is mapped.
Status check_fully_mapped(State& s, const char* api, uint64_t va, uint64_t size) {
  uint64_t at = va;
  auto it = s.mappings.upper_bound(va);
  if (it != s.mappings.begin()) --it;
  for (; it != s.mappings.end() && at < va + size; ++it) {
    if (it->first > at) break;
    at = std::max(at, it->first + it->second.size);
  }
  if (at < va + size) {
    return invalid(
        fmt::format("{}: [{:#x}, +{:#x}) is not fully mapped (hole at {:#x})", api, va, size, at));
  }
  return ok_status();
}

// Requires s.mutex. Splits the mapping piece containing `at` (strictly inside it) in
// two; each device's access is remapped as two page-table mappings (after the work of
// its context). Nothing to do when `at` is a piece boundary or not mapped.
Status split_at(State& s, uint64_t at) {
  auto it = s.mappings.upper_bound(at);
  if (it == s.mappings.begin()) return ok_status();
  --it;
  const uint64_t start = it->first;
  Mapping& first = it->second;
  if (at <= start || at >= start + first.size) return ok_status();
  const uint64_t head = at - start;
  Mapping second{first.size - head, first.offset + head, first.allocation, {},
                 first.map_start,   first.map_size};
  for (auto& [ordinal, access] : first.access) {
    Access& tail = second.access[ordinal];
    tail.flags = access.flags;
    tail.context = access.context;
    if (access.retained_primary) {
      // Each piece holds its own reference to the primary context.
      ASSIGN_OR_RETURN(std::shared_ptr<Context> primary, access.context->device().retain_primary());
      tail.context = std::move(primary);
      tail.retained_primary = true;
    }
    if (access.buffer == nullptr) continue;
    (void)access.context->synchronize();
    access.buffer.reset();  // unmapped: the two pieces are mapped anew
    const bool writable = access.flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    hal::Allocator& allocator = access.context->hal().allocator();
    ASSIGN_OR_RETURN(access.buffer, allocator.map_memory(first.allocation->memory, first.offset,
                                                         start, head, writable));
    ASSIGN_OR_RETURN(tail.buffer, allocator.map_memory(second.allocation->memory, second.offset, at,
                                                       second.size, writable));
  }
  first.size = head;
  s.mappings[at] = std::move(second);
  return ok_status();
}

// Drops one device's access: waits for the context's work, then unmaps (after the lock).
void drop_access(Access& access, std::vector<Access>* dead) {
  dead->push_back(std::move(access));
  access = Access{};
}

void finish_dead(std::vector<Access>& dead) {
  for (Access& a : dead) {
    if (a.context) (void)a.context->synchronize();
    a.buffer.reset();
    if (a.retained_primary) (void)a.context->device().release_primary();
  }
  dead.clear();
}

}  // namespace

Status vmm_check_prop(const char* api, const CUmemAllocationProp* prop) {
  if (prop == nullptr) return invalid(fmt::format("{}: prop is null", api));
  if (prop->type != CU_MEM_ALLOCATION_TYPE_PINNED) {
    return invalid(fmt::format("{}: allocation type {} is not CU_MEM_ALLOCATION_TYPE_PINNED", api,
                               static_cast<int>(prop->type)));
  }
  if (prop->location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
    return error(Code::kNotSupported,
                 fmt::format("{}: location type {}: only device memory is supported", api,
                             static_cast<int>(prop->location.type)));
  }
  RETURN_IF_ERROR(device(prop->location.id).status());
  if ((prop->requestedHandleTypes & ~CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR) != 0) {
    return error(Code::kNotSupported,
                 fmt::format("{}: requested handle types {:#x}: only none or POSIX file "
                             "descriptors",
                             api, static_cast<int>(prop->requestedHandleTypes)));
  }
  return ok_status();
}

StatusOr<CUmemGenericAllocationHandle> vmm_create(uint64_t size, const CUmemAllocationProp& prop) {
  if (size == 0 || size % kVmmGranularity != 0) {
    return invalid(
        fmt::format("cuMemCreate: size {:#x} is not a positive multiple of the "
                    "granularity {:#x}",
                    size, kVmmGranularity));
  }
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ASSIGN_OR_RETURN(hal::Context * ctx, private_context(s, prop.location.id));
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Memory> memory, ctx->allocator().create_memory(size));
  auto allocation = std::make_shared<Allocation>();
  allocation->handle = s.next_handle++;
  allocation->prop = prop;
  allocation->memory = std::move(memory);
  s.handles[allocation->handle] = allocation;
  return allocation->handle;
}

Status vmm_release(CUmemGenericAllocationHandle handle) {
  std::shared_ptr<Allocation> last;  // freed (if unmapped) after the lock
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.handles.find(handle);
  if (it == s.handles.end()) {
    return invalid(fmt::format("cuMemRelease: {:#x} is not a live allocation handle", handle));
  }
  if (--it->second->refs == 0) {
    last = std::move(it->second);
    s.handles.erase(it);
  }
  return ok_status();
}

StatusOr<CUmemAllocationProp> vmm_properties(CUmemGenericAllocationHandle handle) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.handles.find(handle);
  if (it == s.handles.end()) {
    return invalid(
        fmt::format("cuMemGetAllocationPropertiesFromHandle: {:#x} is not a live "
                    "allocation handle",
                    handle));
  }
  return it->second->prop;
}

StatusOr<CUmemGenericAllocationHandle> vmm_retain(uint64_t va) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.mappings.upper_bound(va);
  if (it == s.mappings.begin() || va - std::prev(it)->first >= std::prev(it)->second.size) {
    return invalid(fmt::format("cuMemRetainAllocationHandle: {:#x} is not mapped", va));
  }
  std::shared_ptr<Allocation>& allocation = std::prev(it)->second.allocation;
  if (s.handles.count(allocation->handle) == 0) {
    allocation->refs = 0;  // released but still mapped: the handle comes back
    s.handles[allocation->handle] = allocation;
  }
  ++allocation->refs;
  return allocation->handle;
}

StatusOr<uint64_t> vmm_reserve(uint64_t size, uint64_t alignment, uint64_t hint) {
  if (size == 0 || size % kVmmGranularity != 0) {
    return invalid(
        fmt::format("cuMemAddressReserve: size {:#x} is not a positive multiple of "
                    "the granularity {:#x}",
                    size, kVmmGranularity));
  }
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) {
    return invalid(
        fmt::format("cuMemAddressReserve: alignment {:#x} is not a power of two", alignment));
  }
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  ASSIGN_OR_RETURN(hal::Context * ctx, private_context(s, 0));
  const uint64_t align = std::max(alignment, kVmmGranularity);
  ASSIGN_OR_RETURN(uint64_t va,
                   ctx->allocator().reserve_va(size, align, hint % align == 0 ? hint : 0));
  s.reservations[va] = size;
  return va;
}

Status vmm_free_reservation(uint64_t va, uint64_t size) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.reservations.find(va);
  if (it == s.reservations.end() || it->second != size) {
    return invalid(fmt::format("cuMemAddressFree: [{:#x}, +{:#x}) is not a reservation", va, size));
  }
  auto m = s.mappings.lower_bound(va);
  if (m != s.mappings.end() && m->first < va + size) {
    return invalid(
        fmt::format("cuMemAddressFree: {:#x} inside the reservation is still mapped", m->first));
  }
  ASSIGN_OR_RETURN(hal::Context * ctx, private_context(s, 0));
  RETURN_IF_ERROR(ctx->allocator().free_va(va));
  s.reservations.erase(it);
  return ok_status();
}

Status vmm_map(uint64_t va, uint64_t size, uint64_t offset, CUmemGenericAllocationHandle handle) {
  if (size == 0 || va % kVmmGranularity != 0 || size % kVmmGranularity != 0 ||
      offset % kVmmGranularity != 0) {
    return invalid(
        fmt::format("cuMemMap: address {:#x}, size {:#x} and offset {:#x} must be "
                    "multiples of the granularity {:#x}",
                    va, size, offset, kVmmGranularity));
  }
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto h = s.handles.find(handle);
  if (h == s.handles.end()) {
    return invalid(fmt::format("cuMemMap: {:#x} is not a live allocation handle", handle));
  }
  const uint64_t bytes = h->second->memory->size();
  if (offset > bytes || size > bytes - offset) {
    return invalid(fmt::format("cuMemMap: [+{:#x}, +{:#x}) exceeds the allocation of {:#x} bytes",
                               offset, offset + size, bytes));
  }
  auto r = s.reservations.upper_bound(va);
  if (r == s.reservations.begin() || va + size - std::prev(r)->first > std::prev(r)->second) {
    return invalid(
        fmt::format("cuMemMap: [{:#x}, +{:#x}) is not inside one reservation", va, size));
  }
  auto m = s.mappings.upper_bound(va);
  if ((m != s.mappings.end() && m->first < va + size) ||
      (m != s.mappings.begin() && std::prev(m)->first + std::prev(m)->second.size > va)) {
    return invalid(fmt::format("cuMemMap: [{:#x}, +{:#x}) overlaps an existing mapping", va, size));
  }
  s.mappings[va] = Mapping{size, offset, h->second, {}, va, size};
  return ok_status();
}

Status vmm_unmap(uint64_t va, uint64_t size) {
  std::vector<Access> dead;
  std::vector<std::shared_ptr<Allocation>> allocations;  // may free memory after the unmaps
  {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    auto covered = whole_mappings(s, "cuMemUnmap", va, size);
    if (!covered.ok()) {
      // CUDA: the range must be exactly what was mapped.
      return invalid(covered.status().message());
    }
    for (uint64_t start : *covered) {
      const Mapping& m = s.mappings[start];
      if (m.map_start < va || m.map_start + m.map_size > va + size) {
        return invalid(
            fmt::format("cuMemUnmap: [{:#x}, +{:#x}) covers part of the mapping "
                        "[{:#x}, +{:#x}); cuMemUnmap takes whole cuMemMap ranges",
                        va, size, m.map_start, m.map_size));
      }
    }
    for (uint64_t start : *covered) {
      Mapping& m = s.mappings[start];
      for (auto& [device, access] : m.access) drop_access(access, &dead);
      allocations.push_back(std::move(m.allocation));
      s.mappings.erase(start);
    }
  }
  finish_dead(dead);  // waits for the contexts' work, then unmaps (note_sync)
  return ok_status();
}

Status vmm_set_access(uint64_t va, uint64_t size, const CUmemAccessDesc* desc, size_t count) {
  if (desc == nullptr || count == 0) return invalid("cuMemSetAccess: no access descriptors");
  for (size_t i = 0; i < count; ++i) {
    if (desc[i].location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
      return error(Code::kNotSupported,
                   fmt::format("cuMemSetAccess: location type {}: only devices are supported",
                               static_cast<int>(desc[i].location.type)));
    }
    RETURN_IF_ERROR(device(desc[i].location.id).status());
    const auto flags = desc[i].flags;
    if (flags != CU_MEM_ACCESS_FLAGS_PROT_NONE && flags != CU_MEM_ACCESS_FLAGS_PROT_READ &&
        flags != CU_MEM_ACCESS_FLAGS_PROT_READWRITE) {
      return invalid(fmt::format("cuMemSetAccess: access flags {:#x}", static_cast<int>(flags)));
    }
  }
  std::vector<Access> dead;
  Status result = ok_status();
  {
    State& s = state();
    std::lock_guard<std::mutex> lock(s.mutex);
    // Any granularity-aligned sub-range of mapped memory: the pieces at its ends split.
    if (va % kVmmGranularity != 0 || size == 0 || size % kVmmGranularity != 0) {
      return invalid(
          fmt::format("cuMemSetAccess: [{:#x}, +{:#x}) is not a non-empty range aligned to the "
                      "granularity {:#x}",
                      va, size, kVmmGranularity));
    }
    RETURN_IF_ERROR(check_fully_mapped(s, "cuMemSetAccess", va, size));
    RETURN_IF_ERROR(split_at(s, va));
    RETURN_IF_ERROR(split_at(s, va + size));
    ASSIGN_OR_RETURN(std::vector<uint64_t> covered, whole_mappings(s, "cuMemSetAccess", va, size));
    for (size_t i = 0; i < count && result.ok(); ++i) {
      const int ordinal = desc[i].location.id;
      const auto flags = desc[i].flags;
      for (uint64_t start : covered) {
        Mapping& m = s.mappings[start];
        auto existing = m.access.find(ordinal);
        if (existing != m.access.end()) {
          if (existing->second.flags == flags) continue;
          // The new entries replace the old ones: unmap now (after the context's work).
          Access& old = existing->second;
          if (old.context) (void)old.context->synchronize();
          old.buffer.reset();
          drop_access(old, &dead);
          m.access.erase(existing);
        }
        if (flags == CU_MEM_ACCESS_FLAGS_PROT_NONE) continue;
        Access access;
        access.flags = flags;
        std::shared_ptr<Context> current = current_context();
        if (current && current->device().ordinal() == ordinal) {
          access.context = current;
        } else {
          auto dev = device(ordinal);
          auto primary = dev.ok() ? (*dev)->retain_primary() : dev.status();
          if (!primary.ok()) {
            result = primary.status();
            break;
          }
          access.context = *primary;
          access.retained_primary = true;
        }
        auto buffer = access.context->hal().allocator().map_memory(
            m.allocation->memory, m.offset, start, m.size,
            /*writable=*/flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
        if (!buffer.ok()) {
          result = buffer.status();
          dead.push_back(std::move(access));
          break;
        }
        access.buffer = std::move(buffer).value();
        m.access[ordinal] = std::move(access);
      }
    }
  }
  finish_dead(dead);
  return result;
}

StatusOr<unsigned long long> vmm_get_access(const CUmemLocation& location, uint64_t va) {
  if (location.type != CU_MEM_LOCATION_TYPE_DEVICE) {
    return error(Code::kNotSupported, "cuMemGetAccess: only device locations are supported");
  }
  RETURN_IF_ERROR(device(location.id).status());
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.mappings.upper_bound(va);
  if (it == s.mappings.begin() || va - std::prev(it)->first >= std::prev(it)->second.size) {
    return invalid(fmt::format("cuMemGetAccess: {:#x} is not mapped", va));
  }
  const Mapping& m = std::prev(it)->second;
  auto a = m.access.find(location.id);
  return a == m.access.end() ? static_cast<unsigned long long>(CU_MEM_ACCESS_FLAGS_PROT_NONE)
                             : static_cast<unsigned long long>(a->second.flags);
}

std::optional<int> vmm_device_of(uint64_t va) {
  State& s = state();
  std::lock_guard<std::mutex> lock(s.mutex);
  auto it = s.mappings.upper_bound(va);
  if (it == s.mappings.begin() || va - std::prev(it)->first >= std::prev(it)->second.size) {
    return std::nullopt;
  }
  return std::prev(it)->second.allocation->prop.location.id;
}

}  // namespace strata::cuda::driver
