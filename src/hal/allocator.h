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
#include "hal/memory.h"

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
  // it are mapped (ptr need not be page aligned; a page shared with another host buffer,
  // as two small registrations share one, stays mapped while either lasts).
  // kInvalidValue if the bytes overlap a buffer of this allocator or ptr is null.
  StatusOr<std::shared_ptr<Buffer>> register_host(void* ptr, uint64_t size);

  // The live buffer containing `va`; kNotFound if none.
  StatusOr<std::shared_ptr<Buffer>> find(uint64_t va);

  // Synchronous host<->GPU-memory copies (see above). bytes may be 0.
  Status write(uint64_t dst_va, const void* src, uint64_t bytes);
  Status read(uint64_t src_va, void* dst, uint64_t bytes);

  // Device memory currently allocated by this allocator, in bytes.
  uint64_t device_bytes_in_use();

  // ---- Explicit physical memory and mappings (CUDA VMM, peer access) ----
  // Backends without them return kNotSupported.
  //
  // Device memory of this context's device with no VA (hal/memory.h). size > 0, a
  // multiple of 4 KiB. kOutOfMemory when device memory is exhausted.
  StatusOr<std::shared_ptr<Memory>> create_memory(uint64_t size);
  // The memory behind the device buffer of this allocator that starts at `va`
  // (allocate_device or map_memory of this device's memory), whole: offset 0 of the
  // memory is the buffer's va. kNotFound if `va` starts no such buffer.
  StatusOr<std::shared_ptr<Memory>> memory_of(uint64_t va);
  // Reserves `size` bytes (a multiple of 4 KiB) of GPU VA from the process-wide range,
  // aligned to `alignment` (0: 4 KiB, else a power of two), with nothing mapped; the
  // range is the same for every context and device. free_va(va) returns it (its start).
  // `hint`: 0, or the preferred start, taken when it is aligned and the range is free.
  StatusOr<uint64_t> reserve_va(uint64_t size, uint64_t alignment, uint64_t hint = 0);
  Status free_va(uint64_t va);
  // Maps [va, va + size) of this address space onto [offset, offset + size) of
  // `memory`, writable or read-only, and tracks it as a kDevice buffer (find, read and
  // write see it); dropping the buffer unmaps it. `memory` may belong to another device
  // of the same backend: then this device reaches it over the bus (peer access). va,
  // offset and size are 4 KiB multiples, va inside a range from reserve_va or another
  // buffer's range that this context does not map (a peer device's allocation).
  // With `copy_only` the GPU's copy engine reaches the range but kernels fault on it
  // (the driver's mappings for copies between devices without peer access).
  // kInvalidValue if any page of the range is already mapped here or the range exceeds
  // the memory; kInvalidDevice for memory of another backend.
  StatusOr<std::shared_ptr<Buffer>> map_memory(std::shared_ptr<Memory> memory, uint64_t offset,
                                               uint64_t va, uint64_t size, bool writable,
                                               bool copy_only = false);

 protected:
  Allocator() = default;
  virtual StatusOr<std::shared_ptr<Buffer>> do_allocate_device(uint64_t size, uint64_t alignment) = 0;
  virtual StatusOr<std::shared_ptr<Buffer>> do_allocate_host(uint64_t size) = 0;
  virtual StatusOr<std::shared_ptr<Buffer>> do_register_host(void* ptr, uint64_t size) = 0;
  virtual StatusOr<std::shared_ptr<Buffer>> do_find(uint64_t va) = 0;
  virtual Status do_write(uint64_t dst_va, const void* src, uint64_t bytes) = 0;
  virtual Status do_read(uint64_t src_va, void* dst, uint64_t bytes) = 0;
  virtual uint64_t do_device_bytes_in_use() = 0;
  virtual StatusOr<std::shared_ptr<Memory>> do_create_memory(uint64_t size);
  virtual StatusOr<std::shared_ptr<Memory>> do_memory_of(uint64_t va);
  virtual StatusOr<uint64_t> do_reserve_va(uint64_t size, uint64_t alignment, uint64_t hint);
  virtual Status do_free_va(uint64_t va);
  virtual StatusOr<std::shared_ptr<Buffer>> do_map_memory(std::shared_ptr<Memory> memory,
                                                          uint64_t offset, uint64_t va,
                                                          uint64_t size, bool writable,
                                                          bool copy_only);
};

}  // namespace strata::hal
