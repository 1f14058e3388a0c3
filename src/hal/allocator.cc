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

}  // namespace strata::hal
