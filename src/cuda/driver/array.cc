#include "cuda/driver/array.h"

#include <algorithm>
#include <bit>

#include "base/log.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/device_attributes.h"
#include "cuda/driver/handles.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

struct ArrayStorage {
  std::shared_ptr<Context> context;
  ArrayGeometry geometry;
  CUDA_ARRAY3D_DESCRIPTOR descriptor{};  // level 0, as created
  uint64_t va = 0;
  uint64_t bytes = 0;

  ~ArrayStorage() {
    if (va != 0) (void)context->free_device(va);
  }
};

namespace {

constexpr unsigned int kKnownFlags =
    CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST | CUDA_ARRAY3D_CUBEMAP |
    CUDA_ARRAY3D_TEXTURE_GATHER | CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_COLOR_ATTACHMENT |
    CUDA_ARRAY3D_SPARSE | CUDA_ARRAY3D_DEFERRED_MAPPING | CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;
constexpr unsigned int kUnsupportedFlags = CUDA_ARRAY3D_DEPTH_TEXTURE | CUDA_ARRAY3D_SPARSE |
                                           CUDA_ARRAY3D_DEFERRED_MAPPING |
                                           CUDA_ARRAY3D_VIDEO_ENCODE_DECODE;

StatusOr<int> limit(const Context& ctx, CUdevice_attribute attribute) {
  const Device& device = ctx.device();
  return device_attribute(device.arch(), device.ordinal(), attribute);
}

// kInvalidValue unless every extent is within its device limit.
Status check_limits(const Context& ctx, const char* api, const char* what,
                    std::initializer_list<std::pair<size_t, CUdevice_attribute>> extents) {
  for (const auto& [extent, attribute] : extents) {
    ASSIGN_OR_RETURN(int max, limit(ctx, attribute));
    if (extent > static_cast<size_t>(max)) {
      return error(Code::kInvalidValue, fmt::format("{}: {} extent {} exceeds the device limit {}",
                                                    api, what, extent, max));
    }
  }
  return ok_status();
}

// Validates `d` and derives the geometry (levels = 1).
StatusOr<ArrayGeometry> geometry_of(const Context& ctx, const CUDA_ARRAY3D_DESCRIPTOR& d,
                                    bool mipmapped, const char* api) {
  if ((d.Flags & ~kKnownFlags) != 0) {
    return error(Code::kInvalidValue, fmt::format("{}: unknown Flags {:#x}", api, d.Flags));
  }
  if ((d.Flags & kUnsupportedFlags) != 0) {
    return error(Code::kNotSupported,
                 fmt::format("{}: Flags {:#x} (depth, sparse, deferred-mapping or video arrays) "
                             "are not supported",
                             api, d.Flags & kUnsupportedFlags));
  }
  ArrayGeometry g;
  ASSIGN_OR_RETURN(g.format, texel_format(d.Format, api));
  if (d.NumChannels != 1 && d.NumChannels != 2 && d.NumChannels != 4) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: NumChannels {} is not 1, 2 or 4", api, d.NumChannels));
  }
  g.channels = d.NumChannels;
  if (d.Width == 0) return error(Code::kInvalidValue, fmt::format("{}: Width is 0", api));
  const bool layered = (d.Flags & CUDA_ARRAY3D_LAYERED) != 0;
  const bool cubemap = (d.Flags & CUDA_ARRAY3D_CUBEMAP) != 0;
  const bool surface = (d.Flags & CUDA_ARRAY3D_SURFACE_LDST) != 0;
  const bool gather = (d.Flags & CUDA_ARRAY3D_TEXTURE_GATHER) != 0;
  auto bad = [&](const char* why) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: {} (Width {}, Height {}, Depth {}, Flags {:#x})", api, why,
                             d.Width, d.Height, d.Depth, d.Flags));
  };
  if (d.Width > UINT32_MAX || d.Height > UINT32_MAX || d.Depth > UINT32_MAX) {
    return bad("extent exceeds 32 bits");
  }
  g.width = static_cast<uint32_t>(d.Width);
  g.height = d.Height == 0 ? 1 : static_cast<uint32_t>(d.Height);
  if (cubemap) {
    if (d.Width != d.Height) return bad("a cubemap needs Width == Height");
    if (layered ? (d.Depth == 0 || d.Depth % 6 != 0) : d.Depth != 6) {
      return bad(layered ? "a layered cubemap needs Depth a multiple of 6"
                         : "a cubemap needs Depth 6");
    }
    g.kind = layered ? hw::kKindCubeLayered : hw::kKindCube;
    g.layers = static_cast<uint32_t>(d.Depth);
    if (layered) {
      RETURN_IF_ERROR(
          check_limits(ctx, api, "layered cubemap",
                       {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_WIDTH},
                        {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_LAYERED_LAYERS}}));
      if (surface) {
        RETURN_IF_ERROR(
            check_limits(ctx, api, "layered cubemap surface",
                         {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_WIDTH},
                          {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_LAYERED_LAYERS}}));
      }
    } else {
      RETURN_IF_ERROR(check_limits(ctx, api, "cubemap",
                                   {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURECUBEMAP_WIDTH}}));
      if (surface) {
        RETURN_IF_ERROR(
            check_limits(ctx, api, "cubemap surface",
                         {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACECUBEMAP_WIDTH}}));
      }
    }
  } else if (layered) {
    if (d.Depth == 0) return bad("a layered array needs Depth (the layer count) >= 1");
    g.layers = static_cast<uint32_t>(d.Depth);
    if (d.Height == 0) {
      g.kind = hw::kKind1DLayered;
      RETURN_IF_ERROR(
          check_limits(ctx, api, "1D layered",
                       {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_WIDTH},
                        {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LAYERED_LAYERS}}));
      if (surface) {
        RETURN_IF_ERROR(
            check_limits(ctx, api, "1D layered surface",
                         {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_WIDTH},
                          {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_LAYERED_LAYERS}}));
      }
    } else {
      g.kind = hw::kKind2DLayered;
      RETURN_IF_ERROR(
          check_limits(ctx, api, "2D layered",
                       {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_WIDTH},
                        {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_HEIGHT},
                        {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS}}));
      if (surface) {
        RETURN_IF_ERROR(
            check_limits(ctx, api, "2D layered surface",
                         {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_WIDTH},
                          {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_HEIGHT},
                          {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_LAYERED_LAYERS}}));
      }
    }
  } else if (d.Height == 0) {
    if (d.Depth != 0) return bad("Height 0 with Depth > 0 needs CUDA_ARRAY3D_LAYERED");
    g.kind = hw::kKind1D;
    RETURN_IF_ERROR(
        check_limits(ctx, api, "1D",
                     {{d.Width, mipmapped ? CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_MIPMAPPED_WIDTH
                                          : CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH}}));
    if (surface) {
      RETURN_IF_ERROR(check_limits(ctx, api, "1D surface",
                                   {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE1D_WIDTH}}));
    }
  } else if (d.Depth == 0) {
    g.kind = hw::kKind2D;
    if (gather) {
      RETURN_IF_ERROR(
          check_limits(ctx, api, "2D gather",
                       {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_WIDTH},
                        {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_GATHER_HEIGHT}}));
    } else if (mipmapped) {
      RETURN_IF_ERROR(
          check_limits(ctx, api, "2D mipmapped",
                       {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_WIDTH},
                        {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_MIPMAPPED_HEIGHT}}));
    } else {
      RETURN_IF_ERROR(check_limits(ctx, api, "2D",
                                   {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_WIDTH},
                                    {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_HEIGHT}}));
    }
    if (surface) {
      RETURN_IF_ERROR(check_limits(ctx, api, "2D surface",
                                   {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_WIDTH},
                                    {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE2D_HEIGHT}}));
    }
  } else {
    g.kind = hw::kKind3D;
    g.depth = static_cast<uint32_t>(d.Depth);
    // Within either the regular or the alternate 3D limits.
    Status regular = check_limits(ctx, api, "3D",
                                  {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH},
                                   {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT},
                                   {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH}});
    if (!regular.ok()) {
      RETURN_IF_ERROR(
          check_limits(ctx, api, "3D (alternate)",
                       {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_WIDTH_ALTERNATE},
                        {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_HEIGHT_ALTERNATE},
                        {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE3D_DEPTH_ALTERNATE}}));
    }
    if (surface) {
      RETURN_IF_ERROR(check_limits(ctx, api, "3D surface",
                                   {{d.Width, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_WIDTH},
                                    {d.Height, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_HEIGHT},
                                    {d.Depth, CU_DEVICE_ATTRIBUTE_MAXIMUM_SURFACE3D_DEPTH}}));
    }
  }
  if (gather && g.kind != hw::kKind2D) {
    return bad("CUDA_ARRAY3D_TEXTURE_GATHER needs a 2D array");
  }
  return g;
}

