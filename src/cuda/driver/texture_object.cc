#include "cuda/driver/texture_object.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <mutex>
#include <vector>

#include "base/log.h"
#include "cuda/driver/array.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/device_attributes.h"
#include "cuda/driver/stream.h"
#include "cuda/driver/transfer.h"
#include "fmt/format.h"

namespace strata::cuda::driver {
namespace {

struct Registry {
  std::mutex mutex;
  std::map<uint64_t, std::shared_ptr<TextureObject>> objects;
};

// Never destroyed (entry points may run during static destruction).
Registry& registry() {
  static Registry* r = new Registry;
  return *r;
}

const char* api_name(bool surface) {
  return surface ? "cuSurfObjectCreate" : "cuTexObjectCreate";
}

StatusOr<uint64_t> limit(const Context& ctx, CUdevice_attribute attribute) {
  ASSIGN_OR_RETURN(int value,
                   device_attribute(ctx.device().arch(), ctx.device().ordinal(), attribute));
  return static_cast<uint64_t>(value);
}

bool is_integer(hw::TexelFormat f) {
  return f != hw::kFormatF16 && f != hw::kFormatF32;
}

Status check_channels(unsigned int channels, const char* api) {
  if (channels == 1 || channels == 2 || channels == 4) return ok_status();
  return error(Code::kInvalidValue,
               fmt::format("{}: numChannels {} is not 1, 2 or 4", api, channels));
}

// [va, +bytes) must lie in one allocation of the context.
Status check_linear_range(Context& ctx, uint64_t va, uint64_t bytes, const char* api) {
  auto buffer = ctx.hal().allocator().find(va);
  if (!buffer.ok() || va - (*buffer)->va() + bytes > (*buffer)->size()) {
    return error(
        Code::kInvalidValue,
        fmt::format("{}: [{:#x}, +{}) is not inside one device allocation", api, va, bytes));
  }
  return ok_status();
}

// Fills the geometry fields of `d` from the resource (validating it).
Status describe_resource(Context& ctx, const CUDA_RESOURCE_DESC& r, bool surface,
                         TextureObject& object, hw::TextureDescriptor& d) {
  const char* api = api_name(surface);
  if (r.flags != 0) {
    return error(Code::kInvalidValue, fmt::format("{}: resource flags must be 0", api));
  }
  if (surface && r.resType != CU_RESOURCE_TYPE_ARRAY) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: a surface needs resType CU_RESOURCE_TYPE_ARRAY", api));
  }
  switch (r.resType) {
    case CU_RESOURCE_TYPE_ARRAY: {
      ASSIGN_OR_RETURN(object.array, resolve_array(r.res.array.hArray));
      const Array& a = *object.array;
      if (&a.context() != &ctx) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: the array belongs to another context", api));
      }
      if (surface && (a.flags() & CUDA_ARRAY3D_SURFACE_LDST) == 0) {
        return error(
            Code::kInvalidValue,
            fmt::format("{}: the array was not created with CUDA_ARRAY3D_SURFACE_LDST", api));
      }
      const ArrayGeometry& g = a.geometry();
      const hw::ArrayLevelLayout l = a.layout();
      d.kind = g.kind;
      d.format = g.format;
      d.channels = static_cast<uint8_t>(g.channels);
      d.levels = 1;
      d.base_va = a.va();
      d.width = l.width;
      d.height = l.height;
      d.depth = l.depth;
      d.layers = g.layers;
      d.row_pitch = l.row_pitch;
      return ok_status();
    }
    case CU_RESOURCE_TYPE_MIPMAPPED_ARRAY: {
      ASSIGN_OR_RETURN(object.mipmapped, resolve_mipmapped_array(r.res.mipmap.hMipmappedArray));
      const MipmappedArray& m = *object.mipmapped;
      if (&m.context() != &ctx) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: the mipmapped array belongs to another context", api));
      }
      const ArrayGeometry& g = m.geometry();
      const hw::ArrayLevelLayout l0 =
          hw::array_level_layout(g.width, g.height, g.depth, g.layers, g.texel_bytes(), 0);
      d.kind = g.kind;
      d.format = g.format;
      d.channels = static_cast<uint8_t>(g.channels);
      d.levels = static_cast<uint8_t>(g.levels);
      d.base_va = m.storage_va();
      d.width = g.width;
      d.height = g.height;
      d.depth = g.depth;
      d.layers = g.layers;
      d.row_pitch = l0.row_pitch;
      return ok_status();
    }
    case CU_RESOURCE_TYPE_LINEAR: {
      const auto& lin = r.res.linear;
      ASSIGN_OR_RETURN(hw::TexelFormat format, texel_format(lin.format, api));
      RETURN_IF_ERROR(check_channels(lin.numChannels, api));
      const uint64_t texel = lin.numChannels * hw::texel_format_bytes(format);
      ASSIGN_OR_RETURN(uint64_t align, limit(ctx, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
      ASSIGN_OR_RETURN(uint64_t max_width,
                       limit(ctx, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH));
      if (lin.devPtr == 0 || lin.devPtr % align != 0) {
        return error(
            Code::kInvalidValue,
            fmt::format("{}: linear devPtr {:#x} is not {}-byte aligned", api, lin.devPtr, align));
      }
      const uint64_t texels = lin.sizeInBytes / texel;
      if (texels == 0 || texels > max_width) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: linear size {} bytes is {} texels; the limit is 1..{}", api,
                                 lin.sizeInBytes, texels, max_width));
      }
      RETURN_IF_ERROR(check_linear_range(ctx, lin.devPtr, lin.sizeInBytes, api));
      d.kind = hw::kKindBuffer;
      d.format = format;
      d.channels = static_cast<uint8_t>(lin.numChannels);
      d.levels = 1;
      d.base_va = lin.devPtr;
      d.width = static_cast<uint32_t>(texels);
      d.height = d.depth = d.layers = 1;
      d.row_pitch = lin.sizeInBytes;
      return ok_status();
    }
    case CU_RESOURCE_TYPE_PITCH2D: {
      const auto& p = r.res.pitch2D;
      ASSIGN_OR_RETURN(hw::TexelFormat format, texel_format(p.format, api));
      RETURN_IF_ERROR(check_channels(p.numChannels, api));
      const uint64_t texel = p.numChannels * hw::texel_format_bytes(format);
      ASSIGN_OR_RETURN(uint64_t align, limit(ctx, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT));
      ASSIGN_OR_RETURN(uint64_t pitch_align,
                       limit(ctx, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT));
      ASSIGN_OR_RETURN(uint64_t max_w,
                       limit(ctx, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_WIDTH));
      ASSIGN_OR_RETURN(uint64_t max_h,
                       limit(ctx, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_HEIGHT));
      ASSIGN_OR_RETURN(uint64_t max_pitch,
                       limit(ctx, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LINEAR_PITCH));
      if (p.devPtr == 0 || p.devPtr % align != 0) {
        return error(Code::kInvalidValue, fmt::format("{}: pitch2D devPtr {:#x} is not {}-byte "
                                                      "aligned",
                                                      api, p.devPtr, align));
      }
      if (p.width == 0 || p.height == 0 || p.width > max_w || p.height > max_h) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: pitch2D extent {} x {} is outside 1..{} x 1..{}", api,
                                 p.width, p.height, max_w, max_h));
      }
      if (p.pitchInBytes % pitch_align != 0 || p.pitchInBytes < p.width * texel ||
          p.pitchInBytes > max_pitch) {
        return error(Code::kInvalidValue,
                     fmt::format("{}: pitchInBytes {} must be a multiple of {}, at least {} and "
                                 "at most {}",
                                 api, p.pitchInBytes, pitch_align, p.width * texel, max_pitch));
      }
      RETURN_IF_ERROR(check_linear_range(ctx, p.devPtr,
                                         p.pitchInBytes * (p.height - 1) + p.width * texel, api));
      d.kind = hw::kKind2D;
      d.format = format;
      d.channels = static_cast<uint8_t>(p.numChannels);
      d.levels = 1;
      d.base_va = p.devPtr;
      d.width = static_cast<uint32_t>(p.width);
      d.height = static_cast<uint32_t>(p.height);
      d.depth = d.layers = 1;
      d.row_pitch = p.pitchInBytes;
      return ok_status();
    }
    default:
      return error(Code::kInvalidValue,
                   fmt::format("{}: unknown resType {}", api, static_cast<int>(r.resType)));
  }
}

