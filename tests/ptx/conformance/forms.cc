// The form table. Built with -frounding-math: the float references run under the
// rounding mode the form names (fesetround), on the host's IEEE-754 arithmetic.
#include "forms.h"

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>

namespace strata::ptx_conformance {

int bits_of(Ty t) {
  switch (t) {
    case Ty::kPred: return 1;
    case Ty::kU8: case Ty::kS8: return 8;
    case Ty::kB16: case Ty::kU16: case Ty::kS16: case Ty::kF16: case Ty::kBF16: case Ty::kE4M3x2: case Ty::kE5M2x2: return 16;
    case Ty::kB32: case Ty::kU32: case Ty::kS32: case Ty::kF32: case Ty::kF16x2: case Ty::kBF16x2: return 32;
    default: return 64;
  }
}
bool is_float(Ty t) { return t == Ty::kF32 || t == Ty::kF64 || lanes_of(t) > 0; }
int lanes_of(Ty t) {
  switch (t) {
    case Ty::kF16: case Ty::kBF16: return 1;
    case Ty::kF16x2: case Ty::kBF16x2: case Ty::kE4M3x2: case Ty::kE5M2x2: return 2;
    default: return 0;
  }
}
int lane_bits(Ty t) { return t == Ty::kE4M3x2 || t == Ty::kE5M2x2 ? 8 : lanes_of(t) ? 16 : 0; }

namespace {

float F(uint64_t b) { uint32_t u = static_cast<uint32_t>(b); float f; std::memcpy(&f, &u, 4); return f; }
double D(uint64_t b) { double d; std::memcpy(&d, &b, 8); return d; }
uint64_t FB(float f) { uint32_t u; std::memcpy(&u, &f, 4); return u; }
uint64_t DB(double d) { uint64_t u; std::memcpy(&u, &d, 8); return u; }
uint64_t mask(int bits) { return bits >= 64 ? ~0ull : (1ull << bits) - 1; }
int64_t sx(uint64_t v, int bits) { return bits >= 64 ? static_cast<int64_t>(v) : static_cast<int64_t>(v << (64 - bits)) >> (64 - bits); }
bool is_signed(Ty t) { return t == Ty::kS8 || t == Ty::kS16 || t == Ty::kS32 || t == Ty::kS64; }

// Rounding modes by their PTX names (".rn", ".rzi", ...).
int fe_mode(const std::string& r) {
  if (r == "rz" || r == "rzi") return FE_TOWARDZERO;
  if (r == "rm" || r == "rmi") return FE_DOWNWARD;
  if (r == "rp" || r == "rpi") return FE_UPWARD;
  return FE_TONEAREST;
}
template <typename Fn>
auto rounded(const std::string& r, Fn fn) {
  int old = std::fegetround();
  std::fesetround(fe_mode(r));
  volatile auto v = fn();  // volatile: keeps the arithmetic between the two fesetround calls
  std::fesetround(old);
  return static_cast<decltype(fn())>(v);
}
float ftz(float f) { return std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0f, f) : f; }
float sat(float f) { return std::isnan(f) ? 0.0f : f < 0.0f ? 0.0f : f > 1.0f ? 1.0f : f; }

Expect exact(uint64_t v) { return {v, Cmp::kExact}; }
// A .sat result of zero: PTX clamps to [0.0, 1.0] and does not say which zero.
Expect either_zero() { return {0, Cmp::kAbs, 0, 0.0}; }
Expect fl32(float f) { return {FB(f), Cmp::kFloat}; }
Expect fl64(double d) { return {DB(d), Cmp::kFloat}; }
Expect any() { return {0, Cmp::kAny}; }
Expect ulp32(double exact_value, double tol) { return {FB(static_cast<float>(exact_value)), Cmp::kUlp, tol}; }
Expect abs32(double exact_value, double tol) { return {FB(static_cast<float>(exact_value)), Cmp::kAbs, tol, exact_value}; }

// The modifiers of a float form's name: rounding, .ftz, .sat.
struct Mods { std::string rnd = "rn"; bool ftz = false, sat = false; };
Mods mods_of(const std::string& name) {
  Mods m;
  size_t p = 0;
  while ((p = name.find('.', p)) != std::string::npos) {
    size_t e = name.find('.', p + 1);
    std::string s = name.substr(p + 1, e == std::string::npos ? std::string::npos : e - p - 1);
    if (s == "rn" || s == "rz" || s == "rm" || s == "rp" || s == "rni" || s == "rzi" || s == "rmi" || s == "rpi") m.rnd = s;
    if (s == "ftz") m.ftz = true;
    if (s == "sat") m.sat = true;
    p = p + 1;
  }
  return m;
}

// Every {.rnd}{.ftz}{.sat} combination of an f32 arithmetic form (.rnd optional when
// `with_default`, as for add/sub/mul; required for fma).
std::vector<std::string> float_mods(bool with_default) {
  std::vector<std::string> v;
  for (std::string r : {"", ".rn", ".rz", ".rm", ".rp"})
    for (std::string f : {"", ".ftz"})
      for (std::string t : {"", ".sat"})
        if (with_default || !r.empty()) v.push_back(r + f + t);
  return v;
}

std::vector<Form> build() {
  std::vector<Form> v;
  auto add = [&](std::string fam, std::string name, Ty d, std::vector<Ty> s, Reference r, std::vector<Dom> doms = {}) {
    v.push_back(Form{std::move(name), std::move(fam), d, std::move(s), std::move(doms), std::move(r)});
  };
  const Ty kInts[] = {Ty::kS16, Ty::kU16, Ty::kS32, Ty::kU32, Ty::kS64, Ty::kU64};
  auto tn = [](Ty t) -> std::string {
    switch (t) {
      case Ty::kPred: return "pred"; case Ty::kB16: return "b16"; case Ty::kU16: return "u16";
      case Ty::kS16: return "s16"; case Ty::kB32: return "b32"; case Ty::kU32: return "u32";
      case Ty::kS32: return "s32"; case Ty::kF32: return "f32"; case Ty::kB64: return "b64";
      case Ty::kU64: return "u64"; case Ty::kS64: return "s64"; case Ty::kF64: return "f64";
      case Ty::kU8: return "u8"; case Ty::kS8: return "s8";
      default: break;
    }
    return "?";
  };

  // mov
  for (Ty t : {Ty::kU16, Ty::kB32, Ty::kU32, Ty::kS32, Ty::kF32, Ty::kB64, Ty::kU64, Ty::kF64, Ty::kPred})
    add("mov", "mov." + tn(t), t, {t}, [](const uint64_t* a) { return exact(a[0]); });

  // add / sub: integers wrap; .sat.s32 clamps; floats round as named.
  for (std::string op : {"add", "sub"}) {
    bool is_add = op == "add";
    for (Ty t : kInts) {
      int w = bits_of(t);
      add(op, op + "." + tn(t), t, {t, t}, [w, is_add](const uint64_t* a) {
        return exact((is_add ? a[0] + a[1] : a[0] - a[1]) & mask(w));
      });
    }
    add(op, op + ".sat.s32", Ty::kS32, {Ty::kS32, Ty::kS32}, [is_add](const uint64_t* a) {
      int64_t r = is_add ? sx(a[0], 32) + sx(a[1], 32) : sx(a[0], 32) - sx(a[1], 32);
      r = std::min<int64_t>(std::max<int64_t>(r, INT32_MIN), INT32_MAX);
      return exact(static_cast<uint64_t>(r) & mask(32));
    });
    for (std::string m : float_mods(/*with_default=*/true)) {
      std::string name = op + m + ".f32";
      Mods md = mods_of(name);
      add(op, name, Ty::kF32, {Ty::kF32, Ty::kF32}, [md, is_add](const uint64_t* a) {
        float x = F(a[0]), y = F(a[1]);
        if (md.ftz) x = ftz(x), y = ftz(y);
        float r = rounded(md.rnd, [&] { volatile float p = x, q = y; return is_add ? p + q : p - q; });
        if (md.ftz) r = ftz(r);
        if (md.sat) r = sat(r);
        if (md.sat && r == 0) return either_zero();
        return fl32(r);
      });
    }
    for (std::string m : {"", ".rn", ".rz", ".rm", ".rp"}) {
      std::string name = op + m + ".f64";
      Mods md = mods_of(name);
      add(op, name, Ty::kF64, {Ty::kF64, Ty::kF64}, [md, is_add](const uint64_t* a) {
        double x = D(a[0]), y = D(a[1]);
        return fl64(rounded(md.rnd, [&] { volatile double p = x, q = y; return is_add ? p + q : p - q; }));
      });
    }
  }

  // mul / mad: .lo, .hi, .wide for every integer width; floats.
  for (bool mad : {false, true}) {
    std::string op = mad ? "mad" : "mul";
    for (Ty t : kInts) {
      int w = bits_of(t);
      bool s = is_signed(t);
      auto prod = [w, s](uint64_t x, uint64_t y, uint64_t* hi) {  // full 2w-bit product
        if (s) {
          __int128 p = static_cast<__int128>(sx(x, w)) * sx(y, w);
          *hi = static_cast<uint64_t>(p >> w) & mask(w);
          return static_cast<uint64_t>(p) & mask(w);
        }
        unsigned __int128 p = static_cast<unsigned __int128>(x & mask(w)) * (y & mask(w));
        *hi = static_cast<uint64_t>(p >> w) & mask(w);
        return static_cast<uint64_t>(p) & mask(w);
      };
      std::vector<Ty> srcs = {t, t};
      if (mad) srcs.push_back(t);
      add(op, op + ".lo." + tn(t), t, srcs, [w, prod, mad](const uint64_t* a) {
        uint64_t hi, lo = prod(a[0], a[1], &hi);
        return exact((lo + (mad ? a[2] : 0)) & mask(w));
      });
      add(op, op + ".hi." + tn(t), t, srcs, [w, prod, mad](const uint64_t* a) {
        uint64_t hi;
        prod(a[0], a[1], &hi);
        return exact((hi + (mad ? a[2] : 0)) & mask(w));
      });
      if (w < 64) {
        Ty wide = t == Ty::kS16 ? Ty::kS32 : t == Ty::kU16 ? Ty::kU32 : t == Ty::kS32 ? Ty::kS64 : Ty::kU64;
        std::vector<Ty> ws = {t, t};
        if (mad) ws.push_back(wide);
        add(op, op + ".wide." + tn(t), wide, ws, [w, prod, mad](const uint64_t* a) {
          uint64_t hi, lo = prod(a[0], a[1], &hi);
          uint64_t p = (hi << w) | lo;
          return exact((p + (mad ? a[2] : 0)) & mask(2 * w));
        });
      }
    }
  }
  for (std::string m : float_mods(/*with_default=*/true)) {
    std::string name = "mul" + m + ".f32";
    Mods md = mods_of(name);
    add("mul", name, Ty::kF32, {Ty::kF32, Ty::kF32}, [md](const uint64_t* a) {
      float x = F(a[0]), y = F(a[1]);
      if (md.ftz) x = ftz(x), y = ftz(y);
      float r = rounded(md.rnd, [&] { volatile float p = x, q = y; return p * q; });
      if (md.ftz) r = ftz(r);
      if (md.sat) r = sat(r);
      if (md.sat && r == 0) return either_zero();
      return fl32(r);
    });
  }
  for (std::string m : {"", ".rn", ".rz", ".rm", ".rp"}) {
    std::string name = "mul" + m + ".f64";
    Mods md = mods_of(name);
    add("mul", name, Ty::kF64, {Ty::kF64, Ty::kF64}, [md](const uint64_t* a) {
      double x = D(a[0]), y = D(a[1]);
      return fl64(rounded(md.rnd, [&] { volatile double p = x, q = y; return p * q; }));
    });
  }
  // fma (and mad.rn.f32/f64, its synonym): one rounding.
  for (std::string base : {"fma", "mad"}) {
    for (std::string m : float_mods(/*with_default=*/false)) {
      if (base == "mad" && m != ".rn" && m != ".rn.ftz" && m != ".rn.sat" && m != ".rn.ftz.sat") continue;
      std::string name = base + m + ".f32";
      Mods md = mods_of(name);
      add(base, name, Ty::kF32, {Ty::kF32, Ty::kF32, Ty::kF32}, [md](const uint64_t* a) {
        float x = F(a[0]), y = F(a[1]), z = F(a[2]);
        if (md.ftz) x = ftz(x), y = ftz(y), z = ftz(z);
        float r = rounded(md.rnd, [&] { volatile float p = x, q = y, s = z; return std::fmaf(p, q, s); });
        if (md.ftz) r = ftz(r);
        if (md.sat) r = sat(r);
        if (md.sat && r == 0) return either_zero();
        return fl32(r);
      });
    }
    for (std::string m : {".rn", ".rz", ".rm", ".rp"}) {
      if (base == "mad" && m != ".rn") continue;
      std::string name = base + m + ".f64";
      Mods md = mods_of(name);
      add(base, name, Ty::kF64, {Ty::kF64, Ty::kF64, Ty::kF64}, [md](const uint64_t* a) {
        double x = D(a[0]), y = D(a[1]), z = D(a[2]);
        return fl64(rounded(md.rnd, [&] { volatile double p = x, q = y, s = z; return std::fma(p, q, s); }));
      });
    }
  }

  // shl / shr: the amount is a u32; amounts >= the width clamp to the width.
  for (Ty t : {Ty::kB16, Ty::kB32, Ty::kB64}) {
    int w = bits_of(t);
    add("shift", "shl." + tn(t), t, {t, Ty::kU32}, [w](const uint64_t* a) {
      uint64_t n = a[1] & mask(32);
      return exact(n >= static_cast<uint64_t>(w) ? 0 : (a[0] << n) & mask(w));
    }, {Dom::kAny, Dom::kShift});
  }
  for (Ty t : {Ty::kU16, Ty::kS16, Ty::kB32, Ty::kU32, Ty::kS32, Ty::kB64, Ty::kU64, Ty::kS64}) {
    int w = bits_of(t);
    bool s = is_signed(t);
    add("shift", "shr." + tn(t), t, {t, Ty::kU32}, [w, s](const uint64_t* a) {
      uint64_t n = std::min<uint64_t>(a[1] & mask(32), static_cast<uint64_t>(w));
      if (s) return exact(static_cast<uint64_t>(sx(a[0], w) >> std::min<uint64_t>(n, 63)) & mask(w));
      return exact(n >= 64 ? 0 : ((a[0] & mask(w)) >> n));
    }, {Dom::kAny, Dom::kShift});
  }

  // and / or / xor / not / cnot
  for (Ty t : {Ty::kB16, Ty::kB32, Ty::kB64, Ty::kPred}) {
    int w = bits_of(t);
    add("logic", "and." + tn(t), t, {t, t}, [w](const uint64_t* a) { return exact(a[0] & a[1] & mask(w)); });
    add("logic", "or." + tn(t), t, {t, t}, [w](const uint64_t* a) { return exact((a[0] | a[1]) & mask(w)); });
    add("logic", "xor." + tn(t), t, {t, t}, [w](const uint64_t* a) { return exact((a[0] ^ a[1]) & mask(w)); });
    add("logic", "not." + tn(t), t, {t}, [w](const uint64_t* a) { return exact(~a[0] & mask(w)); });
  }
  add("logic", "cnot.b32", Ty::kB32, {Ty::kB32}, [](const uint64_t* a) { return exact((a[0] & mask(32)) == 0 ? 1 : 0); });

  // setp: every integer comparison, every float comparison (ordered and unordered).
  for (Ty t : {Ty::kS16, Ty::kU16, Ty::kB16, Ty::kS32, Ty::kU32, Ty::kB32, Ty::kS64, Ty::kU64, Ty::kB64}) {
    int w = bits_of(t);
    bool s = is_signed(t);
    std::vector<std::string> cmps = {"eq", "ne"};
    if (t != Ty::kB16 && t != Ty::kB32 && t != Ty::kB64) cmps.insert(cmps.end(), {"lt", "le", "gt", "ge"});
    if (t == Ty::kU32 || t == Ty::kU64) cmps.insert(cmps.end(), {"lo", "ls", "hi", "hs"});
    for (const std::string& c : cmps) {
      add("setp", "setp." + c + "." + tn(t), Ty::kPred, {t, t}, [w, s, c](const uint64_t* a) {
        bool r;
        if (s) {
          int64_t x = sx(a[0], w), y = sx(a[1], w);
          r = c == "eq" ? x == y : c == "ne" ? x != y : c == "lt" ? x < y : c == "le" ? x <= y : c == "gt" ? x > y : x >= y;
        } else {
          uint64_t x = a[0] & mask(w), y = a[1] & mask(w);
          r = c == "eq" ? x == y : c == "ne" ? x != y : (c == "lt" || c == "lo") ? x < y : (c == "le" || c == "ls") ? x <= y
            : (c == "gt" || c == "hi") ? x > y : x >= y;
        }
        return exact(r);
      });
    }
  }
  for (Ty t : {Ty::kF32, Ty::kF64}) {
    for (std::string c : {"eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"}) {
      for (bool fz : {false, true}) {
        if (fz && (t == Ty::kF64 || (c != "eq" && c != "lt" && c != "gt" && c != "geu" && c != "leu" && c != "neu"))) continue;
        std::string name = "setp." + c + (fz ? ".ftz." : ".") + tn(t);
        add("setp", name, Ty::kPred, {t, t}, [t, c, fz](const uint64_t* a) {
          double x = t == Ty::kF32 ? (fz ? ftz(F(a[0])) : F(a[0])) : D(a[0]);
          double y = t == Ty::kF32 ? (fz ? ftz(F(a[1])) : F(a[1])) : D(a[1]);
          bool un = std::isnan(x) || std::isnan(y);
          std::string b = c.size() == 3 && c.back() == 'u' ? c.substr(0, 2) : c;
          bool r;
          if (c == "num") r = !un;
          else if (c == "nan") r = un;
          else if (un) r = c.size() == 3;  // the unordered forms are true on NaN, the others false
          else r = b == "eq" ? x == y : b == "ne" ? x != y : b == "lt" ? x < y : b == "le" ? x <= y : b == "gt" ? x > y : x >= y;
          return exact(r);
        });
      }
    }
  }

  // selp
  for (Ty t : {Ty::kB16, Ty::kU16, Ty::kS16, Ty::kB32, Ty::kU32, Ty::kS32, Ty::kF32, Ty::kB64, Ty::kU64, Ty::kS64, Ty::kF64})
    add("selp", "selp." + tn(t), t, {t, t, Ty::kPred}, [](const uint64_t* a) { return exact(a[2] ? a[0] : a[1]); });

  // cvt between integers: truncate, zero- or sign-extend by the source type; .sat clamps.
  struct IntCvt { Ty d, s; bool sat; };
  std::vector<IntCvt> int_cvts;
  const Ty kAllInts[] = {Ty::kU8, Ty::kS8, Ty::kU16, Ty::kS16, Ty::kU32, Ty::kS32, Ty::kU64, Ty::kS64};
  for (bool sat : {false, true})
    for (Ty d : kAllInts)
      for (Ty s : kAllInts)
        if (d != s) int_cvts.push_back({d, s, sat});
  for (IntCvt c : int_cvts) {
    int dw = bits_of(c.d), sw = bits_of(c.s);
    bool ss = is_signed(c.s), ds = is_signed(c.d);
    add("cvt", std::string("cvt") + (c.sat ? ".sat." : ".") + tn(c.d) + "." + tn(c.s), c.d, {c.s}, [=](const uint64_t* a) {
      __int128 v = ss ? static_cast<__int128>(sx(a[0], sw)) : static_cast<__int128>(a[0] & mask(sw));
      if (c.sat) {
        __int128 lo = ds ? -(static_cast<__int128>(1) << (dw - 1)) : 0;
        __int128 hi = ds ? (static_cast<__int128>(1) << (dw - 1)) - 1 : static_cast<__int128>(mask(dw));
        v = v < lo ? lo : v > hi ? hi : v;
      }
      return exact(static_cast<uint64_t>(v) & mask(dw));
    });
  }
  // integer -> float, rounded as named.
  for (Ty s : {Ty::kS32, Ty::kU32, Ty::kS64, Ty::kU64, Ty::kS16, Ty::kU16, Ty::kS8, Ty::kU8}) {
    for (Ty d : {Ty::kF32, Ty::kF64}) {
      for (std::string r : {"rn", "rz", "rm", "rp"}) {
        int sw = bits_of(s);
        bool ss = is_signed(s);
        add("cvt", "cvt." + r + "." + tn(d) + "." + tn(s), d, {s}, [=](const uint64_t* a) {
          if (d == Ty::kF32)
            return fl32(rounded(r, [&] {
              volatile int64_t si = sx(a[0], sw); volatile uint64_t ui = a[0] & mask(sw);
              return ss ? static_cast<float>(si) : static_cast<float>(ui); }));
          return fl64(rounded(r, [&] {
            volatile int64_t si = sx(a[0], sw); volatile uint64_t ui = a[0] & mask(sw);
            return ss ? static_cast<double>(si) : static_cast<double>(ui); }));
        });
      }
    }
  }
  // float -> integer: round to an integer as named, clamp to the destination, NaN -> 0.
  for (Ty s : {Ty::kF32, Ty::kF64}) {
    for (Ty d : {Ty::kS32, Ty::kU32, Ty::kS64, Ty::kU64, Ty::kS16, Ty::kU16, Ty::kS8, Ty::kU8}) {
      for (std::string r : {"rni", "rzi", "rmi", "rpi", "rni.ftz", "rzi.ftz"}) {
        if (r.size() > 3 && (s != Ty::kF32 || (d != Ty::kS32 && d != Ty::kU32))) continue;  // .ftz: f32 sources
        int dw = bits_of(d);
        bool ds = is_signed(d);
        const bool fz = r.size() > 3;
        add("cvt", "cvt." + r + "." + tn(d) + "." + tn(s), d, {s}, [=](const uint64_t* a) {
          long double x = s == Ty::kF32 ? (fz ? ftz(F(a[0])) : F(a[0])) : D(a[0]);
          if (std::isnan(x)) return exact(0);
          const std::string ri = r.substr(0, 3);
          long double i = ri == "rni" ? std::nearbyint(x) : ri == "rzi" ? std::trunc(x) : ri == "rmi" ? std::floor(x) : std::ceil(x);
          long double lo = ds ? -std::ldexp(1.0L, dw - 1) : 0.0L;
          long double hi = ds ? std::ldexp(1.0L, dw - 1) - 1 : std::ldexp(1.0L, dw) - 1;
          i = i < lo ? lo : i > hi ? hi : i;
          uint64_t v = ds ? static_cast<uint64_t>(static_cast<int64_t>(i)) : static_cast<uint64_t>(i);
          return exact(v & mask(dw));
        });
      }
    }
  }
  // float -> float
  add("cvt", "cvt.f64.f32", Ty::kF64, {Ty::kF32}, [](const uint64_t* a) { return fl64(static_cast<double>(F(a[0]))); });
  add("cvt", "cvt.ftz.f64.f32", Ty::kF64, {Ty::kF32}, [](const uint64_t* a) { return fl64(static_cast<double>(ftz(F(a[0])))); });
  for (std::string m : {".rn", ".rz", ".rm", ".rp", ".rn.ftz", ".rn.sat"}) {
    std::string name = "cvt" + m + ".f32.f64";
    Mods md = mods_of(name);
    add("cvt", name, Ty::kF32, {Ty::kF64}, [md](const uint64_t* a) {
      float r = rounded(md.rnd, [&] { volatile double x = D(a[0]); return static_cast<float>(x); });
      if (md.ftz) r = ftz(r);
      if (md.sat) r = sat(r);
      if (md.sat && r == 0) return either_zero();
      return fl32(r);
    });
  }
  for (std::string r : {"rni", "rzi", "rmi", "rpi"}) {
    add("cvt", "cvt." + r + ".f32.f32", Ty::kF32, {Ty::kF32}, [r](const uint64_t* a) {
      return fl32(rounded(r, [&] { volatile float x = F(a[0]); return std::nearbyint(x); }));
    });
    add("cvt", "cvt." + r + ".f64.f64", Ty::kF64, {Ty::kF64}, [r](const uint64_t* a) {
      return fl64(rounded(r, [&] { volatile double x = D(a[0]); return std::nearbyint(x); }));
    });
  }
  add("cvt", "cvt.sat.f32.f32", Ty::kF32, {Ty::kF32}, [](const uint64_t* a) { float r = sat(F(a[0])); return r == 0 ? either_zero() : fl32(r); });
  add("cvt", "cvt.ftz.sat.f32.f32", Ty::kF32, {Ty::kF32}, [](const uint64_t* a) { float r = sat(ftz(F(a[0]))); return r == 0 ? either_zero() : fl32(r); });

  // min / max: NaN operands are ignored (both NaN -> NaN); either zero may win -0 vs +0.
  for (bool mx : {false, true}) {
    std::string op = mx ? "max" : "min";
    for (Ty t : kInts) {
      int w = bits_of(t);
      bool s = is_signed(t);
      add("minmax", op + "." + tn(t), t, {t, t}, [=](const uint64_t* a) {
        if (s) { int64_t x = sx(a[0], w), y = sx(a[1], w); return exact(static_cast<uint64_t>(mx ? std::max(x, y) : std::min(x, y)) & mask(w)); }
        uint64_t x = a[0] & mask(w), y = a[1] & mask(w);
        return exact(mx ? std::max(x, y) : std::min(x, y));
      });
    }
    for (std::string m : {"", ".ftz"}) {
      bool fz = !m.empty();
      add("minmax", op + m + ".f32", Ty::kF32, {Ty::kF32, Ty::kF32}, [=](const uint64_t* a) {
        float x = F(a[0]), y = F(a[1]);
        if (fz) x = ftz(x), y = ftz(y);
        if (x == 0 && y == 0 && std::signbit(x) != std::signbit(y)) return either_zero();
        return fl32(mx ? std::fmax(x, y) : std::fmin(x, y));
      });
    }
    // .NaN: a NaN operand gives NaN; .xorsign.abs: min/max of |a|, |b| with the XOR of
    // the signs (a NaN operand without .NaN: left unspecified here).
    for (std::string m : {".NaN", ".ftz.NaN", ".xorsign.abs", ".NaN.xorsign.abs", ".ftz.NaN.xorsign.abs"}) {
      const bool fz = m.find("ftz") != std::string::npos, nanm = m.find("NaN") != std::string::npos,
                 xs = m.find("xorsign") != std::string::npos;
      add("minmax", op + m + ".f32", Ty::kF32, {Ty::kF32, Ty::kF32}, [=](const uint64_t* a) {
        float x = F(a[0]), y = F(a[1]);
        if (fz) x = ftz(x), y = ftz(y);
        if (std::isnan(x) || std::isnan(y)) return nanm ? fl32(NAN) : xs ? any() : fl32(std::isnan(x) ? y : x);
        if (xs) {
          float r = mx ? std::fmax(std::fabs(x), std::fabs(y)) : std::fmin(std::fabs(x), std::fabs(y));
          return fl32(std::signbit(x) != std::signbit(y) ? -r : r);
        }
        if (x == 0 && y == 0 && std::signbit(x) != std::signbit(y)) return either_zero();
        return fl32(mx ? std::fmax(x, y) : std::fmin(x, y));
      });
    }
    add("minmax", op + ".relu.s32", Ty::kS32, {Ty::kS32, Ty::kS32}, [=](const uint64_t* a) {
      int64_t x = sx(a[0], 32), y = sx(a[1], 32), r = mx ? std::max(x, y) : std::min(x, y);
      return exact(static_cast<uint64_t>(std::max<int64_t>(r, 0)) & mask(32));
    });
    for (std::string m : {".s16x2", ".u16x2", ".relu.s16x2"}) {
      const bool sg = m.find('s') != std::string::npos && m.find("u16") == std::string::npos, relu = m.find("relu") != std::string::npos;
      add("minmax", op + m, Ty::kB32, {Ty::kB32, Ty::kB32}, [=](const uint64_t* a) {
        uint64_t r = 0;
        for (int k = 0; k < 2; ++k) {
          int64_t x = static_cast<int64_t>((a[0] >> (16 * k)) & 0xffff), y = static_cast<int64_t>((a[1] >> (16 * k)) & 0xffff);
          if (sg) x = sx(x, 16), y = sx(y, 16);
          int64_t v = mx ? std::max(x, y) : std::min(x, y);
          if (relu) v = std::max<int64_t>(v, 0);
          r |= (static_cast<uint64_t>(v) & 0xffff) << (16 * k);
        }
        return exact(r);
      });
    }
    add("minmax", op + ".f64", Ty::kF64, {Ty::kF64, Ty::kF64}, [=](const uint64_t* a) {
      double x = D(a[0]), y = D(a[1]);
      if (x == 0 && y == 0 && std::signbit(x) != std::signbit(y)) return either_zero();
      return fl64(mx ? std::fmax(x, y) : std::fmin(x, y));
    });
  }

  // abs / neg
  for (Ty t : {Ty::kS16, Ty::kS32, Ty::kS64}) {
    int w = bits_of(t);
    add("absneg", "abs." + tn(t), t, {t}, [w](const uint64_t* a) {
      int64_t x = sx(a[0], w);
      return exact(static_cast<uint64_t>(x < 0 ? -static_cast<__int128>(x) : x) & mask(w));
    });
    add("absneg", "neg." + tn(t), t, {t}, [w](const uint64_t* a) { return exact((0 - a[0]) & mask(w)); });
  }
  for (std::string m : {"", ".ftz"}) {
    bool fz = !m.empty();
    add("absneg", "abs" + m + ".f32", Ty::kF32, {Ty::kF32}, [fz](const uint64_t* a) { float x = F(a[0]); return fl32(std::fabs(fz ? ftz(x) : x)); });
    add("absneg", "neg" + m + ".f32", Ty::kF32, {Ty::kF32}, [fz](const uint64_t* a) { float x = F(a[0]); return fl32(-(fz ? ftz(x) : x)); });
  }
  add("absneg", "abs.f64", Ty::kF64, {Ty::kF64}, [](const uint64_t* a) { return fl64(std::fabs(D(a[0]))); });
  add("absneg", "neg.f64", Ty::kF64, {Ty::kF64}, [](const uint64_t* a) { return fl64(-D(a[0])); });

  // div / rem: integer division by zero and INT_MIN / -1 are unspecified.
  for (Ty t : kInts) {
    int w = bits_of(t);
    bool s = is_signed(t);
    for (bool rem : {false, true}) {
      add("divrem", std::string(rem ? "rem." : "div.") + tn(t), t, {t, t}, [=](const uint64_t* a) {
        if ((a[1] & mask(w)) == 0) return any();
        if (s) {
          int64_t x = sx(a[0], w), y = sx(a[1], w);
          if (y == -1 && x == sx(1ull << (w - 1), w)) return any();
          return exact(static_cast<uint64_t>(rem ? x % y : x / y) & mask(w));
        }
        uint64_t x = a[0] & mask(w), y = a[1] & mask(w);
        return exact(rem ? x % y : x / y);
      });
    }
  }
  for (std::string m : {".rn", ".rz", ".rm", ".rp", ".rn.ftz"}) {
    std::string name = "div" + m + ".f32";
    Mods md = mods_of(name);
    add("divrem", name, Ty::kF32, {Ty::kF32, Ty::kF32}, [md](const uint64_t* a) {
      float x = F(a[0]), y = F(a[1]);
      if (md.ftz) x = ftz(x), y = ftz(y);
      float r = rounded(md.rnd, [&] { volatile float p = x, q = y; return p / q; });
      return fl32(md.ftz ? ftz(r) : r);
    });
  }
  for (std::string m : {".rn", ".rz", ".rm", ".rp"}) {
    std::string name = "div" + m + ".f64";
    Mods md = mods_of(name);
    add("divrem", name, Ty::kF64, {Ty::kF64, Ty::kF64}, [md](const uint64_t* a) {
      return fl64(rounded(md.rnd, [&] { volatile double p = D(a[0]), q = D(a[1]); return p / q; }));
    });
  }
  // div.approx: 2 ulp for 2^-126 <= |b| <= 2^126 (PTX ISA); div.full: 2 ulp everywhere.
  for (std::string m : {".approx", ".approx.ftz", ".full", ".full.ftz"}) {
    std::string name = "div" + m + ".f32";
    bool fz = m.find("ftz") != std::string::npos, approx = m.find("approx") != std::string::npos;
    add("divrem", name, Ty::kF32, {Ty::kF32, Ty::kF32}, [=](const uint64_t* a) {
      float x = F(a[0]), y = F(a[1]);
      if (fz) x = ftz(x), y = ftz(y);
      if (approx && std::isfinite(y) && y != 0 && (std::fabs(y) < 0x1p-126f || std::fabs(y) > 0x1p126f)) return any();
      double q = static_cast<double>(x) / static_cast<double>(y);
      if (fz && std::fpclassify(static_cast<float>(q)) == FP_SUBNORMAL) q = std::copysign(0.0, q);
      return ulp32(q, 2);
    });
  }

  // bit operations
  add("bits", "popc.b32", Ty::kU32, {Ty::kB32}, [](const uint64_t* a) { return exact(__builtin_popcountll(a[0] & mask(32))); });
  add("bits", "popc.b64", Ty::kU32, {Ty::kB64}, [](const uint64_t* a) { return exact(__builtin_popcountll(a[0])); });
  add("bits", "clz.b32", Ty::kU32, {Ty::kB32}, [](const uint64_t* a) { uint32_t x = a[0]; return exact(x ? __builtin_clz(x) : 32); });
  add("bits", "clz.b64", Ty::kU32, {Ty::kB64}, [](const uint64_t* a) { return exact(a[0] ? __builtin_clzll(a[0]) : 64); });
  for (Ty t : {Ty::kB32, Ty::kB64}) {
    int w = bits_of(t);
    add("bits", "brev." + tn(t), t, {t}, [w](const uint64_t* a) {
      uint64_t r = 0;
      for (int i = 0; i < w; ++i) if (a[0] >> i & 1) r |= 1ull << (w - 1 - i);
      return exact(r);
    });
    add("bits", "bfi." + tn(t), t, {t, t, Ty::kU32, Ty::kU32}, [w](const uint64_t* a) {
      uint64_t pos = a[2] & 0xff, len = a[3] & 0xff, r = a[1] & mask(w);
      for (uint64_t i = 0; i < len && pos + i < static_cast<uint64_t>(w); ++i)
        r = (r & ~(1ull << (pos + i))) | ((a[0] >> i & 1) << (pos + i));
      return exact(r);
    }, {Dom::kAny, Dom::kAny, Dom::kShift, Dom::kShift});
  }
  for (Ty t : {Ty::kU32, Ty::kS32, Ty::kU64, Ty::kS64}) {
    int w = bits_of(t);
    bool s = is_signed(t);
    add("bits", "bfe." + tn(t), t, {t, Ty::kU32, Ty::kU32}, [w, s](const uint64_t* a) {
      uint64_t pos = a[1] & 0xff, len = a[2] & 0xff, x = a[0] & mask(w);
      if (len == 0) return exact(0);
      uint64_t msb = static_cast<uint64_t>(w - 1);
      uint64_t sbit = s ? (x >> std::min(pos + len - 1, msb) & 1) : 0;
      uint64_t r = 0;
      for (uint64_t i = 0; i <= msb; ++i) {
        uint64_t bit = (i < len && pos + i <= msb) ? (x >> (pos + i) & 1) : sbit;
        r |= bit << i;
      }
      return exact(r);
    }, {Dom::kAny, Dom::kShift, Dom::kShift});
    for (bool sa : {false, true}) {
      add("bits", std::string("bfind.") + (sa ? "shiftamt." : "") + tn(t), Ty::kU32, {t}, [w, s, sa](const uint64_t* a) {
        uint64_t x = a[0] & mask(w);
        if (s && sx(x, w) < 0) x = ~x & mask(w);
        if (x == 0) return exact(0xffffffffu);
        uint64_t p = 63 - __builtin_clzll(x);
        return exact(sa ? static_cast<uint64_t>(w - 1) - p : p);
      });
    }
  }
  add("bits", "prmt.b32", Ty::kB32, {Ty::kB32, Ty::kB32, Ty::kB32}, [](const uint64_t* a) {
    uint64_t bytes = (a[0] & mask(32)) | ((a[1] & mask(32)) << 32);
    uint64_t r = 0;
    for (int i = 0; i < 4; ++i) {
      uint64_t sel = a[2] >> (4 * i) & 0xf, b = bytes >> (8 * (sel & 7)) & 0xff;
      if (sel & 8) b = (b & 0x80) ? 0xff : 0;
      r |= b << (8 * i);
    }
    return exact(r);
  });

  // rcp / sqrt / rsqrt: IEEE forms exact; approximate forms within the PTX ISA's bounds.
  for (std::string m : {".rn", ".rz", ".rm", ".rp", ".rn.ftz", ".rz.ftz", ".rp.ftz"}) {
    std::string name = "rcp" + m + ".f32";
    Mods md = mods_of(name);
    add("special", name, Ty::kF32, {Ty::kF32}, [md](const uint64_t* a) {
      float x = md.ftz ? ftz(F(a[0])) : F(a[0]);
      float r = rounded(md.rnd, [&] { volatile float p = x; return 1.0f / p; });
      return fl32(md.ftz ? ftz(r) : r);
    });
    std::string sname = "sqrt" + m + ".f32";
    add("special", sname, Ty::kF32, {Ty::kF32}, [md](const uint64_t* a) {
      float x = md.ftz ? ftz(F(a[0])) : F(a[0]);
      float r = rounded(md.rnd, [&] { volatile float p = x; return std::sqrt(p); });
      return fl32(md.ftz ? ftz(r) : r);
    });
  }
  for (std::string r : {"rn", "rz", "rm", "rp"}) {
    add("special", "rcp." + r + ".f64", Ty::kF64, {Ty::kF64}, [r](const uint64_t* a) {
      return fl64(rounded(r, [&] { volatile double p = D(a[0]); return 1.0 / p; }));
    });
    add("special", "sqrt." + r + ".f64", Ty::kF64, {Ty::kF64}, [r](const uint64_t* a) {
      return fl64(rounded(r, [&] { volatile double p = D(a[0]); return std::sqrt(p); }));
    });
  }
  // Assumed bound (the PTX ISA gives none for it): relative error <= 2^-19.
  add("special", "rcp.approx.ftz.f64", Ty::kF64, {Ty::kF64}, [](const uint64_t* a) {
    double x = D(a[0]);
    if (std::fpclassify(x) == FP_SUBNORMAL) x = std::copysign(0.0, x);
    return Expect{DB(1.0 / x), Cmp::kUlp, 0x1p33};
  });
  struct Approx { std::string op; double tol; };
  for (bool fz : {false, true}) {
    std::string m = fz ? ".approx.ftz.f32" : ".approx.f32";
    auto in = [fz](const uint64_t* a) { float x = F(a[0]); return fz ? ftz(x) : x; };
    auto out = [fz](double r) { float f = static_cast<float>(r); return fz && std::fpclassify(f) == FP_SUBNORMAL ? std::copysign(0.0, r) : r; };
    add("special", "rcp" + m, Ty::kF32, {Ty::kF32}, [=](const uint64_t* a) { return ulp32(out(1.0 / in(a)), 1); });
    add("special", "sqrt" + m, Ty::kF32, {Ty::kF32}, [=](const uint64_t* a) { return ulp32(out(std::sqrt(static_cast<double>(in(a)))), 2); });
    add("special", "rsqrt" + m, Ty::kF32, {Ty::kF32}, [=](const uint64_t* a) { return ulp32(out(1.0 / std::sqrt(static_cast<double>(in(a)))), 2); });
    add("special", "ex2" + m, Ty::kF32, {Ty::kF32}, [=](const uint64_t* a) { return ulp32(out(std::exp2(static_cast<double>(in(a)))), 2); });
    add("special", "lg2" + m, Ty::kF32, {Ty::kF32}, [=](const uint64_t* a) {
      double r = std::log2(static_cast<double>(in(a)));
      if (!std::isfinite(r)) return fl32(static_cast<float>(r));
      float f = static_cast<float>(r);
      double ulp = std::fabs(static_cast<double>(std::nextafter(f, INFINITY)) - f);
      return abs32(r, std::max(0x1p-22, 2 * ulp));
    });
    for (bool sn : {true, false}) {
      add("special", std::string(sn ? "sin" : "cos") + m, Ty::kF32, {Ty::kF32}, [=](const uint64_t* a) {
        float x = in(a);
        if (std::isnan(x) || std::isinf(x)) return fl32(std::numeric_limits<float>::quiet_NaN());
        if (std::fabs(x) > 3.14159265f) return any();
        return abs32(sn ? std::sin(static_cast<double>(x)) : std::cos(static_cast<double>(x)), std::exp2(-20.5));
      }, {Dom::kTrig});
    }
  }

  // misc
  add("misc", "copysign.f32", Ty::kF32, {Ty::kF32, Ty::kF32}, [](const uint64_t* a) { return fl32(std::copysign(F(a[1]), F(a[0]))); });
  add("misc", "copysign.f64", Ty::kF64, {Ty::kF64, Ty::kF64}, [](const uint64_t* a) { return fl64(std::copysign(D(a[1]), D(a[0]))); });
  for (Ty t : {Ty::kF32, Ty::kF64}) {
    for (std::string c : {"finite", "infinite", "number", "notanumber", "normal", "subnormal"}) {
      add("misc", "testp." + c + "." + tn(t), Ty::kPred, {t}, [t, c](const uint64_t* a) {
        int k = t == Ty::kF32 ? std::fpclassify(F(a[0])) : std::fpclassify(D(a[0]));
        bool r = c == "finite" ? (k != FP_INFINITE && k != FP_NAN) : c == "infinite" ? k == FP_INFINITE
               : c == "number" ? k != FP_NAN : c == "notanumber" ? k == FP_NAN : c == "normal" ? k == FP_NORMAL : k == FP_SUBNORMAL;
        return exact(r);
      });
    }
  }
  // ---- bit manipulation and dot products (PTX ISA "Integer Arithmetic Instructions") ----
  for (std::string mode : {"clamp", "wrap"}) {
    const bool clamp = mode == "clamp";
    add("bits2", "bmsk." + mode + ".b32", Ty::kB32, {Ty::kU32, Ty::kU32}, [clamp](const uint64_t* x) {
      // PTX ISA bmsk semantics, spelled out.
      const uint32_t a = static_cast<uint32_t>(x[0]), b = static_cast<uint32_t>(x[1]);
      const uint32_t a1 = a & 0x1f, b1 = b & 0x1f, sum = a1 + b1;
      uint32_t mask0 = ~0u << a1;
      uint64_t mask1 = sum >= 32 ? 0 : (~0ull << sum) & 0xffffffffu;
      bool pos_over = false, width_over = false;
      if (clamp) {
        if (a >= 32) pos_over = true, mask0 = 0;
        if (b >= 32) width_over = true;
      }
      if (sum >= 32 || pos_over || width_over) mask1 = 0;
      else if (b1 == 0) mask1 = 0xffffffffu;
      return exact(mask0 & ~static_cast<uint32_t>(mask1));
    }, {Dom::kShift, Dom::kShift});
    for (std::string dir : {"l", "r"}) {
      const bool left = dir == "l";
      add("bits2", "shf." + dir + "." + mode + ".b32", Ty::kB32, {Ty::kB32, Ty::kB32, Ty::kU32}, [clamp, left](const uint64_t* x) {
        const uint64_t c = x[2] & mask(32);
        const uint64_t n = clamp ? std::min<uint64_t>(c, 32) : c & 0x1f;
        const unsigned __int128 v = (static_cast<unsigned __int128>(x[1] & mask(32)) << 32) | (x[0] & mask(32));
        return exact(left ? static_cast<uint64_t>((v << n) >> 32) & mask(32) : static_cast<uint64_t>(v >> n) & mask(32));
      }, {Dom::kAny, Dom::kAny, Dom::kShift});
    }
    for (Ty t : {Ty::kU32, Ty::kS32}) {
      const bool sg = t == Ty::kS32;
      add("bits2", "szext." + mode + "." + tn(t), t, {t, Ty::kU32}, [clamp, sg](const uint64_t* x) {
        const uint64_t b = x[1] & mask(32);
        const int n = static_cast<int>(clamp ? std::min<uint64_t>(b, 32) : b & 0x1f);
        if (n == 0) return exact(0);
        const uint64_t field = x[0] & mask(n);
        return exact((sg ? static_cast<uint64_t>(sx(field, n)) : field) & mask(32));
      }, {Dom::kAny, Dom::kShift});
    }
  }
  for (Ty at : {Ty::kU32, Ty::kS32}) {
    for (Ty bt : {Ty::kU32, Ty::kS32}) {
      const bool as = at == Ty::kS32, bs = bt == Ty::kS32;
      const Ty dt = as || bs ? Ty::kS32 : Ty::kU32;
      auto elem = [](uint64_t v, int pos, int width, bool s) { uint64_t e = (v >> pos) & mask(width); return s ? sx(e, width) : static_cast<int64_t>(e); };
      add("bits2", "dp4a." + tn(at) + "." + tn(bt), dt, {at, bt, dt}, [=](const uint64_t* x) {
        int64_t acc = sx(x[2], 32);
        for (int i = 0; i < 4; ++i) acc += elem(x[0], 8 * i, 8, as) * elem(x[1], 8 * i, 8, bs);
        return exact(static_cast<uint64_t>(acc) & mask(32));
      });
      for (std::string m : {"lo", "hi"}) {
        const int base = m == "hi" ? 2 : 0;
        add("bits2", "dp2a." + m + "." + tn(at) + "." + tn(bt), dt, {at, bt, dt}, [=](const uint64_t* x) {
          int64_t acc = sx(x[2], 32);
          for (int i = 0; i < 2; ++i) acc += elem(x[0], 16 * i, 16, as) * elem(x[1], 8 * (base + i), 8, bs);
          return exact(static_cast<uint64_t>(acc) & mask(32));
        });
      }
    }
  }
  // sad: d = c + |a - b|.
  for (Ty t : kInts) {
    const int w = bits_of(t);
    const bool sg = is_signed(t);
    add("bits2", "sad." + tn(t), t, {t, t, t}, [=](const uint64_t* x) {
      __int128 a = sg ? sx(x[0], w) : static_cast<__int128>(x[0] & mask(w));
      __int128 b = sg ? sx(x[1], w) : static_cast<__int128>(x[1] & mask(w));
      __int128 d = a > b ? a - b : b - a;
      return exact(static_cast<uint64_t>(d + static_cast<__int128>(x[2] & mask(w))) & mask(w));
    });
  }
  // prmt modes: byte i of d is byte idx(i, s) of {b, a} (a = bytes 0-3), s = c[1:0]
  // (PTX ISA prmt table).
  struct PrmtMode { const char* name; int (*idx)(int i, int s); };
  static const PrmtMode kPrmtModes[] = {
      {"f4e", [](int i, int s) { return (s + i) & 7; }},  {"b4e", [](int i, int s) { return (s - i) & 7; }},
      {"rc8", [](int, int s) { return s; }},              {"ecl", [](int i, int s) { return std::max(i, s); }},
      {"ecr", [](int i, int s) { return std::min(i, s); }}, {"rc16", [](int i, int s) { return (i & 1) + 2 * (s & 1); }},
  };
  for (const PrmtMode& pm : kPrmtModes) {
    auto idx = pm.idx;
    add("bits2", std::string("prmt.b32.") + pm.name, Ty::kB32, {Ty::kB32, Ty::kB32, Ty::kB32}, [idx](const uint64_t* x) {
      const uint64_t bytes = (x[0] & mask(32)) | ((x[1] & mask(32)) << 32);
      const int s = static_cast<int>(x[2] & 3);
      uint64_t r = 0;
      for (int i = 0; i < 4; ++i) r |= ((bytes >> (8 * idx(i, s))) & 0xff) << (8 * i);
      return exact(r);
    });
  }
  // slct: d = c >= 0 ? a : b (c .s32, or .f32 with -0 >= 0; .ftz flushes c; NaN c is
  // left unspecified here).
  for (Ty t : {Ty::kB16, Ty::kU16, Ty::kS16, Ty::kB32, Ty::kU32, Ty::kS32, Ty::kF32, Ty::kB64, Ty::kU64, Ty::kS64, Ty::kF64}) {
    add("selp", "slct." + tn(t) + ".s32", t, {t, t, Ty::kS32}, [](const uint64_t* x) { return exact(sx(x[2], 32) >= 0 ? x[0] : x[1]); });
    for (bool fz : {false, true}) {
      if (fz && t != Ty::kF32 && t != Ty::kB32) continue;
      add("selp", std::string("slct") + (fz ? ".ftz." : ".") + tn(t) + ".f32", t, {t, t, Ty::kF32}, [fz](const uint64_t* x) {
        float c = F(x[2]);
        if (fz) c = ftz(c);
        if (std::isnan(c)) return any();
        return exact(c >= 0 ? x[0] : x[1]);
      });
    }
  }

  // set: 1.0f (.f32) or 0xffffffff (.u32/.s32) when the comparison holds, else 0.
  struct SetForm { const char* cmp; Ty d, s; bool ftz; };
  for (SetForm sf : {SetForm{"eq", Ty::kU32, Ty::kS32, false}, {"lt", Ty::kF32, Ty::kF32, false}, {"gtu", Ty::kU32, Ty::kF32, false},
                     {"ne", Ty::kS32, Ty::kF64, false}, {"lt", Ty::kF32, Ty::kF32, true}, {"ge", Ty::kU32, Ty::kU64, false},
                     {"hi", Ty::kS32, Ty::kU32, false}, {"nan", Ty::kF32, Ty::kF64, false}, {"le", Ty::kU32, Ty::kS16, false}}) {
    const Ty st = sf.s, dt = sf.d;
    const std::string c = sf.cmp;
    const bool fz = sf.ftz;
    add("setp", "set." + c + (fz ? ".ftz." : ".") + tn(dt) + "." + tn(st), dt, {st, st}, [=](const uint64_t* a) {
      bool r;
      if (st == Ty::kF32 || st == Ty::kF64) {
        double x = st == Ty::kF32 ? (fz ? ftz(F(a[0])) : F(a[0])) : D(a[0]);
        double y = st == Ty::kF32 ? (fz ? ftz(F(a[1])) : F(a[1])) : D(a[1]);
        bool un = std::isnan(x) || std::isnan(y);
        if (c == "nan") r = un;
        else if (c == "gtu") r = un || x > y;
        else if (un) r = false;
        else r = c == "eq" ? x == y : c == "ne" ? x != y : c == "lt" ? x < y : c == "le" ? x <= y : c == "gt" ? x > y : x >= y;
      } else {
        int w = bits_of(st);
        bool sg = is_signed(st);
        __int128 x = sg ? sx(a[0], w) : static_cast<__int128>(a[0] & mask(w)), y = sg ? sx(a[1], w) : static_cast<__int128>(a[1] & mask(w));
        r = c == "eq" ? x == y : c == "ne" ? x != y : c == "lt" ? x < y : c == "le" ? x <= y : (c == "gt" || c == "hi") ? x > y : x >= y;
      }
      return exact(r ? (dt == Ty::kF32 ? 0x3f800000u : 0xffffffffu) : 0);
    });
  }
  // mad.hi.sat.s32: the high half of the product plus c, clamped.
  add("mad", "mad.hi.sat.s32", Ty::kS32, {Ty::kS32, Ty::kS32, Ty::kS32}, [](const uint64_t* a) {
    int64_t hi = (sx(a[0], 32) * sx(a[1], 32)) >> 32;
    int64_t r = std::min<int64_t>(std::max<int64_t>(hi + sx(a[2], 32), INT32_MIN), INT32_MAX);
    return exact(static_cast<uint64_t>(r) & mask(32));
  });
  // mul24/mad24: the 48-bit product of the low 24 bits (sign-extended for .s32); .lo
  // gives bits 0-31, .hi bits 16-47.
  for (Ty t : {Ty::kU32, Ty::kS32}) {
    const bool sg = t == Ty::kS32;
    for (bool hi : {false, true})
      for (bool mad : {false, true}) {
        std::vector<Ty> srcs = {t, t};
        if (mad) srcs.push_back(t);
        add("mul", std::string(mad ? "mad24" : "mul24") + (hi ? ".hi." : ".lo.") + tn(t), t, srcs, [=](const uint64_t* a) {
          int64_t x = static_cast<int64_t>(a[0] & mask(24)), y = static_cast<int64_t>(a[1] & mask(24));
          if (sg) x = sx(x, 24), y = sx(y, 24);
          uint64_t p = static_cast<uint64_t>(x * y);
          uint64_t r = hi ? (p >> 16) : p;
          if (mad) r += a[2];
          return exact(r & mask(32));
        });
      }
  }
  // integer -> f32 with .sat (clamped to [0, 1]).
  for (Ty s : {Ty::kS32, Ty::kU32}) {
    const bool sg = s == Ty::kS32;
    add("cvt", "cvt.rn.sat.f32." + tn(s), Ty::kF32, {s}, [sg](const uint64_t* a) {
      int64_t v = sg ? sx(a[0], 32) : static_cast<int64_t>(a[0] & mask(32));
      return fl32(v <= 0 ? 0.0f : 1.0f);
    });
  }

  add_half_forms(v);
  return v;
}

}  // namespace

const std::vector<Form>& all_forms() {
  static const std::vector<Form> forms = build();
  return forms;
}

}  // namespace strata::ptx_conformance
