// The PTX conformance runner: one generated module per instruction family, run on the
// SM core over edge-case and random inputs, each form's results compared with its
// scalar reference (forms.cc). Writes form -> status as JSON and, given the checked-in
// results and expected failures, fails on any change: a regression, a new failure, or
// a known failure that now passes (so both files stay true).
//
// Usage: ptx_conformance [--family F] [--write PATH] [--results PATH --expected PATH]
//                        [--verbose N] [--dump FORM] [--dump-case CASE]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <random>
#include <sstream>

#include "compiler/compiler.h"
#include "exec_harness.h"
#include "forms.h"
#include "kernel_cases.h"
#include "ref_float.h"

namespace strata::ptx_conformance {
namespace {

using compiler::testing::Dim;
using compiler::testing::PtxExec;

constexpr uint32_t kVectors = 1024;  // input vectors per form (threads)
constexpr uint32_t kBlock = 128;
constexpr int kMaxSrcs = 4;
int g_verbose = 0;  // --verbose N: print the first N mismatches of each failing form

struct Result { std::string status, family, detail; };

// ---- inputs ---------------------------------------------------------------------------

// Small-float edge cases: zeros, +-1, infinities, NaNs, the smallest subnormal, the
// largest subnormal, the smallest normal, the largest finite, and a few ordinary values.
const std::vector<uint64_t> kF16Edges = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0xfe01, 0x0001, 0x83ff,
                                         0x0400, 0x7bff, 0xfbff, 0x3800, 0x3e00, 0x4100, 0xc100, 0x3555, 0x3bff, 0x5640,
                                         0x0200, 0x7800, 0x1400, 0x3c01};
const std::vector<uint64_t> kBF16Edges = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0xffc1, 0x0001, 0x807f,
                                          0x0080, 0x7f7f, 0xff7f, 0x3f00, 0x3fc0, 0x4020, 0xc020, 0x3eab, 0x3f7f, 0x42c8,
                                          0x0040, 0x4f00, 0x3f81};
const std::vector<uint64_t> kFp8Edges = {0x00, 0x80, 0x38, 0xb8, 0x7f, 0xff, 0x7e, 0xfe, 0x7c, 0xfc, 0x7b, 0x01, 0x07,
                                         0x08, 0x04, 0x40, 0x3c};
// Two elements per value: every edge in each half, paired with others.
std::vector<uint64_t> pairs(const std::vector<uint64_t>& e, int bits) {
  std::vector<uint64_t> v;
  for (size_t i = 0; i < e.size(); ++i) v.push_back(e[i] | (e[(i * 7 + 3) % e.size()] << bits));
  for (size_t i = 0; i < e.size(); ++i) v.push_back(e[(i * 5 + 1) % e.size()] | (e[i] << bits));
  return v;
}

