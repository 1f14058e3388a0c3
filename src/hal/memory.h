// Memory: a physical device-memory allocation (VRAM of one device) with no GPU virtual
// address of its own. Allocator::create_memory makes one (CUDA's cuMemCreate), and
// Allocator::memory_of names the memory behind a device buffer; Allocator::map_memory
// maps it into an address space, of its own device or of a peer device of the same
// backend (peer access).
//
// The bytes are released when the last reference drops; every buffer mapping the
// memory holds a reference, so releasing the handle while mapped defers the free until
// the last unmap (as cuMemRelease does). Immutable; thread-safe. Backends subclass it.
#pragma once

#include <cstdint>

namespace strata::hal {

class Memory {
 public:
  virtual ~Memory() = default;
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // Device (backend ordinal) whose memory this is.
  int device_index() const { return device_index_; }
  // Bytes, a multiple of the backend's page size (4 KiB for strata).
  uint64_t size() const { return size_; }

 protected:
  Memory(int device_index, uint64_t size) : device_index_(device_index), size_(size) {}

 private:
  int device_index_;
  uint64_t size_;
};

}  // namespace strata::hal
