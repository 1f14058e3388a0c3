#include "cuda/driver/transfer_3d.h"

#include <algorithm>
#include <limits>
#include <optional>
#include <vector>

#include "cuda/driver/array.h"
#include "cuda/driver/context.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/stream.h"
#include "cuda/driver/transfer.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

// One side of a 3D copy: the address of its (X, Y, Z) origin and its strides.
struct Side {
  uint64_t origin = 0;
  uint64_t pitch = 0;        // bytes between rows
  uint64_t slice_pitch = 0;  // bytes between slices
};

struct SideSpec {
  const char* name;  // "src" or "dst"
  size_t x, y, z, lod;
  CUmemorytype type;
  const void* host;
  CUdeviceptr device;
  CUarray array;
  size_t pitch, height;
};

SideSpec src_spec(const CUDA_MEMCPY3D& p) {
  return {"src",     p.srcXInBytes, p.srcY,     p.srcZ,     p.srcLOD,   p.srcMemoryType,
          p.srcHost, p.srcDevice,   p.srcArray, p.srcPitch, p.srcHeight};
}
SideSpec dst_spec(const CUDA_MEMCPY3D& p) {
  return {"dst",     p.dstXInBytes, p.dstY,     p.dstZ,     p.dstLOD,   p.dstMemoryType,
          p.dstHost, p.dstDevice,   p.dstArray, p.dstPitch, p.dstHeight};
}

StatusOr<Side> resolve_side(const Context& ctx, const SideSpec& s, uint64_t width, uint64_t height,
                            uint64_t depth) {
  Side out;
  if (s.type == CU_MEMORYTYPE_ARRAY) {
    ASSIGN_OR_RETURN(std::shared_ptr<Array> array, resolve_array(s.array));
    if (&array->context() != &ctx) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemcpy3D: {}Array belongs to another context", s.name));
    }
    if (s.lod != 0) {
      return error(Code::kInvalidValue, fmt::format("cuMemcpy3D: {}LOD must be 0", s.name));
    }
    const hw::ArrayLevelLayout l = array->layout();
    const uint64_t row_bytes = uint64_t{l.width} * array->geometry().texel_bytes();
    if (s.x + width > row_bytes || s.y + height > l.height || s.z + depth > array->copy_slices()) {
      return error(Code::kInvalidValue,
                   fmt::format("cuMemcpy3D: {} region [{}, +{}) x [{}, +{}) x [{}, +{}) is "
                               "outside the array ({} bytes x {} rows x {} slices)",
                               s.name, s.x, width, s.y, height, s.z, depth, row_bytes, l.height,
                               array->copy_slices()));
    }
    out.pitch = l.row_pitch;
    out.slice_pitch = l.slice_pitch;
    out.origin = array->va() + s.z * out.slice_pitch + s.y * out.pitch + s.x;
    return out;
  }
  uint64_t base = 0;
  switch (s.type) {
    case CU_MEMORYTYPE_HOST:
      base = reinterpret_cast<uint64_t>(s.host);
      break;
    case CU_MEMORYTYPE_DEVICE:
    case CU_MEMORYTYPE_UNIFIED:
      base = s.device;
      break;
    default:
      return error(Code::kInvalidValue, fmt::format("cuMemcpy3D: unknown {}MemoryType {}", s.name,
                                                    static_cast<int>(s.type)));
  }
  if (base == 0) return error(Code::kInvalidValue, fmt::format("cuMemcpy3D: {} is null", s.name));
  out.pitch = s.pitch == 0 && height == 1 && depth == 1 ? width : s.pitch;
  if (out.pitch < width && (height > 1 || depth > 1)) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy3D: {}Pitch {} < WidthInBytes {}", s.name, s.pitch, width));
  }
  if (depth > 1 && s.height < height) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy3D: {}Height {} < Height {}", s.name, s.height, height));
  }
  out.slice_pitch = out.pitch * std::max<uint64_t>(s.height, height);
  out.origin = base + s.z * out.slice_pitch + s.y * out.pitch + s.x;
  return out;
}