std::vector<uint64_t> edges(Ty t, Dom d) {
  if (d == Dom::kShift) return {0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255, 256, 0x80000000u, 0xffffffffu};
  switch (t) {
    case Ty::kF16: return kF16Edges;
    case Ty::kBF16: return kBF16Edges;
    case Ty::kF16x2: return pairs(kF16Edges, 16);
    case Ty::kBF16x2: return pairs(kBF16Edges, 16);
    case Ty::kE4M3x2: case Ty::kE5M2x2: return pairs(kFp8Edges, 8);
    case Ty::kPred: return {0, 1};
    case Ty::kU8: case Ty::kS8: return {0, 1, 2, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x12};
    case Ty::kB16: case Ty::kU16: case Ty::kS16:
      return {0, 1, 2, 0xffff, 0x7fff, 0x8000, 0x8001, 15, 16, 17, 0xfffe, 0x1234};
    case Ty::kB32: case Ty::kU32: case Ty::kS32:
      return {0, 1, 2, 3, 0xffffffffu, 0x7fffffffu, 0x80000000u, 0x80000001u, 0xfffffffeu, 31, 32, 33, 0x10000,
              0x12345678u, 0xdeadbeefu, 0xffff};
    case Ty::kB64: case Ty::kU64: case Ty::kS64:
      return {0, 1, 2, ~0ull, 0x7fffffffffffffffull, 0x8000000000000000ull, 0x8000000000000001ull, 63, 64, 65,
              0xffffffffull, 0x100000000ull, 0x80000000ull, 0x123456789abcdef0ull, 0xfffffffffffffffeull};
    case Ty::kF32: {
      std::vector<uint64_t> v = {0x00000000, 0x80000000, 0x3f800000, 0xbf800000, 0x7f800000, 0xff800000, 0x7fc00000,
                                 0xffc00001, 0x00000001, 0x807fffff, 0x00800000, 0x7f7fffff, 0xff7fffff, 0x3f000000,
                                 0x3fc00000, 0x40200000, 0xc0200000, 0x4f32d05e /*3e9*/, 0xcf32d05e, 0x4f000000 /*2^31*/,
                                 0xcf000000, 0x5f800000 /*2^64*/, 0x40490fdb /*pi*/, 0x4b800001, 0x3f7fffff,
                                 0x007fffff /*largest subnormal*/, 0x00000003};
      if (d == Dom::kTrig) v = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc00000, 0x00000001,
                                0x40490fdb, 0xc0490fdb, 0x3fc90fdb, 0x3a83126f, 0x3f800000, 0x41200000};
      if (d == Dom::kNarrow)  // f16/bf16/fp8 limits and the ties around them
        v.insert(v.end(), {0x477fe000 /*f16 max*/, 0x477ff000 /*f16 max + half ulp*/, 0x477fefff, 0xc77ff000,
                           0x33800000 /*2^-24*/, 0x33000000 /*2^-25: f16 tie to 0*/, 0x33000001, 0x387fc000 /*f16 max subnormal*/,
                           0x3f801000 /*f16 tie, even*/, 0x3f803000 /*f16 tie, odd*/, 0x3f808000 /*bf16 tie*/, 0x3f818000,
                           0x43e00000 /*448*/, 0x43f00000 /*480: e4m3 tie to max*/, 0x47600000 /*57344*/, 0x47700000,
                           0x3a800000 /*2^-10*/, 0x3b100000, 0x37800000 /*2^-16*/, 0x7f7ff000, 0x7f7fefff});
      return v;
    }
    case Ty::kF64:
      return {0, 0x8000000000000000ull, 0x3ff0000000000000ull, 0xbff0000000000000ull, 0x7ff0000000000000ull,
              0xfff0000000000000ull, 0x7ff8000000000000ull, 0x0000000000000001ull, 0x800fffffffffffffull,
              0x0010000000000000ull, 0x7fefffffffffffffull, 0x3fe0000000000000ull, 0x4004000000000000ull,
              0xc004000000000000ull, 0x41e0000000000000ull /*2^31*/, 0xc1e0000000000000ull, 0x43e0000000000000ull /*2^63*/,
              0x36a0000000000000ull /*2^-149*/, 0x47efffffe0000000ull /*FLT_MAX*/, 0x3ff0000010000000ull /*f32 tie*/,
              0x000fffffffffffffull /*largest subnormal*/, 0x0000000000000003ull};
  }
  return {0};
}

// A random small float: any bit pattern, or mostly ordinary values (exponent field in the
// middle of the range) with some subnormals.
uint64_t random_small(int exp_bits, int mant_bits, std::mt19937_64& rng) {
  uint64_t r = rng();
  const int bits = 1 + exp_bits + mant_bits;
  if (r % 4 == 0) return (r >> 8) & ((1ull << bits) - 1);
  const uint64_t emax = (1ull << exp_bits) - 1;
  uint64_t e = r % 8 == 1 ? 0 : 1 + (r >> 3) % (emax - 1);
  if (exp_bits == 8 && e != 0) e = 127 - 20 + (r >> 3) % 41;  // bf16: within 2^+-20
  const uint64_t m = (r >> 16) & ((1ull << mant_bits) - 1), s = (r >> 40) & 1;
  return (s << (bits - 1)) | (e << mant_bits) | m;
}

