// Entry points: device memory, pinned host memory and registered host ranges.
#include <map>
#include <mutex>

#include "cuda/driver/api_util.h"
#include "cuda/driver/capture.h"
#include "cuda/driver/device.h"
#include "cuda/driver/managed_memory.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

// Pinned host allocations (cuMemAllocHost/cuMemHostAlloc), by host address.
struct HostAllocation {
  std::shared_ptr<Context> context;
  std::shared_ptr<hal::Buffer> buffer;
  unsigned int flags = 0;
};

struct HostAllocations {
  std::mutex mutex;
  std::map<uintptr_t, HostAllocation> by_address;
};

HostAllocations& host_allocations() {
  static auto* table = new HostAllocations();
  return *table;
}

Status host_alloc(const char* api, void** pp, size_t bytesize, unsigned int flags) {
  if (pp == nullptr) return null_arg(api, "pp");
  *pp = nullptr;
  constexpr unsigned int kKnown = CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP |
                                  CU_MEMHOSTALLOC_WRITECOMBINED;
  if ((flags & ~kKnown) != 0) {
    return error(Code::kInvalidValue, fmt::format("{}: unknown flags {:#x}", api, flags));
  }
  if (bytesize == 0) return error(Code::kInvalidValue, fmt::format("{}: size is 0", api));
  ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer, ctx->hal().allocator().allocate_host(bytesize));
  void* ptr = buffer->host_ptr();
  HostAllocations& table = host_allocations();
  std::lock_guard<std::mutex> lock(table.mutex);
  table.by_address[reinterpret_cast<uintptr_t>(ptr)] = {std::move(ctx), std::move(buffer), flags};
  *pp = ptr;
  return ok_status();
}

// Host ranges registered with cuMemHostRegister, by the pointer the user passed.
struct HostRegistration {
  std::shared_ptr<Context> context;
  std::shared_ptr<hal::Buffer> buffer;
  uint64_t size = 0;
};

struct HostRegistrations {
  std::mutex mutex;
  std::map<uintptr_t, HostRegistration> by_address;
};

HostRegistrations& host_registrations() {
  static auto* table = new HostRegistrations();
  return *table;
}

// True if [addr, addr + size) overlaps a live pinned allocation or registration.
bool overlaps_pinned(uintptr_t addr, uint64_t size) {
  auto overlaps = [&](const auto& map, auto size_of) {
    auto it = map.lower_bound(addr + size);
    if (it == map.begin()) return false;
    --it;
    return it->first + size_of(it->second) > addr;
  };
  {
    HostRegistrations& regs = host_registrations();
    std::lock_guard<std::mutex> lock(regs.mutex);
    if (overlaps(regs.by_address, [](const HostRegistration& r) { return r.size; })) return true;
  }
  HostAllocations& allocs = host_allocations();
  std::lock_guard<std::mutex> lock(allocs.mutex);
  return overlaps(allocs.by_address, [](const HostAllocation& a) { return a.buffer->size(); });
}

}  // namespace

CUresult CUDAAPI cuMemAlloc(CUdeviceptr* dptr, size_t bytesize) {
  return api_call("cuMemAlloc", [&]() -> Status {
    if (dptr == nullptr) return null_arg("cuMemAlloc", "dptr");
    RETURN_IF_ERROR(capture_check_unsafe("cuMemAlloc"));
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(*dptr, ctx->allocate_device(bytesize));
    return ok_status();
  });
}

CUresult CUDAAPI cuMemFree(CUdeviceptr dptr) {
  return api_call("cuMemFree", [&]() -> Status {
    if (dptr == 0) return ok_status();
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    if (Status managed = free_managed(dptr); managed.code() != Code::kNotFound) return managed;
    RETURN_IF_ERROR(capture_check_unsafe("cuMemFree"));
    if (auto graph_memory = free_graph_allocation(dptr)) return *graph_memory;
    return ctx->free_device(dptr);
  });
}

CUresult CUDAAPI cuMemGetInfo(size_t* free, size_t* total) {
  return api_call("cuMemGetInfo", [&]() -> Status {
    if (free == nullptr || total == nullptr) return null_arg("cuMemGetInfo", "free or total");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    ASSIGN_OR_RETURN(*free, ctx->device().hal().free_memory());
    *total = ctx->device().total_memory();
    return ok_status();
  });
}

CUresult CUDAAPI cuMemGetAddressRange(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr) {
  return api_call("cuMemGetAddressRange", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    auto buffer = ctx->hal().allocator().find(dptr);
    if (!buffer.ok()) {
      return error(Code::kNotFound,
                   fmt::format("cuMemGetAddressRange: {:#x} is not in any allocation", dptr));
    }
    if (pbase != nullptr) *pbase = (*buffer)->va();
    if (psize != nullptr) *psize = (*buffer)->size();
    return ok_status();
  });
}

CUresult CUDAAPI cuMemAllocHost(void** pp, size_t bytesize) {
  return api_call("cuMemAllocHost", [&] { return host_alloc("cuMemAllocHost", pp, bytesize, 0); });
}

CUresult CUDAAPI cuMemHostAlloc(void** pp, size_t bytesize, unsigned int Flags) {
  return api_call("cuMemHostAlloc", [&] { return host_alloc("cuMemHostAlloc", pp, bytesize, Flags); });
}

