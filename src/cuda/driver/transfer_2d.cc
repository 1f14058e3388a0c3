#include "cuda/driver/transfer_2d.h"

#include "cuda/driver/transfer.h"
#include "cuda/driver/transfer_3d.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

// The address of the copy's first byte on one side, as an integer (host pointers and
// device pointers share the unified address space).
StatusOr<uint64_t> side_base(const char* side, CUmemorytype type, const void* host,
                             CUdeviceptr device) {
  switch (type) {
    case CU_MEMORYTYPE_HOST:
      if (host == nullptr) break;
      return reinterpret_cast<uint64_t>(host);
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
      if (device == 0) break;
      return uint64_t{device};
    default:
      return error(Code::kInvalidValue, fmt::format("cuMemcpy2D: unknown {}MemoryType {}", side,
                                                    static_cast<int>(type)));
  }
  return error(Code::kInvalidValue, fmt::format("cuMemcpy2D: {} pointer is null", side));
}

}  // namespace

StatusOr<uint64_t> pitch_for(uint64_t width_bytes, uint32_t element_size) {
  if (element_size != 4 && element_size != 8 && element_size != 16) {
    return error(
        Code::kInvalidValue,
        fmt::format("cuMemAllocPitch: ElementSizeBytes {} is not 4, 8 or 16", element_size));
  }
  if (width_bytes == 0) return error(Code::kInvalidValue, "cuMemAllocPitch: WidthInBytes is 0");
  return (width_bytes + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
}

// A copy with an array side is the one-slice case of copy_3d (transfer_3d.h).
static Status copy_2d_via_3d(Stream& stream, const CUDA_MEMCPY2D& p, bool async) {
  CUDA_MEMCPY3D q{};
  q.srcXInBytes = p.srcXInBytes;
  q.srcY = p.srcY;
  q.srcMemoryType = p.srcMemoryType;
  q.srcHost = p.srcHost;
  q.srcDevice = p.srcDevice;
  q.srcArray = p.srcArray;
  q.srcPitch = p.srcPitch;
  q.srcHeight = p.Height;
  q.dstXInBytes = p.dstXInBytes;
  q.dstY = p.dstY;
  q.dstMemoryType = p.dstMemoryType;
  q.dstHost = p.dstHost;
  q.dstDevice = p.dstDevice;
  q.dstArray = p.dstArray;
  q.dstPitch = p.dstPitch;
  q.dstHeight = p.Height;
  q.WidthInBytes = p.WidthInBytes;
  q.Height = p.Height;
  q.Depth = 1;
  return copy_3d(stream, q, async);
}

Status copy_2d(Stream& stream, const CUDA_MEMCPY2D& p, bool async) {
  if (p.WidthInBytes == 0 || p.Height == 0) return ok_status();
  if (p.srcMemoryType == CU_MEMORYTYPE_ARRAY || p.dstMemoryType == CU_MEMORYTYPE_ARRAY) {
    return copy_2d_via_3d(stream, p, async);
  }
  ASSIGN_OR_RETURN(uint64_t src, side_base("src", p.srcMemoryType, p.srcHost, p.srcDevice));
  ASSIGN_OR_RETURN(uint64_t dst, side_base("dst", p.dstMemoryType, p.dstHost, p.dstDevice));
  if (p.Height > 1 && (p.srcPitch < p.WidthInBytes || p.dstPitch < p.WidthInBytes)) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy2D: WidthInBytes {} exceeds srcPitch {} or dstPitch {}",
                             p.WidthInBytes, p.srcPitch, p.dstPitch));
  }
  src += p.srcY * p.srcPitch + p.srcXInBytes;
  dst += p.dstY * p.dstPitch + p.dstXInBytes;
  if (p.srcPitch == p.WidthInBytes && p.dstPitch == p.WidthInBytes) {
    return copy_memory(stream, dst, src, p.WidthInBytes * p.Height, async);
  }
  // Row by row; a synchronous copy queues all but the last row and waits on that one
  // (the stream runs them in order).
  for (uint64_t row = 0; row < p.Height; ++row) {
    const bool last = row + 1 == p.Height;
    RETURN_IF_ERROR(copy_memory(stream, dst + row * p.dstPitch, src + row * p.srcPitch,
                                p.WidthInBytes, async || !last));
  }
  return ok_status();
}

Status fill_2d(Stream& stream, uint64_t dst, uint64_t pitch, uint32_t value, uint64_t width,
               uint64_t height, uint32_t elem_size, bool async) {
  if (width == 0 || height == 0) return ok_status();
  if (height > 1 && width * elem_size > pitch) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemsetD2D{}: width {} x {} bytes exceeds the pitch {}",
                             elem_size * 8, width, elem_size, pitch));
  }
  if (pitch % elem_size != 0) {
    return error(Code::kInvalidValue, fmt::format("cuMemsetD2D{}: pitch {} is not a multiple of "
                                                  "{}",
                                                  elem_size * 8, pitch, elem_size));
  }
  if (pitch == width * elem_size) {
    return fill_memory(stream, dst, width * height, value, elem_size, async);
  }
  for (uint64_t row = 0; row < height; ++row) {
    const bool last = row + 1 == height;
    RETURN_IF_ERROR(
        fill_memory(stream, dst + row * pitch, width, value, elem_size, async || !last));
  }
  return ok_status();
}

}  // namespace strata::cuda::driver