uint64_t random_value(Ty t, Dom d, std::mt19937_64& rng) {
  uint64_t r = rng();
  if (d == Dom::kShift) return r % 71;
  std::uniform_real_distribution<double> u(1.0, 2.0);
  switch (t) {
    case Ty::kF16: return random_small(5, 10, rng);
    case Ty::kBF16: return random_small(8, 7, rng);
    case Ty::kF16x2: return random_small(5, 10, rng) | (random_small(5, 10, rng) << 16);
    case Ty::kBF16x2: return random_small(8, 7, rng) | (random_small(8, 7, rng) << 16);
    case Ty::kE4M3x2: return random_small(4, 3, rng) | (random_small(4, 3, rng) << 8);
    case Ty::kE5M2x2: return random_small(5, 2, rng) | (random_small(5, 2, rng) << 8);
    case Ty::kPred: return r & 1;
    case Ty::kF32: {
      if (d == Dom::kTrig) { float f = static_cast<float>((u(rng) - 1.5) * 2 * 3.14159265); uint32_t b; std::memcpy(&b, &f, 4); return b; }
      if (d == Dom::kNarrow && r % 4 != 0) {
        // Exponents around the 16- and 8-bit formats' ranges; often exactly half-way
        // between two f16, bf16, tf32 or fp8 values (low bits 1000...).
        uint32_t b = static_cast<uint32_t>((r >> 40) & 1) << 31 | static_cast<uint32_t>(127 - 28 + (r >> 8) % 47) << 23 |
                     static_cast<uint32_t>(rng() & 0x7fffff);
        static const uint32_t kTieBits[] = {12, 15, 19, 20, 13};  // f16, bf16, e4m3, e5m2, tf32 half-ulp positions
        if ((r >> 16) % 3 == 0) {
          uint32_t k = kTieBits[(r >> 20) % 5];
          b = (b & ~((2u << k) - 1)) | (1u << k);
        }
        return b;
      }
      float f;
      switch (r % 4) {
        case 0: { uint32_t b = static_cast<uint32_t>(r >> 8); std::memcpy(&f, &b, 4); break; }
        case 1: f = static_cast<float>(static_cast<int64_t>(rng() % (1u << 26)) - (1 << 25)) * 0.5f; break;
        default: f = static_cast<float>(std::ldexp(u(rng), static_cast<int>(rng() % 41) - 20) * ((r >> 3 & 1) ? -1 : 1));
      }
      uint32_t b; std::memcpy(&b, &f, 4); return b;
    }
    case Ty::kF64: {
      double f;
      switch (r % 4) {
        case 0: { uint64_t b = rng(); std::memcpy(&f, &b, 8); break; }
        case 1: f = static_cast<double>(static_cast<int64_t>(rng() % (1ull << 54)) - (1ll << 53)) * 0.5; break;
        default: f = std::ldexp(u(rng), static_cast<int>(rng() % 81) - 40) * ((r >> 3 & 1) ? -1 : 1);
      }
      uint64_t b; std::memcpy(&b, &f, 8); return b;
    }
    default: {
      int w = bits_of(t);
      uint64_t v = (r & 3) == 0 ? (rng() % 100) : (r & 3) == 1 ? -(rng() % 100) : rng();
      return w >= 64 ? v : v & ((1ull << w) - 1);
    }
  }
}

// in[j][v]: operand j of vector v. Small operand counts get every pair of edge cases.
std::vector<std::vector<uint64_t>> inputs(const Form& f, uint32_t seed) {
  std::mt19937_64 rng(seed);
  size_t n = f.srcs.size();
  std::vector<std::vector<uint64_t>> e(n), in(n, std::vector<uint64_t>(kVectors));
  for (size_t j = 0; j < n; ++j) e[j] = edges(f.srcs[j], j < f.doms.size() ? f.doms[j] : Dom::kAny);
  size_t combos = n == 1 ? e[0].size() : n == 2 ? e[0].size() * e[1].size() : 0;
  combos = std::min<size_t>(combos, kVectors / 2);
  for (uint32_t v = 0; v < kVectors; ++v) {
    for (size_t j = 0; j < n; ++j) {
      Dom d = j < f.doms.size() ? f.doms[j] : Dom::kAny;
      if (v < combos) in[j][v] = n == 1 ? e[0][v] : e[j][j == 0 ? v / e[1].size() % e[0].size() : v % e[1].size()];
      else in[j][v] = rng() % 4 == 0 ? e[j][rng() % e[j].size()] : random_value(f.srcs[j], d, rng);
    }
  }
  return in;
}

// ---- PTX generation -------------------------------------------------------------------

struct Regs {
  int r = 0, rd = 0, f = 0, fd = 0, rs = 0, p = 0;
  std::string fresh(Ty t) {
    switch (t) {
      case Ty::kPred: return "%p" + std::to_string(++p);
      case Ty::kF32: return "%f" + std::to_string(++f);
      case Ty::kF64: return "%fd" + std::to_string(++fd);
      default:
        if (bits_of(t) <= 16) return "%rs" + std::to_string(++rs);
        if (bits_of(t) == 32) return "%r" + std::to_string(++r);
        return "%rd" + std::to_string(++rd);
    }
  }
};
std::string mem_suffix(Ty t) {
  if (t == Ty::kF32) return "f32";
  if (t == Ty::kF64) return "f64";
  int w = bits_of(t);
  return w == 1 ? "u32" : "u" + std::to_string(w);
}

