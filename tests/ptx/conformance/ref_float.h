// Exact binary floating-point arithmetic for the conformance references, written from
// the IEEE 754 definitions and the PTX ISA's format descriptions (never from the
// simulator): a finite value is an exact (sign, integer magnitude, power-of-two
// exponent) triple; sums and products of such values are formed exactly (a sum whose
// terms are more than 64 binades apart keeps the small one only as a sticky term, which
// rounds identically for any result of at most 53 significant bits), and `round_to`
// rounds once to a small binary format (f16, bf16, tf32, e4m3, e5m2) under any PTX
// rounding mode, with PTX .satfinite.
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>

namespace strata::ptx_conformance::ref {

// A binary format with `mant` stored mantissa bits and `exp` exponent bits. IEEE-like
// formats have infinities (all-ones exponent, zero mantissa) and NaNs; e4m3 (PTX
// .e4m3, "E4M3" of the OCP FP8 formats) has no infinities and one NaN per sign,
// S.1111.111, so its largest finite value is 1.75 * 2^8 = 448.
struct Format {
  int mant, exp;
  bool has_inf = true;
  int bits() const { return 1 + exp + mant; }
  int bias() const { return (1 << (exp - 1)) - 1; }
  uint32_t sign_bit() const { return 1u << (exp + mant); }
  uint32_t inf() const { return ((1u << exp) - 1) << mant; }
  uint32_t max_finite() const { return has_inf ? inf() - 1 : inf() | ((1u << mant) - 2); }
  uint32_t quiet_nan() const {
    return has_inf ? inf() | (1u << (mant - 1)) : inf() | ((1u << mant) - 1);
  }
};
inline constexpr Format kF16{10, 5}, kBF16{7, 8}, kTF32{10, 8}, kE4M3{3, 4, false}, kE5M2{2, 5},
    kF32{23, 8};

enum class Rnd { kRN, kRZ, kRM, kRP, kRNA };

// value = (neg ? -1 : 1) * mag * 2^exp, plus (when sticky) a nonzero amount of the same
// sign far below the last bit of mag.
struct Exact {
  bool neg = false;
  unsigned __int128 mag = 0;
  int exp = 0;
  bool sticky = false;
};

inline int msb(unsigned __int128 v) {
  uint64_t hi = static_cast<uint64_t>(v >> 64);
  return hi ? 127 - __builtin_clzll(hi) : 63 - __builtin_clzll(static_cast<uint64_t>(v));
}

// A finite double as an Exact (53-bit integer magnitude).
inline Exact exact_of(double d) {
  Exact e;
  e.neg = std::signbit(d);
  if (d == 0) return e;
  int k;
  double m = std::frexp(std::fabs(d), &k);  // |d| = m * 2^k, m in [0.5, 1)
  e.mag = static_cast<uint64_t>(std::ldexp(m, 53));
  e.exp = k - 53;
  while (!(e.mag & 1)) e.mag >>= 1, ++e.exp;  // keep magnitudes short: sums align them
  return e;
}

inline Exact mul(const Exact& a, const Exact& b) {
  return Exact{a.neg != b.neg, a.mag * b.mag, a.exp + b.exp, false};
}

// a + b, exact (see the file comment for the far-apart case). A zero sum takes the sign
// IEEE 754 gives it under round-to-nearest (callers fix it for RM).
inline Exact add(Exact a, Exact b) {
  if (a.mag == 0) return b.mag == 0 ? Exact{a.neg && b.neg, 0, 0, false} : b;
  if (b.mag == 0) return a;
  int ta = msb(a.mag) + a.exp, tb = msb(b.mag) + b.exp;
  if (ta < tb) std::swap(a, b), std::swap(ta, tb);
  if (ta - tb > 64) b = Exact{b.neg, 1, ta - 66, false};  // only its sign and presence matter
  int e = a.exp < b.exp ? a.exp : b.exp;
  if (ta - e > 125) {  // too wide for exact alignment (only long-mantissa sums): keep the top
    const int drop = ta - e - 125;
    for (Exact* x : {&a, &b}) {
      if (x->exp - e >= drop) continue;
      const int k = drop - (x->exp - e);
      const bool lost = (x->mag & ((static_cast<unsigned __int128>(1) << k) - 1)) != 0;
      x->mag >>= k;
      x->exp += k;
      x->mag |= lost;  // a sticky low bit (valid: 125 bits exceed any format's needs)
    }
    e += drop;
  }
  unsigned __int128 ma = a.mag << (a.exp - e), mb = b.mag << (b.exp - e);
  Exact r;
  r.exp = e;
  if (a.neg == b.neg) {
    r.neg = a.neg;
    r.mag = ma + mb;
  } else if (ma >= mb) {
    r.neg = a.neg;
    r.mag = ma - mb;
  } else {
    r.neg = b.neg;
    r.mag = mb - ma;
  }
  if (r.mag == 0) r.neg = false;
  return r;
}

// Rounds x to format f (bits of the result). Overflow gives infinity or the largest
// finite value as the mode directs (.satfinite: always the largest finite value; e4m3
// without .satfinite: NaN).
inline uint32_t round_to(const Format& f, const Exact& x, Rnd r, bool satfinite = false) {
  const uint32_t sign = x.neg ? f.sign_bit() : 0;
  if (x.mag == 0 && !x.sticky) return sign;
  unsigned __int128 mag = x.mag;
  int exp = x.exp;
  bool sticky = x.sticky;
  if (mag == 0) {  // only the sticky remainder: a value below every rounding point
    mag = 1;
    exp = -100000;
    sticky = false;
  }
  const int top = msb(mag) + exp;  // |x| in [2^top, 2^(top+1))
  const int emin = 1 - f.bias();
  const int q = (top > emin ? top : emin) - f.mant;  // exponent of the result's last bit
  unsigned __int128 n;
  bool up = false;
  const int shift = q - exp;
  if (shift <= 0) {
    n = mag << -shift;
    bool inexact = sticky;
    up = inexact && ((r == Rnd::kRP && !x.neg) || (r == Rnd::kRM && x.neg));
  } else {
    unsigned __int128 rem, half;
    if (shift >= 120) {
      n = 0;
      rem = mag;
      half = 0;  // far below: less than half, nonzero
      bool inexact = true;
      up = inexact && ((r == Rnd::kRP && !x.neg) || (r == Rnd::kRM && x.neg));
    } else {
      n = mag >> shift;
      rem = mag & ((static_cast<unsigned __int128>(1) << shift) - 1);
      half = static_cast<unsigned __int128>(1) << (shift - 1);
      bool inexact = rem != 0 || sticky;
      bool above = rem > half || (rem == half && sticky), tie = rem == half && !sticky;
      switch (r) {
        case Rnd::kRN:
          up = above || (tie && (n & 1));
          break;
        case Rnd::kRNA:
          up = above || tie;
          break;
        case Rnd::kRZ:
          up = false;
          break;
        case Rnd::kRP:
          up = inexact && !x.neg;
          break;
        case Rnd::kRM:
          up = inexact && x.neg;
          break;
      }
    }
  }
  n += up;
  uint64_t biased = 0, m = static_cast<uint64_t>(n);
  const uint64_t hidden = 1ull << f.mant;
  if (m >= hidden) {
    int e = q + f.mant;  // the exponent of n's leading bit
    if (m >= 2 * hidden)
      m >>= 1, ++e;  // rounding carried into a new binade (m was exactly 2 * hidden)
    biased = static_cast<uint64_t>(e + f.bias());
    m -= hidden;
  }
  const uint64_t bits = (biased << f.mant) | m;
  const bool overflow = f.has_inf ? bits >= f.inf() : bits > f.max_finite();
  if (!overflow) return sign | static_cast<uint32_t>(bits);
  if (satfinite) return sign | f.max_finite();
  if (!f.has_inf) return sign | f.quiet_nan();
  const bool to_inf =
      r == Rnd::kRN || r == Rnd::kRNA || (r == Rnd::kRP && !x.neg) || (r == Rnd::kRM && x.neg);
  return sign | (to_inf ? f.inf() : f.max_finite());
}

// The value of format-f bits as a double (exact for every format here), NaN included.
inline double value_of(const Format& f, uint32_t bits) {
  const bool neg = (bits >> (f.exp + f.mant)) & 1;
  const uint32_t e = (bits >> f.mant) & ((1u << f.exp) - 1), m = bits & ((1u << f.mant) - 1);
  double v;
  if (e == (1u << f.exp) - 1 && (f.has_inf || m == (1u << f.mant) - 1)) {
    v = (f.has_inf && m == 0) ? INFINITY : NAN;
  } else if (e == 0) {
    v = std::ldexp(static_cast<double>(m), 1 - f.bias() - f.mant);
  } else {
    v = std::ldexp(static_cast<double>(m | (1u << f.mant)),
                   static_cast<int>(e) - f.bias() - f.mant);
  }
  return neg ? -v : v;
}
inline bool is_nan(const Format& f, uint32_t bits) {
  return std::isnan(value_of(f, bits));
}
inline bool is_subnormal(const Format& f, uint32_t bits) {
  return ((bits >> f.mant) & ((1u << f.exp) - 1)) == 0 && (bits & ((1u << f.mant) - 1)) != 0;
}

// A double rounded to format f; NaN -> the format's quiet NaN; infinities overflow as
// round_to directs (.satfinite: the largest finite value).
inline uint32_t from_double(const Format& f, double d, Rnd r, bool satfinite = false) {
  if (std::isnan(d)) return f.quiet_nan();
  if (std::isinf(d)) {
    const uint32_t sign = d < 0 ? f.sign_bit() : 0;
    if (satfinite || !f.has_inf) return sign | (satfinite ? f.max_finite() : f.quiet_nan());
    return sign | f.inf();
  }
  return round_to(f, exact_of(d), r, satfinite);
}

}  // namespace strata::ptx_conformance::ref
