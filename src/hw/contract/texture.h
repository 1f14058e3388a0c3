// Textures and surfaces: the in-memory formats the texture unit reads (docs/hw-contract.md,
// "Textures and surfaces"). All structs are little-endian and naturally aligned;
// static_asserts hold the offsets.
//
// Handles. A texture or surface object handle (cudaTextureObject_t, CUsurfObject, the
// 64-bit operand of PTX tex/tld4/txq/suld/sust/sured/suq) is the device VA of a
// TextureDescriptor, kDescriptorAlign-aligned. Handle 0, a misaligned handle or a
// descriptor whose magic is wrong faults the warp with kIllegalAddress at the handle.
// The driver owns descriptor memory (one device allocation per object or a pool).
//
// Array layout ("Strata linear array layout"). A CUDA array (CUarray,
// CUmipmappedArray) is one device allocation holding its texels as follows. Texel size
// E = channels * bytes_per_channel. For mip level l (0 .. levels-1):
//   w_l = max(1, width >> l), h_l = max(1, height >> l), d_l = max(1, depth >> l)
//   (height/depth are 1 for dimensions an array lacks; layered arrays do not shrink
//   their layer count).
//   row_pitch_l   = align_up(w_l * E, kArrayRowAlign)
//   slice_pitch_l = row_pitch_l * h_l
//   layer_pitch_l = slice_pitch_l * d_l
//   level_bytes_l = align_up(layer_pitch_l * layers, kArrayLevelAlign)
//   level_offset_0 = 0, level_offset_{l+1} = level_offset_l + level_bytes_l
//   texel (x, y, z, layer) of level l is at
//     base + level_offset_l + layer * layer_pitch_l + z * slice_pitch_l + y * row_pitch_l + x * E
// `layers` is the layer count of a layered array, 6 * layers for a cubemap (layered)
// array (face f of cube c is layer 6c + f, faces in CUDA's +X,-X,+Y,-Y,+Z,-Z order),
// 1 otherwise. array_level_layout() below is the one implementation of these formulas.
//
// Linear and pitch-2D resources (cuTexObjectCreate with CU_RESOURCE_TYPE_LINEAR /
// PITCH2D) use kKindBuffer / kKind2D with levels = 1, the user's pitch and base.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::hw {

inline constexpr uint32_t kTextureDescriptorMagic = 0x58455453;  // 'STEX'
inline constexpr uint64_t kDescriptorAlign = 256;
inline constexpr uint64_t kArrayRowAlign = 128;
inline constexpr uint64_t kArrayLevelAlign = 512;
inline constexpr uint32_t kMaxMipLevels = 16;

// Resource geometry (what PTX tex.<geom> must match; a mismatch reads zeros).
enum TextureKind : uint8_t {
  kKindBuffer = 0,  // linear memory, tex.1d with integer coordinates (tex1Dfetch); no filtering
  kKind1D = 1,
  kKind2D = 2,
  kKind3D = 3,
  kKind1DLayered = 4,    // tex.a1d
  kKind2DLayered = 5,    // tex.a2d
  kKindCube = 6,         // tex.cube
  kKindCubeLayered = 7,  // tex.acube
};

// Channel element types (CUarray_format minus the packed/compressed formats, which the
// driver rejects with CUDA_ERROR_NOT_SUPPORTED until the unit decodes them).
enum TexelFormat : uint8_t {
  kFormatU8 = 0,
  kFormatU16 = 1,
  kFormatU32 = 2,
  kFormatS8 = 3,
  kFormatS16 = 4,
  kFormatS32 = 5,
  kFormatF16 = 6,
  kFormatF32 = 7,
};

enum AddressMode : uint8_t {  // CUaddress_mode order
  kAddressWrap = 0,
  kAddressClamp = 1,
  kAddressMirror = 2,
  kAddressBorder = 3,
};

enum FilterMode : uint8_t { kFilterPoint = 0, kFilterLinear = 1 };  // CUfilter_mode order

// TextureDescriptor::flags
inline constexpr uint32_t kFlagReadAsInteger = 1u
                                               << 0;  // no [0,1]/[-1,1] conversion of 8/16-bit ints
