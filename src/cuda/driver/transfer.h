// Stream-ordered copies and fills (cuMemcpy*, cuMemsetD*). Copies between GPU-visible
// memory (device allocations, pinned or registered host memory) are DMA commands on the
// stream; copies touching pageable host memory wait for the stream and then move the
// bytes synchronously, as CUDA does for pageable memory. Synchronous variants
// (`async` false) return when the transfer is complete. Thread-safe.
#pragma once

#include <cstdint>

#include "base/status.h"

namespace strata::cuda::driver {

class Stream;

Status copy_memory(Stream& stream, uint64_t dst, uint64_t src, uint64_t bytes, bool async);

// Fills `count` elements of `elem_size` (1, 2 or 4) bytes at dst with `value`.
// kInvalidValue if dst is not aligned to elem_size.
Status fill_memory(Stream& stream, uint64_t dst, uint64_t count, uint32_t value,
                   uint32_t elem_size, bool async);

}  // namespace strata::cuda::driver