constexpr unsigned int kKnownTextureFlags =
    CU_TRSF_READ_AS_INTEGER | CU_TRSF_NORMALIZED_COORDINATES | CU_TRSF_SRGB |
    CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION | CU_TRSF_SEAMLESS_CUBEMAP;

// Fills the sampler fields of `d`.
Status describe_sampler(const CUDA_TEXTURE_DESC& t, hw::TextureDescriptor& d) {
  const char* api = "cuTexObjectCreate";
  if ((t.flags & ~kKnownTextureFlags) != 0) {
    return error(Code::kInvalidValue, fmt::format("{}: unknown texture flags {:#x}", api, t.flags));
  }
  for (int i = 0; i < 3; ++i) {
    if (t.addressMode[i] < CU_TR_ADDRESS_MODE_WRAP ||
        t.addressMode[i] > CU_TR_ADDRESS_MODE_BORDER) {
      return error(Code::kInvalidValue, fmt::format("{}: addressMode[{}] {} is unknown", api, i,
                                                    static_cast<int>(t.addressMode[i])));
    }
  }
  for (CUfilter_mode mode : {t.filterMode, t.mipmapFilterMode}) {
    if (mode != CU_TR_FILTER_MODE_POINT && mode != CU_TR_FILTER_MODE_LINEAR) {
      return error(Code::kInvalidValue,
                   fmt::format("{}: filter mode {} is unknown", api, static_cast<int>(mode)));
    }
  }
  const auto format = static_cast<hw::TexelFormat>(d.format);
  const bool read_as_integer = (t.flags & CU_TRSF_READ_AS_INTEGER) != 0;
  const bool normalized_coords = (t.flags & CU_TRSF_NORMALIZED_COORDINATES) != 0;
  // Integers are filtered only as normalized floats, which 32-bit integers cannot be.
  const bool returns_integers =
      is_integer(format) && (read_as_integer || hw::texel_format_bytes(format) == 4);
  if (t.filterMode == CU_TR_FILTER_MODE_LINEAR && returns_integers) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: linear filtering of an integer format read as integers", api));
  }
  d.flags = 0;
  if (read_as_integer) d.flags |= hw::kFlagReadAsInteger;
  if (normalized_coords) d.flags |= hw::kFlagNormalizedCoords;
  if (t.flags & CU_TRSF_SRGB) d.flags |= hw::kFlagSrgb;
  if (t.flags & CU_TRSF_SEAMLESS_CUBEMAP) d.flags |= hw::kFlagSeamlessCube;
  if (t.flags & CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION) d.flags |= hw::kFlagDisableTrilinearOpt;
  for (int i = 0; i < 3; ++i) {
    auto mode = static_cast<uint8_t>(t.addressMode[i]);
    // Wrap and mirror need normalized coordinates; without them they act as clamp.
    if (!normalized_coords && (mode == hw::kAddressWrap || mode == hw::kAddressMirror)) {
      mode = hw::kAddressClamp;
    }
    d.address_mode[i] = mode;
  }
  // Linear memory is fetched, never filtered.
  d.filter_mode =
      d.kind == hw::kKindBuffer ? uint8_t{hw::kFilterPoint} : static_cast<uint8_t>(t.filterMode);
  d.mip_filter_mode = static_cast<uint8_t>(t.mipmapFilterMode);
  d.max_anisotropy = static_cast<uint8_t>(std::clamp<unsigned int>(t.maxAnisotropy, 1, 16));
  d.mip_bias = t.mipmapLevelBias;
  d.min_mip_clamp = t.minMipmapLevelClamp;
  d.max_mip_clamp = t.maxMipmapLevelClamp;
  for (int i = 0; i < 4; ++i) {
    if (returns_integers) {
      // The integer a border texel reads as (the float converted, as for sampled ints).
      const float v = t.borderColor[i];
      d.border_color[i] = static_cast<uint32_t>(static_cast<int32_t>(std::isfinite(v) ? v : 0.0f));
    } else {
      std::memcpy(&d.border_color[i], &t.borderColor[i], sizeof(float));
    }
  }
  return ok_status();
}

