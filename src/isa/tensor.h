// The tensor-core instructions' operand descriptors (HMMA, LDSM; docs/isa.md "Tensor
// core"): the contract between the compiler, which builds them, and the simulator, which
// executes them.
//
// HMMA d, a, b, c, desc: a warp-wide D = A * B + C on register fragments laid out exactly
// as PTX mma.sync lays out the fragments of the shape (PTX ISA "Matrix Fragments for
// mma.m*n*k*"). d/a/b/c name the first register of an aligned quad (or pair / single
// register when the fragment is that small); `imm` holds the descriptor below, `type` the
// D element type (F16 F32 S32 F64) and `type2` the C element type.
//
// LDSM d, [a+imm]: ldmatrix.m8n8.b16: type B32/B64/B128 loads 1/2/4 8x8 matrices of
// 16-bit elements; mod bit 0 (kLdsmTrans) transposes each matrix.
#pragma once

#include <cstdint>

namespace strata::isa {

// HMMA shapes: the PTX mma.sync shapes of sm_80-sm_89.
enum class MmaShape : uint8_t {
  M16N8K8,    // f16/bf16, tf32
  M16N8K16,   // f16/bf16, s8/u8
  M16N8K4,    // tf32
  M16N8K32,   // s8/u8, s4/u4, e4m3/e5m2
  M16N8K64,   // s4/u4
  M8N8K16,    // s8/u8
  M8N8K32,    // s4/u4
  M8N8K4,     // f64
  M8N8K128,   // b1
  M16N8K128,  // b1
  M16N8K256,  // b1
  kCount
};

// Element formats of the A and B fragments (packed low element first in each register).
enum class MmaFormat : uint8_t { F16, BF16, TF32, F64, S8, U8, S4, U4, E4M3, E5M2, B1, kCount };

// HMMA descriptor (the imm field): bits 0-3 MmaShape, 4-7 A's MmaFormat, 8-11 B's,
// bit 12 satfinite (integer D clamped to the s32 range instead of wrapping; NaN-free
// float paths ignore it), bits 13-14 the f64 rounding mode (isa::Round), bit 15 the b1
// bit operation (0: .xor.popc, 1: .and.popc).
struct MmaDesc {
  MmaShape shape = MmaShape::M16N8K16;
  MmaFormat a = MmaFormat::F16;
  MmaFormat b = MmaFormat::F16;
  bool satfinite = false;
  uint8_t round = 0;     // isa::Round (F64 only)
  bool bit_and = false;  // B1 only

  uint32_t encode() const {
    return static_cast<uint32_t>(shape) | static_cast<uint32_t>(a) << 4 |
           static_cast<uint32_t>(b) << 8 | static_cast<uint32_t>(satfinite) << 12 |
           static_cast<uint32_t>(round & 3) << 13 | static_cast<uint32_t>(bit_and) << 15;
  }
  // False when a field holds an undefined value.
  static bool decode(uint32_t imm, MmaDesc* out) {
    MmaDesc d;
    d.shape = static_cast<MmaShape>(imm & 0xf);
    d.a = static_cast<MmaFormat>((imm >> 4) & 0xf);
    d.b = static_cast<MmaFormat>((imm >> 8) & 0xf);
    d.satfinite = ((imm >> 12) & 1) != 0;
    d.round = static_cast<uint8_t>((imm >> 13) & 3);
    d.bit_and = ((imm >> 15) & 1) != 0;
    if (d.shape >= MmaShape::kCount || d.a >= MmaFormat::kCount || d.b >= MmaFormat::kCount)
      return false;
    *out = d;
    return true;
  }
};

struct MmaDims {
  int m, n, k;
};
inline MmaDims mma_dims(MmaShape s) {
  switch (s) {
    case MmaShape::M16N8K8:
      return {16, 8, 8};
    case MmaShape::M16N8K16:
      return {16, 8, 16};
    case MmaShape::M16N8K4:
      return {16, 8, 4};
    case MmaShape::M16N8K32:
      return {16, 8, 32};
    case MmaShape::M16N8K64:
      return {16, 8, 64};
    case MmaShape::M8N8K16:
      return {8, 8, 16};
    case MmaShape::M8N8K32:
      return {8, 8, 32};
    case MmaShape::M8N8K128:
      return {8, 8, 128};
    case MmaShape::M16N8K128:
      return {16, 8, 128};
    case MmaShape::M16N8K256:
      return {16, 8, 256};
    default:
      return {8, 8, 4};
  }
}
// Bits of one element of the format.
inline int mma_format_bits(MmaFormat f) {
  switch (f) {
    case MmaFormat::F16:
    case MmaFormat::BF16:
      return 16;
    case MmaFormat::TF32:
      return 32;
    case MmaFormat::F64:
      return 64;
    case MmaFormat::S4:
    case MmaFormat::U4:
      return 4;
    case MmaFormat::B1:
      return 1;
    default:
      return 8;
  }
}

inline constexpr uint8_t kLdsmTrans = 1u << 0;

}  // namespace strata::isa