StatusOr<std::shared_ptr<ArrayStorage>> allocate(const std::shared_ptr<Context>& ctx,
                                                 const CUDA_ARRAY3D_DESCRIPTOR& desc,
                                                 const ArrayGeometry& g) {
  auto storage = std::make_shared<ArrayStorage>();
  storage->context = ctx;
  storage->geometry = g;
  storage->descriptor = desc;
  storage->bytes =
      hw::array_total_bytes(g.width, g.height, g.depth, g.layers, g.texel_bytes(), g.levels);
  ASSIGN_OR_RETURN(storage->va, ctx->allocate_device(storage->bytes));
  return storage;
}

// The user-visible descriptor of level `level`: extents shrink, absent ones stay 0 and
// layer counts (Depth of layered and cubemap arrays) stay.
CUDA_ARRAY3D_DESCRIPTOR level_descriptor(const CUDA_ARRAY3D_DESCRIPTOR& d, uint32_t level) {
  auto shrink = [level](size_t v) -> size_t {
    if (v == 0) return 0;
    return std::max<size_t>(1, v >> level);
  };
  CUDA_ARRAY3D_DESCRIPTOR out = d;
  out.Width = shrink(d.Width);
  out.Height = shrink(d.Height);
  if ((d.Flags & (CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_CUBEMAP)) == 0) out.Depth = shrink(d.Depth);
  return out;
}

}  // namespace

