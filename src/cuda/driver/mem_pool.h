// MemPool: a stream-ordered memory pool (CUmemoryPool) for cuMemAllocAsync /
// cuMemFreeAsync, per the CUDA programming guide's stream-ordered allocator chapter.
//
// Allocation happens at call time; the memory is usable by work queued later in the
// allocating stream. A free records the point its stream has reached (the stream's
// tail): the block goes back to the pool then and may be handed out again
//   - at once to a later allocation in the same stream (stream order),
//   - to another stream once the free point has completed
//     (CU_MEMPOOL_ATTR_REUSE_ALLOW_OPPORTUNISTIC), or
//   - to another stream that is made to wait for the free point
//     (CU_MEMPOOL_ATTR_REUSE_ALLOW_INTERNAL_DEPENDENCIES).
// Freed blocks whose free point has completed are released back to the device while the
// pool reserves more than CU_MEMPOOL_ATTR_RELEASE_THRESHOLD bytes; this is checked at
// every pool operation (allocation, attribute query, trim), so after a stream, event or
// context synchronisation the pool holds at most the threshold in freed memory.
// Blocks live in the address space of the context that allocated them and are reused
// only by streams of that context. Every block is in the cross-device allocation table
// (peer.h), so copies from and to other devices work on it; kernels of other devices
// reach the pool's blocks only when the pool grants their device access (set_access),
// never through cuCtxEnablePeerAccess, as in CUDA. Thread-safe.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "hal/buffer.h"
#include "hal/semaphore.h"

namespace strata::cuda::driver {

class Context;
class Stream;

class MemPool {
 public:
  // `device`: the ordinal of the device whose memory the pool holds.
  MemPool(int device, bool is_default) : device_(device), default_(is_default) {}
  ~MemPool();

  CUmemoryPool handle() { return reinterpret_cast<CUmemoryPool>(this); }
  int device() const { return device_; }
  bool is_default() const { return default_; }

  // Allocates `size` bytes (> 0) ordered in `stream`. The stream may be on another
  // device (cuMemAllocFromPoolAsync allows it): the block is then memory of the pool's
  // device in its primary context, retained while the block lives; the stream's device
  // reaches it as the pool's access list allows.
  StatusOr<uint64_t> allocate(Stream& stream, uint64_t size);
  // Returns the block at `va` to the pool when `stream` reaches this point. kNotFound
  // when `va` is not a live allocation of this pool.
  Status free(Stream& stream, uint64_t va);
  bool owns(uint64_t va);

  // CU_MEMPOOL_ATTR_*: kInvalidValue for an unknown attribute or a value the attribute
  // does not accept.
  Status set_attribute(CUmemPool_attribute attr, const void* value);
  Status get_attribute(CUmemPool_attribute attr, void* value);
  // cuMemPoolSetAccess: grants (CU_MEM_ACCESS_FLAGS_PROT_READ or _READWRITE) or revokes
  // (_PROT_NONE) the access of another device's kernels to every block of the pool,
  // present and future: the blocks are mapped into that device's context (the current
  // context when it is on the device, else its primary context, retained while the
  // access lasts) or unmapped (after that context's queued work). The pool's own device
  // always has read-write access; asking anything else for it, a location that is not
  // a device, an unknown device or unknown flags is kInvalidValue. All descriptors are
  // checked before any takes effect.
  Status set_access(const CUmemAccessDesc* desc, size_t count);
  // cuMemPoolGetAccess: the access of `location` (a device) to the pool's memory.
  StatusOr<CUmemAccess_flags> get_access(const CUmemLocation& location);

  // Releases completed free blocks until at most `keep` bytes are reserved.
  void trim_to(uint64_t keep);
  // True when the pool has neither live allocations nor pending frees.
  bool idle();

 private:
  struct Block {
    std::shared_ptr<Context> context;
    std::shared_ptr<hal::Buffer> buffer;
    const Stream* freed_in = nullptr;  // identity only; never dereferenced
    hal::SemaphoreValue free_point;    // value 0: no work pending at the free
    bool retained_primary = false;     // context: a primary retained while the block lives
  };
  // Drops a block's buffer and its retain of a primary context (if any).
  static void release_block(Block& block);
  // Another device's access to the pool's blocks.
  struct DeviceAccess {
    CUmemAccess_flags flags = CU_MEM_ACCESS_FLAGS_PROT_NONE;
    std::shared_ptr<Context> context;  // the address space the blocks are mapped into
    bool retained_primary = false;     // context is a primary retained for this access
  };
  static bool completed(const Block& block);
  void release_locked(uint64_t keep);
  // Requires mutex_. Maps a new block for every device with access; on failure the
  // mappings made are undone.
  Status map_for_access_locked(const Block& block);
  template <typename Fn>
  void for_each_block_locked(Fn fn);

  int device_;
  bool default_;
  std::mutex mutex_;
  std::map<uint64_t, Block> used_;       // by va
  std::multimap<uint64_t, Block> free_;  // by size
  std::map<int, DeviceAccess> access_;   // device ordinal -> access (never the own device)
  uint64_t reserved_ = 0, reserved_high_ = 0, used_bytes_ = 0, used_high_ = 0;
  uint64_t release_threshold_ = 0;
  bool follow_event_dependencies_ = true, allow_opportunistic_ = true,
       allow_internal_dependencies_ = true;
};

// The process-wide pool state: each device's default and current pool, and the
// pools made by cuMemPoolCreate (by handle).
// kInvalidDevice for an unknown ordinal.
StatusOr<std::shared_ptr<MemPool>> default_mem_pool(int device);
StatusOr<std::shared_ptr<MemPool>> current_mem_pool(int device);
Status set_current_mem_pool(int device, std::shared_ptr<MemPool> pool);
std::shared_ptr<MemPool> create_mem_pool(int device);
// kInvalidValue for a handle that is not a live pool or is a default pool.
Status destroy_mem_pool(CUmemoryPool handle);
// The live pool for `handle` (default pools included), or kInvalidValue.
StatusOr<std::shared_ptr<MemPool>> find_mem_pool(CUmemoryPool handle);
// The pool that owns the allocation at `va`, or nullptr; remember_pool_allocation
// records (pool) or forgets (nullptr) that owner.
std::shared_ptr<MemPool> mem_pool_of(uint64_t va);
void remember_pool_allocation(uint64_t va, const std::shared_ptr<MemPool>& pool);

}  // namespace strata::cuda::driver
