// The tensor-core instructions (isa/tensor.h, docs/isa.md "Tensor core"):
//
// HMMA: a warp-wide D = A * B + C. The fragments of all 32 lanes are gathered into
// matrices by the PTX mma.sync fragment layouts of the shape, multiplied, and the result
// is scattered back to the executing lanes. Every lane's registers are read whether or
// not it executes (mma.sync.aligned requires the whole warp; the compiler places a
// WARPSYNC first).
//
// Numerics (the Strata tensor unit): each D element is computed from its C element by a
// chain over k = 0 .. K-1 in increasing order. Floating point: acc = fma(a_k, b_k, acc)
// in binary32 with round-to-nearest-even (f16/bf16/tf32/e4m3/e5m2 products are exact in
// binary32, so each step rounds once); an f16 C is converted exactly to binary32 first
// and an f16 D is the binary32 result rounded once to f16. tf32 operands use the upper
// 19 bits of the register (the low 13 bits are ignored). f64: the same chain in binary64
// with the descriptor's rounding mode. Integers: the exact sum in 64 bits, wrapped to 32
// bits, or clamped to [INT32_MIN, INT32_MAX] with satfinite; b1: C plus the population
// count of (A row AND / XOR B column).
//
// LDSM: ldmatrix.m8n8.b16. Matrix q's row j is the 16 bytes at the address of lane
// 8q + j; lane l receives row l/4, elements 2(l%4) and 2(l%4)+1 (low half first), or with
// kLdsmTrans column l/4, rows 2(l%4) and 2(l%4)+1.
#include <cmath>
#include <cstring>
#include <limits>

#include "hw/sim/sm/address.h"
#include "hw/sim/sm/float_util.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"
#include "hw/sim/sm/stats.h"
#include "isa/tensor.h"