inline constexpr uint32_t kFlagNormalizedCoords = 1u << 1;
inline constexpr uint32_t kFlagSrgb = 1u << 2;
inline constexpr uint32_t kFlagSeamlessCube = 1u << 3;
inline constexpr uint32_t kFlagSurface = 1u << 4;  // a surface object (no sampler state)
inline constexpr uint32_t kFlagDisableTrilinearOpt = 1u << 5;

struct TextureDescriptor {
  uint32_t magic;           // kTextureDescriptorMagic
  uint8_t kind;             // TextureKind
  uint8_t format;           // TexelFormat
  uint8_t channels;         // 1, 2 or 4
  uint8_t levels;           // mip levels, 1..kMaxMipLevels
  uint64_t base_va;         // level 0, layer 0, texel (0,0,0)
  uint32_t width;           // level 0, in texels (kKindBuffer: element count)
  uint32_t height;          // 1 for 1D/buffer
  uint32_t depth;           // 1 unless 3D
  uint32_t layers;          // 1, or array layers (cubemaps: 6 * cubes)
  uint64_t row_pitch;       // level 0 (pitch-2D: the user's pitch)
  uint32_t flags;           // kFlag*
  uint8_t address_mode[3];  // AddressMode per coordinate (x, y, z)
  uint8_t filter_mode;      // FilterMode
  uint8_t mip_filter_mode;  // FilterMode between levels
  uint8_t max_anisotropy;
  uint16_t reserved0;
  float mip_bias;
  float min_mip_clamp;
  float max_mip_clamp;
  uint32_t border_color[4];  // float bits, or integers when read as integer
  uint32_t reserved[12];
};
static_assert(sizeof(TextureDescriptor) == 128);
static_assert(offsetof(TextureDescriptor, base_va) == 8);
static_assert(offsetof(TextureDescriptor, row_pitch) == 32);
static_assert(offsetof(TextureDescriptor, flags) == 40);
static_assert(offsetof(TextureDescriptor, border_color) == 64);

inline constexpr uint32_t texel_format_bytes(uint8_t format) {
  switch (format) {
    case kFormatU8:
    case kFormatS8:
      return 1;
    case kFormatU16:
    case kFormatS16:
    case kFormatF16:
      return 2;
    default:
      return 4;
  }
}

struct ArrayLevelLayout {
  uint64_t offset;  // from the array's base VA
  uint32_t width, height, depth;
  uint64_t row_pitch, slice_pitch, layer_pitch, bytes;
};

// Geometry of level `level` of an array with the given level-0 extents (height/depth 1
// where absent) and `layers` (1 unless layered/cubemap), per the formulas above.
inline ArrayLevelLayout array_level_layout(uint32_t width, uint32_t height, uint32_t depth,
                                           uint32_t layers, uint32_t texel_bytes, uint32_t level) {
  auto align_up = [](uint64_t v, uint64_t a) { return (v + a - 1) / a * a; };
  auto shrink = [](uint32_t v, uint32_t l) { return v >> l == 0 ? 1u : v >> l; };
  ArrayLevelLayout out{};
  for (uint32_t l = 0;; ++l) {
    out.width = shrink(width, l);
    out.height = shrink(height, l);
    out.depth = shrink(depth, l);
    out.row_pitch = align_up(uint64_t{out.width} * texel_bytes, kArrayRowAlign);
    out.slice_pitch = out.row_pitch * out.height;
    out.layer_pitch = out.slice_pitch * out.depth;
    out.bytes = align_up(out.layer_pitch * layers, kArrayLevelAlign);
    if (l == level) return out;
    out.offset += out.bytes;
  }
}

// Bytes of an array with `levels` mip levels.
inline uint64_t array_total_bytes(uint32_t width, uint32_t height, uint32_t depth, uint32_t layers,
                                  uint32_t texel_bytes, uint32_t levels) {
  const ArrayLevelLayout last =
      array_level_layout(width, height, depth, layers, texel_bytes, levels - 1);
  return last.offset + last.bytes;
}

}  // namespace strata::hw
