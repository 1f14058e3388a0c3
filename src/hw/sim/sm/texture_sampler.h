// The texture unit's sampling and surface addressing, as pure functions of a
// TextureDescriptor (hw/contract/texture.h) and a reader of device memory, so the SM's
// handlers (ops_texture.cc) and tests share one implementation.
//
// Sampling (CUDA Programming Guide, "Texture Fetching"):
// - Coordinates: normalized coordinates are scaled by the level's size; integer (.s32)
//   coordinates address texels directly (point sampling, no normalization).
// - Addressing, per texel index i of a dimension of size N: clamp: clamp(i, 0, N-1);
//   wrap: i mod N; mirror: i mirrored with period 2N; border: the border colour when
//   i is outside [0, N). Wrap and mirror apply only with normalized coordinates (they
//   act as clamp otherwise), as in CUDA. A linear buffer (kKindBuffer) reads zeros
//   outside [0, width).
// - Point filtering: i = floor(u). Linear: x_B = u - 0.5, i = floor(x_B), the weight
//   alpha = frac(x_B) rounded to 9-bit fixed point with 8 fractional bits (a multiple of
//   1/256), and the result (1 - alpha) T[i] + alpha T[i+1] per dimension (bilinear,
//   trilinear). Only float results filter; integer reads are point sampled.
// - Layers: the u32 index clamped to [0, layers - 1] (cube arrays: cubes). Cubemaps: the
//   face and face coordinates of the guide's cubemap table (ties choose x, then y);
//   a face clamps at its edges whatever the address mode (kFlagSeamlessCube is ignored).
// - Mip levels: lambda = 0 (plain tex), the given level (tex.level) or log2 of the
//   larger of the gradients' lengths in level-0 texels (tex.grad); then lambda + bias,
//   clamped to [min_mip_clamp, max_mip_clamp] and [0, levels - 1]. Point mip filtering
//   takes level floor(lambda + 0.5); linear blends floor(lambda) and the next level.
// - Read modes: 8/16-bit integers read as normalized floats (unsigned / (2^n - 1),
//   signed max(v / (2^(n-1) - 1), -1)) unless kFlagReadAsInteger; half -> float; 32-bit
//   integers are integers. Missing channels read 0, a missing alpha 1 (1.0f for float
//   results). sRGB (kFlagSrgb) converts the r, g, b of normalized 8-bit texels.
#pragma once

#include <cstdint>

#include "hw/contract/texture.h"
#include "isa/texture.h"

namespace strata::hw::sim {

// Reads `bytes` of device memory at `va` into `out`; false when the read faults (the
// reader records the fault).
class TexelMemory {
 public:
  virtual bool read(uint64_t va, uint32_t bytes, void* out) = 0;

 protected:
  ~TexelMemory() = default;
};

struct TexRequest {
  isa::TexGeom geom = isa::TexGeom::k2D;
  bool int_coords = false;  // .s32 coordinates
  uint32_t coords[4] = {};  // TEX's b operand (isa/texture.h), raw register bits
  isa::TexLod lod = isa::TexLod::kBase;
  float level = 0;            // kLevel
  float grad[2][3] = {};      // kGrad: dPdx, dPdy
  int gather_component = -1;  // TLD4: 0-3
};

// The four result registers of TEX/TLD4. False if a texel read faulted.
bool sample_texture(const TextureDescriptor& d, const TexRequest& r, TexelMemory& mem,
                    uint32_t out[4]);

// TXQ: the attribute `q` at mip level `level`.
uint32_t query_texture(const TextureDescriptor& d, isa::TexQuery q, uint32_t level);

// Whether a descriptor of kind `kind` serves an instruction of geometry `g`.
bool geometry_matches(uint8_t kind, isa::TexGeom g);

// A surface access: the byte address of the element at `coords` (SULD's b operand)
// for an access of `bytes` bytes, applying the out-of-range mode. Returns kInRange with
// *va set, kSkip (.zero: loads read zeros, stores are dropped; a geometry mismatch
// too) or kOutOfRange (.trap: the caller faults at *va, the unclamped address).
enum class SurfAddress { kInRange, kSkip, kOutOfRange, kMisaligned };
SurfAddress surface_address(const TextureDescriptor& d, isa::TexGeom g, isa::SurfClamp mode,
                            const uint32_t coords[4], uint32_t bytes, uint64_t* va);

}  // namespace strata::hw::sim