namespace strata::hw::sim {
namespace {

using isa::DataType;
using isa::MmaFormat;
using isa::MmaShape;

constexpr int kMaxM = 16, kMaxN = 8, kMaxK = 256;

// Registers of a fragment of rows x cols elements of `bits` bits spread over 32 lanes.
int fragment_regs(int rows, int cols, int bits) {
  return rows * cols * bits / (32 * 32);
}

float fp8_to_f32(uint32_t v, bool e4m3) {
  const bool neg = (v >> 7) & 1;
  float r;
  if (e4m3) {
    const int exp = static_cast<int>((v >> 3) & 0xf), mant = static_cast<int>(v & 7);
    if (exp == 15 && mant == 7) return std::numeric_limits<float>::quiet_NaN();
    r = exp == 0 ? std::ldexp(static_cast<float>(mant), -9)
                 : std::ldexp(static_cast<float>(mant | 8), exp - 10);
  } else {
    const int exp = static_cast<int>((v >> 2) & 0x1f), mant = static_cast<int>(v & 3);
    if (exp == 31)
      return mant ? std::numeric_limits<float>::quiet_NaN()
                  : std::numeric_limits<float>::infinity() * (neg ? -1.0f : 1.0f);
    r = exp == 0 ? std::ldexp(static_cast<float>(mant), -16)
                 : std::ldexp(static_cast<float>(mant | 4), exp - 17);
  }
  return neg ? -r : r;
}

// One element of an A/B register as a number (integers exactly, floats as binary32;
// f64 is handled apart).
double element_value(uint32_t reg, int index, MmaFormat f) {
  switch (f) {
    case MmaFormat::F16:
      return f16_to_f32(static_cast<uint16_t>(reg >> (16 * index)));
    case MmaFormat::BF16:
      return bf16_to_f32(static_cast<uint16_t>(reg >> (16 * index)));
    case MmaFormat::TF32: {
      const uint32_t bits = reg & 0xffffe000u;
      float x;
      std::memcpy(&x, &bits, 4);
      return x;
    }
    case MmaFormat::S8:
      return static_cast<int8_t>(reg >> (8 * index));
    case MmaFormat::U8:
      return static_cast<uint8_t>(reg >> (8 * index));
    case MmaFormat::S4:
      return static_cast<int32_t>(reg << (28 - 4 * index)) >> 28;
    case MmaFormat::U4:
      return (reg >> (4 * index)) & 0xf;
    case MmaFormat::E4M3:
      return fp8_to_f32((reg >> (8 * index)) & 0xff, true);
    case MmaFormat::E5M2:
      return fp8_to_f32((reg >> (8 * index)) & 0xff, false);
    case MmaFormat::B1:
      return (reg >> index) & 1;
    default:
      return 0;
  }
}

bool is_int_format(MmaFormat f) {
  return f == MmaFormat::S8 || f == MmaFormat::U8 || f == MmaFormat::S4 || f == MmaFormat::U4 ||
         f == MmaFormat::B1;
}

uint64_t lane_u64(const uint32_t* lo, const uint32_t* hi, int l) {
  return static_cast<uint64_t>(lo[l]) | static_cast<uint64_t>(hi[l]) << 32;
}

// The A, B and C/D fragment layouts of PTX mma.sync (g = lane / 4, t = lane % 4):
//   A (M x K), register r, element i of e per register:
//     M = 16: row g + 8 (r & 1), column (r >> 1) 4e + t e + i;  M = 8: row g, column 4e r + t e + i
//   B (K x N): row 4e r + t e + i, column g
//   C/D (M x 8), element j of the lane's fragment: M = 16: row g + 8 (j >> 1), column 2t + (j & 1);
//     M = 8: row g, column 2t + j
// f64 (m8n8k4): A row g column t; B row t column g; C as above with M = 8.
void h_hmma(ExecContext& c, const DecodedInst& in, uint32_t m) {
  isa::MmaDesc desc;
  isa::MmaDesc::decode(in.inst.imm, &desc);
  const isa::MmaDims dims = isa::mma_dims(desc.shape);
  const DataType dtype = in.inst.type, ctype = in.inst.type2;
  const bool f64 = desc.a == MmaFormat::F64;
  const int abits = isa::mma_format_bits(desc.a), bbits = isa::mma_format_bits(desc.b);
  const int ea = f64 ? 1 : 32 / abits, eb = f64 ? 1 : 32 / bbits;

  static thread_local double A[kMaxM][kMaxK], B[kMaxK][kMaxN];
  static thread_local uint64_t A64[8][4], B64[4][8];
  double C[16][8];
  uint64_t C64[8][8];

  // Gather A and B.
  if (f64) {
    const uint32_t *alo = c.row(in.a), *ahi = c.row(in.a + 1), *blo = c.row(in.b),
                   *bhi = c.row(in.b + 1);
    for (int l = 0; l < 32; ++l) {
      const int g = l >> 2, t = l & 3;
      A64[g][t] = lane_u64(alo, ahi, l);
      B64[t][g] = lane_u64(blo, bhi, l);
    }
  } else {
    const int na = fragment_regs(dims.m, dims.k, abits), nb = fragment_regs(dims.k, dims.n, bbits);
    for (int r = 0; r < na; ++r) {
      const uint32_t* ar = c.row(in.a + r);
      for (int l = 0; l < 32; ++l) {
        const int g = l >> 2, t = l & 3;
        for (int i = 0; i < ea; ++i) {
          const int row = dims.m == 16 ? g + 8 * (r & 1) : g;
          const int col = dims.m == 16 ? (r >> 1) * 4 * ea + t * ea + i : r * 4 * ea + t * ea + i;
          A[row][col] = element_value(ar[l], i, desc.a);
        }
      }
    }
    for (int r = 0; r < nb; ++r) {
      const uint32_t* br = c.row(in.b + r);
      for (int l = 0; l < 32; ++l) {
        const int g = l >> 2, t = l & 3;
        for (int i = 0; i < eb; ++i)
          B[r * 4 * eb + t * eb + i][g] = element_value(br[l], i, desc.b);
      }
    }
  }

  // Gather C: lane element j -> (row, col).
  const int per_lane = dims.m * dims.n / 32;  // 4 (M = 16) or 2 (M = 8)
  auto c_pos = [&](int l, int j, int* row, int* col) {
    const int g = l >> 2, t = l & 3;
    if (dims.m == 16) {
      *row = g + 8 * (j >> 1);
      *col = 2 * t + (j & 1);
    } else {
      *row = g;
      *col = 2 * t + j;
    }
  };
  for (int l = 0; l < 32; ++l) {
    for (int j = 0; j < per_lane; ++j) {
      int row, col;
      c_pos(l, j, &row, &col);
      if (ctype == DataType::F64) {
        C64[row][col] = lane_u64(c.row(in.c + 2 * j), c.row(in.c + 2 * j + 1), l);
      } else if (ctype == DataType::F16) {
        C[row][col] = f16_to_f32(static_cast<uint16_t>(c.row(in.c + j / 2)[l] >> (16 * (j & 1))));
      } else if (ctype == DataType::S32) {
        C[row][col] = static_cast<int32_t>(c.row(in.c + j)[l]);
      } else {
        float x;
        std::memcpy(&x, &c.row(in.c + j)[l], 4);
        C[row][col] = x;
      }
    }
  }

  // Compute and scatter D to the executing lanes.
  uint32_t out[4][32];
  std::memset(out, 0, sizeof(out));
  const bool ints = is_int_format(desc.a);
  for (int l = 0; l < 32; ++l) {
    for (int j = 0; j < per_lane; ++j) {
      int row, col;
      c_pos(l, j, &row, &col);
      if (f64) {
        double acc, a, b;
        std::memcpy(&acc, &C64[row][col], 8);
        {
          ScopedRound round(static_cast<isa::Round>(desc.round));
          for (int k = 0; k < dims.k; ++k) {
            std::memcpy(&a, &A64[row][k], 8);
            std::memcpy(&b, &B64[k][col], 8);
            acc = std::fma(a, b, acc);
          }
        }
        uint64_t bits;
        std::memcpy(&bits, &acc, 8);
        out[2 * j][l] = static_cast<uint32_t>(bits);
        out[2 * j + 1][l] = static_cast<uint32_t>(bits >> 32);
      } else if (ints) {
        int64_t acc = static_cast<int64_t>(C[row][col]);
        if (desc.a == MmaFormat::B1) {  // popc of the bitwise AND / XOR of the row and column
          for (int k = 0; k < dims.k; ++k) {
            const bool x = A[row][k] != 0, y = B[k][col] != 0;
            acc += desc.bit_and ? (x && y) : (x != y);
          }
        } else {
          for (int k = 0; k < dims.k; ++k)
            acc += static_cast<int64_t>(A[row][k]) * static_cast<int64_t>(B[k][col]);
        }
        if (desc.satfinite) {
          acc =
              acc > std::numeric_limits<int32_t>::max() ? std::numeric_limits<int32_t>::max() : acc;
          acc =
              acc < std::numeric_limits<int32_t>::min() ? std::numeric_limits<int32_t>::min() : acc;
        }
        out[j][l] = static_cast<uint32_t>(static_cast<uint64_t>(acc));
      } else {
        float acc = static_cast<float>(C[row][col]);
        for (int k = 0; k < dims.k; ++k) {
          acc = std::fma(static_cast<float>(A[row][k]), static_cast<float>(B[k][col]), acc);
        }
        if (dtype == DataType::F16) {
          const uint32_t h = to_f16(acc, isa::Round::RN);
          out[j / 2][l] |= h << (16 * (j & 1));
        } else {
          std::memcpy(&out[j][l], &acc, 4);
        }
      }
    }
  }
  const int dregs = f64 ? 2 * per_lane : (dtype == DataType::F16 ? per_lane / 2 : per_lane);
  for (int r = 0; r < dregs; ++r) lanes_store<uint32_t>(c.row(in.d + r), out[r], m);
}

template <bool kTrans>
void h_ldsm(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const int count = isa::type_regs(in.inst.type);
  {  // statistics: the row-supplying lanes read 16 bytes of shared memory each
    uint32_t off[32];
    bool shared = true;
    for (int l = 0; l < 8 * count; ++l) {
      const uint64_t addr = lane_address(c, in, l);
      off[l] = static_cast<uint32_t>(addr);
      if (in.inst.space == isa::MemSpace::GENERIC) {
        shared = shared && addr - c.grid->shared_window < kWindowBytes;
        off[l] = static_cast<uint32_t>(addr - c.grid->shared_window);
      } else {
        shared = shared && in.inst.space == isa::MemSpace::SHARED;
      }
    }
    if (shared)
      count_shared(c, count == 4 ? ~0u : (1u << (8 * count)) - 1, off, 16, /*atomic=*/false);
  }
  uint16_t mat[4][8][8];
  for (int q = 0; q < count; ++q) {
    for (int j = 0; j < 8; ++j) {
      const int lane = 8 * q + j;
      const uint64_t addr = lane_address(c, in, lane);
      FaultKind fault = FaultKind::kNone;
      const uint8_t* p = resolve_address(c, in.inst.space, addr, 16, /*write=*/false, lane, &fault);
      if (p == nullptr) {
        raise_fault(c, fault, addr, lane);
        return;
      }
      std::memcpy(mat[q][j], p, 16);
    }
  }
  uint32_t out[32];
  for (int q = 0; q < count; ++q) {
    for (int l = 0; l < 32; ++l) {
      const int r = l >> 2, e = 2 * (l & 3);
      const uint16_t lo = kTrans ? mat[q][e][r] : mat[q][r][e];
      const uint16_t hi = kTrans ? mat[q][e + 1][r] : mat[q][r][e + 1];
      out[l] = static_cast<uint32_t>(lo) | static_cast<uint32_t>(hi) << 16;
    }
    lanes_store<uint32_t>(c.row(in.d + q), out, m);
  }
}

bool accum_type_ok(DataType t, MmaFormat a) {
  if (a == MmaFormat::F64) return t == DataType::F64;
  if (is_int_format(a)) return t == DataType::S32;
  return t == DataType::F32 || t == DataType::F16;
}

}  // namespace

Handler select_HMMA(const isa::Inst& i) {
  isa::MmaDesc d;
  if (!isa::MmaDesc::decode(i.imm, &d) || i.b_imm) return nullptr;
  const bool fa = is_int_format(d.a), fb = is_int_format(d.b);
  if (fa != fb) return nullptr;
  if (!fa && d.a != d.b) {
    const bool fp8 = (d.a == MmaFormat::E4M3 || d.a == MmaFormat::E5M2) &&
                     (d.b == MmaFormat::E4M3 || d.b == MmaFormat::E5M2);
    if (!fp8) return nullptr;
  }
  if (fa && isa::mma_format_bits(d.a) != isa::mma_format_bits(d.b)) return nullptr;
  if (!accum_type_ok(i.type, d.a) || !accum_type_ok(i.type2, d.a)) return nullptr;
  if ((d.a == MmaFormat::F64) != (d.shape == MmaShape::M8N8K4)) return nullptr;
  const bool b1_shape = d.shape == MmaShape::M8N8K128 || d.shape == MmaShape::M16N8K128 ||
                        d.shape == MmaShape::M16N8K256;
  if ((d.a == MmaFormat::B1 || d.b == MmaFormat::B1) != b1_shape) return nullptr;
  const isa::MmaDims dims = isa::mma_dims(d.shape);
  if (dims.m > kMaxM || dims.n > kMaxN || dims.k > kMaxK) return nullptr;
  // Every fragment must be a whole number of registers, at most a quad.
  const int bits = isa::mma_format_bits(d.a);
  if (d.a != MmaFormat::F64) {
    const int na = fragment_regs(dims.m, dims.k, bits), nb = fragment_regs(dims.k, dims.n, bits);
    if (na < 1 || na > 4 || nb < 1 || nb > 4 || na * 1024 != dims.m * dims.k * bits) return nullptr;
  }
  return &h_hmma;
}

Handler select_LDSM(const isa::Inst& i) {
  if (i.type != DataType::B32 && i.type != DataType::B64 && i.type != DataType::B128)
    return nullptr;
  if (i.space != isa::MemSpace::SHARED && i.space != isa::MemSpace::GENERIC) return nullptr;
  if ((i.mod & ~isa::kLdsmTrans) != 0) return nullptr;
  return (i.mod & isa::kLdsmTrans) ? &h_ldsm<true> : &h_ldsm<false>;
}

}  // namespace strata::hw::sim
