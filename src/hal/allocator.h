// Allocator: the memory of one Context (one GPU address space).
//
// Device allocations get a VA from the process's reserved GPU VA range (never a host
// pointer), backed by device memory; allocations of 2 MiB or more are 2 MiB aligned
// and mapped with huge pages. Host allocations are mapped at their host address (UVA).
// Every buffer is tracked, so find() classifies any VA (cudaPointerGetAttributes).
//
// read/write are the driver's small synchronous transfers: they copy through the VRAM
// aperture (device memory) or directly (host memory) without queue ordering; the range
// must lie inside one live buffer (kInvalidValue otherwise). Large or stream-ordered
// transfers use CommandBuffer::copy.
// Thread-safe.
#pragma once

#include <cstdint>
#include <memory>

#include "base/status.h"
#include "hal/buffer.h"

namespace strata::hal {

class Allocator {
 public:
  virtual ~Allocator() = default;
  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  // Device memory. size > 0; alignment 0 (default: 256 bytes, 2 MiB for sizes of 2 MiB
  // and up) or a power of two up to 1 GiB. kOutOfMemory when device memory is exhausted.
  StatusOr<std::shared_ptr<Buffer>> allocate_device(uint64_t size, uint64_t alignment = 0);

  // Page-aligned host memory, zero-filled, mapped into the GPU address space at its
  // host address.
  StatusOr<std::shared_ptr<Buffer>> allocate_host(uint64_t size);

  // Maps existing host memory [ptr, ptr + size) at its host address. The pages holding
  // it are mapped (ptr need not be page aligned). kInvalidValue if it overlaps a buffer
  // of this allocator or ptr is null.
  StatusOr<std::shared_ptr<Buffer>> register_host(void* ptr, uint64_t size);

  // The live buffer containing `va`; kNotFound if none.
  StatusOr<std::shared_ptr<Buffer>> find(uint64_t va);

  // Synchronous host<->GPU-memory copies (see above). bytes may be 0.
  Status write(uint64_t dst_va, const void* src, uint64_t bytes);
  Status read(uint64_t src_va, void* dst, uint64_t bytes);

  // Device memory currently allocated by this allocator, in bytes.
  uint64_t device_bytes_in_use();

 protected:
  Allocator() = default;
  virtual StatusOr<std::shared_ptr<Buffer>> do_allocate_device(uint64_t size, uint64_t alignment) = 0;
  virtual StatusOr<std::shared_ptr<Buffer>> do_allocate_host(uint64_t size) = 0;
  virtual StatusOr<std::shared_ptr<Buffer>> do_register_host(void* ptr, uint64_t size) = 0;
  virtual StatusOr<std::shared_ptr<Buffer>> do_find(uint64_t va) = 0;
  virtual Status do_write(uint64_t dst_va, const void* src, uint64_t bytes) = 0;
  virtual Status do_read(uint64_t src_va, void* dst, uint64_t bytes) = 0;
  virtual uint64_t do_device_bytes_in_use() = 0;
};

}  // namespace strata::hal
