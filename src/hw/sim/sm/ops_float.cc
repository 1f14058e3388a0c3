// Floating-point handlers (FADD .. FSETP) for F32, F64, F16 and BF16 (a half in the low
// 16 bits of a register). F32/F64 arithmetic runs in the host's IEEE units under the
// instruction's rounding mode; F16/BF16 is computed in double and rounded once.
#include <bit>
#include <cmath>
#include <limits>

#include "hw/sim/sm/float_util.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"

namespace strata::hw::sim {
namespace {

using isa::DataType;

struct F32 {
  using Storage = float;
  using Compute = float;
  static Compute load(Storage s, bool ftz) { return ftz ? flush_f32(s) : s; }
  static Storage finish(Compute v, isa::Round, bool ftz, bool sat) {
    if (sat) v = saturate(v);
    return ftz ? flush_f32(v) : v;
  }
};
struct F64 {
  using Storage = double;
  using Compute = double;
  static Compute load(Storage s, bool) { return s; }
  static Storage finish(Compute v, isa::Round, bool, bool sat) { return sat ? saturate(v) : v; }
};
// The 16-bit formats compute in double and round once: add/sub/mul of two halves are
// exact in double (and div/sqrt correctly rounded twice is still correct: 53 >= 2*11+2);
// fma is rounded to odd in double (fma_round_odd), so that the second rounding is
// correct even when the addend is far below the product. FTZ flushes subnormal inputs
// and results to a zero of the same sign.
template <int kMant, int kExp>
struct Half {
  using Storage = uint16_t;
  using Compute = double;
  static constexpr uint16_t kExpMask = ((1u << kExp) - 1) << kMant;
  static uint16_t flush(uint16_t s) { return (s & kExpMask) == 0 ? static_cast<uint16_t>(s & 0x8000u) : s; }
  static Compute load(Storage s, bool ftz) {
    if (ftz) s = flush(s);
    return kMant == 10 ? f16_to_f32(s) : bf16_to_f32(s);
  }
  static Storage finish(Compute v, isa::Round r, bool ftz, bool sat) {
    const uint16_t h = to_small_float<kMant, kExp>(sat ? saturate(v) : v, r);
    return ftz ? flush(h) : h;
  }
};
using F16 = Half<10, 5>;
using BF16 = Half<7, 8>;

struct FmaOp;

// p * q + c rounded to odd in double (truncated, with the last bit set when inexact), for
// halves: p * q is exact, so the error of the one addition (Knuth's TwoSum) says on
// which side of the double result the exact value lies.
double fma_round_odd(double p, double q, double c) {
  const double prod = p * q, s = prod + c;
  if (!std::isfinite(prod) || !std::isfinite(c) || !std::isfinite(s)) return s;
  const double bb = s - prod, err = (prod - (s - bb)) + (c - bb);
  if (err == 0) return s;
  const double t = std::signbit(err) == std::signbit(s) ? s : std::nextafter(s, 0.0);
  return std::bit_cast<double>(std::bit_cast<uint64_t>(t) | 1);
}

// Binary/ternary arithmetic with the kFloat modifiers.
template <typename Tr, typename Op>
void float_arith(ExecContext& c, const DecodedInst& in, uint32_t m, int arity) {
  using S = typename Tr::Storage;
  using C = typename Tr::Compute;
  const uint8_t mod = in.inst.mod;
  const auto r = static_cast<isa::Round>(mod & 3);
  const bool ftz = (mod & isa::kModFtz) != 0, sat = (mod & isa::kModSat) != 0;
  const uint32_t* a = c.row(in.a);
  const uint32_t* b = c.src_b(in);
  const uint32_t* x = c.row(in.c);
  S out[32];
  if constexpr (std::is_same_v<S, float> || std::is_same_v<S, double>) {
    if (mod == 0) {  // fast path: round to nearest, no flags
      for (int l = 0; l < 32; ++l) {
        out[l] = Op::apply(lane_get<S>(a, l), lane_get<S>(b, l), arity == 3 ? lane_get<S>(x, l) : S(0));
      }
      lanes_store<S>(c.row(in.d), out, m);
      return;
    }
  }
  {
    // F16/BF16 compute in double at RN (exact, or rounded to odd for FFMA: see Half),
    // then round once by the mode; F32/F64 round in hardware under the requested mode.
    ScopedRound scope(std::is_same_v<S, uint16_t> ? isa::Round::RN : r);
    for (int l = 0; l < 32; ++l) {
      const C va = Tr::load(lane_get<S>(a, l), ftz);
      const C vb = Tr::load(lane_get<S>(b, l), ftz);
      const C vc = arity == 3 ? Tr::load(lane_get<S>(x, l), ftz) : C(0);
      if constexpr (std::is_same_v<S, uint16_t> && std::is_same_v<Op, FmaOp>) {
        out[l] = Tr::finish(fma_round_odd(va, vb, vc), r, ftz, sat);
      } else {
        out[l] = Tr::finish(Op::apply(va, vb, vc), r, ftz, sat);
      }
    }
  }
  lanes_store<S>(c.row(in.d), out, m);
}

struct AddOp { template <typename C> static C apply(C a, C b, C) { return a + b; } };
struct SubOp { template <typename C> static C apply(C a, C b, C) { return a - b; } };
struct MulOp { template <typename C> static C apply(C a, C b, C) { return a * b; } };
struct DivOp { template <typename C> static C apply(C a, C b, C) { return a / b; } };
struct FmaOp { template <typename C> static C apply(C a, C b, C x) { return std::fma(a, b, x); } };
// minNum/maxNum: a NaN operand yields the other; -0 orders below +0.
struct MinOp {
  template <typename C> static C apply(C a, C b, C) {
    if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<C>::quiet_NaN() : b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? a : b;
    return a < b ? a : b;
  }
};
struct MaxOp {
  template <typename C> static C apply(C a, C b, C) {
    if (std::isnan(a)) return std::isnan(b) ? std::numeric_limits<C>::quiet_NaN() : b;
    if (std::isnan(b)) return a;
    if (a == b) return std::signbit(a) ? b : a;
    return a > b ? a : b;
  }
};

template <typename Tr, typename Op, int kArity>
void h_farith(ExecContext& c, const DecodedInst& in, uint32_t m) { float_arith<Tr, Op>(c, in, m, kArity); }

#if defined(__x86_64__) && defined(__GNUC__)
// FFMA/DFMA compiled for hosts with FMA3: std::fma becomes one vector instruction
// instead of a libm call per lane. fma is exactly rounded, so both variants compute the
// same bits under every rounding mode; decode picks this one when the host has FMA3.
template <typename Tr>
__attribute__((target("avx2,fma"), flatten)) void h_fma_x86(ExecContext& c, const DecodedInst& in, uint32_t m) {
  float_arith<Tr, FmaOp>(c, in, m, 3);
}
bool host_has_fma() {
  static const bool has = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return has;
}
#endif

template <typename Op, int kArity>
Handler select_farith(const isa::Inst& i) {
#if defined(__x86_64__) && defined(__GNUC__)
  if constexpr (std::is_same_v<Op, FmaOp>) {
    if (host_has_fma() && i.type == DataType::F32) return &h_fma_x86<F32>;
    if (host_has_fma() && i.type == DataType::F64) return &h_fma_x86<F64>;
  }
#endif
  switch (i.type) {
    case DataType::F32: return &h_farith<F32, Op, kArity>;
    case DataType::F64: return &h_farith<F64, Op, kArity>;
    case DataType::F16: return &h_farith<F16, Op, kArity>;
    case DataType::BF16: return &h_farith<BF16, Op, kArity>;
    default: return nullptr;
  }
}

// Sign-bit operations.
template <typename S>
void h_fabs(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<S, S>(c, in, m, [](S a) { return static_cast<S>(a & ~(S(1) << (sizeof(S) * 8 - 1))); });
}
template <typename S>
void h_fneg(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<S, S>(c, in, m, [](S a) { return static_cast<S>(a ^ (S(1) << (sizeof(S) * 8 - 1))); });
}
Handler select_sign(const isa::Inst& i, bool neg) {
  switch (i.type) {
    case DataType::F32: return neg ? &h_fneg<uint32_t> : &h_fabs<uint32_t>;
    case DataType::F64: return neg ? &h_fneg<uint64_t> : &h_fabs<uint64_t>;
    case DataType::F16:
    case DataType::BF16: return neg ? &h_fneg<uint16_t> : &h_fabs<uint16_t>;
    default: return nullptr;
  }
}

// MUFU: computed in double and rounded to the type (at least as accurate as the
// hardware's approximations).
double mufu(isa::MufuOp op, double x) {
  switch (op) {
    case isa::MufuOp::RCP: return 1.0 / x;
    case isa::MufuOp::SQRT: return std::sqrt(x);
    case isa::MufuOp::RSQ: return 1.0 / std::sqrt(x);
    case isa::MufuOp::SIN: return std::sin(x);
    case isa::MufuOp::COS: return std::cos(x);
    case isa::MufuOp::EX2: return std::exp2(x);
    case isa::MufuOp::LG2: return std::log2(x);
    case isa::MufuOp::TANH: return std::tanh(x);
    default: return std::numeric_limits<double>::quiet_NaN();
  }
}
template <typename Tr, isa::MufuOp kOp>
void h_mufu(ExecContext& c, const DecodedInst& in, uint32_t m) {
  using S = typename Tr::Storage;
  map1<S, S>(c, in, m, [](S a) -> S {
    if constexpr (std::is_same_v<Tr, F64>) {
      if constexpr (kOp == isa::MufuOp::RCP) return 1.0 / a;
      if constexpr (kOp == isa::MufuOp::SQRT) return std::sqrt(a);
      return mufu(kOp, a);
    } else if constexpr (std::is_same_v<Tr, F32>) {
      if constexpr (kOp == isa::MufuOp::RCP) return 1.0f / a;
      if constexpr (kOp == isa::MufuOp::SQRT) return std::sqrt(a);
      return static_cast<float>(mufu(kOp, a));
    } else {
      return Tr::finish(mufu(kOp, Tr::load(a, false)), isa::Round::RN, false, false);
    }
  });
}
template <typename Tr>
Handler select_mufu_op(isa::MufuOp op) {
  switch (op) {
#define CASE(X) case isa::MufuOp::X: return &h_mufu<Tr, isa::MufuOp::X>;
    CASE(RCP) CASE(SQRT) CASE(RSQ) CASE(SIN) CASE(COS) CASE(EX2) CASE(LG2) CASE(TANH)
#undef CASE
    default: return nullptr;
  }
}

// FSETP: ordered comparisons are false when either operand is NaN, unordered ones true.
template <typename C>
bool float_compare(isa::CmpOp op, C a, C b) {
  const bool un = std::isnan(a) || std::isnan(b);
  switch (op) {
    case isa::CmpOp::EQ: return !un && a == b;
    case isa::CmpOp::NE: return !un && a != b;
    case isa::CmpOp::LT: return !un && a < b;
    case isa::CmpOp::LE: return !un && a <= b;
    case isa::CmpOp::GT: return !un && a > b;
    case isa::CmpOp::GE: return !un && a >= b;
    case isa::CmpOp::EQU: return un || a == b;
    case isa::CmpOp::NEU: return un || a != b;
    case isa::CmpOp::LTU: return un || a < b;
    case isa::CmpOp::LEU: return un || a <= b;
    case isa::CmpOp::GTU: return un || a > b;
    case isa::CmpOp::GEU: return un || a >= b;
    case isa::CmpOp::NUM: return !un;
    case isa::CmpOp::NAN_: return un;
    default: return false;
  }
}
template <typename Tr>
void h_fsetp(ExecContext& c, const DecodedInst& in, uint32_t m) {
  using S = typename Tr::Storage;
  const auto op = static_cast<isa::CmpOp>(in.inst.mod & 0xf);
  const uint32_t* a = c.row(in.a);
  const uint32_t* b = c.src_b(in);
  const uint32_t r = lanes_ballot([&](int l) {
    return float_compare(op, Tr::load(lane_get<S>(a, l), false), Tr::load(lane_get<S>(b, l), false));
  });
  const auto bop = static_cast<isa::BoolOp>((in.inst.mod >> 4) & 3);
  pred_write(c, in.pd, bool_combine(bop, r, pred_src(c, in.ps, in.ps_xor)), m);
}

}  // namespace

Handler select_FADD(const isa::Inst& i) { return select_farith<AddOp, 2>(i); }
Handler select_FSUB(const isa::Inst& i) { return select_farith<SubOp, 2>(i); }
Handler select_FMUL(const isa::Inst& i) { return select_farith<MulOp, 2>(i); }
Handler select_FFMA(const isa::Inst& i) { return select_farith<FmaOp, 3>(i); }
Handler select_FDIV(const isa::Inst& i) { return select_farith<DivOp, 2>(i); }
Handler select_FMIN(const isa::Inst& i) { return select_farith<MinOp, 2>(i); }
Handler select_FMAX(const isa::Inst& i) { return select_farith<MaxOp, 2>(i); }
Handler select_FABS(const isa::Inst& i) { return select_sign(i, /*neg=*/false); }
Handler select_FNEG(const isa::Inst& i) { return select_sign(i, /*neg=*/true); }
Handler select_MUFU(const isa::Inst& i) {
  const auto op = static_cast<isa::MufuOp>(i.mod);
  switch (i.type) {
    case DataType::F32: return select_mufu_op<F32>(op);
    case DataType::F64: return select_mufu_op<F64>(op);
    case DataType::F16: return select_mufu_op<F16>(op);
    case DataType::BF16: return select_mufu_op<BF16>(op);
    default: return nullptr;
  }
}
Handler select_FSETP(const isa::Inst& i) {
  if ((i.mod & 0xf) >= static_cast<int>(isa::CmpOp::kCount)) return nullptr;
  if (((i.mod >> 4) & 3) >= static_cast<int>(isa::BoolOp::kCount)) return nullptr;
  switch (i.type) {
    case DataType::F32: return &h_fsetp<F32>;
    case DataType::F64: return &h_fsetp<F64>;
    case DataType::F16: return &h_fsetp<F16>;
    case DataType::BF16: return &h_fsetp<BF16>;
    default: return nullptr;
  }
}

}  // namespace strata::hw::sim
