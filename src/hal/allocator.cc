#include "hal/allocator.h"

#include <fmt/format.h>

#include "base/log.h"

namespace strata::hal {
namespace {

constexpr uint64_t kMaxAlignment = 1ull << 30;

}  // namespace

const char* memory_kind_name(MemoryKind kind) {
  switch (kind) {
    case MemoryKind::kDevice: return "device";
    case MemoryKind::kHostPinned: return "host-pinned";
    case MemoryKind::kHostRegistered: return "host-registered";
  }
  return "unknown";
}

StatusOr<std::shared_ptr<Buffer>> Allocator::allocate_device(uint64_t size, uint64_t alignment) {
  if (size == 0) return error(Code::kInvalidValue, "allocate_device: size is 0");
  if (alignment != 0 && ((alignment & (alignment - 1)) != 0 || alignment > kMaxAlignment)) {
    return error(Code::kInvalidValue,
                 fmt::format("allocate_device: alignment {} is not a power of two up to 1 GiB", alignment));
  }
  STRATA_LOG_DEBUG("hal: allocate_device({}, {})", size, alignment);
  return do_allocate_device(size, alignment);
}

StatusOr<std::shared_ptr<Buffer>> Allocator::allocate_host(uint64_t size) {
  if (size == 0) return error(Code::kInvalidValue, "allocate_host: size is 0");
  STRATA_LOG_DEBUG("hal: allocate_host({})", size);
  return do_allocate_host(size);
}

StatusOr<std::shared_ptr<Buffer>> Allocator::register_host(void* ptr, uint64_t size) {
  if (ptr == nullptr || size == 0) {
    return error(Code::kInvalidValue, "register_host: null pointer or size 0");
  }
  const auto addr = reinterpret_cast<uint64_t>(ptr);
  if (addr + size < addr) return error(Code::kInvalidValue, "register_host: range wraps");
  STRATA_LOG_DEBUG("hal: register_host({}, {})", ptr, size);
  return do_register_host(ptr, size);
}

StatusOr<std::shared_ptr<Buffer>> Allocator::find(uint64_t va) { return do_find(va); }

Status Allocator::write(uint64_t dst_va, const void* src, uint64_t bytes) {
  if (bytes == 0) return ok_status();
  if (src == nullptr) return error(Code::kInvalidValue, "allocator write: null source");
  STRATA_LOG_DEBUG("hal: write 0x{:x} <- {} bytes", dst_va, bytes);
  return do_write(dst_va, src, bytes);
}

Status Allocator::read(uint64_t src_va, void* dst, uint64_t bytes) {
  if (bytes == 0) return ok_status();
  if (dst == nullptr) return error(Code::kInvalidValue, "allocator read: null destination");
  STRATA_LOG_DEBUG("hal: read 0x{:x} -> {} bytes", src_va, bytes);
  return do_read(src_va, dst, bytes);
}

uint64_t Allocator::device_bytes_in_use() { return do_device_bytes_in_use(); }

namespace {

constexpr uint64_t kPage = 4096;

Status not_supported(const char* what) {
  return error(Code::kNotSupported, fmt::format("{}: not supported by this HAL backend", what));
}

}  // namespace

StatusOr<std::shared_ptr<Memory>> Allocator::create_memory(uint64_t size) {
  if (size == 0 || size % kPage != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("create_memory: size {} is not a positive multiple of 4 KiB", size));
  }
  STRATA_LOG_DEBUG("hal: create_memory({})", size);
  return do_create_memory(size);
}

StatusOr<std::shared_ptr<Memory>> Allocator::memory_of(uint64_t va) { return do_memory_of(va); }

StatusOr<uint64_t> Allocator::reserve_va(uint64_t size, uint64_t alignment, uint64_t hint) {
  if (size == 0 || size % kPage != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("reserve_va: size {} is not a positive multiple of 4 KiB", size));
  }
  if (alignment != 0 && (alignment & (alignment - 1)) != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("reserve_va: alignment {} is not a power of two", alignment));
  }
  return do_reserve_va(size, alignment, hint);
}

Status Allocator::free_va(uint64_t va) { return do_free_va(va); }

StatusOr<std::shared_ptr<Buffer>> Allocator::map_memory(std::shared_ptr<Memory> memory,
                                                        uint64_t offset, uint64_t va, uint64_t size,
                                                        bool writable, bool copy_only) {
  if (memory == nullptr) return error(Code::kInvalidValue, "map_memory: null memory");
  if (size == 0 || va % kPage != 0 || offset % kPage != 0 || size % kPage != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("map_memory: [0x{:x}, +0x{:x}) at offset 0x{:x} is empty or not "
                             "4 KiB aligned", va, size, offset));
  }
  if (offset > memory->size() || size > memory->size() - offset) {
    return error(Code::kInvalidValue,
                 fmt::format("map_memory: [+0x{:x}, +0x{:x}) exceeds the memory's 0x{:x} bytes",
                             offset, offset + size, memory->size()));
  }
  STRATA_LOG_DEBUG("hal: map_memory(0x{:x}, {} bytes, offset {}, device {})", va, size, offset,
                   memory->device_index());
  return do_map_memory(std::move(memory), offset, va, size, writable, copy_only);
}

StatusOr<std::shared_ptr<Memory>> Allocator::do_create_memory(uint64_t) {
  return not_supported("create_memory");
}
StatusOr<std::shared_ptr<Memory>> Allocator::do_memory_of(uint64_t) {
  return not_supported("memory_of");
}
StatusOr<uint64_t> Allocator::do_reserve_va(uint64_t, uint64_t, uint64_t) {
  return not_supported("reserve_va");
}
Status Allocator::do_free_va(uint64_t) { return not_supported("free_va"); }
StatusOr<std::shared_ptr<Buffer>> Allocator::do_map_memory(std::shared_ptr<Memory>, uint64_t,
                                                           uint64_t, uint64_t, bool, bool) {
  return not_supported("map_memory");
}

}  // namespace strata::hal
