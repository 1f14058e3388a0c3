// Virtual memory management (cuMemCreate, cuMemAddressReserve, cuMemMap, cuMemSetAccess,
// cuMemUnmap, cuMemRelease and their queries): physical allocations, VA reservations and
// mappings between them, with CUDA's validation. Entry points: api_vmm.cc.
//
// MODEL.
// - Granularity: 2 MiB (minimum and recommended), the GPU's huge page. Sizes, mapping
//   addresses and offsets must be multiples of it.
// - An allocation (cuMemCreate) is device memory of its device with no VA
//   (hal::Memory), made through a private HAL context of that device. Its handle is
//   reference counted: cuMemCreate and every cuMemRetainAllocationHandle add one,
//   cuMemRelease drops one; the memory itself lives until the handle is released AND
//   its last mapping is gone.
// - A reservation (cuMemAddressReserve) is a range of the process-wide GPU VA range
//   (the same for every device and context). Its address hint is honoured when that
//   range is free and aligned; otherwise another address is chosen, as CUDA does.
// - cuMemMap records a mapping without page-table entries: nothing can touch it yet.
//   cuMemSetAccess(device d, READ or READWRITE) maps it into the address space of d's
//   context (the current context when it is on d, else d's primary context, retained
//   while the access lasts), read-only or writable; for memory of another device this
//   is a peer mapping (peer.h). PROT_NONE removes it. So a kernel touching a mapped
//   range without access faults (CUDA_ERROR_ILLEGAL_ADDRESS), as on a GPU.
// - cuMemSetAccess takes any granularity-aligned, fully mapped range, also part of a
//   mapping or several mappings: the mappings at its ends are split into pieces with
//   their own access (each device's page-table mapping of the piece remapped, after the
//   work of its context). cuMemUnmap must cover whole cuMemMap ranges (as CUDA
//   requires), however they were split, and waits for the work of the contexts with
//   access first.
// - Shareable handles (cuMemExportToShareableHandle / Import) are not supported.
// Thread-safe.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <memory>
#include <optional>

#include "base/status.h"

namespace strata::cuda::driver {

class Context;

inline constexpr uint64_t kVmmGranularity = 2ull << 20;

// prop checked as cuMemCreate needs it (pinned device memory of a valid device).
Status vmm_check_prop(const char* api, const CUmemAllocationProp* prop);

StatusOr<CUmemGenericAllocationHandle> vmm_create(uint64_t size, const CUmemAllocationProp& prop);
Status vmm_release(CUmemGenericAllocationHandle handle);
StatusOr<CUmemAllocationProp> vmm_properties(CUmemGenericAllocationHandle handle);
StatusOr<CUmemGenericAllocationHandle> vmm_retain(uint64_t va);

// `hint`: 0, or the preferred start (used when free and aligned to the alignment and
// the granularity).
StatusOr<uint64_t> vmm_reserve(uint64_t size, uint64_t alignment, uint64_t hint = 0);
Status vmm_free_reservation(uint64_t va, uint64_t size);

Status vmm_map(uint64_t va, uint64_t size, uint64_t offset, CUmemGenericAllocationHandle handle);
Status vmm_unmap(uint64_t va, uint64_t size);
Status vmm_set_access(uint64_t va, uint64_t size, const CUmemAccessDesc* desc, size_t count);
StatusOr<unsigned long long> vmm_get_access(const CUmemLocation& location, uint64_t va);

// The device of the VMM mapping containing `va` (pointer attributes), if any.
std::optional<int> vmm_device_of(uint64_t va);

}  // namespace strata::cuda::driver