// One kernel `conf` running forms[k] on vector gid: operand j of form k is at
// in[((k * 4 + j) * N + gid)], its result at out[k * N + gid] (8-byte slots).
std::string module_for(const std::vector<const Form*>& forms) {
  Regs g;
  std::ostringstream b;
  std::string in = g.fresh(Ty::kU64), out = g.fresh(Ty::kU64), gin = g.fresh(Ty::kU64), gout = g.fresh(Ty::kU64);
  std::string c = g.fresh(Ty::kU32), n = g.fresh(Ty::kU32), t = g.fresh(Ty::kU32), gid = g.fresh(Ty::kU32);
  std::string off = g.fresh(Ty::kU64), bin = g.fresh(Ty::kU64), bout = g.fresh(Ty::kU64);
  b << "  ld.param.u64 " << in << ", [in];\n  ld.param.u64 " << out << ", [out];\n"
    << "  cvta.to.global.u64 " << gin << ", " << in << ";\n  cvta.to.global.u64 " << gout << ", " << out << ";\n"
    << "  mov.u32 " << c << ", %ctaid.x;\n  mov.u32 " << n << ", %ntid.x;\n  mov.u32 " << t << ", %tid.x;\n"
    << "  mad.lo.s32 " << gid << ", " << c << ", " << n << ", " << t << ";\n"
    << "  mul.wide.u32 " << off << ", " << gid << ", 8;\n"
    << "  add.s64 " << bin << ", " << gin << ", " << off << ";\n  add.s64 " << bout << ", " << gout << ", " << off << ";\n";
  for (size_t k = 0; k < forms.size(); ++k) {
    const Form& f = *forms[k];
    b << "  // " << f.name << "\n";
    std::vector<std::string> ops;
    for (size_t j = 0; j < f.srcs.size(); ++j) {
      std::string addr = g.fresh(Ty::kU64);
      b << "  add.s64 " << addr << ", " << bin << ", " << (k * kMaxSrcs + j) * kVectors * 8 << ";\n";
      if (f.srcs[j] == Ty::kPred) {
        std::string w = g.fresh(Ty::kU32), p = g.fresh(Ty::kPred);
        b << "  ld.global.u32 " << w << ", [" << addr << "];\n  setp.ne.u32 " << p << ", " << w << ", 0;\n";
        ops.push_back(p);
      } else {
        std::string r = g.fresh(f.srcs[j]);
        b << "  ld.global." << mem_suffix(f.srcs[j]) << " " << r << ", [" << addr << "];\n";
        ops.push_back(r);
      }
    }
    std::string d = g.fresh(f.dst);
    b << "  " << f.name << " " << d;
    for (const std::string& o : ops) b << ", " << o;
    b << ";\n";
    std::string addr = g.fresh(Ty::kU64);
    b << "  add.s64 " << addr << ", " << bout << ", " << k * kVectors * 8 << ";\n";
    if (f.dst == Ty::kPred) {
      std::string w = g.fresh(Ty::kU32);
      b << "  selp.u32 " << w << ", 1, 0, " << d << ";\n  st.global.u32 [" << addr << "], " << w << ";\n";
    } else {
      b << "  st.global." << mem_suffix(f.dst) << " [" << addr << "], " << d << ";\n";
    }
  }
  b << "  ret;\n";
  std::ostringstream m;
  m << ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry conf(.param .u64 in, .param .u64 out)\n{\n"
    << "  .reg .pred %p<" << g.p + 1 << ">;\n  .reg .b16 %rs<" << g.rs + 1 << ">;\n  .reg .b32 %r<" << g.r + 1 << ">;\n"
    << "  .reg .b64 %rd<" << g.rd + 1 << ">;\n  .reg .f32 %f<" << g.f + 1 << ">;\n  .reg .f64 %fd<" << g.fd + 1 << ">;\n\n"
    << b.str() << "}\n";
  return m.str();
}

// ---- comparison -----------------------------------------------------------------------

int64_t ordered(uint64_t b, bool f32) {
  if (f32) { uint32_t u = static_cast<uint32_t>(b); return (u >> 31) ? -static_cast<int64_t>(u & 0x7fffffffu) : u; }
  return (b >> 63) ? -static_cast<int64_t>(b & 0x7fffffffffffffffull) : static_cast<int64_t>(b);
}
bool is_nan(uint64_t b, bool f32) {
  double d; float f; uint32_t u = static_cast<uint32_t>(b);
  if (f32) { std::memcpy(&f, &u, 4); return std::isnan(f); }
  std::memcpy(&d, &b, 8); return std::isnan(d);
}
double value(uint64_t b, bool f32) {
  double d; float f; uint32_t u = static_cast<uint32_t>(b);
  if (f32) { std::memcpy(&f, &u, 4); return f; }
  std::memcpy(&d, &b, 8); return d;
}

// One element of a small-float result, compared by (cmp, tol, ref) in format `fmt`.
bool lane_matches(const ref::Format& fmt, Cmp cmp, double tol, double exact, uint32_t want, uint32_t got) {
  const bool wn = ref::is_nan(fmt, want), gn = ref::is_nan(fmt, got);
  auto ord = [&](uint32_t b) {
    const uint32_t mag = b & (fmt.sign_bit() - 1);
    return (b & fmt.sign_bit()) ? -static_cast<int64_t>(mag) : static_cast<int64_t>(mag);
  };
  switch (cmp) {
    case Cmp::kAny: return true;
    case Cmp::kExact: return got == want;
    case Cmp::kFloat: return got == want || (wn && gn);
    case Cmp::kUlp:
      if (wn || gn) return wn && gn;
      return std::fabs(static_cast<double>(ord(got) - ord(want))) <= tol;
    case Cmp::kAbs: {
      if (std::isnan(exact) || gn) return std::isnan(exact) && gn;
      const double g = ref::value_of(fmt, got);
      if (std::isinf(exact) || std::isinf(g)) return g == exact;
      return std::fabs(g - exact) <= tol;
    }
  }
  return false;
}

bool matches(const Form& f, const Expect& e, uint64_t got) {
  if (const int lanes = lanes_of(f.dst)) {
    const int lb = lane_bits(f.dst);
    const ref::Format fmt = f.dst == Ty::kBF16 || f.dst == Ty::kBF16x2 ? ref::kBF16
                            : f.dst == Ty::kE4M3x2                       ? ref::kE4M3
                            : f.dst == Ty::kE5M2x2                       ? ref::kE5M2
                                                                         : ref::kF16;
    for (int k = 0; k < lanes; ++k) {
      const uint32_t lm = (1u << lb) - 1;
      const uint32_t w = static_cast<uint32_t>(e.bits >> (k * lb)) & lm, g = static_cast<uint32_t>(got >> (k * lb)) & lm;
      if (!lane_matches(fmt, k ? e.cmp_hi : e.cmp, k ? e.tol_hi : e.tol, k ? e.ref_hi : e.ref, w, g)) return false;
    }
    return true;
  }
  int w = f.dst == Ty::kPred ? 32 : bits_of(f.dst);
  uint64_t m = w >= 64 ? ~0ull : (1ull << w) - 1;
  got &= m;
  uint64_t want = e.bits & m;
  bool f32 = f.dst == Ty::kF32;
  switch (e.cmp) {
    case Cmp::kAny: return true;
    case Cmp::kExact: return got == want;
    case Cmp::kFloat: return got == want || (is_nan(got, f32) && is_nan(want, f32));
    case Cmp::kUlp:
      if (is_nan(want, f32) || is_nan(got, f32)) return is_nan(want, f32) && is_nan(got, f32);
      return std::fabs(static_cast<double>(ordered(got, f32) - ordered(want, f32))) <= e.tol;
    case Cmp::kAbs: {
      if (is_nan(want, f32) || is_nan(got, f32)) return is_nan(want, f32) && is_nan(got, f32);
      double g = value(got, f32);
      if (std::isinf(e.ref) || std::isinf(g)) return g == e.ref;
      return std::fabs(g - e.ref) <= e.tol;
    }
  }
  return false;
}

std::string hex(uint64_t v) { char s[24]; std::snprintf(s, sizeof s, "0x%llx", static_cast<unsigned long long>(v)); return s; }

// ---- running --------------------------------------------------------------------------

Status compile_status(const std::vector<const Form*>& forms) {
  compiler::CompileOptions opts;
  opts.opt_level = 2;
  opts.verify_each_pass = true;
  return compiler::compile_ptx({{"test.ptx", module_for(forms)}}, opts).status();
}

// Runs `forms` (which all compile) as one kernel; fills results. Returns false when the
// launch itself failed (the caller then runs the forms one by one).
bool run_batch(const std::vector<const Form*>& forms, std::map<std::string, Result>& results) {
  PtxExec e;
  Status s = e.compile(module_for(forms));
  if (!s.ok()) return false;
  std::vector<std::vector<std::vector<uint64_t>>> ins;
  std::vector<uint64_t> host(forms.size() * kMaxSrcs * kVectors, 0);
  for (size_t k = 0; k < forms.size(); ++k) {
    uint32_t seed = 0;
    for (char ch : forms[k]->name) seed = seed * 131 + static_cast<uint8_t>(ch);
    ins.push_back(inputs(*forms[k], seed));
    for (size_t j = 0; j < ins[k].size(); ++j)
      std::memcpy(&host[(k * kMaxSrcs + j) * kVectors], ins[k][j].data(), kVectors * 8);
  }
  uint64_t in = e.alloc(host.size() * 8), out = e.alloc(forms.size() * kVectors * 8);
  e.write(in, host);
  auto fault = e.run("conf", Dim{kVectors / kBlock}, Dim{kBlock}, {in, out});
  if (!fault.ok() || fault->kind != hw::FaultKind::kNone) {
    if (forms.size() > 1) return false;
    results[forms[0]->name] = {"error", forms[0]->family,
                               fault.ok() ? "fault kind " + std::to_string(static_cast<int>(fault->kind)) + " at pc " +
                                                std::to_string(fault->pc)
                                          : fault.status().to_string()};
    return true;
  }
  std::vector<uint64_t> got = e.read<uint64_t>(out, forms.size() * kVectors);
  for (size_t k = 0; k < forms.size(); ++k) {
    const Form& f = *forms[k];
    int bad = 0;
    std::string first;
    for (uint32_t v = 0; v < kVectors; ++v) {
      uint64_t a[kMaxSrcs] = {0, 0, 0, 0};
      for (size_t j = 0; j < f.srcs.size(); ++j) a[j] = ins[k][j][v];
      Expect x = f.ref(a);
      uint64_t g = got[k * kVectors + v];
      if (matches(f, x, g)) continue;
      if (bad < g_verbose) {
        std::printf("    %s:", f.name.c_str());
        for (size_t j = 0; j < f.srcs.size(); ++j) std::printf(" %s", hex(a[j]).c_str());
        std::printf(" -> expected %s got %s\n", hex(x.bits).c_str(), hex(g).c_str());
      }
      if (bad++ == 0) {
        first = "in=(";
        for (size_t j = 0; j < f.srcs.size(); ++j) first += (j ? ", " : "") + hex(a[j]);
        first += ") expected " + hex(x.bits) + " got " + hex(g & (bits_of(f.dst) >= 64 ? ~0ull : (1ull << std::max(bits_of(f.dst), 32)) - 1));
      }
    }
    results[f.name] = bad ? Result{"fail", f.family, std::to_string(bad) + "/" + std::to_string(kVectors) + " wrong; first: " + first}
                          : Result{"pass", f.family, ""};
  }
  return true;
}

void run_family(const std::vector<const Form*>& forms, std::map<std::string, Result>& results) {
  std::vector<const Form*> ok = forms;
  if (!compile_status(forms).ok()) {
    ok.clear();
    for (const Form* f : forms) {
      Status s = compile_status({f});
      if (s.ok()) { ok.push_back(f); continue; }
      std::string msg = s.message();
      for (char& ch : msg) if (ch == '\n' || ch == '"' || ch == '\\') ch = ' ';
      results[f->name] = {s.code() == Code::kNotSupported ? "unsupported" : "error", f->family, msg.substr(0, 200)};
    }
  }
  if (ok.empty()) return;
  if (!run_batch(ok, results))
    for (const Form* f : ok) run_batch({f}, results);
}

// ---- kernel cases ---------------------------------------------------------------------

// Runs one kernel case; "" when it passed, else the status and detail to report.
Result run_kernel_case(const KernelCase& c) {
  for (const std::string& form : c.forms)
    if (!ptx_uses_form(c.ptx, form)) return {"error", c.family, "case " + c.name + " does not use " + form};
  compiler::CompileOptions opts;
  opts.opt_level = 2;
  opts.verify_each_pass = true;
  Status cs = compiler::compile_ptx({{"test.ptx", c.ptx}}, opts).status();
  if (!cs.ok()) {
    std::string msg = c.name + ": " + cs.message();
    for (char& ch : msg) if (ch == '\n' || ch == '"' || ch == '\\') ch = ' ';
    return {cs.code() == Code::kNotSupported ? "unsupported" : "error", c.family, msg.substr(0, 200)};
  }
  PtxExec e;
  Status s = e.compile(c.ptx);
  if (!s.ok()) return {"error", c.family, c.name + ": " + s.message().substr(0, 160)};
  std::vector<uint64_t> params, addrs;
  for (const auto& b : c.buffers) {
    uint64_t va = e.alloc(std::max<uint64_t>(b.size(), 1));
    e.write(va, b);
    addrs.push_back(va);
    params.push_back(va);
  }
  params.insert(params.end(), c.scalars.begin(), c.scalars.end());
  e.set_dynamic_shared(c.launch.dynamic_shared);
  auto fault = e.run("conf", Dim{c.launch.grid[0], c.launch.grid[1], c.launch.grid[2]},
                     Dim{c.launch.block[0], c.launch.block[1], c.launch.block[2]}, params);
  if (!fault.ok()) return {"error", c.family, c.name + ": " + fault.status().message().substr(0, 160)};
  if (fault->kind != c.expect_fault)
    return {"fail", c.family, c.name + ": fault " + hw::fault_kind_name(fault->kind) + " at pc " + std::to_string(fault->pc) +
                                  ", expected " + hw::fault_kind_name(c.expect_fault)};
  Buffers after;
  for (size_t i = 0; i < c.buffers.size(); ++i) after.push_back(e.read<uint8_t>(addrs[i], c.buffers[i].size()));
  std::string why = c.check ? c.check(after) : "";
  if (!why.empty()) {
    if (g_verbose) std::printf("    %s: %s\n", c.name.c_str(), why.c_str());
    for (char& ch : why) if (ch == '\n' || ch == '"' || ch == '\\') ch = ' ';
    return {"fail", c.family, c.name + ": " + why.substr(0, 200)};
  }
  return {"pass", c.family, ""};
}

// Runs the kernel cases (of `family`, or all); each form takes the worst result of the
// cases that list it. Forms also in the ALU table keep a failure from either side.
void run_kernel_cases(const std::string& family, std::vector<std::string>& order, std::map<std::string, Result>& results,
                      std::map<std::string, std::pair<int, int>>& per_family) {
  auto rank = [](const std::string& st) { return st == "pass" ? 0 : st == "fail" ? 1 : st == "unsupported" ? 2 : 3; };
  for (const KernelCase& c : all_kernel_cases()) {
    if (!family.empty() && c.family != family) continue;
    Result r = run_kernel_case(c);
    auto& [p, n] = per_family[c.family];
    ++n;
    p += r.status == "pass";
    for (const std::string& form : c.forms) {
      auto it = results.find(form);
      if (it == results.end()) {
        order.push_back(form);
        results[form] = r;
      } else if (rank(r.status) > rank(it->second.status)) {
        it->second = Result{r.status, it->second.family, r.detail};
      }
    }
  }
}

// ---- files ----------------------------------------------------------------------------

std::string json(const std::vector<std::string>& order, const std::map<std::string, Result>& results) {
  std::ostringstream o;
  o << "{\n  \"forms\": {\n";
  for (size_t i = 0; i < order.size(); ++i) {
    const Result& r = results.at(order[i]);
    o << "    \"" << order[i] << "\": {\"family\": \"" << r.family << "\", \"status\": \"" << r.status
      << "\", \"detail\": \"" << r.detail << "\"}" << (i + 1 < order.size() ? "," : "") << "\n";
  }
  o << "  }\n}\n";
  return o.str();
}

// Reads the statuses of a results file written by json() (one form per line).
std::map<std::string, std::string> read_statuses(const std::string& path) {
  std::map<std::string, std::string> m;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    size_t k = line.find('"'), s = line.find("\"status\": \"");
    if (k == std::string::npos || s == std::string::npos) continue;
    std::string name = line.substr(k + 1, line.find('"', k + 1) - k - 1);
    s += 11;
    m[name] = line.substr(s, line.find('"', s) - s);
  }
  return m;
}

