// KmdDevice, peer-to-peer: mapping another device's VRAM into this device's address
// spaces (KmdPeerMap). The entries are system-memory entries holding the bus address of
// the peer's VRAM aperture (BAR1), which is how a PCIe GPU reaches a peer's memory.
//
// Lock order: a device never holds its own mu_ while calling into another device, so
// two devices mapping each other's memory at the same time cannot deadlock.
#include <fmt/format.h>

#include "hw/contract/page_table.h"
#include "kmd/kmd.h"
#include "kmd/kmd_device.h"
#include "kmd/va_space.h"

namespace strata::kmd {

StatusOr<uint64_t> KmdDevice::pin_for_peer(MemoryId memory, uint64_t offset, uint64_t size) {
  std::lock_guard lock(mu_);
  auto mem = memories_.find(memory);
  if (mem == memories_.end()) {
    return error(Code::kInvalidHandle,
                 fmt::format("kmd: device {} has no memory object {}", index_, memory));
  }
  if (size == 0 || offset > mem->second.size || size > mem->second.size - offset) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: peer map of [+0x{:x}, +0x{:x}) exceeds memory object {} of "
                             "0x{:x} bytes",
                             offset, offset + size, memory, mem->second.size));
  }
  mem->second.map_count++;
  return reinterpret_cast<uint64_t>(gpu_->vram_base()) + mem->second.phys + offset;
}

void KmdDevice::unpin_for_peer(MemoryId memory) {
  std::lock_guard lock(mu_);
  auto mem = memories_.find(memory);
  if (mem != memories_.end() && mem->second.map_count > 0) mem->second.map_count--;
}

void KmdDevice::unpin_peers(const std::vector<Mapping>& removed) {
  for (const Mapping& m : removed) {
    auto peer = kmd_open(m.peer_device);
    if (peer.ok()) peer->device->unpin_for_peer(m.memory);
  }
}

Status KmdDevice::peer_map(KmdPeerMap* r) {
  if (static_cast<int>(r->peer_device) == index_) {
    return error(Code::kInvalidDevice,
                 fmt::format("kmd: device {}: a peer mapping of its own memory", index_));
  }
  if ((r->flags & ~(kMapWritable | kMapCopyOnly)) != 0) {
    return error(Code::kInvalidValue, fmt::format("kmd: bad map flags 0x{:x}", r->flags));
  }
  if (r->size == 0 || r->va % hw::kPageSize != 0 || r->offset % hw::kPageSize != 0 ||
      r->size % hw::kPageSize != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: peer map [0x{:x}, +0x{:x}) at offset 0x{:x} is empty or not "
                             "page aligned",
                             r->va, r->size, r->offset));
  }
  if (!va_space_->contains(r->va) || !va_space_->contains(r->va + r->size - 1)) {
    return error(Code::kInvalidValue,
                 fmt::format("kmd: VA [0x{:x}, +0x{:x}) is outside the reserved GPU VA range",
                             r->va, r->size));
  }
  // The process table holds every device opened by index; a standalone device
  // (kmd_create_device) has no peers.
  auto peer = kmd_open(static_cast<int>(r->peer_device));
  if (!peer.ok()) return peer.status();
  if (peer->device == this) {
    return error(Code::kInvalidDevice,
                 fmt::format("kmd: device {} is not a peer of itself", index_));
  }
  ASSIGN_OR_RETURN(uint64_t bus, peer->device->pin_for_peer(r->peer_memory, r->offset, r->size));
  Status mapped = [&]() -> Status {
    std::lock_guard lock(mu_);
    ASSIGN_OR_RETURN(Context * context, find_context(r->context));
    const uint64_t pte = hw::kPteSysmem | ((r->flags & kMapWritable) ? hw::kPteWritable : 0) |
                         ((r->flags & kMapCopyOnly) ? hw::kPteCopyOnly : 0);
    RETURN_IF_ERROR(context->tables->map(r->va, bus, r->size, pte));
    context->mappings[r->va] = Mapping{r->size, r->peer_memory, static_cast<int>(r->peer_device)};
    return ok_status();
  }();
  if (!mapped.ok()) peer->device->unpin_for_peer(r->peer_memory);
  return mapped;
}

}  // namespace strata::kmd
