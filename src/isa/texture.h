// The texture and surface instructions' modifier and immediate encodings (TEX, TLD4, TXQ,
// SULD, SUST, SURED; docs/isa.md "Textures and surfaces"). The handle operand a is the
// 64-bit device VA of a hw::TextureDescriptor (hw/contract/texture.h); space is GLOBAL.
//
// TEX d, a, b, c      d(4 regs) = sample the texture at coordinates b.
//   type = the result type (F32, S32, U32), type2 = the coordinate type (F32, S32).
//   b holds the coordinates in PTX order, as 1, 2 or 4 registers by geometry: 1D: {x};
//   2D: {x, y}; A1D: {layer, x}; 3D, CUBE: {x, y, z, -}; A2D: {layer, x, y, -};
//   ACUBE: {layer, x, y, z}. Layer indices are unsigned 32-bit integers.
//   mod bits 0-2 TexGeom, bits 3-4 TexLod: kLodBase (b only; c = RZ), kLodLevel (c = the
//   f32 level of detail), kLodGrad (c = {dPdx, dPdy}, 1 + 1 registers for 1D/A1D,
//   2 + 2 for 2D/A2D; other geometries have no gradient form: the compiler turns 3D
//   gradients into a level, compiler/ir/lower_texture.cc).
// TLD4 d, a, b        d(4 regs) = the component in mod bits 5-6 (0 r, 1 g, 2 b, 3 a)
//   of the 2x2 bilinear footprint at b, in CUDA's order (docs/isa.md). type and type2 as
//   TEX; mod bits 0-2 TexGeom (2D, A2D, CUBE, ACUBE).
// TXQ d, a, b         d(32) = attribute imm (TexQuery) of the texture or surface; b is
//   the level for the per-level queries (RZ: level 0).
// SULD d, a, b        d = the surface element(s) at b; x is in bytes.
//   type = B8, B16, B32 or B64: the element size (B8/B16 zero-extended in a register);
//   mod bits 0-2 TexGeom (1D, 2D, 3D, A1D, A2D), bits 3-4 SurfClamp, bits 5-6 log2 of
//   the vector width (1, 2, 4). d has width * (B64 ? 2 : 1) registers (at most 4).
// SUST a, b, c        store c (the layout of SULD's d) at b; mod as SULD.
// SURED a, b, c       atomic reduction at b with c; type U32, S32, U64, S64, B32, B64;
//   mod bits 0-2 TexGeom, bits 3-4 SurfClamp, bits 5-7 SuredOp.
#pragma once

#include <cstdint>

namespace strata::isa {

// The geometry: its values are hw::TextureKind's (a descriptor of another kind reads
// zeros; 1D also matches a linear buffer).
enum class TexGeom : uint8_t {
  k1D = 1,
  k2D = 2,
  k3D = 3,
  kA1D = 4,
  kA2D = 5,
  kCube = 6,
  kACube = 7
};
enum class TexLod : uint8_t { kBase = 0, kLevel = 1, kGrad = 2 };
enum class SurfClamp : uint8_t { kTrap = 0, kClamp = 1, kZero = 2 };
enum class SuredOp : uint8_t { kAdd = 0, kMin = 1, kMax = 2, kAnd = 3, kOr = 4 };

// TXQ's imm. The per-level queries (width, height, depth) take the level from b.
// channel_data_type and channel_order answer OpenCL's CL_* values (as PTX specifies);
// filter_mode and addr_mode_N answer CUDA's cudaTextureFilterMode/cudaTextureAddressMode.
enum class TexQuery : uint8_t {
  kWidth = 0,
  kHeight = 1,
  kDepth = 2,
  kChannelDataType = 3,
  kChannelOrder = 4,
  kNormalizedCoords = 5,
  kFilterMode = 6,
  kAddrMode0 = 7,
  kAddrMode1 = 8,
  kAddrMode2 = 9,
  kArraySize = 10,
  kNumMipmapLevels = 11,
  kNumSamples = 12,
  kMemoryLayout = 13,       // suq: 1 (the Strata linear array layout)
  kForceUnnormalized = 14,  // 0: unified mode never forces
  kCount
};

inline constexpr uint8_t tex_mod(TexGeom g, TexLod lod, uint8_t comp = 0) {
  return static_cast<uint8_t>(static_cast<uint8_t>(g) | static_cast<uint8_t>(lod) << 3 | comp << 5);
}
inline constexpr TexGeom tex_geom(uint8_t mod) {
  return static_cast<TexGeom>(mod & 7);
}
inline constexpr TexLod tex_lod(uint8_t mod) {
  return static_cast<TexLod>((mod >> 3) & 3);
}
inline constexpr uint8_t tex_component(uint8_t mod) {
  return (mod >> 5) & 3;
}

inline constexpr uint8_t surf_mod(TexGeom g, SurfClamp cl, uint8_t log2_vec) {
  return static_cast<uint8_t>(static_cast<uint8_t>(g) | static_cast<uint8_t>(cl) << 3 |
                              log2_vec << 5);
}
inline constexpr uint8_t sured_mod(TexGeom g, SurfClamp cl, SuredOp op) {
  return static_cast<uint8_t>(static_cast<uint8_t>(g) | static_cast<uint8_t>(cl) << 3 |
                              static_cast<uint8_t>(op) << 5);
}
inline constexpr SurfClamp surf_clamp(uint8_t mod) {
  return static_cast<SurfClamp>((mod >> 3) & 3);
}
inline constexpr int surf_vec(uint8_t mod) {
  return 1 << ((mod >> 5) & 3);
}
inline constexpr SuredOp sured_op(uint8_t mod) {
  return static_cast<SuredOp>((mod >> 5) & 7);
}

// Registers of the coordinate operand b of TEX/TLD4 (1, 2 or 4).
inline constexpr int tex_coord_regs(TexGeom g) {
  switch (g) {
    case TexGeom::k1D:
      return 1;
    case TexGeom::k2D:
    case TexGeom::kA1D:
      return 2;
    default:
      return 4;
  }
}
// Registers of SULD/SUST/SURED's coordinate operand b.
inline constexpr int surf_coord_regs(TexGeom g) {
  return tex_coord_regs(g);
}
// Spatial dimensions of a geometry (cubemaps: the 3-component direction).
inline constexpr int tex_dims(TexGeom g) {
  switch (g) {
    case TexGeom::k1D:
    case TexGeom::kA1D:
      return 1;
    case TexGeom::k2D:
    case TexGeom::kA2D:
      return 2;
    default:
      return 3;
  }
}
inline constexpr bool tex_layered(TexGeom g) {
  return g == TexGeom::kA1D || g == TexGeom::kA2D || g == TexGeom::kACube;
}

}  // namespace strata::isa
