// 3D copies and copies with CUDA-array endpoints (cuMemcpy3D*, cuMemcpy3DPeer*,
// cuMemcpyHtoA/AtoH/DtoA/AtoD/AtoA, and cuMemcpy2D* with CU_MEMORYTYPE_ARRAY). Built on
// the 1D copy path of transfer.h, one copy per contiguous run (a whole copy, a slice or
// a row), so they take the copy-engine route and follow its ordering and
// pageable-memory rules: a copy touching pageable host memory waits for the stream and
// is complete on return; a synchronous copy (`async` false) returns when the data has
// arrived. Arrays are addressed through their layout (hw/contract/texture.h).
// Thread-safe.
#pragma once

#include <cuda.h>

#include <cstdint>

#include "base/status.h"

namespace strata::cuda::driver {

class Stream;

// cuMemcpy3D: copies Depth slices of Height rows of WidthInBytes. For an array side
// the pitch and height are the array level's (srcPitch/srcHeight are ignored), Z is the
// slice of a 3D array or the layer of a layered/cubemap array, and the region must lie
// inside the array; srcLOD/dstLOD must be 0. For linear sides Pitch < WidthInBytes
// (Height or Depth > 1) or Height < the copy's Height (Depth > 1) is kInvalidValue, as
// are null pointers and unknown memory types. Arrays must belong to the stream's context.
Status copy_3d(Stream& stream, const CUDA_MEMCPY3D& p, bool async);

// cuMemcpy3DPeer: like copy_3d; when source and destination live in different contexts
// the copy is staged through host memory after both contexts are idle.
Status copy_3d_peer(Stream& stream, const CUDA_MEMCPY3D_PEER& p, bool async);

// cuMemcpyHtoA/AtoH/DtoA/AtoD/AtoA: `bytes` bytes between linear memory (a host or device
// address) and an array viewed as its rows of width * texel bytes laid end to end
// (row y of slice/layer z at offset ((z * height) + y) * width * texel bytes).
// A null array handle means that side is the linear address. kInvalidValue when a range
// runs past the array's end.
Status copy_array_bytes(Stream& stream, CUarray dst_array, size_t dst_offset, uint64_t dst,
                        CUarray src_array, size_t src_offset, uint64_t src, size_t bytes,
                        bool async);

}  // namespace strata::cuda::driver