// Copies the region row by row (or in larger runs where both sides are contiguous).
// A synchronous copy queues all but the last run and waits on that one.
Status copy_region(Stream& stream, const Side& src, const Side& dst, uint64_t width,
                   uint64_t height, uint64_t depth, bool async) {
  if (src.pitch == width && dst.pitch == width) {
    const uint64_t slice = width * height;
    if (src.slice_pitch == slice && dst.slice_pitch == slice) {
      return copy_memory(stream, dst.origin, src.origin, slice * depth, async);
    }
    for (uint64_t z = 0; z < depth; ++z) {
      RETURN_IF_ERROR(copy_memory(stream, dst.origin + z * dst.slice_pitch,
                                  src.origin + z * src.slice_pitch, slice,
                                  async || z + 1 != depth));
    }
    return ok_status();
  }
  for (uint64_t z = 0; z < depth; ++z) {
    for (uint64_t y = 0; y < height; ++y) {
      const bool last = z + 1 == depth && y + 1 == height;
      RETURN_IF_ERROR(copy_memory(stream, dst.origin + z * dst.slice_pitch + y * dst.pitch,
                                  src.origin + z * src.slice_pitch + y * src.pitch, width,
                                  async || !last));
    }
  }
  return ok_status();
}

CUDA_MEMCPY3D without_contexts(const CUDA_MEMCPY3D_PEER& p) {
  CUDA_MEMCPY3D out{};
  out.srcXInBytes = p.srcXInBytes;
  out.srcY = p.srcY;
  out.srcZ = p.srcZ;
  out.srcLOD = p.srcLOD;
  out.srcMemoryType = p.srcMemoryType;
  out.srcHost = p.srcHost;
  out.srcDevice = p.srcDevice;
  out.srcArray = p.srcArray;
  out.srcPitch = p.srcPitch;
  out.srcHeight = p.srcHeight;
  out.dstXInBytes = p.dstXInBytes;
  out.dstY = p.dstY;
  out.dstZ = p.dstZ;
  out.dstLOD = p.dstLOD;
  out.dstMemoryType = p.dstMemoryType;
  out.dstHost = p.dstHost;
  out.dstDevice = p.dstDevice;
  out.dstArray = p.dstArray;
  out.dstPitch = p.dstPitch;
  out.dstHeight = p.dstHeight;
  out.WidthInBytes = p.WidthInBytes;
  out.Height = p.Height;
  out.Depth = p.Depth;
  return out;
}

// The context owning one side of a peer copy (nullptr for host memory).
StatusOr<std::shared_ptr<Context>> side_context(CUmemorytype type, CUarray array, CUcontext context,
                                                const char* name) {
  if (type == CU_MEMORYTYPE_HOST) return std::shared_ptr<Context>();
  if (type == CU_MEMORYTYPE_ARRAY) {
    ASSIGN_OR_RETURN(std::shared_ptr<Array> a, resolve_array(array));
    return a->context().shared_from_this();
  }
  std::shared_ptr<Context> ctx = handles().contexts.find(context);
  if (!ctx) {
    return error(Code::kInvalidContext,
                 fmt::format("cuMemcpy3DPeer: {}Context {} is not live", name, fmt::ptr(context)));
  }
  return ctx;
}

// Maps a byte offset of an array viewed as packed rows to an address and the bytes
// left in that row.
struct PackedArray {
  std::shared_ptr<Array> array;
  uint64_t row_bytes = 0, rows_per_slice = 0, total = 0;
  hw::ArrayLevelLayout layout{};

  uint64_t address(uint64_t offset, uint64_t* contiguous) const {
    const uint64_t row = offset / row_bytes, in_row = offset % row_bytes;
    const uint64_t slice = row / rows_per_slice, y = row % rows_per_slice;
    *contiguous = row_bytes - in_row;
    return array->va() + slice * layout.slice_pitch + y * layout.row_pitch + in_row;
  }
};

StatusOr<PackedArray> packed(const Context& ctx, CUarray handle, uint64_t offset, uint64_t bytes,
                             const char* side) {
  PackedArray out;
  ASSIGN_OR_RETURN(out.array, resolve_array(handle));
  if (&out.array->context() != &ctx) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy: {} array belongs to another context", side));
  }
  out.layout = out.array->layout();
  out.row_bytes = uint64_t{out.layout.width} * out.array->geometry().texel_bytes();
  out.rows_per_slice = out.layout.height;
  out.total = out.row_bytes * out.rows_per_slice * out.array->copy_slices();
  if (offset > out.total || bytes > out.total - offset) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMemcpy: {} bytes at offset {} run past the end of the {} array "
                             "({} bytes)",
                             bytes, offset, side, out.total));
  }
  return out;
}

}  // namespace

