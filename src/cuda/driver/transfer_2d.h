// Pitched (2D) allocations, copies and fills (cuMemAllocPitch, cuMemcpy2D*,
// cuMemsetD2D*), built row by row on the 1D copy and fill paths of transfer.h, so they
// take the same copy-engine route and have the same ordering and pageable-memory rules.
// Thread-safe.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "base/status.h"

namespace strata::cuda::driver {

class Stream;

// cuMemAllocPitch rounds each row up to this many bytes: the device's
// CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, which exceeds the texture pitch alignment the
// CUDA documentation guarantees for pitched allocations.
inline constexpr uint64_t kPitchAlignment = 512;

// The pitch for rows of `width_bytes`: width rounded up to kPitchAlignment.
// kInvalidValue for a zero width or an element size other than 4, 8 or 16.
StatusOr<uint64_t> pitch_for(uint64_t width_bytes, uint32_t element_size);

// Copies p.Height rows of p.WidthInBytes as cuMemcpy2D does. Host, device, unified and
// array memory types are supported (array sides go through copy_3d, transfer_3d.h).
// kInvalidValue for a pitch smaller than the width (with more than one row), null
// pointers or an unknown memory type.
Status copy_2d(Stream& stream, const CUDA_MEMCPY2D& p, bool async);

// Fills `height` rows of `width` elements of `elem_size` bytes, `pitch` bytes apart.
// kInvalidValue for width * elem_size > pitch (with more than one row) or a misaligned
// pitch or address.
Status fill_2d(Stream& stream, uint64_t dst, uint64_t pitch, uint32_t value, uint64_t width,
               uint64_t height, uint32_t elem_size, bool async);

}  // namespace strata::cuda::driver
