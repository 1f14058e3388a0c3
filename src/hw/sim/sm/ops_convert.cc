// CVT: every pair of data types, with PTX semantics. Float-to-integer rounds by the
// Round field (RN/RZ/RM/RP = cvt.rni/rzi/rmi/rpi), maps NaN to 0 and saturates to the
// destination's range; integer-to-integer wraps (or saturates with SAT); conversions to
// a narrower float round once by the Round field; kModRoundInt rounds a float to an
// integral value of the destination format. Results narrower than 32 bits are extended
// (by the destination's signedness) to fill the register.
#include <cmath>
#include <limits>

#include "hw/sim/sm/float_util.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"

namespace strata::hw::sim {
namespace {

using isa::DataType;

enum class Kind { kInt, kFloat, kInvalid };

Kind kind_of(DataType t) {
  switch (t) {
    case DataType::F16: case DataType::BF16: case DataType::F32: case DataType::F64: return Kind::kFloat;
    case DataType::U8: case DataType::S8: case DataType::U16: case DataType::S16:
    case DataType::U32: case DataType::S32: case DataType::U64: case DataType::S64:
    case DataType::B8: case DataType::B16: case DataType::B32: case DataType::B64: return Kind::kInt;
    default: return Kind::kInvalid;
  }
}

// An integer operand of type t, extended to 64 bits by its signedness.
int64_t int_extend(uint64_t raw, DataType t) {
  const int bits = isa::type_bits(t);
  if (bits >= 64) return static_cast<int64_t>(raw);
  const uint64_t mask = (1ull << bits) - 1;
  raw &= mask;
  if (isa::type_is_signed(t) && ((raw >> (bits - 1)) & 1)) raw |= ~mask;
  return static_cast<int64_t>(raw);
}

// The register value of an integer of type t (extended to 32 bits when narrower).
uint64_t int_pack(uint64_t v, DataType t) { return static_cast<uint64_t>(int_extend(v, t)); }

double float_load(uint64_t raw, DataType t, bool ftz) {
  switch (t) {
    case DataType::F16: return f16_to_f32(static_cast<uint16_t>(raw));
    case DataType::BF16: return bf16_to_f32(static_cast<uint16_t>(raw));
    case DataType::F32: {
      const float f = std::bit_cast<float>(static_cast<uint32_t>(raw));
      return ftz ? flush_f32(f) : f;
    }
    default: return std::bit_cast<double>(raw);
  }
}

// Rounds to an integral value by mode (exact in double); the result has x's sign.
double round_integral(double x, isa::Round r) {
  if (!std::isfinite(x)) return x;
  switch (r) {
    case isa::Round::RZ: return std::trunc(x);
    case isa::Round::RM: return std::floor(x);
    case isa::Round::RP: return std::ceil(x);
    default: {
      // IEEE roundToIntegral keeps the sign: -0.3 rounds to -0, not +0.
      const double fl = std::floor(x), frac = x - fl;
      double v = fl;
      if (frac > 0.5 || (frac == 0.5 && std::fmod(fl, 2.0) != 0)) v = fl + 1;
      return std::copysign(v, x);
    }
  }
}

uint64_t float_to_int(double x, DataType dst, isa::Round r) {
  if (std::isnan(x)) return 0;
  const double v = round_integral(x, r);
  const int bits = isa::type_bits(dst);
  if (isa::type_is_signed(dst)) {
    const double lo = -std::ldexp(1.0, bits - 1), hi = std::ldexp(1.0, bits - 1);  // [lo, hi)
    int64_t out;
    if (v < lo) out = bits == 64 ? INT64_MIN : static_cast<int64_t>(lo);
    else if (v >= hi) out = bits == 64 ? INT64_MAX : static_cast<int64_t>(hi) - 1;
    else out = static_cast<int64_t>(v);
    return int_pack(static_cast<uint64_t>(out), dst);
  }
  const double hi = std::ldexp(1.0, bits);
  if (v <= 0) return 0;
  if (v >= hi) return bits == 64 ? UINT64_MAX : (1ull << bits) - 1;
  return static_cast<uint64_t>(v);
}

// Integer to integer: wrap, or clamp to the destination range with SAT.
uint64_t int_to_int(int64_t v, DataType src, DataType dst, bool sat) {
  if (sat) {
    const int bits = isa::type_bits(dst);
    const bool src_signed = isa::type_is_signed(src);
    if (isa::type_is_signed(dst)) {
      const int64_t hi = bits == 64 ? INT64_MAX : (int64_t{1} << (bits - 1)) - 1;
      const int64_t lo = bits == 64 ? INT64_MIN : -(int64_t{1} << (bits - 1));
      if (!src_signed && static_cast<uint64_t>(v) > static_cast<uint64_t>(hi)) v = hi;
      else if (src_signed && v > hi) v = hi;
      else if (src_signed && v < lo) v = lo;
    } else {
      const uint64_t hi = bits == 64 ? UINT64_MAX : (uint64_t{1} << bits) - 1;
      if (src_signed && v < 0) v = 0;
      else if (static_cast<uint64_t>(v) > hi) v = static_cast<int64_t>(hi);
    }
  }
  return int_pack(static_cast<uint64_t>(v), dst);
}

// Integer to float under rounding mode r.
uint64_t int_to_float(int64_t v, bool is_signed, DataType dst, isa::Round r) {
  ScopedRound scope(r);
  switch (dst) {
    case DataType::F32: {
      const float f = is_signed ? static_cast<float>(v) : static_cast<float>(static_cast<uint64_t>(v));
      return std::bit_cast<uint32_t>(f);
    }
    case DataType::F64: {
      const double d = is_signed ? static_cast<double>(v) : static_cast<double>(static_cast<uint64_t>(v));
      return std::bit_cast<uint64_t>(d);
    }
    default: {
      // Exact for every integer a 16-bit float can represent without overflow.
      const double d = is_signed ? static_cast<double>(v) : static_cast<double>(static_cast<uint64_t>(v));
      return dst == DataType::F16 ? to_f16(d, r) : to_bf16(d, r);
    }
  }
}

uint64_t float_to_float(double x, DataType src, DataType dst, uint8_t mod) {
  const auto r = static_cast<isa::Round>(mod & 3);
  const bool ftz = (mod & isa::kModFtz) != 0, sat = (mod & isa::kModSat) != 0;
  isa::Round narrow = r;
  if (mod & isa::kModRoundInt) {
    x = round_integral(x, r);
    narrow = isa::Round::RN;
  }
  if (sat) x = saturate(x);
  switch (dst) {
    case DataType::F64: return std::bit_cast<uint64_t>(x);
    case DataType::F32: {
      float f;
      {
        ScopedRound scope(narrow);
        f = static_cast<float>(x);
      }
      if (ftz) f = flush_f32(f);
      return std::bit_cast<uint32_t>(f);
    }
    case DataType::F16: return to_f16(x, narrow);
    default: return to_bf16(x, narrow);
  }
}

void h_cvt(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const DataType dst = in.inst.type, src = in.inst.type2;
  const uint8_t mod = in.inst.mod;
  const auto r = static_cast<isa::Round>(mod & 3);
  const bool ftz = (mod & isa::kModFtz) != 0, sat = (mod & isa::kModSat) != 0;
  const Kind ks = kind_of(src), kd = kind_of(dst);
  const uint32_t* a = c.row(in.a);
  const bool wide_src = isa::type_bits(src) == 64;
  uint64_t out[32];
  for (int l = 0; l < 32; ++l) {
    const uint64_t raw = wide_src ? lane_get<uint64_t>(a, l) : a[l];
    uint64_t v;
    if (ks == Kind::kInt && kd == Kind::kInt) {
      v = int_to_int(int_extend(raw, src), src, dst, sat);
    } else if (ks == Kind::kInt) {
      v = int_to_float(int_extend(raw, src), isa::type_is_signed(src), dst, r);
      if (sat || ftz) v = float_to_float(float_load(v, dst, false), dst, dst, mod & (isa::kModSat | isa::kModFtz));
    } else if (kd == Kind::kInt) {
      v = float_to_int(float_load(raw, src, ftz), dst, r);
    } else {
      v = float_to_float(float_load(raw, src, ftz), src, dst, mod);
    }
    out[l] = v;
  }
  if (isa::type_bits(dst) == 64) {
    lanes_store<uint64_t>(c.row(in.d), out, m);
  } else {
    uint32_t out32[32];
    for (int l = 0; l < 32; ++l) out32[l] = static_cast<uint32_t>(out[l]);
    lanes_store<uint32_t>(c.row(in.d), out32, m);
  }
}

// Fast paths for the conversions in address and index arithmetic.
void h_cvt_s64_s32(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<int64_t, int32_t>(c, in, m, [](int32_t a) { return static_cast<int64_t>(a); });
}
void h_cvt_u64_u32(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<uint64_t, uint32_t>(c, in, m, [](uint32_t a) { return static_cast<uint64_t>(a); });
}
void h_cvt_f32_s32_rn(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<float, int32_t>(c, in, m, [](int32_t a) { return static_cast<float>(a); });
}

}  // namespace

Handler select_CVT(const isa::Inst& i) {
  if (kind_of(i.type) == Kind::kInvalid || kind_of(i.type2) == Kind::kInvalid) return nullptr;
  const bool plain = (i.mod & ~0u) == 0;
  if (plain && i.type == DataType::S64 && i.type2 == DataType::S32) return &h_cvt_s64_s32;
  if (plain && (i.type == DataType::U64 || i.type == DataType::B64) && (i.type2 == DataType::U32 || i.type2 == DataType::B32)) return &h_cvt_u64_u32;
  if (plain && i.type == DataType::F32 && i.type2 == DataType::S32) return &h_cvt_f32_s32_rn;
  return &h_cvt;
}

}  // namespace strata::hw::sim