int main_impl(int argc, char** argv) {
  std::string family, write, results_path, expected_path;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--family") family = argv[i + 1];
    else if (a == "--write") write = argv[i + 1];
    else if (a == "--results") results_path = argv[i + 1];
    else if (a == "--expected") expected_path = argv[i + 1];
    else if (a == "--verbose") g_verbose = std::atoi(argv[i + 1]);
    else if (a == "--dump-case") {  // prints one kernel case's module and its Strata code
      for (const KernelCase& c : all_kernel_cases()) {
        if (c.name != argv[i + 1]) continue;
        PtxExec e;
        Status s = e.compile(c.ptx);
        std::printf("%s\n%s\n", c.ptx.c_str(), s.ok() ? e.disassembly("conf").c_str() : s.to_string().c_str());
      }
      return 0;
    } else if (a == "--dump") {  // prints one form's module and its Strata code
      for (const Form& f : all_forms()) {
        if (f.name != argv[i + 1]) continue;
        PtxExec e;
        std::string ptx = module_for({&f});
        Status s = e.compile(ptx);
        std::printf("%s\n%s\n", ptx.c_str(), s.ok() ? e.disassembly("conf").c_str() : s.to_string().c_str());
      }
      return 0;
    }
  }
  std::vector<std::string> order;
  std::vector<std::string> families;
  std::map<std::string, std::vector<const Form*>> by_family;
  for (const Form& f : all_forms()) {
    if (!family.empty() && f.family != family) continue;
    if (by_family[f.family].empty()) families.push_back(f.family);
    by_family[f.family].push_back(&f);
    order.push_back(f.name);
  }
  std::map<std::string, Result> results;
  for (const std::string& fam : families) {
    run_family(by_family[fam], results);
    int p = 0;
    for (const Form* f : by_family[fam]) p += results[f->name].status == "pass";
    std::printf("%-8s %3d / %3zu pass\n", fam.c_str(), p, by_family[fam].size());
  }
  std::map<std::string, std::pair<int, int>> case_families;
  run_kernel_cases(family, order, results, case_families);
  for (const auto& [fam, pn] : case_families)
    std::printf("%-8s %3d / %3d kernel cases pass\n", fam.c_str(), pn.first, pn.second);
  int pass = 0;
  for (const std::string& name : order) {
    pass += results[name].status == "pass";
    if (results[name].status != "pass")
      std::printf("  %-28s %-11s %s\n", name.c_str(), results[name].status.c_str(), results[name].detail.c_str());
  }
  std::printf("%d / %zu forms pass\n", pass, order.size());
  if (!write.empty()) std::ofstream(write) << json(order, results);

  int problems = 0;
  if (!results_path.empty()) {
    std::map<std::string, std::string> before = read_statuses(results_path);
    for (const std::string& name : order) {
      const std::string& now = results[name].status;
      auto it = before.find(name);
      if (it == before.end()) { ++problems; std::printf("NEW FORM %s (%s): regenerate the results file\n", name.c_str(), now.c_str()); }
      else if (it->second != now) {
        ++problems;
        std::printf("%s %s: was %s, now %s\n", it->second == "pass" ? "REGRESSION" : "CHANGED", name.c_str(),
                    it->second.c_str(), now.c_str());
      }
    }
    if (family.empty())
      for (const auto& [name, st] : before)
        if (!results.count(name)) { ++problems; std::printf("STALE %s in the results file\n", name.c_str()); }
  }
  if (!expected_path.empty()) {
    std::map<std::string, std::pair<std::string, std::string>> expected;  // form -> status, reason
    std::ifstream in(expected_path);
    std::string line;
    while (std::getline(in, line)) {
      if (line.empty() || line[0] == '#') continue;
      std::istringstream s(line);
      std::string form, st, reason;
      std::getline(s, form, '\t');
      std::getline(s, st, '\t');
      std::getline(s, reason);
      expected[form] = {st, reason};
    }
    for (const std::string& name : order) {
      const Result& r = results[name];
      auto it = expected.find(name);
      if (r.status == "pass") {
        if (it != expected.end()) { ++problems; std::printf("NOW PASSES %s: remove it from the expected failures\n", name.c_str()); }
      } else if (it == expected.end()) {
        ++problems;
        std::printf("NEW FAILURE %s: %s %s\n", name.c_str(), r.status.c_str(), r.detail.c_str());
      } else if (it->second.first != r.status || it->second.second.empty()) {
        ++problems;
        std::printf("EXPECTED %s to be %s with a reason; it is %s\n", name.c_str(), it->second.first.c_str(), r.status.c_str());
      }
    }
  }
  if (problems) std::printf("%d problem(s); if intended, rerun with --write on the results file and edit the expected failures\n", problems);
  return problems ? 1 : 0;
}

}  // namespace
}  // namespace strata::ptx_conformance

int main(int argc, char** argv) { return strata::ptx_conformance::main_impl(argc, argv); }
