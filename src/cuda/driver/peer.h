// Peer access between devices (cuCtxEnablePeerAccess, cuMemcpyPeer, unified addressing
// across devices) and the process-wide table of device allocations it needs.
//
// MODEL. Every device allocation (cuMemAlloc) has a VA from the one process-wide GPU VA
// range (kmd/va_space.h), so a device pointer names its device by itself: the table
// below maps it to its owning context. Enabling access from context A to context B (of
// another device) maps every live allocation of B into A's address space at the same VA
// (hal::Allocator::map_memory of B's memory: A's page tables point at B's VRAM over the
// bus), and every allocation B makes later; kernels of A may then load, store and
// atomically update B's memory at B's pointers. Disabling access, freeing the
// allocation or destroying either context removes the mappings.
//
// COPIES. A copy between devices is a copy-engine command in one context's stream; the
// other device's allocation is mapped into that context for the copy (map_for_copy) and
// stays mapped until access is disabled, the allocation is freed or a context goes.
// Such a mapping is copy-only (hw kPteCopyOnly): kernels of that context still fault on
// the memory until peer access is enabled, which upgrades it.
//
// POOLS. Stream-ordered allocations (cuMemAllocAsync: the blocks of mem_pool.h) are in
// the table too, so copies between devices find and map them like cuMemAlloc memory,
// but, as in CUDA, their kernel access from other devices does not follow
// cuCtxEnablePeerAccess: the pool's access list (cuMemPoolSetAccess) maps them
// (map_for_pool_access) and unmaps them (unmap_pool_access). VMM mappings are not in the
// table: they are reachable from other devices only through cuMemSetAccess (vmm.h).
//
// Thread-safe. Nothing here calls into a Context while holding the table's lock except
// its HAL allocator, which never calls back.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>

#include "base/status.h"

namespace strata::hal {
class Buffer;
}

namespace strata::cuda::driver {

class Context;

// Context hooks: after cuMemAlloc, before the memory of cuMemFree goes, and when a
// context is destroyed.
// `follows_peer_access`: false for pool blocks (see POOLS above).
void peer_track_allocation(Context& owner, const std::shared_ptr<hal::Buffer>& buffer,
                           bool follows_peer_access = true);
void peer_untrack_allocation(Context& owner, uint64_t va);
void peer_forget_context(const Context* context);

// cuDeviceCanAccessPeer: true for two different devices (the simulated devices share
// one bus, so every pair can).
bool devices_can_access_peer(int device, int peer_device);

// cuCtxEnablePeerAccess / cuCtxDisablePeerAccess from `self` to `peer`.
// Errors (as Status codes of cu_result.h): kInvalidContext (self is peer),
// CUDA_ERROR_PEER_ACCESS_UNSUPPORTED (same device), CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED,
// CUDA_ERROR_PEER_ACCESS_NOT_ENABLED.
Status enable_peer_access(Context& self, Context& peer);
Status disable_peer_access(Context& self, Context& peer);
bool peer_access_enabled(const Context& self, const Context& peer);

// The live device allocation containing `va` in any context, with its owner.
struct OwnedAllocation {
  std::shared_ptr<Context> owner;
  std::shared_ptr<hal::Buffer> buffer;
};
std::optional<OwnedAllocation> find_allocation(uint64_t va);

// Makes the device allocation of another context that contains `va` reachable by
// `copier`'s copy engine (nothing to do if it already is). kInvalidValue if `va` is in
// no allocation of any context.
Status map_for_copy(Context& copier, uint64_t va);

// Pool access (cuMemPoolSetAccess): maps the tracked allocation starting at `va` (of
// another context) for kernels of `mapper`, writable or read-only; a copy-only mapping
// is replaced. unmap_pool_access removes that mapping (after `mapper`'s queued work);
// nothing to do if there is none. kInvalidValue if `va` starts no tracked allocation.
Status map_for_pool_access(Context& mapper, uint64_t va, bool writable);
void unmap_pool_access(Context& mapper, uint64_t va);

}  // namespace strata::cuda::driver