StatusOr<hw::TexelFormat> texel_format(CUarray_format format, const char* api) {
  switch (format) {
    case CU_AD_FORMAT_UNSIGNED_INT8:
      return hw::kFormatU8;
    case CU_AD_FORMAT_UNSIGNED_INT16:
      return hw::kFormatU16;
    case CU_AD_FORMAT_UNSIGNED_INT32:
      return hw::kFormatU32;
    case CU_AD_FORMAT_SIGNED_INT8:
      return hw::kFormatS8;
    case CU_AD_FORMAT_SIGNED_INT16:
      return hw::kFormatS16;
    case CU_AD_FORMAT_SIGNED_INT32:
      return hw::kFormatS32;
    case CU_AD_FORMAT_HALF:
      return hw::kFormatF16;
    case CU_AD_FORMAT_FLOAT:
      return hw::kFormatF32;
    default:
      break;
  }
  const unsigned value = static_cast<unsigned>(format);
  // Packed (UNORM/SNORM, 10-10-10-2), planar YUV and block-compressed formats.
  const bool known = value == 0x50 || (value >= 0x91 && value <= 0x9f) ||
                     (value >= 0xa1 && value <= 0xa9) || (value >= 0xb0 && value <= 0xb5) ||
                     (value >= 0xc0 && value <= 0xcb);
  if (known) {
    return error(Code::kNotSupported,
                 fmt::format("{}: array format {:#x} (packed, planar or block-compressed) is not "
                             "supported",
                             api, value));
  }
  return error(Code::kInvalidValue, fmt::format("{}: unknown array format {:#x}", api, value));
}

// --- Array ---------------------------------------------------------------------------

Array::Array(std::shared_ptr<ArrayStorage> storage, uint32_t level, bool level_view)
    : storage_(std::move(storage)), level_(level), level_view_(level_view) {
  const ArrayGeometry& g = storage_->geometry;
  descriptor_ = level_descriptor(storage_->descriptor, level);
  layout_ = hw::array_level_layout(g.width, g.height, g.depth, g.layers, g.texel_bytes(), level);
}

Context& Array::context() const {
  return *storage_->context;
}
const CUDA_ARRAY3D_DESCRIPTOR& Array::descriptor() const {
  return descriptor_;
}
const ArrayGeometry& Array::geometry() const {
  return storage_->geometry;
}
uint32_t Array::level() const {
  return level_;
}
hw::ArrayLevelLayout Array::layout() const {
  return layout_;
}
uint64_t Array::va() const {
  return storage_->va + layout_.offset;
}
uint64_t Array::storage_va() const {
  return storage_->va;
}
unsigned int Array::flags() const {
  return storage_->descriptor.Flags;
}
uint32_t Array::copy_slices() const {
  return storage_->geometry.kind == hw::kKind3D ? layout_.depth : storage_->geometry.layers;
}

// --- MipmappedArray ------------------------------------------------------------------

MipmappedArray::MipmappedArray(std::shared_ptr<ArrayStorage> storage)
    : storage_(std::move(storage)), levels_(storage_->geometry.levels) {}

Context& MipmappedArray::context() const {
  return *storage_->context;
}
const ArrayGeometry& MipmappedArray::geometry() const {
  return storage_->geometry;
}
uint64_t MipmappedArray::storage_va() const {
  return storage_->va;
}
const CUDA_ARRAY3D_DESCRIPTOR& MipmappedArray::descriptor() const {
  return storage_->descriptor;
}

