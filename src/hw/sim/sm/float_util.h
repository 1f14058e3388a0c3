// Floating-point helpers for handlers: rounding-mode scopes, flush-to-zero, saturation,
// and exact conversions to/from the 16-bit formats (F16, BF16) under any rounding mode.
// Files that use ScopedRound are compiled with -frounding-math.
#pragma once

#include <cfenv>
#include <cmath>
#include <cstdint>
#include <limits>

#include "isa/inst.h"

namespace strata::hw::sim {

inline int fe_mode(isa::Round r) {
  switch (r) {
    case isa::Round::RZ: return FE_TOWARDZERO;
    case isa::Round::RM: return FE_DOWNWARD;
    case isa::Round::RP: return FE_UPWARD;
    default: return FE_TONEAREST;
  }
}

// Sets the host rounding mode for the current scope (no-op for RN).
class ScopedRound {
 public:
  explicit ScopedRound(isa::Round r) : active_(r != isa::Round::RN) {
    if (active_) {
      saved_ = std::fegetround();
      std::fesetround(fe_mode(r));
    }
  }
  ~ScopedRound() {
    if (active_) std::fesetround(saved_);
  }
  ScopedRound(const ScopedRound&) = delete;
  ScopedRound& operator=(const ScopedRound&) = delete;

 private:
  bool active_;
  int saved_ = FE_TONEAREST;
};

// Sign-preserving flush of subnormals to zero.
inline float flush_f32(float x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0f, x) : x; }
inline double flush_f64(double x) { return std::fpclassify(x) == FP_SUBNORMAL ? std::copysign(0.0, x) : x; }

// .sat: clamp to [0, 1]; NaN becomes +0.
template <typename F>
inline F saturate(F x) {
  if (std::isnan(x)) return F(0);
  return x < F(0) ? F(0) : (x > F(1) ? F(1) : x);
}

// Rounds a non-negative, finite `scaled` to an integer by mode; `negative` is the sign
// of the value it stands for (directed modes round the magnitude accordingly).
inline double round_magnitude(double scaled, isa::Round r, bool negative) {
  const double fl = std::floor(scaled);
  const double frac = scaled - fl;
  if (frac == 0) return fl;
  switch (r) {
    case isa::Round::RN:
      if (frac > 0.5) return fl + 1;
      if (frac < 0.5) return fl;
      return std::fmod(fl, 2.0) == 0 ? fl : fl + 1;
    case isa::Round::RZ: return fl;
    case isa::Round::RM: return negative ? fl + 1 : fl;
    case isa::Round::RP: return negative ? fl : fl + 1;
  }
  return fl;
}

// Converts a double to a binary floating-point format with kMant mantissa bits and
// kExpBits exponent bits (F16: 10/5, BF16: 7/8), rounding once by `r`.
template <int kMant, int kExpBits>
uint16_t to_small_float(double x, isa::Round r) {
  constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  constexpr uint32_t kInf = ((1u << kExpBits) - 1) << kMant;
  constexpr uint32_t kMaxFinite = kInf - 1;
  const bool neg = std::signbit(x);
  const uint32_t sign = neg ? 1u << (kMant + kExpBits) : 0;
  if (std::isnan(x)) return static_cast<uint16_t>(kInf | (1u << (kMant - 1)));
  const double a = std::fabs(x);
  const bool to_inf = r == isa::Round::RN || (r == isa::Round::RP && !neg) || (r == isa::Round::RM && neg);
  const uint32_t overflow = sign | (to_inf ? kInf : kMaxFinite);
  if (std::isinf(a)) return static_cast<uint16_t>(sign | kInf);
  if (a == 0) return static_cast<uint16_t>(sign);
  int e2;
  std::frexp(a, &e2);  // a = m * 2^e2, m in [0.5, 1): exponent of a is e2 - 1
  int exp = e2 - 1;
  if (exp > kBias) return static_cast<uint16_t>(overflow);
  const int min_exp = 1 - kBias;
  const int ulp_exp = (exp < min_exp ? min_exp : exp) - kMant;
  const double n = round_magnitude(std::ldexp(a, -ulp_exp), r, neg);
  uint64_t bits;
  if (exp < min_exp) {
    bits = static_cast<uint64_t>(n);  // subnormal; n == 2^kMant becomes the smallest normal
  } else {
    bits = (static_cast<uint64_t>(exp + kBias) << kMant) + static_cast<uint64_t>(n) - (1u << kMant);
  }
  if (bits >= kInf) return static_cast<uint16_t>(overflow);
  return static_cast<uint16_t>(sign | bits);
}

inline uint16_t to_f16(double x, isa::Round r) { return to_small_float<10, 5>(x, r); }
inline uint16_t to_bf16(double x, isa::Round r) { return to_small_float<7, 8>(x, r); }

inline float f16_to_f32(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1f, mant = h & 0x3ff;
  float v;
  if (exp == 0) {
    v = std::ldexp(static_cast<float>(mant), -24);
  } else if (exp == 31) {
    v = mant ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity();
  } else {
    v = std::ldexp(static_cast<float>(mant | 0x400), static_cast<int>(exp) - 25);
  }
  return sign ? -v : v;
}
inline float bf16_to_f32(uint16_t h) {
  const uint32_t bits = static_cast<uint32_t>(h) << 16;
  float f;
  static_assert(sizeof(f) == 4);
  __builtin_memcpy(&f, &bits, 4);
  return f;
}

}  // namespace strata::hw::sim