CUresourceViewFormat identity_view_format(hw::TexelFormat format, uint32_t channels) {
  static constexpr CUresourceViewFormat kTable[8][3] = {
      {CU_RES_VIEW_FORMAT_UINT_1X8, CU_RES_VIEW_FORMAT_UINT_2X8, CU_RES_VIEW_FORMAT_UINT_4X8},
      {CU_RES_VIEW_FORMAT_UINT_1X16, CU_RES_VIEW_FORMAT_UINT_2X16, CU_RES_VIEW_FORMAT_UINT_4X16},
      {CU_RES_VIEW_FORMAT_UINT_1X32, CU_RES_VIEW_FORMAT_UINT_2X32, CU_RES_VIEW_FORMAT_UINT_4X32},
      {CU_RES_VIEW_FORMAT_SINT_1X8, CU_RES_VIEW_FORMAT_SINT_2X8, CU_RES_VIEW_FORMAT_SINT_4X8},
      {CU_RES_VIEW_FORMAT_SINT_1X16, CU_RES_VIEW_FORMAT_SINT_2X16, CU_RES_VIEW_FORMAT_SINT_4X16},
      {CU_RES_VIEW_FORMAT_SINT_1X32, CU_RES_VIEW_FORMAT_SINT_2X32, CU_RES_VIEW_FORMAT_SINT_4X32},
      {CU_RES_VIEW_FORMAT_FLOAT_1X16, CU_RES_VIEW_FORMAT_FLOAT_2X16, CU_RES_VIEW_FORMAT_FLOAT_4X16},
      {CU_RES_VIEW_FORMAT_FLOAT_1X32, CU_RES_VIEW_FORMAT_FLOAT_2X32, CU_RES_VIEW_FORMAT_FLOAT_4X32},
  };
  return kTable[format][channels == 1 ? 0 : channels == 2 ? 1 : 2];
}

