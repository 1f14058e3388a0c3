// Kernel conformance cases: wmma/mma/ldmatrix/stmatrix (see kernel_cases.h).
//
// The host references below are written from the PTX ISA: mma.sync fragments are filled
// and read by the tables of "Matrix Fragments for mma.m*n*k*" (groupID = laneid >> 2,
// threadID_in_group = laneid % 4), ldmatrix results by "Matrix fragments for ldmatrix",
// and wmma (whose fragment layout PTX leaves opaque) is checked end to end: matrices in
// memory with the given layouts and strides in, D in memory out, padding untouched.
// Products and sums follow the order docs/isa.md defines for the Strata tensor unit:
// each D element starts from its C element and adds the products in increasing k, one
// binary32 FMA per product (binary64 for f64; exact 64-bit sums for integers, wrapped to
// 32 bits or clamped with .satfinite); an f16 D is the binary32 result rounded once;
// tf32 operands use the upper 19 bits of their register.
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <sstream>

#include "kernel_cases.h"

namespace strata::ptx_conformance {
namespace {

// ---- element formats ---------------------------------------------------------------------

enum class Fmt { F16, BF16, TF32, F64, S8, U8, S4, U4, E4M3, E5M2, F32, S32, B1 };

int bits_of(Fmt f) {
  switch (f) {
    case Fmt::F16:
    case Fmt::BF16:
      return 16;
    case Fmt::TF32:
    case Fmt::F32:
    case Fmt::S32:
      return 32;
    case Fmt::F64:
      return 64;
    case Fmt::S4:
    case Fmt::U4:
      return 4;
    case Fmt::B1:
      return 1;
    default:
      return 8;
  }
}
const char* name_of(Fmt f) {
  switch (f) {
    case Fmt::F16:
      return "f16";
    case Fmt::BF16:
      return "bf16";
    case Fmt::TF32:
      return "tf32";
    case Fmt::F64:
      return "f64";
    case Fmt::S8:
      return "s8";
    case Fmt::U8:
      return "u8";
    case Fmt::S4:
      return "s4";
    case Fmt::U4:
      return "u4";
    case Fmt::E4M3:
      return "e4m3";
    case Fmt::E5M2:
      return "e5m2";
    case Fmt::F32:
      return "f32";
    case Fmt::B1:
      return "b1";
    default:
      return "s32";
  }
}
bool is_integer(Fmt f) {
  return f == Fmt::S8 || f == Fmt::U8 || f == Fmt::S4 || f == Fmt::U4 || f == Fmt::S32 ||
         f == Fmt::B1;
}

float half_value(uint16_t h) {
  _Float16 x;
  std::memcpy(&x, &h, 2);
  return static_cast<float>(x);
}
uint16_t half_bits(float f) {
  const _Float16 x = static_cast<_Float16>(f);  // IEEE round to nearest even
  uint16_t h;
  std::memcpy(&h, &x, 2);
  return h;
}
float f32_value(uint32_t u) {
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
uint32_t f32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
double f64_value(uint64_t u) {
  double d;
  std::memcpy(&d, &u, 8);
  return d;
}
uint64_t f64_bits(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
// OCP FP8: E4M3 (bias 7, no infinities, S.1111.111 is NaN) and E5M2 (bias 15, IEEE-like).
double fp8_value(uint32_t v, bool e4m3) {
  const double sign = (v & 0x80) ? -1.0 : 1.0;
  if (e4m3) {
    const int e = (v >> 3) & 15, m = v & 7;
    if (e == 15 && m == 7) return std::numeric_limits<double>::quiet_NaN();
    return sign * (e == 0 ? m / 8.0 * std::pow(2.0, -6) : (1 + m / 8.0) * std::pow(2.0, e - 7));
  }
  const int e = (v >> 2) & 31, m = v & 3;
  if (e == 31) return m ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  return sign * (e == 0 ? m / 4.0 * std::pow(2.0, -14) : (1 + m / 4.0) * std::pow(2.0, e - 15));
}

// The value of an A/B/C element given its bits.
double value_of(Fmt f, uint64_t b) {
  switch (f) {
    case Fmt::F16:
      return half_value(static_cast<uint16_t>(b));
    case Fmt::BF16:
      return f32_value(static_cast<uint32_t>(b) << 16);
    case Fmt::TF32:
      return f32_value(static_cast<uint32_t>(b) & 0xffffe000u);
    case Fmt::F32:
      return f32_value(static_cast<uint32_t>(b));
    case Fmt::F64:
      return f64_value(b);
    case Fmt::S8:
      return static_cast<int8_t>(b);
    case Fmt::U8:
      return static_cast<uint8_t>(b);
    case Fmt::S4:
      return (b & 8) ? static_cast<int>(b & 15) - 16 : static_cast<int>(b & 15);
    case Fmt::U4:
      return static_cast<int>(b & 15);
    case Fmt::E4M3:
      return fp8_value(static_cast<uint32_t>(b), true);
    case Fmt::E5M2:
      return fp8_value(static_cast<uint32_t>(b), false);
    case Fmt::S32:
      return static_cast<int32_t>(b);
    case Fmt::B1:
      return static_cast<int>(b & 1);
  }
  return 0;
}

// Random element bits; `special` mixes in zeros, subnormals, infinities and NaNs.
uint64_t random_bits(Fmt f, std::mt19937_64& rng, bool special) {
  const uint64_t r = rng();
  if (special && r % 5 == 0) {
    const int pick = static_cast<int>((r >> 8) % 6);
    switch (f) {
      case Fmt::F16: {
        const uint16_t v[] = {0x0000, 0x8000, 0x0001, 0x83ff, 0x7c00, 0x7bff};
        return v[pick];
      }
      case Fmt::BF16: {
        const uint16_t v[] = {0x0000, 0x8000, 0x0001, 0x807f, 0xff80, 0x7f7f};
        return v[pick];
      }
      case Fmt::TF32:
      case Fmt::F32: {
        const uint32_t v[] = {0, 0x80000000u, 0x00002000u, 0x7f800000u, 0xff800000u, 0x7fc00000u};
        return v[pick];
      }
      case Fmt::F64: {
        const uint64_t v[] = {
            0, 1ull << 63, 1, 0x7ff0000000000000ull, 0x7ff8000000000000ull, 0x000fffffffffffffull};
        return v[pick];
      }
      case Fmt::E4M3: {
        const uint8_t v[] = {0x00, 0x80, 0x01, 0x7f, 0x7e, 0xfe};
        return v[pick];
      }
      case Fmt::E5M2: {
        const uint8_t v[] = {0x00, 0x80, 0x01, 0x7c, 0xfc, 0x7f};
        return v[pick];
      }
      default:
        break;
    }
  }
  const uint64_t sign = (r >> 63) & 1;
  switch (f) {
    case Fmt::F16:
      return sign << 15 | ((8 + (r >> 10) % 15) << 10) | (r & 0x3ff);
    case Fmt::BF16:
      return sign << 15 | ((120 + (r >> 10) % 15) << 7) | (r & 0x7f);
    case Fmt::TF32:
    case Fmt::F32:
      return sign << 31 | ((120 + (r >> 30) % 15) << 23) | (r & 0x7fffff);
    case Fmt::F64:
      return sign << 63 | ((1016 + (r >> 52) % 15) << 52) | (r & 0xfffffffffffffull);
    case Fmt::S8:
    case Fmt::U8:
      return r & 0xff;
    case Fmt::S4:
    case Fmt::U4:
      return r & 0xf;
    case Fmt::B1:
      return r & 1;
    case Fmt::E4M3: {
      uint64_t v = r & 0xff;
      return (v & 0x7f) == 0x7f ? v & 0xf0 : v;
    }
    case Fmt::E5M2: {
      uint64_t v = r & 0xff;
      return ((v >> 2) & 31) == 31 ? v & 0x83 : v;
    }
    case Fmt::S32:
      return (r % 4 == 0) ? (0x7ffff000u + (r >> 32) % 0x2000) & 0xffffffffu : r & 0xffffffffu;
  }
  return 0;
}

// The b1 operation of mma/wmma .xor.popc / .and.popc.
enum class BitOp { kNone, kXor, kAnd };
const char* bitop_suffix(BitOp op) {
  return op == BitOp::kXor ? ".xor.popc" : op == BitOp::kAnd ? ".and.popc" : "";
}

// D = A * B + C for one element, in the documented order; returns D's bits. b1: C plus
// the number of k where a_k XOR (AND) b_k is 1 (PTX ISA: popc of the bitwise operation).
uint64_t dot(Fmt ab, Fmt c, Fmt d, const std::vector<double>& a, const std::vector<double>& b,
             uint64_t cbits, bool satfinite, BitOp bitop = BitOp::kNone) {
  if (ab == Fmt::B1) {
    int64_t acc = static_cast<int32_t>(cbits);
    for (size_t k = 0; k < a.size(); ++k) {
      const bool x = a[k] != 0, y = b[k] != 0;
      acc += bitop == BitOp::kAnd ? (x && y) : (x != y);
    }
    return static_cast<uint32_t>(acc);
  }
  if (ab == Fmt::F64) {
    double acc = f64_value(cbits);
    for (size_t k = 0; k < a.size(); ++k) acc = std::fma(a[k], b[k], acc);
    return f64_bits(acc);
  }
  if (is_integer(ab)) {
    int64_t acc = static_cast<int32_t>(cbits);
    for (size_t k = 0; k < a.size(); ++k)
      acc += static_cast<int64_t>(a[k]) * static_cast<int64_t>(b[k]);
    if (satfinite) acc = std::min<int64_t>(std::max<int64_t>(acc, INT32_MIN), INT32_MAX);
    return static_cast<uint32_t>(acc);
  }
  float acc = static_cast<float>(value_of(c, cbits));
  for (size_t k = 0; k < a.size(); ++k)
    acc = std::fma(static_cast<float>(a[k]), static_cast<float>(b[k]), acc);
  return d == Fmt::F16 ? half_bits(acc) : f32_bits(acc);
}

// Compares D element bits (NaN matches any NaN of the format).
bool same(Fmt f, uint64_t want, uint64_t got) {
  if (want == got) return true;
  if (f == Fmt::F32)
    return std::isnan(f32_value(static_cast<uint32_t>(want))) &&
           std::isnan(f32_value(static_cast<uint32_t>(got)));
  if (f == Fmt::F16)
    return std::isnan(half_value(static_cast<uint16_t>(want))) &&
           std::isnan(half_value(static_cast<uint16_t>(got)));
  if (f == Fmt::F64) return std::isnan(f64_value(want)) && std::isnan(f64_value(got));
  return false;
}

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

// Element `i` (of `bits` bits) of a lane-major fragment buffer with `words` 32-bit words per lane.
uint64_t get_elem(const std::vector<uint32_t>& buf, int words, int lane, int i, int bits) {
  if (bits == 64)
    return buf[lane * words + 2 * i] | static_cast<uint64_t>(buf[lane * words + 2 * i + 1]) << 32;
  const int per = 32 / bits, w = lane * words + i / per, sh = (i % per) * bits;
  return (buf[w] >> sh) & ((bits == 32) ? 0xffffffffu : ((1u << bits) - 1));
}
void put_elem(std::vector<uint32_t>& buf, int words, int lane, int i, int bits, uint64_t v) {
  if (bits == 64) {
    buf[lane * words + 2 * i] = static_cast<uint32_t>(v);
    buf[lane * words + 2 * i + 1] = static_cast<uint32_t>(v >> 32);
    return;
  }
  const int per = 32 / bits, w = lane * words + i / per, sh = (i % per) * bits;
  const uint32_t mask = bits == 32 ? 0xffffffffu : ((1u << bits) - 1) << sh;
  buf[w] = (buf[w] & ~mask) | ((static_cast<uint32_t>(v) << sh) & mask);
}

// ---- mma.sync fragment tables (PTX ISA "Matrix Fragments for mma.m*n*k*") -----------------

struct Pos {
  int row, col;
};

Pos mma_a(int m, int k, Fmt f, int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  const int b = bits_of(f);
  if (f == Fmt::F64) return {g, t};          // m8n8k4
  if (m == 8) return {g, t * (32 / b) + i};  // m8n8k16 (.s8/.u8), m8n8k32 (.s4/.u4)
  if (b == 16 && k == 8) return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
  if (b == 16 && k == 16)
    return {(i < 2 || (i >= 4 && i < 6)) ? g : g + 8, t * 2 + (i & 1) + (i >= 4 ? 8 : 0)};
  if (f == Fmt::TF32 && k == 4) return {i == 0 ? g : g + 8, t};
  if (f == Fmt::TF32 && k == 8) return {(i == 0 || i == 2) ? g : g + 8, i < 2 ? t : t + 4};
  if (b == 8 && k == 16) return {i < 4 ? g : g + 8, t * 4 + (i & 3)};
  if (b == 8 && k == 32)
    return {(i < 4 || (i >= 8 && i < 12)) ? g : g + 8, t * 4 + (i & 3) + (i >= 8 ? 16 : 0)};
  if (b == 4 && k == 32) return {i < 8 ? g : g + 8, t * 8 + (i & 7)};
  if (b == 1 && k == 128) return {i < 32 ? g : g + 8, t * 32 + (i & 31)};
  if (b == 1 && k == 256)
    return {(i < 32 || (i >= 64 && i < 96)) ? g : g + 8, t * 32 + (i & 31) + (i >= 64 ? 128 : 0)};
  return {(i < 8 || (i >= 16 && i < 24)) ? g : g + 8,
          t * 8 + (i & 7) + (i >= 16 ? 32 : 0)};  // 4-bit k64
}

Pos mma_b(int k, Fmt f, int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  const int b = bits_of(f);
  if (f == Fmt::F64) return {t, g};
  if (b == 16 && k == 8) return {t * 2 + i, g};
  if (b == 16 && k == 16) return {t * 2 + (i & 1) + (i >= 2 ? 8 : 0), g};
  if (f == Fmt::TF32 && k == 4) return {t, g};
  if (f == Fmt::TF32 && k == 8) return {i == 0 ? t : t + 4, g};
  if (b == 8 && k == 16) return {t * 4 + i, g};
  if (b == 8 && k == 32) return {t * 4 + (i & 3) + (i >= 4 ? 16 : 0), g};
  if (b == 4 && k == 32) return {t * 8 + i, g};
  if (b == 1 && k == 128) return {t * 32 + i, g};
  if (b == 1 && k == 256) return {t * 32 + (i & 31) + (i >= 32 ? 128 : 0), g};
  return {t * 8 + (i & 7) + (i >= 8 ? 32 : 0), g};  // 4-bit k64
}

Pos mma_c(int m, int lane, int i) {
  const int g = lane >> 2, t = lane % 4;
  if (m == 8) return {g, t * 2 + i};
  return {i < 2 ? g : g + 8, t * 2 + (i & 1)};
}

struct MmaSpec {
  int m, n, k;
  Fmt d, a, b, c;
  bool satfinite = false;
  BitOp bitop = BitOp::kNone;
  bool special = false;
  uint64_t seed = 1;
};

std::string mma_form(const MmaSpec& s) {
  std::ostringstream o;
  o << "mma.sync.aligned.m" << s.m << "n" << s.n << "k" << s.k << ".row.col"
    << (s.satfinite ? ".satfinite" : "") << "." << name_of(s.d) << "." << name_of(s.a) << "."
    << name_of(s.b) << "." << name_of(s.c) << bitop_suffix(s.bitop);
  return o.str();
}

// Fragment words per lane.
int frag_words(int rows, int cols, Fmt f) {
  return rows * cols * bits_of(f) / (32 * 32);
}

// Register declarations and a lane-major load / store of fragment `name` with `words` words.
std::string reg_type(Fmt f) {
  return f == Fmt::F64 ? ".f64" : f == Fmt::F32 ? ".f32" : ".b32";
}

KernelCase mma_case(const std::string& name, const MmaSpec& s) {
  const int wa = frag_words(s.m, s.k, s.a), wb = frag_words(s.k, s.n, s.b);
  const int wc = frag_words(s.m, s.n, s.c), wd = frag_words(s.m, s.n, s.d);
  const bool f64 = s.a == Fmt::F64;
  const int ra = f64 ? 1 : wa, rb = f64 ? 1 : wb, rc = f64 ? wc / 2 : wc, rd = f64 ? wd / 2 : wd;
  const bool fp8 = s.a == Fmt::E4M3 || s.a == Fmt::E5M2;
  std::ostringstream p;
  p << ".version " << (fp8 ? "8.4" : "7.8") << "\n.target " << (fp8 ? "sm_89" : "sm_80")
    << "\n.address_size 64\n"
    << ".visible .entry conf(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
    << "  .reg .b32 %lane;\n  .reg .b64 %rd<12>;\n"
    << "  .reg " << (f64 ? ".f64" : ".b32") << " %a<" << ra << ">;\n"
    << "  .reg " << (f64 ? ".f64" : ".b32") << " %b<" << rb << ">;\n"
    << "  .reg " << reg_type(s.c) << " %c<" << rc << ">;\n"
    << "  .reg " << reg_type(s.d) << " %d<" << rd << ">;\n"
    << "  ld.param.u64 %rd0, [pa];\n  ld.param.u64 %rd1, [pb];\n  ld.param.u64 %rd2, [pc];\n  "
       "ld.param.u64 %rd3, [pd];\n"
    << "  mov.u32 %lane, %tid.x;\n";
  auto base = [&](int buf, int words, int out) {
    p << "  mul.wide.u32 %rd" << out << ", %lane, " << 4 * words << ";\n  add.s64 %rd" << out
      << ", %rd" << buf << ", %rd" << out << ";\n";
  };
  auto load = [&](const char* reg, int n, int rd_, Fmt f) {
    const bool w64 = f == Fmt::F64;
    for (int i = 0; i < n; ++i)
      p << "  ld.global"
        << (w64             ? ".f64"
            : f == Fmt::F32 ? ".f32"
                            : ".b32")
        << " %" << reg << i << ", [%rd" << rd_ << "+" << (w64 ? 8 : 4) * i << "];\n";
  };
  base(0, wa, 4);
  base(1, wb, 5);
  base(2, wc, 6);
  base(3, wd, 7);
  load("a", ra, 4, f64 ? Fmt::F64 : Fmt::U8);
  load("b", rb, 5, f64 ? Fmt::F64 : Fmt::U8);
  load("c", rc, 6, s.c);
  auto list = [&](const char* reg, int n) {
    std::string o = "{";
    for (int i = 0; i < n; ++i) o += std::string(i ? ", %" : "%") + reg + std::to_string(i);
    return o + "}";
  };
  p << "  " << mma_form(s) << " " << list("d", rd) << ", " << list("a", ra) << ", " << list("b", rb)
    << ", " << list("c", rc) << ";\n";
  for (int i = 0; i < rd; ++i)
    p << "  st.global"
      << (f64               ? ".f64"
          : s.d == Fmt::F32 ? ".f32"
                            : ".b32")
      << " [%rd7+" << (f64 ? 8 : 4) * i << "], %d" << i << ";\n";
  p << "  ret;\n}\n";

  // Matrices from random bits, placed in fragments by the PTX tables.
  std::mt19937_64 rng(s.seed);
  const int abits = bits_of(s.a), bbits = bits_of(s.b), cbits = bits_of(s.c), dbits = bits_of(s.d);
  std::vector<std::vector<uint64_t>> A(s.m, std::vector<uint64_t>(s.k)),
      B(s.k, std::vector<uint64_t>(s.n)), C(s.m, std::vector<uint64_t>(s.n));
  for (auto& row : A)
    for (auto& v : row) v = random_bits(s.a, rng, s.special);
  for (auto& row : B)
    for (auto& v : row) v = random_bits(s.b, rng, s.special);
  for (auto& row : C)
    for (auto& v : row) v = random_bits(s.c, rng, s.special);
  std::vector<uint32_t> fa(32 * wa), fb(32 * wb), fc(32 * wc);
  const int na = s.m * s.k / 32, nb = s.k * s.n / 32, nc = s.m * s.n / 32;
  for (int l = 0; l < 32; ++l) {
    for (int i = 0; i < na; ++i) {
      Pos q = mma_a(s.m, s.k, s.a, l, i);
      put_elem(fa, wa, l, i, abits, A[q.row][q.col]);
    }
    for (int i = 0; i < nb; ++i) {
      Pos q = mma_b(s.k, s.b, l, i);
      put_elem(fb, wb, l, i, bbits, B[q.row][q.col]);
    }
    for (int i = 0; i < nc; ++i) {
      Pos q = mma_c(s.m, l, i);
      put_elem(fc, wc, l, i, cbits, C[q.row][q.col]);
    }
  }
  KernelCase kc;
  kc.name = name;
  kc.family = "mma";
  kc.forms = {mma_form(s)};
  kc.ptx = p.str();
  kc.buffers = {bytes_of(fa), bytes_of(fb), bytes_of(fc), std::vector<uint8_t>(32 * wd * 4, 0xee)};
  kc.check = [s, A, B, C, wd, nc, dbits](const Buffers& after) -> std::string {
    std::vector<uint32_t> got = values_of<uint32_t>(after[3]);
    for (int l = 0; l < 32; ++l)
      for (int i = 0; i < nc; ++i) {
        Pos q = mma_c(s.m, l, i);
        std::vector<double> av(s.k), bv(s.k);
        for (int k = 0; k < s.k; ++k) {
          av[k] = value_of(s.a, A[q.row][k]);
          bv[k] = value_of(s.b, B[k][q.col]);
        }
        const uint64_t want = dot(s.a, s.c, s.d, av, bv, C[q.row][q.col], s.satfinite, s.bitop);
        const uint64_t have = get_elem(got, wd, l, i, dbits);
        if (!same(s.d, want, have))
          return "lane " + std::to_string(l) + " d" + std::to_string(i) + " (row " +
                 std::to_string(q.row) + ", col " + std::to_string(q.col) + "): expected " +
                 hex(want) + " got " + hex(have);
      }
    return "";
  };
  return kc;
}

// ---- ldmatrix (PTX ISA "ldmatrix": thread l holds row l/4, elements 2(l%4), 2(l%4)+1) -----

KernelCase ldmatrix_case(const std::string& name, int num, bool trans, const std::string& space) {
  std::ostringstream form;
  form << "ldmatrix.sync.aligned.m8n8.x" << num << (trans ? ".trans" : "")
       << (space.empty() ? "" : "." + space) << ".b16";
  auto perm = [](int l) { return (l * 5 + 3) % 32; };  // the memory row lane l addresses
  std::ostringstream p;
  p << ".version 7.8\n.target sm_80\n.address_size 64\n.shared .align 16 .b8 tile[512];\n"
    << ".visible .entry conf(.param .u64 pin, .param .u64 pout)\n{\n"
    << "  .reg .b32 %r<8>;\n  .reg .b32 %d<4>;\n  .reg .b64 %rd<8>;\n  .reg .b32 %v<4>;\n"
    << "  ld.param.u64 %rd0, [pin];\n  ld.param.u64 %rd1, [pout];\n"
    << "  mov.u32 %r0, %tid.x;\n"
    << "  mul.wide.u32 %rd2, %r0, 16;\n  add.s64 %rd3, %rd0, %rd2;\n"
    << "  ld.global.v4.u32 {%v0, %v1, %v2, %v3}, [%rd3];\n"
    << "  mov.u32 %r1, tile;\n  shl.b32 %r2, %r0, 4;\n  add.u32 %r2, %r1, %r2;\n"
    << "  st.shared.v4.u32 [%r2], {%v0, %v1, %v2, %v3};\n"
    << "  bar.sync 0;\n"
    << "  mad.lo.u32 %r3, %r0, 5, 3;\n  and.b32 %r3, %r3, 31;\n  shl.b32 %r3, %r3, 4;\n  add.u32 "
       "%r3, %r1, %r3;\n";
  std::string dst = "{";
  for (int q = 0; q < num; ++q) dst += std::string(q ? ", " : "") + "%d" + std::to_string(q);
  dst += "}";
  if (space.empty()) {
    p << "  cvt.u64.u32 %rd4, %r3;\n  cvta.shared.u64 %rd4, %rd4;\n  " << form.str() << " " << dst
      << ", [%rd4];\n";
  } else {
    p << "  " << form.str() << " " << dst << ", [%r3];\n";
  }
  p << "  mul.wide.u32 %rd5, %r0, " << 4 * num << ";\n  add.s64 %rd5, %rd1, %rd5;\n";
  for (int q = 0; q < num; ++q) p << "  st.global.b32 [%rd5+" << 4 * q << "], %d" << q << ";\n";
  p << "  ret;\n}\n";
  std::mt19937_64 rng(num * 7 + trans);
  std::vector<uint16_t> mem(256);
  for (auto& v : mem) v = static_cast<uint16_t>(rng());
  KernelCase kc;
  kc.name = name;
  kc.family = "ldmatrix";
  kc.forms = {form.str()};
  kc.ptx = p.str();
  kc.buffers = {bytes_of(mem), std::vector<uint8_t>(32 * num * 4, 0)};
  kc.check = [mem, num, trans, perm](const Buffers& after) -> std::string {
    std::vector<uint32_t> got = values_of<uint32_t>(after[1]);
    std::vector<uint32_t> want(32 * num);
    for (int l = 0; l < 32; ++l)
      for (int q = 0; q < num; ++q) {
        uint32_t w = 0;
        for (int i = 0; i < 2; ++i) {
          // Element (row, col) of matrix q: row `row` is memory row perm(8q + row).
          const int row = trans ? 2 * (l % 4) + i : l / 4, col = trans ? l / 4 : 2 * (l % 4) + i;
          w |= static_cast<uint32_t>(mem[8 * perm(8 * q + row) + col]) << (16 * i);
        }
        want[l * num + q] = w;
      }
    return compare_u32("d", want, got);
  };
  return kc;
}

// ---- wmma: matrices in memory in, D in memory out ------------------------------------------

struct WmmaSpec {
  int m, n, k;
  Fmt ab, c, d;
  char la = 'r', lb = 'c', lc = 'r',
       ld = 'r';  // row / col layouts of A, B, C (load.c), D (store.d)
  std::string sa = "global", sb = "global", sc = "global", sd = "global";  // "" = generic
  int lda = 0, ldb = 0, ldc = 0, ldd = 0;  // strides in elements; 0 = the default (omitted)
  bool stride_in_reg = false;
  bool satfinite = false;
  BitOp bitop = BitOp::kNone;
  bool special = false;
  uint64_t seed = 7;
};

const char* layout_name(char l) {
  return l == 'r' ? "row" : "col";
}
std::string shape_name(const WmmaSpec& s) {
  return "m" + std::to_string(s.m) + "n" + std::to_string(s.n) + "k" + std::to_string(s.k);
}
std::string space_suffix(const std::string& sp) {
  return sp.empty() ? "" : "." + sp;
}

std::string wmma_mma_form(const WmmaSpec& s) {
  std::string f = std::string("wmma.mma.sync.aligned.") + layout_name(s.la) + "." +
                  layout_name(s.lb) + "." + shape_name(s);
  if (s.ab == Fmt::F16)
    f += std::string(".") + name_of(s.d) + "." + name_of(s.c);
  else
    f += std::string(".") + name_of(s.d) + "." + name_of(s.ab) + "." + name_of(s.ab) + "." +
         name_of(s.c);
  if (s.satfinite) f += ".satfinite";
  if (s.ab == Fmt::F64) f += ".rn";
  return f + bitop_suffix(s.bitop);
}

// PTX fragment register counts (PTX ISA "Matrix fragments for WMMA").
int wmma_regs(const WmmaSpec& s, char matrix) {
  if (s.ab == Fmt::F64) return matrix == 'c' || matrix == 'd' ? 2 : 1;
  if (matrix == 'c') return s.m * s.n * bits_of(s.c) / 1024;
  if (matrix == 'd') return s.m * s.n * bits_of(s.d) / 1024;
  if (s.ab == Fmt::F16) return 8;
  const int elems = matrix == 'a' ? s.m * s.k : s.k * s.n;
  return elems * bits_of(s.ab) / 1024;
}

// Memory image of a rows x cols matrix with layout l and stride ld (elements).
struct Stored {
  int ld;
  size_t elems;
  size_t index(char l, int r, int c) const {
    return l == 'r' ? static_cast<size_t>(r) * ld + c : static_cast<size_t>(c) * ld + r;
  }
};
Stored stored(char l, int rows, int cols, int ld) {
  Stored s;
  s.ld = ld ? ld : (l == 'r' ? cols : rows);
  s.elems = l == 'r' ? static_cast<size_t>(rows - 1) * s.ld + cols
                     : static_cast<size_t>(cols - 1) * s.ld + rows;
  return s;
}

KernelCase wmma_case(const std::string& name, const WmmaSpec& s) {
  const Stored sA = stored(s.la, s.m, s.k, s.lda), sB = stored(s.lb, s.k, s.n, s.ldb);
  const Stored sC = stored(s.lc, s.m, s.n, s.ldc), sD = stored(s.ld, s.m, s.n, s.ldd);
  const int abits = bits_of(s.ab), ec = bits_of(s.c) / 8, ed = bits_of(s.d) / 8;
  auto words = [](size_t bytes) { return (bytes + 3) / 4; };
  const size_t bA = words(sA.elems * abits / 8) * 4, bB = words(sB.elems * abits / 8) * 4,
               bC = words(sC.elems * ec) * 4, bD = words(sD.elems * ed) * 4;
  const size_t oA = 0, oB = (bA + 127) / 128 * 128, oC = oB + (bB + 127) / 128 * 128,
               oD = oC + (bC + 127) / 128 * 128;
  const size_t total = oD + bD;
  const std::string shape = shape_name(s);
  const std::string fa = std::string("wmma.load.a.sync.aligned.") + layout_name(s.la) + "." +
                         shape + space_suffix(s.sa) + "." + name_of(s.ab);
  const std::string fb = std::string("wmma.load.b.sync.aligned.") + layout_name(s.lb) + "." +
                         shape + space_suffix(s.sb) + "." + name_of(s.ab);
  const std::string fc = std::string("wmma.load.c.sync.aligned.") + layout_name(s.lc) + "." +
                         shape + space_suffix(s.sc) + "." + name_of(s.c);
  const std::string fd = std::string("wmma.store.d.sync.aligned.") + layout_name(s.ld) + "." +
                         shape + space_suffix(s.sd) + "." + name_of(s.d);
  const std::string fm = wmma_mma_form(s);
  const int na = wmma_regs(s, 'a'), nb = wmma_regs(s, 'b'), nc = wmma_regs(s, 'c'),
            nd = wmma_regs(s, 'd');
  const bool f64 = s.ab == Fmt::F64;

  std::ostringstream p;
  int label = 0;
  const bool any_shared =
      s.sa == "shared" || s.sb == "shared" || s.sc == "shared" || s.sd == "shared";
  p << ".version 7.8\n.target sm_80\n.address_size 64\n";
  if (any_shared) p << ".shared .align 128 .b8 smem[" << total << "];\n";
  p << ".visible .entry conf(.param .u64 pa, .param .u64 pb, .param .u64 pc, .param .u64 pd)\n{\n"
    << "  .reg .pred %cp;\n  .reg .b32 %ci;\n  .reg .b32 %cv;\n  .reg .b32 %co;\n  .reg .b32 "
       "%rs;\n  .reg .b32 %ld<4>;\n"
    << "  .reg .b64 %rd<8>;\n  .reg .b64 %crd;\n"
    << "  .reg " << (f64 ? ".f64" : ".b32") << " %a<" << na << ">;\n  .reg "
    << (f64 ? ".f64" : ".b32") << " %b<" << nb << ">;\n"
    << "  .reg " << reg_type(s.c) << " %c<" << nc << ">;\n  .reg " << reg_type(s.d) << " %d<" << nd
    << ">;\n";
  if (any_shared) p << "  mov.u32 %rs, smem;\n";
  p << "  ld.param.u64 %rd0, [pa];\n  ld.param.u64 %rd1, [pb];\n  ld.param.u64 %rd2, [pc];\n  "
       "ld.param.u64 %rd3, [pd];\n";
  auto copy = [&](bool to_shared, int rd, size_t off, size_t bytes) {
    const int l = label++;
    p << "  mov.u32 %ci, %tid.x;\n$Lcp" << l << ":\n  setp.ge.u32 %cp, %ci, " << bytes / 4
      << ";\n  @%cp bra $Lcpe" << l << ";\n"
      << "  mul.wide.u32 %crd, %ci, 4;\n  add.s64 %crd, %rd" << rd
      << ", %crd;\n  shl.b32 %co, %ci, 2;\n  add.u32 %co, %co, %rs;\n";
    if (to_shared)
      p << "  ld.global.u32 %cv, [%crd];\n  st.shared.u32 [%co+" << off << "], %cv;\n";
    else
      p << "  ld.shared.u32 %cv, [%co+" << off << "];\n  st.global.u32 [%crd], %cv;\n";
    p << "  add.u32 %ci, %ci, 32;\n  bra $Lcp" << l << ";\n$Lcpe" << l << ":\n";
  };
  if (s.sa == "shared") copy(true, 0, oA, bA);
  if (s.sb == "shared") copy(true, 1, oB, bB);
  if (s.sc == "shared") copy(true, 2, oC, bC);
  if (s.sd == "shared") copy(true, 3, oD, bD);  // D's padding must survive the round trip
  if (any_shared) p << "  bar.sync 0;\n";
  // Addresses: global/generic through the parameter; shared A/B through a register, C/D by symbol.
  auto addr = [&](const std::string& sp, int rd, size_t off, bool symbol) -> std::string {
    if (sp != "shared") return "[%rd" + std::to_string(rd) + "]";
    if (symbol) return "[smem+" + std::to_string(off) + "]";
    p << "  add.u32 %ld" << rd << ", %rs, " << off << ";\n";
    return "[%ld" + std::to_string(rd) + "]";
  };
  auto stride = [&](int ld, int idx) -> std::string {
    if (!ld) return "";
    if (!s.stride_in_reg) return ", " + std::to_string(ld);
    p << "  mov.u32 %ci, " << ld << ";\n";
    (void)idx;
    return ", %ci";
  };
  auto list = [&](const char* reg, int n) {
    std::string o = "{";
    for (int i = 0; i < n; ++i) o += std::string(i ? ", %" : "%") + reg + std::to_string(i);
    return o + "}";
  };
  {
    std::string a = addr(s.sa, 0, oA, false), st = stride(s.lda, 0);
    p << "  " << fa << " " << list("a", na) << ", " << a << st << ";\n";
  }
  {
    std::string a = addr(s.sb, 1, oB, false), st = stride(s.ldb, 1);
    p << "  " << fb << " " << list("b", nb) << ", " << a << st << ";\n";
  }
  {
    std::string a = addr(s.sc, 2, oC, true), st = stride(s.ldc, 2);
    p << "  " << fc << " " << list("c", nc) << ", " << a << st << ";\n";
  }
  p << "  " << fm << " " << list("d", nd) << ", " << list("a", na) << ", " << list("b", nb) << ", "
    << list("c", nc) << ";\n";
  {
    std::string a = addr(s.sd, 3, oD, true), st = stride(s.ldd, 3);
    p << "  " << fd << " " << a << ", " << list("d", nd) << st << ";\n";
  }
  if (s.sd == "shared") {
    p << "  bar.sync 0;\n";
    copy(false, 3, oD, bD);
  }
  p << "  ret;\n}\n";

  std::mt19937_64 rng(s.seed);
  auto fill = [&](size_t bytes) {
    std::vector<uint8_t> v(bytes);
    for (auto& x : v) x = static_cast<uint8_t>(rng());
    return v;
  };
  std::vector<uint8_t> memA = fill(bA), memB = fill(bB), memC = fill(bC);
  // Element idx of `bits` bits (sub-byte elements: the lowest bits of a byte first).
  auto put_bits = [](std::vector<uint8_t>& mem, size_t idx, int bits, uint64_t v) {
    if (bits < 8) {
      const int per = 8 / bits, sh = bits * static_cast<int>(idx % per);
      const uint32_t mask = ((1u << bits) - 1) << sh;
      mem[idx / per] = static_cast<uint8_t>((mem[idx / per] & ~mask) | ((v << sh) & mask));
    } else {
      std::memcpy(&mem[idx * bits / 8], &v, bits / 8);
    }
  };
  auto put = [](std::vector<uint8_t>& mem, size_t idx, int bytes, uint64_t v) {
    std::memcpy(&mem[idx * bytes], &v, bytes);
  };
  std::vector<std::vector<uint64_t>> A(s.m, std::vector<uint64_t>(s.k)),
      B(s.k, std::vector<uint64_t>(s.n)), C(s.m, std::vector<uint64_t>(s.n));
  for (int r = 0; r < s.m; ++r)
    for (int c = 0; c < s.k; ++c)
      put_bits(memA, sA.index(s.la, r, c), abits, A[r][c] = random_bits(s.ab, rng, s.special));
  for (int r = 0; r < s.k; ++r)
    for (int c = 0; c < s.n; ++c)
      put_bits(memB, sB.index(s.lb, r, c), abits, B[r][c] = random_bits(s.ab, rng, s.special));
  for (int r = 0; r < s.m; ++r)
    for (int c = 0; c < s.n; ++c)
      put(memC, sC.index(s.lc, r, c), ec, C[r][c] = random_bits(s.c, rng, s.special));

  KernelCase kc;
  kc.name = name;
  kc.family = "wmma";
  kc.forms = {fa, fb, fc, fm, fd};
  kc.ptx = p.str();
  kc.buffers = {memA, memB, memC, std::vector<uint8_t>(bD, 0xa5)};
  kc.check = [s, A, B, C, sD, ed, bD](const Buffers& after) -> std::string {
    std::vector<uint8_t> want(bD, 0xa5);
    for (int r = 0; r < s.m; ++r)
      for (int c = 0; c < s.n; ++c) {
        std::vector<double> av(s.k), bv(s.k);
        for (int k = 0; k < s.k; ++k) {
          av[k] = value_of(s.ab, A[r][k]);
          bv[k] = value_of(s.ab, B[k][c]);
        }
        const uint64_t v = dot(s.ab, s.c, s.d, av, bv, C[r][c], s.satfinite, s.bitop);
        std::memcpy(&want[sD.index(s.ld, r, c) * ed], &v, ed);
      }
    const std::vector<uint8_t>& got = after[3];
    for (size_t i = 0; i < bD; i += ed) {
      uint64_t w = 0, g = 0;
      std::memcpy(&w, &want[i], ed);
      std::memcpy(&g, &got[i], ed);
      if (!same(s.d, w, g))
        return "D byte " + std::to_string(i) + ": expected " + hex(w) + " got " + hex(g);
    }
    return "";
  };
  return kc;
}

// movmatrix (PTX ISA "movmatrix"): lane l holds row l / 4, columns 2(l % 4) and
// 2(l % 4) + 1 of a row-major 8x8 b16 matrix and receives the same fragment of its
// transpose, i.e. the elements M[2(l % 4)][l / 4] and M[2(l % 4) + 1][l / 4].
KernelCase movmatrix_case() {
  const std::string form = "movmatrix.sync.aligned.m8n8.trans.b16";
  KernelCase kc;
  kc.name = "movmatrix";
  kc.family = "movmatrix";
  kc.forms = {form};
  kc.ptx =
      ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry conf(.param .u64 pin, .param "
      ".u64 pout)\n{\n"
      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<6>;\n  ld.param.u64 %rd0, [pin];\n  ld.param.u64 %rd1, "
      "[pout];\n"
      "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd2, %r0, 4;\n  add.s64 %rd3, %rd0, %rd2;\n  "
      "add.s64 %rd4, %rd1, %rd2;\n"
      "  ld.global.b32 %r1, [%rd3];\n  " +
      form + " %r2, %r1;\n  st.global.b32 [%rd4], %r2;\n  ret;\n}\n";
  std::mt19937_64 rng(77);
  std::vector<uint32_t> in(32);
  for (auto& v : in) v = static_cast<uint32_t>(rng());
  kc.buffers = {bytes_of(in), std::vector<uint8_t>(128, 0)};
  kc.check = [in](const Buffers& after) -> std::string {
    auto m = [&](int r, int c) { return (in[4 * r + c / 2] >> (16 * (c % 2))) & 0xffffu; };
    std::vector<uint32_t> want(32);
    for (int l = 0; l < 32; ++l) want[l] = m(2 * (l % 4), l / 4) | m(2 * (l % 4) + 1, l / 4) << 16;
    return compare_u32("d", want, values_of<uint32_t>(after[1]));
  };
  return kc;
}

// stmatrix is sm_90+: the compiler must reject it on Strata's sm_80-sm_89 tensor cores.
KernelCase stmatrix_case() {
  KernelCase kc;
  kc.name = "stmatrix.rejected";
  kc.family = "stmatrix";
  kc.forms = {"stmatrix.sync.aligned.m8n8.x1.shared.b16"};
  kc.ptx =
      ".version 7.8\n.target sm_90\n.address_size 64\n.shared .align 16 .b8 t[128];\n"
      ".visible .entry conf(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  mov.u32 %r0, t;\n  mov.u32 "
      "%r1, 0;\n"
      "  stmatrix.sync.aligned.m8n8.x1.shared.b16 [%r0], {%r1};\n  ret;\n}\n";
  kc.buffers = {std::vector<uint8_t>(4)};
  return kc;
}

}  // namespace

std::vector<KernelCase> tensor_cases() {
  std::vector<KernelCase> out;
  using F = Fmt;
  // mma.sync: every sm_80-sm_89 shape and type, on random inputs (and special values).
  const MmaSpec mmas[] = {
      {16, 8, 8, F::F32, F::F16, F::F16, F::F32},    {16, 8, 8, F::F16, F::F16, F::F16, F::F16},
      {16, 8, 16, F::F32, F::F16, F::F16, F::F32},   {16, 8, 16, F::F16, F::F16, F::F16, F::F16},
      {16, 8, 8, F::F32, F::BF16, F::BF16, F::F32},  {16, 8, 16, F::F32, F::BF16, F::BF16, F::F32},
      {16, 8, 4, F::F32, F::TF32, F::TF32, F::F32},  {16, 8, 8, F::F32, F::TF32, F::TF32, F::F32},
      {16, 8, 16, F::S32, F::S8, F::S8, F::S32},     {16, 8, 16, F::S32, F::U8, F::S8, F::S32},
      {16, 8, 32, F::S32, F::S8, F::U8, F::S32},     {16, 8, 32, F::S32, F::U8, F::U8, F::S32},
      {8, 8, 16, F::S32, F::S8, F::S8, F::S32},      {8, 8, 16, F::S32, F::U8, F::U8, F::S32},
      {8, 8, 32, F::S32, F::S4, F::S4, F::S32},      {8, 8, 32, F::S32, F::U4, F::S4, F::S32},
      {16, 8, 32, F::S32, F::S4, F::S4, F::S32},     {16, 8, 32, F::S32, F::U4, F::U4, F::S32},
      {16, 8, 64, F::S32, F::S4, F::U4, F::S32},     {16, 8, 64, F::S32, F::U4, F::U4, F::S32},
      {16, 8, 32, F::F32, F::E4M3, F::E4M3, F::F32}, {16, 8, 32, F::F32, F::E5M2, F::E5M2, F::F32},
      {16, 8, 32, F::F32, F::E4M3, F::E5M2, F::F32}, {16, 8, 32, F::F32, F::E5M2, F::E4M3, F::F32},
      {8, 8, 4, F::F64, F::F64, F::F64, F::F64},
  };
  uint64_t seed = 100;
  for (MmaSpec s : mmas) {
    s.seed = seed++;
    out.push_back(mma_case(mma_form(s) + ".random", s));
    if (!is_integer(s.a)) {
      s.special = true;
      s.seed = seed++;
      out.push_back(mma_case(mma_form(s) + ".special", s));
    }
  }
  // b1: popc of AND / XOR.
  const MmaSpec b1s[] = {{8, 8, 128, F::S32, F::B1, F::B1, F::S32, false, BitOp::kXor},
                         {8, 8, 128, F::S32, F::B1, F::B1, F::S32, false, BitOp::kAnd},
                         {16, 8, 128, F::S32, F::B1, F::B1, F::S32, false, BitOp::kXor},
                         {16, 8, 128, F::S32, F::B1, F::B1, F::S32, false, BitOp::kAnd},
                         {16, 8, 256, F::S32, F::B1, F::B1, F::S32, false, BitOp::kXor},
                         {16, 8, 256, F::S32, F::B1, F::B1, F::S32, false, BitOp::kAnd}};
  for (MmaSpec s : b1s) {
    s.seed = seed++;
    out.push_back(mma_case(mma_form(s) + ".random", s));
  }
  // .satfinite: accumulators near the int32 limits overflow in both directions.
  const MmaSpec sats[] = {{16, 8, 16, F::S32, F::S8, F::S8, F::S32, true},
                          {16, 8, 32, F::S32, F::U8, F::S8, F::S32, true},
                          {8, 8, 16, F::S32, F::U8, F::U8, F::S32, true},
                          {16, 8, 64, F::S32, F::S4, F::S4, F::S32, true},
                          {8, 8, 32, F::S32, F::U4, F::U4, F::S32, true},
                          {16, 8, 32, F::S32, F::S4, F::U4, F::S32, true}};
  for (MmaSpec s : sats) {
    s.seed = seed++;
    out.push_back(mma_case(mma_form(s) + ".random", s));
  }

  // ldmatrix: every count, with and without .trans, shared and generic addresses.
  for (int num : {1, 2, 4})
    for (bool trans : {false, true})
      out.push_back(ldmatrix_case("ldmatrix.x" + std::to_string(num) + (trans ? ".trans" : ""), num,
                                  trans, "shared"));
  out.push_back(ldmatrix_case("ldmatrix.x4.generic", 4, false, ""));
  out.push_back(ldmatrix_case("ldmatrix.x2.trans.generic", 2, true, ""));
  out.push_back(ldmatrix_case("ldmatrix.x4.trans.shared::cta", 4, true, "shared::cta"));

  // wmma: every shape and type, layouts, state spaces and strides.
  auto w = [&](const std::string& name, WmmaSpec s) {
    s.seed = seed++;
    out.push_back(wmma_case(name, s));
  };
  WmmaSpec s{16, 16, 16, F::F16, F::F32, F::F32};
  w("wmma.f16.f32.global", s);
  s.special = true;
  w("wmma.f16.f32.global.special", s);
  s = {16, 16, 16, F::F16, F::F32, F::F32};
  s.sa = s.sb = s.sc = s.sd = "shared";
  s.lda = 24, s.ldb = 40, s.ldc = 20, s.ldd = 36;
  w("wmma.f16.f32.shared.strides", s);
  s.stride_in_reg = true, s.la = 'c', s.lb = 'r', s.lc = 'c', s.ld = 'c';
  w("wmma.f16.f32.shared.col-row.reg-strides", s);
  s = {16, 16, 16, F::F16, F::F16, F::F16};
  s.sa = s.sb = s.sc = s.sd = "", s.la = 'c', s.lb = 'r', s.lc = 'c';
  w("wmma.f16.f16.generic", s);
  s = {32, 8, 16, F::F16, F::F16, F::F32};
  s.lda = 24, s.ldd = 16;
  w("wmma.m32n8k16.f16.f32-acc", s);
  s = {8, 32, 16, F::F16, F::F32, F::F16};
  s.la = 'c', s.lb = 'r', s.ldb = 40;
  w("wmma.m8n32k16.f16.mixed", s);
  s = {16, 16, 16, F::BF16, F::F32, F::F32};
  s.sa = s.sb = "";
  w("wmma.bf16.generic", s);
  s = {32, 8, 16, F::BF16, F::F32, F::F32};
  s.la = 'c', s.lc = 'c', s.ld = 'c';
  w("wmma.m32n8k16.bf16", s);
  s = {8, 32, 16, F::BF16, F::F32, F::F32};
  s.lb = 'r', s.ldc = 40;
  w("wmma.m8n32k16.bf16", s);
  s = {16, 16, 16, F::U8, F::S32, F::S32};
  w("wmma.u8.global", s);
  s.sa = s.sb = s.sc = s.sd = "shared";
  s.lda = 32, s.ldb = 48;
  w("wmma.u8.shared", s);
  s = {32, 8, 16, F::S8, F::S32, F::S32};
  s.satfinite = true;
  w("wmma.m32n8k16.s8.satfinite", s);
  s = {8, 32, 16, F::S8, F::S32, F::S32};
  s.la = 'c', s.lb = 'r', s.lc = 'c', s.sd = "";
  w("wmma.m8n32k16.s8", s);
  s = {16, 16, 8, F::TF32, F::F32, F::F32};
  s.sa = s.sb = s.sc = s.sd = "";
  w("wmma.tf32.generic", s);
  s.la = 'c', s.lb = 'r', s.sa = "shared", s.lda = 20;
  w("wmma.tf32.col-row", s);
  s = {8, 8, 32, F::S4, F::S32, F::S32};
  s.lda = 64, s.ldb = 40;
  w("wmma.m8n8k32.s4", s);
  s = {8, 8, 32, F::U4, F::S32, F::S32};
  s.sa = s.sb = s.sc = s.sd = "shared", s.satfinite = true, s.lc = 'c';
  w("wmma.m8n8k32.u4.shared.satfinite", s);
  s = {8, 8, 128, F::B1, F::S32, F::S32};
  s.bitop = BitOp::kXor, s.lda = 256, s.ldb = 384;
  w("wmma.m8n8k128.b1.xor", s);
  s = {8, 8, 128, F::B1, F::S32, F::S32};
  s.bitop = BitOp::kAnd, s.sa = s.sb = "shared", s.sc = s.sd = "";
  w("wmma.m8n8k128.b1.and", s);
  s = {8, 8, 4, F::F64, F::F64, F::F64};
  s.sa = s.sb = s.sc = s.sd = "";
  w("wmma.f64.generic", s);
  s.special = true;
  s.la = 'c', s.lb = 'r', s.lc = 'c', s.sa = s.sd = "shared", s.ldd = 12;
  w("wmma.f64.col-row.special", s);

  out.push_back(movmatrix_case());
  out.push_back(stmatrix_case());
  return out;
}

}  // namespace strata::ptx_conformance