Status copy_3d(Stream& stream, const CUDA_MEMCPY3D& p, bool async) {
  const uint64_t width = p.WidthInBytes, height = p.Height, depth = p.Depth;
  if (width == 0 || height == 0 || depth == 0) return ok_status();
  Context& ctx = stream.context();
  ASSIGN_OR_RETURN(Side src, resolve_side(ctx, src_spec(p), width, height, depth));
  ASSIGN_OR_RETURN(Side dst, resolve_side(ctx, dst_spec(p), width, height, depth));
  return copy_region(stream, src, dst, width, height, depth, async);
}

Status copy_3d_peer(Stream& stream, const CUDA_MEMCPY3D_PEER& p, bool async) {
  ASSIGN_OR_RETURN(std::shared_ptr<Context> src_ctx,
                   side_context(p.srcMemoryType, p.srcArray, p.srcContext, "src"));
  ASSIGN_OR_RETURN(std::shared_ptr<Context> dst_ctx,
                   side_context(p.dstMemoryType, p.dstArray, p.dstContext, "dst"));
  Context* here = &stream.context();
  const CUDA_MEMCPY3D plain = without_contexts(p);
  if ((!src_ctx || src_ctx.get() == here) && (!dst_ctx || dst_ctx.get() == here)) {
    return copy_3d(stream, plain, async);
  }
  if (p.WidthInBytes == 0 || p.Height == 0 || p.Depth == 0) return ok_status();
  // Different contexts: through a packed host buffer, each half on its own context's
  // legacy stream once everything before it is done.
  RETURN_IF_ERROR(here->synchronize());
  std::vector<uint8_t> staging(p.WidthInBytes * p.Height * p.Depth);
  CUDA_MEMCPY3D in = plain;
  in.dstMemoryType = CU_MEMORYTYPE_HOST;
  in.dstHost = staging.data();
  in.dstXInBytes = in.dstY = in.dstZ = in.dstLOD = 0;
  in.dstPitch = p.WidthInBytes;
  in.dstHeight = p.Height;
  Context& src_side = src_ctx ? *src_ctx : *here;
  RETURN_IF_ERROR(src_side.synchronize());
  RETURN_IF_ERROR(copy_3d(*src_side.legacy_stream(), in, /*async=*/false));
  CUDA_MEMCPY3D out = plain;
  out.srcMemoryType = CU_MEMORYTYPE_HOST;
  out.srcHost = staging.data();
  out.srcXInBytes = out.srcY = out.srcZ = out.srcLOD = 0;
  out.srcPitch = p.WidthInBytes;
  out.srcHeight = p.Height;
  Context& dst_side = dst_ctx ? *dst_ctx : *here;
  RETURN_IF_ERROR(dst_side.synchronize());
  return copy_3d(*dst_side.legacy_stream(), out, /*async=*/false);
}

Status copy_array_bytes(Stream& stream, CUarray dst_array, size_t dst_offset, uint64_t dst,
                        CUarray src_array, size_t src_offset, uint64_t src, size_t bytes,
                        bool async) {
  if (bytes == 0) return ok_status();
  const Context& ctx = stream.context();
  std::optional<PackedArray> d, s;
  if (dst_array != nullptr) {
    ASSIGN_OR_RETURN(d, packed(ctx, dst_array, dst_offset, bytes, "destination"));
  }
  if (src_array != nullptr) {
    ASSIGN_OR_RETURN(s, packed(ctx, src_array, src_offset, bytes, "source"));
  }
  constexpr uint64_t kUnbounded = std::numeric_limits<uint64_t>::max();
  for (uint64_t done = 0; done < bytes;) {
    uint64_t dst_run = kUnbounded, src_run = kUnbounded;
    const uint64_t to = d ? d->address(dst_offset + done, &dst_run) : dst + done;
    const uint64_t from = s ? s->address(src_offset + done, &src_run) : src + done;
    const uint64_t n = std::min({dst_run, src_run, bytes - done});
    done += n;
    RETURN_IF_ERROR(copy_memory(stream, to, from, n, async || done != bytes));
  }
  return ok_status();
}

}  // namespace strata::cuda::driver