StatusOr<std::shared_ptr<Array>> MipmappedArray::level(uint32_t level) {
  if (level >= storage_->geometry.levels) {
    return error(Code::kInvalidValue,
                 fmt::format("cuMipmappedArrayGetLevel: level {} of a {}-level mipmapped array",
                             level, storage_->geometry.levels));
  }
  std::lock_guard<std::mutex> lock(mutex_);
  if (!levels_[level]) {
    levels_[level] = std::make_shared<Array>(storage_, level, /*level_view=*/true);
    handles().arrays.insert(levels_[level]);
  }
  return levels_[level];
}

std::vector<std::shared_ptr<Array>> MipmappedArray::level_views() {
  std::lock_guard<std::mutex> lock(mutex_);
  std::vector<std::shared_ptr<Array>> out;
  for (const auto& view : levels_) {
    if (view) out.push_back(view);
  }
  return out;
}

// --- Creation and handles ------------------------------------------------------------

StatusOr<std::shared_ptr<Array>> create_array(const std::shared_ptr<Context>& ctx,
                                              const CUDA_ARRAY3D_DESCRIPTOR& desc) {
  ASSIGN_OR_RETURN(ArrayGeometry g,
                   geometry_of(*ctx, desc, /*mipmapped=*/false, "cuArray3DCreate"));
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayStorage> storage, allocate(ctx, desc, g));
  auto array = std::make_shared<Array>(std::move(storage), 0, /*level_view=*/false);
  handles().arrays.insert(array);
  return array;
}

StatusOr<std::shared_ptr<MipmappedArray>> create_mipmapped_array(
    const std::shared_ptr<Context>& ctx, const CUDA_ARRAY3D_DESCRIPTOR& desc, uint32_t levels) {
  const char* api = "cuMipmappedArrayCreate";
  if ((desc.Flags & CUDA_ARRAY3D_TEXTURE_GATHER) != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: CUDA_ARRAY3D_TEXTURE_GATHER is not allowed", api));
  }
  ASSIGN_OR_RETURN(ArrayGeometry g, geometry_of(*ctx, desc, /*mipmapped=*/true, api));
  // Layer counts do not shrink, so only the spatial extents bound the chain.
  const uint32_t largest = std::max({g.width, g.height, g.kind == hw::kKind3D ? g.depth : 1u});
  const uint32_t full_chain = std::bit_width(largest);  // 1 + floor(log2(largest))
  g.levels = std::clamp<uint32_t>(levels, 1, std::min(full_chain, hw::kMaxMipLevels));
  ASSIGN_OR_RETURN(std::shared_ptr<ArrayStorage> storage, allocate(ctx, desc, g));
  auto mipmapped = std::make_shared<MipmappedArray>(std::move(storage));
  handles().mipmapped_arrays.insert(mipmapped);
  return mipmapped;
}

Status destroy_array(CUarray handle) {
  std::shared_ptr<Array> array = handles().arrays.find(handle);
  if (!array) {
    return error(Code::kInvalidHandle,
                 fmt::format("cuArrayDestroy: array {} is not live", fmt::ptr(handle)));
  }
  if (array->is_level_view()) {
    return error(
        Code::kInvalidHandle,
        fmt::format("cuArrayDestroy: array {} is a level of a mipmapped array", fmt::ptr(handle)));
  }
  handles().arrays.erase(handle);
  return ok_status();
}

Status destroy_mipmapped_array(CUmipmappedArray handle) {
  std::shared_ptr<MipmappedArray> mipmapped = handles().mipmapped_arrays.erase(handle);
  if (!mipmapped) {
    return error(
        Code::kInvalidHandle,
        fmt::format("cuMipmappedArrayDestroy: mipmapped array {} is not live", fmt::ptr(handle)));
  }
  for (const std::shared_ptr<Array>& view : mipmapped->level_views()) {
    handles().arrays.erase(view.get());
  }
  return ok_status();
}

StatusOr<std::shared_ptr<Array>> resolve_array(CUarray handle) {
  std::shared_ptr<Array> array = handles().arrays.find(handle);
  if (!array) {
    return error(Code::kInvalidHandle, fmt::format("array {} is not live", fmt::ptr(handle)));
  }
  return array;
}

StatusOr<std::shared_ptr<MipmappedArray>> resolve_mipmapped_array(CUmipmappedArray handle) {
  std::shared_ptr<MipmappedArray> mipmapped = handles().mipmapped_arrays.find(handle);
  if (!mipmapped) {
    return error(Code::kInvalidHandle,
                 fmt::format("mipmapped array {} is not live", fmt::ptr(handle)));
  }
  return mipmapped;
}

}  // namespace strata::cuda::driver
