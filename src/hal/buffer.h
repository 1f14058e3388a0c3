// Buffer: one allocation visible to the GPU at [va, va + size).
//
// Kinds:
//   kDevice          device memory (VRAM); va lies in the process's reserved GPU VA
//                    range, so it never equals a host pointer. The host reaches it
//                    through Allocator::read/write.
//   kHostPinned      host memory allocated by the HAL and mapped into the GPU address
//                    space at its host address (unified addressing: va == host_ptr).
//   kHostRegistered  existing host memory registered by the user (cuMemHostRegister);
//                    mapped at its host address; the user keeps ownership of the bytes.
// The memory is released (and unmapped) when the last reference drops. The user must
// not drop it while GPU work that uses it is pending. Immutable; thread-safe.
#pragma once

#include <cstdint>
#include <functional>

namespace strata::hal {

enum class MemoryKind : uint8_t { kDevice, kHostPinned, kHostRegistered };
const char* memory_kind_name(MemoryKind kind);

class Buffer {
 public:
  // Backends construct buffers; `release` runs once, from the destructor.
  Buffer(MemoryKind kind, uint64_t va, uint64_t size, void* host_ptr,
         std::function<void()> release)
      : kind_(kind), va_(va), size_(size), host_ptr_(host_ptr), release_(std::move(release)) {}
  ~Buffer() {
    if (release_) release_();
  }
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;

  MemoryKind kind() const { return kind_; }
  uint64_t va() const { return va_; }
  uint64_t size() const { return size_; }
  bool contains(uint64_t va) const { return va >= va_ && va - va_ < size_; }
  // Host address of the bytes for host kinds (== va), nullptr for kDevice.
  void* host_ptr() const { return host_ptr_; }

 private:
  MemoryKind kind_;
  uint64_t va_;
  uint64_t size_;
  void* host_ptr_;
  std::function<void()> release_;
};

}  // namespace strata::hal
