// The 16-bit and 8-bit float forms: f16/bf16 (scalar and x2) arithmetic, comparisons and
// approximate functions, and conversions to and from f16, bf16, tf32, e4m3 and e5m2.
// The references round exactly with ref_float.h (never with the simulator's helpers).
#include <cmath>
#include <limits>
#include <string>

#include "forms.h"
#include "ref_float.h"

namespace strata::ptx_conformance {
namespace {

using ref::Format;
using ref::Rnd;

Format fmt_of(Ty t) {
  switch (t) {
    case Ty::kBF16:
    case Ty::kBF16x2:
      return ref::kBF16;
    case Ty::kE4M3x2:
      return ref::kE4M3;
    case Ty::kE5M2x2:
      return ref::kE5M2;
    default:
      return ref::kF16;
  }
}
std::string tn(Ty t) {
  switch (t) {
    case Ty::kF16:
      return "f16";
    case Ty::kBF16:
      return "bf16";
    case Ty::kF16x2:
      return "f16x2";
    case Ty::kBF16x2:
      return "bf16x2";
    case Ty::kE4M3x2:
      return "e4m3x2";
    case Ty::kE5M2x2:
      return "e5m2x2";
    case Ty::kF32:
      return "f32";
    case Ty::kF64:
      return "f64";
    case Ty::kS32:
      return "s32";
    case Ty::kU32:
      return "u32";
    case Ty::kS16:
      return "s16";
    case Ty::kU16:
      return "u16";
    case Ty::kS64:
      return "s64";
    case Ty::kU64:
      return "u64";
    case Ty::kS8:
      return "s8";
    case Ty::kU8:
      return "u8";
    default:
      return "?";
  }
}
uint32_t lane(uint64_t v, int k, int bits) {
  return static_cast<uint32_t>(v >> (k * bits)) & ((1u << bits) - 1);
}
double F32(uint64_t b) {
  uint32_t u = static_cast<uint32_t>(b);
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}
double F64(uint64_t b) {
  double d;
  std::memcpy(&d, &b, 8);
  return d;
}
uint64_t FB(float f) {
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return u;
}
uint64_t DB(double d) {
  uint64_t u;
  std::memcpy(&u, &d, 8);
  return u;
}
Rnd rnd_of(const std::string& name) {
  for (auto [m, r] :
       {std::pair{".rz", Rnd::kRZ}, {".rm", Rnd::kRM}, {".rp", Rnd::kRP}, {".rna", Rnd::kRNA}})
    if (name.find(std::string(m) + ".") != std::string::npos) return r;
  return Rnd::kRN;
}
bool has(const std::string& name, const char* m) {
  return (name + ".").find(std::string(".") + m + ".") != std::string::npos;
}

// One element's expectation.
struct Lane {
  uint32_t bits = 0;
  Cmp cmp = Cmp::kFloat;
  double tol = 0, ref = 0;
};
Lane exact_lane(uint32_t b) {
  return {b, Cmp::kFloat};
}
Lane either_zero() {
  return {0, Cmp::kAbs, 0, 0.0};
}  // +0 or -0
Lane any_lane() {
  return {0, Cmp::kAny};
}
Expect expect(const Lane& lo) {
  return Expect{lo.bits, lo.cmp, lo.tol, lo.ref};
}
Expect expect2(const Lane& lo, const Lane& hi, int bits) {
  Expect e{lo.bits | (static_cast<uint64_t>(hi.bits) << bits), lo.cmp, lo.tol, lo.ref};
  e.cmp_hi = hi.cmp;
  e.tol_hi = hi.tol;
  e.ref_hi = hi.ref;
  return e;
}

uint32_t flush(const Format& f, uint32_t b) {
  return ref::is_subnormal(f, b) ? (b & f.sign_bit()) : b;
}

// add/sub/mul/fma/min/max/abs/neg on elements of format f (PTX ISA: one rounding, .rn;
// .ftz flushes subnormal inputs and results; .sat clamps to [0, 1] with NaN -> +0;
// .relu clamps negative results to +0 and gives NaN for NaN; min/max ignore a NaN operand
// unless .NaN is given).
Lane arith_lane(const Format& f, const std::string& op, const std::string& name,
                std::vector<uint32_t> in) {
  const bool ftz = has(name, "ftz"), sat = has(name, "sat"), relu = has(name, "relu"),
             nanmode = has(name, "NaN");
  if (ftz)
    for (uint32_t& x : in) x = flush(f, x);
  std::vector<double> v;
  bool any_nan = false;
  for (uint32_t x : in) {
    v.push_back(ref::value_of(f, x));
    any_nan |= std::isnan(v.back());
  }
  if (op == "abs") return any_nan ? exact_lane(f.quiet_nan()) : exact_lane(in[0] & ~f.sign_bit());
  if (op == "neg") return any_nan ? exact_lane(f.quiet_nan()) : exact_lane(in[0] ^ f.sign_bit());
  if ((op == "min" || op == "max") && has(name, "xorsign")) {
    // min/max of |a| and |b| with the XOR of the signs; NaN without .NaN: unspecified here.
    if (any_nan) return nanmode ? exact_lane(f.quiet_nan()) : any_lane();
    const double x = std::fabs(v[0]), y = std::fabs(v[1]);
    const uint32_t mag =
        ((op == "max") ? x >= y : x <= y) ? (in[0] & ~f.sign_bit()) : (in[1] & ~f.sign_bit());
    return exact_lane(mag | ((in[0] ^ in[1]) & f.sign_bit()));
  }
  if (op == "min" || op == "max") {
    const bool mx = op == "max";
    if (any_nan && (nanmode || (std::isnan(v[0]) && std::isnan(v[1]))))
      return exact_lane(f.quiet_nan());
    if (std::isnan(v[0])) return exact_lane(in[1]);
    if (std::isnan(v[1])) return exact_lane(in[0]);
    if (v[0] == 0 && v[1] == 0 && in[0] != in[1]) return either_zero();
    return exact_lane((mx ? v[0] >= v[1] : v[0] <= v[1]) ? in[0] : in[1]);
  }
  uint32_t r;
  if (any_nan) {
    r = f.quiet_nan();
  } else if (std::isinf(v[0]) || std::isinf(v[1]) || (op == "fma" && std::isinf(v[2]))) {
    // An infinite operand: the IEEE result is infinite or NaN, computed exactly in double.
    double d = op == "add"   ? v[0] + v[1]
               : op == "sub" ? v[0] - v[1]
               : op == "mul" ? v[0] * v[1]
                             : std::fma(v[0], v[1], v[2]);
    r = ref::from_double(f, d, Rnd::kRN);
  } else {
    ref::Exact a = ref::exact_of(v[0]), b = ref::exact_of(v[1]);
    ref::Exact x;
    if (op == "add")
      x = ref::add(a, b);
    else if (op == "sub")
      b.neg = !b.neg, x = ref::add(a, b);
    else if (op == "mul")
      x = ref::mul(a, b);
    else
      x = ref::add(ref::mul(a, b), ref::exact_of(v[2]));
    r = ref::round_to(f, x, Rnd::kRN);
  }
  if (ftz) r = flush(f, r);
  const double rv = ref::value_of(f, r);
  if (sat) {
    if (std::isnan(rv) || rv <= 0) return either_zero();
    if (rv >= 1) return exact_lane(ref::from_double(f, 1.0, Rnd::kRN));
  }
  if (relu) {
    if (std::isnan(rv)) return exact_lane(f.quiet_nan());
    if (rv <= 0) return either_zero();
  }
  return exact_lane(r);
}

// Approximate functions within a bound: |got - exact| <= rel * |exact| + abs.
Lane approx_lane(const Format& f, double exact, double rel, double abs) {
  if (std::isnan(exact)) return exact_lane(f.quiet_nan());
  const double max = ref::value_of(f, f.max_finite());
  const double tol = rel * std::fabs(exact) + abs;
  if (std::fabs(exact) - tol > max)
    return Lane{f.inf() | (exact < 0 ? f.sign_bit() : 0), Cmp::kAbs, 0,
                exact < 0 ? -INFINITY : INFINITY};
  if (std::fabs(exact) + tol > max) return any_lane();  // at the overflow threshold
  return Lane{0, Cmp::kAbs, tol, exact};
}

}  // namespace

void add_half_forms(std::vector<Form>& v) {
  auto add = [&](std::string fam, std::string name, Ty d, std::vector<Ty> s, Reference r,
                 std::vector<Dom> doms = {}) {
    v.push_back(
        Form{std::move(name), std::move(fam), d, std::move(s), std::move(doms), std::move(r)});
  };
  // Applies a lane reference to each element of a scalar or x2 form.
  auto lanes = [](Ty t, auto fn) {
    return [t, fn](const uint64_t* a) -> Expect {
      const int n = lanes_of(t), bits = lane_bits(t);
      if (n == 1) return expect(fn(a, 0, bits));
      return expect2(fn(a, 0, bits), fn(a, 1, bits), bits);
    };
  };

  // ---- f16 / bf16 arithmetic (PTX ISA "Half Precision Floating-Point Instructions") ----
  for (Ty t : {Ty::kF16, Ty::kF16x2, Ty::kBF16, Ty::kBF16x2}) {
    const bool bf = t == Ty::kBF16 || t == Ty::kBF16x2;
    const Format f = fmt_of(t);
    std::vector<std::string> addmods =
        bf ? std::vector<std::string>{"", ".rn"}
           : std::vector<std::string>{"",        ".rn",      ".ftz",       ".sat",
                                      ".rn.ftz", ".ftz.sat", ".rn.ftz.sat"};
    std::vector<std::string> fmamods =
        bf ? std::vector<std::string>{".rn", ".rn.relu"}
           : std::vector<std::string>{".rn",         ".rn.ftz",  ".rn.sat",
                                      ".rn.ftz.sat", ".rn.relu", ".rn.ftz.relu"};
    std::vector<std::string> minmods =
        bf ? std::vector<std::string>{"", ".NaN", ".xorsign.abs", ".NaN.xorsign.abs"}
           : std::vector<std::string>{"",         ".ftz",         ".NaN",
                                      ".ftz.NaN", ".xorsign.abs", ".ftz.NaN.xorsign.abs"};
    std::vector<std::string> signmods =
        bf ? std::vector<std::string>{""} : std::vector<std::string>{"", ".ftz"};
    auto arith = [&](const std::string& op, const std::string& m, int n) {
      const std::string name = op + m + "." + tn(t);
      std::vector<Ty> srcs(static_cast<size_t>(n), t);
      add("half", name, t, srcs, lanes(t, [f, op, name, n](const uint64_t* a, int k, int bits) {
            std::vector<uint32_t> in;
            for (int j = 0; j < n; ++j) in.push_back(lane(a[j], k, bits));
            return arith_lane(f, op, name, in);
          }));
    };
    for (const char* op : {"add", "sub", "mul"})
      for (const auto& m : addmods) arith(op, m, 2);
    for (const auto& m : fmamods) arith("fma", m, 3);
    for (const char* op : {"min", "max"})
      for (const auto& m : minmods) arith(op, m, 2);
    for (const char* op : {"abs", "neg"})
      for (const auto& m : signmods) arith(op, m, 1);

    // ex2.approx (f16: max relative error 2^-9.9; bf16 (.ftz): 2^-7) and tanh.approx
    // (max absolute error 2^-10.987 for f16, 2^-8 for bf16), PTX ISA "ex2", "tanh".
    const std::string ex2 = bf ? "ex2.approx.ftz." : "ex2.approx.";
    add("half", ex2 + tn(t), t, {t}, lanes(t, [f, bf](const uint64_t* a, int k, int bits) {
          uint32_t x = lane(a[0], k, bits);
          if (bf) x = flush(f, x);
          const double e = std::exp2(ref::value_of(f, x));
          const double tiny =
              bf ? std::ldexp(1.0, -126) : std::ldexp(1.0, -24);  // flushed or subnormal results
          return approx_lane(f, e, bf ? std::ldexp(1.0, -7) : std::exp2(-9.9), tiny);
        }));
    add("half", "tanh.approx." + tn(t), t, {t},
        lanes(t, [f, bf](const uint64_t* a, int k, int bits) {
          const double e = std::tanh(ref::value_of(f, lane(a[0], k, bits)));
          return approx_lane(f, e, 0, bf ? std::ldexp(1.0, -8) : std::exp2(-10.987));
        }));
  }
  // tanh.approx.f32: max absolute error 2^-10.987 (PTX ISA "tanh").
  add("half", "tanh.approx.f32", Ty::kF32, {Ty::kF32}, [](const uint64_t* a) {
    const double x = F32(a[0]);
    if (std::isnan(x)) return Expect{0x7fc00000u, Cmp::kFloat};
    const double e = std::tanh(x);
    return Expect{FB(static_cast<float>(e)), Cmp::kAbs, std::exp2(-10.987), e};
  });

  // fma.rnd{.sat}.f32.{f16,bf16} (sm_100): a * b + c in f32, a and b 16-bit, one rounding.
  for (Ty t : {Ty::kF16, Ty::kBF16}) {
    const Format f = fmt_of(t);
    for (std::string m : {".rn", ".rz", ".rm", ".rp", ".rn.sat"}) {
      const std::string name = "fma" + m + ".f32." + tn(t);
      add("half", name, Ty::kF32, {t, t, Ty::kF32}, [f, name](const uint64_t* a) {
        const double x = ref::value_of(f, lane(a[0], 0, 16)),
                     y = ref::value_of(f, lane(a[1], 0, 16)), z = F32(a[2]);
        double r;
        if (std::isnan(x) || std::isnan(y) || std::isnan(z) || std::isinf(x) || std::isinf(y) ||
            std::isinf(z)) {
          r = std::fma(x, y, z);  // infinite or NaN: exact in double
        } else {
          const uint32_t bits = ref::round_to(
              ref::kF32, ref::add(ref::mul(ref::exact_of(x), ref::exact_of(y)), ref::exact_of(z)),
              rnd_of(name));
          float fr;
          std::memcpy(&fr, &bits, 4);
          r = fr;
          // An exact zero sum of opposite-signed terms is -0 under RM (IEEE 754 6.3).
          if (x * y + z == 0 && rnd_of(name) == Rnd::kRM && std::signbit(x * y) != std::signbit(z))
            r = -0.0;
        }
        if (has(name, "sat")) {
          if (std::isnan(r) || r <= 0) return Expect{0, Cmp::kAbs, 0, 0.0};
          if (r > 1) r = 1;
        }
        return Expect{FB(static_cast<float>(r)), Cmp::kFloat};
      });
    }
  }

  // ---- setp on f16 / bf16 (x2 forms write a predicate pair: kernel_alu.cc) ----
  for (Ty t : {Ty::kF16, Ty::kBF16}) {
    const Format f = fmt_of(t);
    for (std::string c : {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu",
                          "geu", "num", "nan"}) {
      for (bool fz : {false, true}) {
        if (fz &&
            (t == Ty::kBF16 || (c != "eq" && c != "lt" && c != "gt" && c != "geu" && c != "neu")))
          continue;
        add("half", "setp." + c + (fz ? ".ftz." : ".") + tn(t), Ty::kPred, {t, t},
            [f, c, fz](const uint64_t* a) {
              uint32_t xa = static_cast<uint32_t>(a[0] & 0xffff),
                       xb = static_cast<uint32_t>(a[1] & 0xffff);
              if (fz) xa = flush(f, xa), xb = flush(f, xb);
              const double x = ref::value_of(f, xa), y = ref::value_of(f, xb);
              const bool un = std::isnan(x) || std::isnan(y);
              const std::string b = c.size() == 3 && c.back() == 'u' ? c.substr(0, 2) : c;
              bool r;
              if (c == "num")
                r = !un;
              else if (c == "nan")
                r = un;
              else if (un)
                r = c.size() == 3;
              else
                r = b == "eq"   ? x == y
                    : b == "ne" ? x != y
                    : b == "lt" ? x < y
                    : b == "le" ? x <= y
                    : b == "gt" ? x > y
                                : x >= y;
              return Expect{static_cast<uint64_t>(r), Cmp::kExact};
            });
      }
    }
  }

  // ---- conversions ----
  // f16/bf16 -> f32/f64: exact.
  for (Ty s : {Ty::kF16, Ty::kBF16}) {
    const Format f = fmt_of(s);
    add("cvt16", "cvt.f32." + tn(s), Ty::kF32, {s}, [f](const uint64_t* a) {
      return Expect{FB(static_cast<float>(ref::value_of(f, static_cast<uint32_t>(a[0] & 0xffff)))),
                    Cmp::kFloat};
    });
    add("cvt16", "cvt.f64." + tn(s), Ty::kF64, {s}, [f](const uint64_t* a) {
      return Expect{DB(ref::value_of(f, static_cast<uint32_t>(a[0] & 0xffff))), Cmp::kFloat};
    });
  }
  // f32/f64 -> f16/bf16, every rounding mode; .relu/.satfinite (f32 sources); .sat.
  for (Ty d : {Ty::kF16, Ty::kBF16}) {
    const Format f = fmt_of(d);
    for (Ty s : {Ty::kF32, Ty::kF64}) {
      std::vector<std::string> mods = {".rn", ".rz", ".rm", ".rp"};
      if (s == Ty::kF32)
        mods.insert(mods.end(), {".rn.relu", ".rz.relu", ".rn.satfinite", ".rz.satfinite",
                                 ".rn.relu.satfinite", ".rn.ftz", ".rz.ftz"});
      if (d == Ty::kF16) mods.push_back(".rn.sat");
      for (const std::string& m : mods) {
        const std::string name = "cvt" + m + "." + tn(d) + "." + tn(s);
        add("cvt16", name, d, {s},
            [f, s, name](const uint64_t* a) {
              double x = s == Ty::kF32 ? F32(a[0]) : F64(a[0]);
              if (has(name, "ftz") && std::fpclassify(x) != FP_ZERO && std::fabs(x) < 0x1p-126)
                x = std::copysign(0.0, x);  // .ftz flushes a subnormal .f32 source
              const bool satf = has(name, "satfinite");
              uint32_t r = ref::from_double(f, x, rnd_of(name), satf);
              const double rv = ref::value_of(f, r);
              if (has(name, "relu")) {
                if (std::isnan(rv)) return expect(exact_lane(f.quiet_nan()));
                if (rv <= 0) return expect(either_zero());
              }
              if (has(name, "sat")) {
                if (std::isnan(rv) || rv <= 0) return expect(either_zero());
                if (rv >= 1) r = ref::from_double(f, 1.0, Rnd::kRN);
              }
              return expect(exact_lane(r));
            },
            {Dom::kNarrow});
      }
    }
    // integers -> f16/bf16: the exact integer rounded once.
    for (Ty s : {Ty::kS32, Ty::kU32, Ty::kS16, Ty::kU16, Ty::kS64, Ty::kU64, Ty::kS8, Ty::kU8}) {
      for (std::string r : {"rn", "rz", "rm", "rp"}) {
        const int w = bits_of(s);
        const bool sg = s == Ty::kS32 || s == Ty::kS16 || s == Ty::kS64 || s == Ty::kS8;
        add("cvt16", "cvt." + r + "." + tn(d) + "." + tn(s), d, {s},
            [f, w, sg, r](const uint64_t* a) {
              uint64_t u = w == 64 ? a[0] : a[0] & ((1ull << w) - 1);
              ref::Exact x;
              if (sg && (u >> (w - 1)) & 1) x.neg = true, u = (w == 64 ? 0 - u : ((1ull << w) - u));
              x.mag = u;
              return expect(exact_lane(ref::round_to(f, x, rnd_of("." + r + "."))));
            });
      }
    }
    // f16/bf16 -> integers: round to an integer by mode, clamp, NaN -> 0.
    for (Ty dt : {Ty::kS32, Ty::kU32, Ty::kS16, Ty::kU16, Ty::kS64, Ty::kU64, Ty::kS8, Ty::kU8}) {
      for (std::string r : {"rni", "rzi", "rmi", "rpi"}) {
        const int w = bits_of(dt);
        const bool sg = dt == Ty::kS32 || dt == Ty::kS16 || dt == Ty::kS64 || dt == Ty::kS8;
        add("cvt16", "cvt." + r + "." + tn(dt) + "." + tn(d), dt, {d},
            [f, w, sg, r](const uint64_t* a) {
              const double x = ref::value_of(f, static_cast<uint32_t>(a[0] & 0xffff));
              if (std::isnan(x)) return Expect{0, Cmp::kExact};
              double i = r == "rni"   ? std::nearbyint(x)
                         : r == "rzi" ? std::trunc(x)
                         : r == "rmi" ? std::floor(x)
                                      : std::ceil(x);
              const double lo = sg ? -std::ldexp(1.0, w - 1) : 0.0,
                           hi = sg ? std::ldexp(1.0, w - 1) - 1 : std::ldexp(1.0, w) - 1;
              uint64_t bits;
              if (i <= lo)
                bits = sg ? static_cast<uint64_t>(-(static_cast<__int128>(1) << (w - 1))) : 0;
              else if (i >= hi)
                bits = sg ? (1ull << (w - 1)) - 1 : (w == 64 ? ~0ull : (1ull << w) - 1);
              else
                bits =
                    sg ? static_cast<uint64_t>(static_cast<int64_t>(i)) : static_cast<uint64_t>(i);
              return Expect{w == 64 ? bits : bits & ((1ull << w) - 1), Cmp::kExact};
            });
      }
    }
    // f16 -> f16 rounded to an integral value (sign kept: -0.3 -> -0).
    for (std::string r : {"rni", "rzi", "rmi", "rpi"}) {
      if (d != Ty::kF16) break;
      add("cvt16", "cvt." + r + "." + tn(d) + "." + tn(d), d, {d}, [f, r](const uint64_t* a) {
        const double x = ref::value_of(f, static_cast<uint32_t>(a[0] & 0xffff));
        const double i = r == "rni"   ? std::nearbyint(x)
                         : r == "rzi" ? std::trunc(x)
                         : r == "rmi" ? std::floor(x)
                                      : std::ceil(x);
        return expect(exact_lane(ref::from_double(f, i, Rnd::kRN)));
      });
    }
  }
  // f32 pairs -> f16x2/bf16x2: a in the upper half, b in the lower (PTX ISA "cvt").
  for (Ty d : {Ty::kF16x2, Ty::kBF16x2}) {
    const Format f = fmt_of(d);
    for (std::string m :
         {".rn", ".rz", ".rn.relu", ".rz.relu", ".rn.satfinite", ".rn.relu.satfinite"}) {
      const std::string name = "cvt" + m + "." + tn(d) + ".f32";
      add("cvt16", name, d, {Ty::kF32, Ty::kF32},
          [f, name](const uint64_t* a) {
            auto one = [&](double x) -> Lane {
              uint32_t r = ref::from_double(f, x, rnd_of(name), has(name, "satfinite"));
              const double rv = ref::value_of(f, r);
              if (has(name, "relu") && std::isnan(rv)) return exact_lane(f.quiet_nan());
              if (has(name, "relu") && rv <= 0) return either_zero();
              return exact_lane(r);
            };
            return expect2(one(F32(a[1])), one(F32(a[0])), 16);
          },
          {Dom::kNarrow, Dom::kNarrow});
    }
  }
  // f32 -> tf32 (a .b32 holding an f32 bit pattern with 13 zero low bits).
  for (std::string m : {".rna", ".rna.satfinite", ".rn", ".rz"}) {
    const std::string name = "cvt" + m + ".tf32.f32";
    add("cvt16", name, Ty::kF32, {Ty::kF32},
        [name](const uint64_t* a) {
          const double x = F32(a[0]);
          if (std::isnan(x)) return Expect{0x7fc00000u, Cmp::kFloat};
          const uint32_t t = ref::from_double(ref::kTF32, x, rnd_of(name), has(name, "satfinite"));
          return Expect{static_cast<uint64_t>(t) << 13, Cmp::kExact};
        },
        {Dom::kNarrow});
  }
  // FP8 (sm_89, PTX ISA 7.8): f32 pairs -> e4m3x2/e5m2x2 (.satfinite required; a in the
  // upper byte), f16x2 -> e4m3x2/e5m2x2, and e4m3x2/e5m2x2 -> f16x2 (exact).
  for (Ty d : {Ty::kE4M3x2, Ty::kE5M2x2}) {
    const Format f = fmt_of(d);
    for (std::string m : {".rn.satfinite", ".rn.satfinite.relu"}) {
      const bool relu = m.find("relu") != std::string::npos;
      auto one = [f, relu](double x) -> Lane {
        uint32_t r = ref::from_double(f, x, Rnd::kRN, /*satfinite=*/true);
        const double rv = ref::value_of(f, r);
        if (relu && std::isnan(rv)) return exact_lane(f.quiet_nan());
        if (relu && rv <= 0) return either_zero();
        return exact_lane(r);
      };
      add("cvt8", "cvt" + m + "." + tn(d) + ".f32", d, {Ty::kF32, Ty::kF32},
          [one](const uint64_t* a) { return expect2(one(F32(a[1])), one(F32(a[0])), 8); },
          {Dom::kNarrow, Dom::kNarrow});
      add("cvt8", "cvt" + m + "." + tn(d) + ".f16x2", d, {Ty::kF16x2}, [one](const uint64_t* a) {
        return expect2(one(ref::value_of(ref::kF16, lane(a[0], 0, 16))),
                       one(ref::value_of(ref::kF16, lane(a[0], 1, 16))), 8);
      });
    }
    for (std::string m : {".rn", ".rn.relu"}) {
      const bool relu = m.find("relu") != std::string::npos;
      add("cvt8", "cvt" + m + ".f16x2." + tn(d), Ty::kF16x2, {d}, [f, relu](const uint64_t* a) {
        auto one = [&](int k) -> Lane {
          const double x = ref::value_of(f, lane(a[0], k, 8));
          if (std::isnan(x)) return exact_lane(ref::kF16.quiet_nan());
          if (relu && x <= 0) return either_zero();
          return exact_lane(ref::from_double(ref::kF16, x, Rnd::kRN));
        };
        return expect2(one(0), one(1), 16);
      });
    }
  }
}

}  // namespace strata::ptx_conformance
