// The copy engine: DMA copies and fills through a channel's page tables, page by page,
// to and from VRAM and system-memory (kPteSysmem) pages alike. A fault stops the
// operation at the first failing page; bytes before it have been written (as on real
// DMA engines). Overlapping source and destination ranges give unspecified contents.
// Stateless and thread-safe; callers serialise operations per channel.
#pragma once

#include <cstdint>

#include "hw/contract/fault.h"
#include "hw/sim/memory.h"

namespace strata::hw::sim {

struct DmaResult {
  FaultKind fault = FaultKind::kNone;
  uint64_t address = 0;  // faulting VA when fault != kNone
  bool ok() const { return fault == FaultKind::kNone; }
};

DmaResult dma_copy(const PageWalker& walker, uint64_t dst_va, uint64_t src_va, uint64_t bytes);

// Writes the low `elem_size` bytes of `value` (little-endian) repeatedly. elem_size must
// be 1, 2 or 4 and divide both dst_va and bytes (else kMisaligned).
DmaResult dma_fill(const PageWalker& walker, uint64_t dst_va, uint64_t bytes, uint32_t value,
                   uint32_t elem_size);

// Copies `bytes` from GPU VA `src_va` into host memory `out` (for reading code, launch
// packets' data and the like). Faults as dma_copy.
DmaResult dma_read(const PageWalker& walker, uint64_t src_va, uint64_t bytes, uint8_t* out);

}  // namespace strata::hw::sim