CUresult CUDAAPI cuMemFreeHost(void* p) {
  return api_call("cuMemFreeHost", [&]() -> Status {
    HostAllocation dead;
    {
      HostAllocations& table = host_allocations();
      std::lock_guard<std::mutex> lock(table.mutex);
      auto it = table.by_address.find(reinterpret_cast<uintptr_t>(p));
      if (it == table.by_address.end()) {
        return error(Code::kInvalidValue,
                     fmt::format("cuMemFreeHost: {} was not allocated by cuMemAllocHost/"
                                 "cuMemHostAlloc", fmt::ptr(p)));
      }
      dead = std::move(it->second);
      table.by_address.erase(it);
    }
    return dead.context->synchronize();  // no queued copy still uses the pages
  });
}

CUresult CUDAAPI cuMemHostGetDevicePointer(CUdeviceptr* pdptr, void* p, unsigned int Flags) {
  return api_call("cuMemHostGetDevicePointer", [&]() -> Status {
    if (pdptr == nullptr || p == nullptr) return null_arg("cuMemHostGetDevicePointer", "pdptr or p");
    if (Flags != 0) return error(Code::kInvalidValue, "cuMemHostGetDevicePointer: flags must be 0");
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    auto buffer = ctx->hal().allocator().find(reinterpret_cast<uint64_t>(p));
    if (!buffer.ok() || (*buffer)->kind() == hal::MemoryKind::kDevice) {
      return error(Code::kInvalidValue, fmt::format("cuMemHostGetDevicePointer: {} is not mapped "
                                                    "host memory", fmt::ptr(p)));
    }
    *pdptr = reinterpret_cast<uint64_t>(p);  // unified addressing: same address
    return ok_status();
  });
}

CUresult CUDAAPI cuMemHostGetFlags(unsigned int* pFlags, void* p) {
  return api_call("cuMemHostGetFlags", [&]() -> Status {
    if (pFlags == nullptr) return null_arg("cuMemHostGetFlags", "pFlags");
    HostAllocations& table = host_allocations();
    std::lock_guard<std::mutex> lock(table.mutex);
    auto it = table.by_address.upper_bound(reinterpret_cast<uintptr_t>(p));
    if (it == table.by_address.begin()) return error(Code::kInvalidValue, "cuMemHostGetFlags: not pinned memory");
    --it;
    if (!it->second.buffer->contains(reinterpret_cast<uint64_t>(p))) {
      return error(Code::kInvalidValue, "cuMemHostGetFlags: not pinned memory");
    }
    *pFlags = it->second.flags | CU_MEMHOSTALLOC_DEVICEMAP;
    return ok_status();
  });
}

CUresult CUDAAPI cuMemHostRegister(void* p, size_t bytesize, unsigned int Flags) {
  return api_call("cuMemHostRegister", [&]() -> Status {
    constexpr unsigned int kKnown = CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP |
                                    CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY;
    if (p == nullptr || bytesize == 0 || (Flags & ~kKnown) != 0) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemHostRegister: invalid range {} +{} or flags {:#x}",
                               fmt::ptr(p), bytesize, Flags));
    }
    // CU_DEVICE_ATTRIBUTE_READ_ONLY_HOST_REGISTER_SUPPORTED is 0 and there is no I/O
    // memory to map: both flags are CUDA_ERROR_NOT_SUPPORTED, as cuda.h specifies.
    if ((Flags & (CU_MEMHOSTREGISTER_IOMEMORY | CU_MEMHOSTREGISTER_READ_ONLY)) != 0) {
      return error(Code::kNotSupported, fmt::format("cuMemHostRegister: flags {:#x} (I/O or "
                                                    "read-only memory) are not supported",
                                                    Flags));
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Context> ctx, checked_current_context());
    const auto addr = reinterpret_cast<uintptr_t>(p);
    if (overlaps_pinned(addr, bytesize)) {
      return error(
          to_code(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED),
          fmt::format("cuMemHostRegister: [{}, +{}) is already pinned", fmt::ptr(p), bytesize));
    }
    // Only the current context maps the range (Portable is accepted but not propagated).
    ASSIGN_OR_RETURN(std::shared_ptr<hal::Buffer> buffer,
                     ctx->hal().allocator().register_host(p, bytesize));
    HostRegistrations& table = host_registrations();
    std::lock_guard<std::mutex> lock(table.mutex);
    auto [it, inserted] =
        table.by_address.try_emplace(addr, HostRegistration{ctx, buffer, bytesize});
    if (!inserted) {  // a racing registration of the same pointer won
      return error(to_code(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED),
                   fmt::format("cuMemHostRegister: {} is already registered", fmt::ptr(p)));
    }
    return ok_status();
  });
}

CUresult CUDAAPI cuMemHostUnregister(void* p) {
  return api_call("cuMemHostUnregister", [&]() -> Status {
    if (p == nullptr) return null_arg("cuMemHostUnregister", "p");
    HostRegistration dead;
    {
      HostRegistrations& table = host_registrations();
      std::lock_guard<std::mutex> lock(table.mutex);
      auto it = table.by_address.find(reinterpret_cast<uintptr_t>(p));
      if (it == table.by_address.end()) {
        return error(to_code(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED),
                     fmt::format("cuMemHostUnregister: {} was not registered by "
                                 "cuMemHostRegister",
                                 fmt::ptr(p)));
      }
      dead = std::move(it->second);
      table.by_address.erase(it);
    }
    return dead.context->synchronize();  // no queued work still uses the pages
  });
}
