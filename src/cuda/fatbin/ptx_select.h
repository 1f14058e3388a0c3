// Choosing the PTX entry to JIT for a device.
//
// Strata runs PTX only (cubins are NVIDIA machine code). The best entry is the PTX with
// the highest target at or below the device's compute capability (PTX is forward
// compatible); arch-specific (compute_90a) and family-specific (compute_100f) PTX are
// taken only when their target equals the device's exactly, and are preferred over
// generic PTX of the same target. Ties (same target) go to the first entry in the image.
// Pure function; thread-safe.
#pragma once

#include <span>

#include "base/status.h"
#include "cuda/fatbin/fatbin.h"

namespace strata::cuda::fatbin {

// Compute capability as an arch number: 8.0 -> 80, 12.0 -> 120.
inline int arch_number(int cc_major, int cc_minor) { return cc_major * 10 + cc_minor; }

// The selected entry (pointing into `image`), or Code::kNoBinaryForGpu with a message
// listing the targets the image does carry and how to rebuild with PTX.
StatusOr<const Entry*> select_ptx(const Image& image, int cc_major, int cc_minor);

// Same over several images (e.g. all images of a section); the best across all of them.
StatusOr<const Entry*> select_ptx(std::span<const Image> images, int cc_major, int cc_minor);

}  // namespace strata::cuda::fatbin