// Honours only the identity view of an array or mipmapped array.
Status check_view(const CUDA_RESOURCE_VIEW_DESC& v, const CUDA_RESOURCE_DESC& r,
                  const hw::TextureDescriptor& d) {
  bool identity =
      r.resType == CU_RESOURCE_TYPE_ARRAY || r.resType == CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
  const uint32_t levels = d.levels;
  identity =
      identity &&
      (v.format == CU_RES_VIEW_FORMAT_NONE ||
       v.format == identity_view_format(static_cast<hw::TexelFormat>(d.format), d.channels)) &&
      v.width == d.width && (v.height == d.height || (v.height == 0 && d.height == 1)) &&
      (v.depth == d.depth || v.depth == d.layers || (v.depth == 0 && d.depth == 1)) &&
      v.firstMipmapLevel == 0 && v.lastMipmapLevel + 1 == levels && v.firstLayer == 0 &&
      (v.lastLayer + 1 == d.layers || (v.lastLayer == 0 && d.layers == 1));
  if (identity) return ok_status();
  STRATA_LOG_WARN(
      "cuTexObjectCreate: resource views other than the identity view are not "
      "supported (format {:#x}, {} x {} x {}, levels {}..{}, layers {}..{})",
      static_cast<int>(v.format), v.width, v.height, v.depth, v.firstMipmapLevel, v.lastMipmapLevel,
      v.firstLayer, v.lastLayer);
  return error(Code::kNotSupported,
               "cuTexObjectCreate: resource views other than the identity view are not supported");
}

}  // namespace

TextureObject::~TextureObject() {
  if (va != 0) (void)context->free_device(va);
}

StatusOr<std::shared_ptr<TextureObject>> create_texture_object(const std::shared_ptr<Context>& ctx,
                                                               const CUDA_RESOURCE_DESC& resource,
                                                               const CUDA_TEXTURE_DESC* texture,
                                                               const CUDA_RESOURCE_VIEW_DESC* view,
                                                               bool surface) {
  auto object = std::make_shared<TextureObject>();
  object->surface = surface;
  object->context = ctx;
  object->resource = resource;
  hw::TextureDescriptor& d = object->descriptor;
  d.magic = hw::kTextureDescriptorMagic;
  RETURN_IF_ERROR(describe_resource(*ctx, resource, surface, *object, d));
  if (surface) {
    d.flags = hw::kFlagSurface;
  } else {
    object->texture = *texture;
    RETURN_IF_ERROR(describe_sampler(*texture, d));
    if (view != nullptr) {
      RETURN_IF_ERROR(check_view(*view, resource, d));
      object->has_view = true;
      object->view = *view;
    }
  }
  ASSIGN_OR_RETURN(object->va, ctx->allocate_device(hw::kDescriptorAlign));
  if (object->va % hw::kDescriptorAlign != 0) {
    return error(Code::kUnknown, fmt::format("{}: descriptor memory {:#x} is misaligned",
                                             api_name(surface), object->va));
  }
  RETURN_IF_ERROR(copy_memory(*ctx->legacy_stream(), object->va, reinterpret_cast<uint64_t>(&d),
                              sizeof(d), /*async=*/false));
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  r.objects[object->va] = object;
  return object;
}

StatusOr<std::shared_ptr<TextureObject>> resolve_texture_object(uint64_t handle, bool surface) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mutex);
  auto it = r.objects.find(handle);
  if (it == r.objects.end() || it->second->surface != surface) {
    return error(Code::kInvalidValue, fmt::format("{} object {:#x} is not live",
                                                  surface ? "surface" : "texture", handle));
  }
  return it->second;
}

Status destroy_texture_object(uint64_t handle, bool surface) {
  std::shared_ptr<TextureObject> dead;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    auto it = r.objects.find(handle);
    if (it == r.objects.end() || it->second->surface != surface) {
      return error(Code::kInvalidValue, fmt::format("{} object {:#x} is not live",
                                                    surface ? "surface" : "texture", handle));
    }
    dead = std::move(it->second);
    r.objects.erase(it);
  }
  return ok_status();  // `dead` frees the descriptor outside the lock
}

void forget_texture_objects(const Context* context) {
  std::vector<std::shared_ptr<TextureObject>> dead;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto it = r.objects.begin(); it != r.objects.end();) {
      if (it->second->context.get() == context) {
        dead.push_back(std::move(it->second));
        it = r.objects.erase(it);
      } else {
        ++it;
      }
    }
  }
}

}  // namespace strata::cuda::driver
