// Kernel conformance cases: multi-instruction ALU forms (see kernel_cases.h): carry chains
// (add.cc/addc/sub.cc/subc/mad.cc/madc) checked as multi-word arithmetic against host
// 128-bit integers, lop3 with every truth table, and setp on packed halves (a predicate
// pair).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <sstream>

#include "kernel_cases.h"
#include "ref_float.h"

namespace strata::ptx_conformance {
namespace {

using u128 = unsigned __int128;
constexpr uint32_t kThreads = 64;

std::string header(int nbuf) {
  std::ostringstream o;
  o << ".version 8.0\n.target sm_80\n.address_size 64\n\n.visible .entry conf(";
  for (int i = 0; i < nbuf; ++i) o << (i ? ", " : "") << ".param .u64 p" << i;
  o << ")\n{\n  .reg .pred %p<64>;\n  .reg .b16 %h<64>;\n  .reg .b32 %r<600>;\n  .reg .b64 "
       "%rd<64>;\n";
  // %rd<i+10> = address of buffer i's element for this thread (4 * words bytes apart)
  o << "  mov.u32 %r0, %tid.x;\n";
  return o.str();
}
// %rd<10 + i>: buffer i's base plus tid * stride bytes.
std::string thread_base(int i, int stride) {
  std::ostringstream o;
  o << "  ld.param.u64 %rd" << 40 + i << ", [p" << i << "];\n  cvta.to.global.u64 %rd" << 40 + i
    << ", %rd" << 40 + i << ";\n"
    << "  mul.wide.u32 %rd" << 50 + i << ", %r0, " << stride << ";\n  add.s64 %rd" << 10 + i
    << ", %rd" << 40 + i << ", %rd" << 50 + i << ";\n";
  return o.str();
}

std::vector<uint32_t> random_words(size_t n, uint32_t seed) {
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    switch (rng() % 4) {
      case 0:
        v[i] = 0xffffffffu;
        break;  // long carry and borrow chains
      case 1:
        v[i] = rng() % 3;
        break;
      default:
        v[i] = rng();
    }
  }
  return v;
}
u128 words128(const std::vector<uint32_t>& v, size_t at) {
  return static_cast<u128>(v[at]) | static_cast<u128>(v[at + 1]) << 32 |
         static_cast<u128>(v[at + 2]) << 64 | static_cast<u128>(v[at + 3]) << 96;
}

// 128-bit add and subtract as four 32-bit words, plus the carry/borrow out of the top.
KernelCase add_sub_128(bool sub) {
  KernelCase c;
  c.name = sub ? "carry.sub128.u32" : "carry.add128.u32";
  c.family = "carry";
  c.forms = sub ? std::vector<std::string>{"sub.cc.u32", "subc.cc.u32", "subc.u32"}
                : std::vector<std::string>{"add.cc.u32", "addc.cc.u32", "addc.u32"};
  std::string op = sub ? "sub" : "add", opc = sub ? "subc" : "addc";
  std::ostringstream p;
  p << header(3) << thread_base(0, 16) << thread_base(1, 16) << thread_base(2, 20);
  for (int k = 0; k < 4; ++k)
    p << "  ld.global.u32 %r" << 10 + k << ", [%rd10+" << 4 * k << "];\n  ld.global.u32 %r"
      << 20 + k << ", [%rd11+" << 4 * k << "];\n";
  p << "  " << op << ".cc.u32 %r30, %r10, %r20;\n";
  for (int k = 1; k < 4; ++k)
    p << "  " << opc << ".cc.u32 %r" << 30 + k << ", %r" << 10 + k << ", %r" << 20 + k << ";\n";
  p << "  " << opc << ".u32 %r34, 0, 0;\n";
  for (int k = 0; k < 5; ++k) p << "  st.global.u32 [%rd12+" << 4 * k << "], %r" << 30 + k << ";\n";
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto x = random_words(4 * kThreads, sub ? 11 : 12), y = random_words(4 * kThreads, sub ? 13 : 14);
  c.buffers = {bytes_of(x), bytes_of(y), std::vector<uint8_t>(20 * kThreads, 0)};
  c.check = [x, y, sub](const Buffers& after) {
    std::vector<uint32_t> want;
    for (uint32_t t = 0; t < kThreads; ++t) {
      u128 a = words128(x, 4 * t), b = words128(y, 4 * t), r = sub ? a - b : a + b;
      bool out = sub ? a < b : r < a;
      for (int k = 0; k < 4; ++k) want.push_back(static_cast<uint32_t>(r >> (32 * k)));
      want.push_back(out ? (sub ? 0xffffffffu : 1u) : 0u);  // 0 + 0 + carry, or 0 - (0 + borrow)
    }
    return compare_u32("words", want, values_of<uint32_t>(after[2]));
  };
  return c;
}

// 256-bit add and subtract as four 64-bit words (the .u64 and .s64 carry forms).
KernelCase add_sub_256(bool sub, bool is_signed) {
  KernelCase c;
  const std::string t = is_signed ? "s64" : "u64";
  c.name = std::string(sub ? "carry.sub256." : "carry.add256.") + t;
  c.family = "carry";
  std::string op = sub ? "sub" : "add", opc = sub ? "subc" : "addc";
  c.forms = {op + ".cc." + t, opc + ".cc." + t, opc + "." + t};
  std::ostringstream p;
  p << header(3) << thread_base(0, 32) << thread_base(1, 32) << thread_base(2, 32);
  for (int k = 0; k < 4; ++k)
    p << "  ld.global.u64 %rd" << 20 + k << ", [%rd10+" << 8 * k << "];\n  ld.global.u64 %rd"
      << 30 + k << ", [%rd11+" << 8 * k << "];\n";
  p << "  " << op << ".cc." << t << " %rd24, %rd20, %rd30;\n";
  for (int k = 1; k < 3; ++k)
    p << "  " << opc << ".cc." << t << " %rd" << 24 + k << ", %rd" << 20 + k << ", %rd" << 30 + k
      << ";\n";
  p << "  " << opc << "." << t << " %rd27, %rd23, %rd33;\n";
  for (int k = 0; k < 4; ++k)
    p << "  st.global.u64 [%rd12+" << 8 * k << "], %rd" << 24 + k << ";\n";
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto x = random_words(8 * kThreads, sub ? 21 : 22), y = random_words(8 * kThreads, sub ? 23 : 24);
  c.buffers = {bytes_of(x), bytes_of(y), std::vector<uint8_t>(32 * kThreads, 0)};
  c.check = [x, y, sub](const Buffers& after) {
    std::vector<uint64_t> want;
    for (uint32_t t = 0; t < kThreads; ++t) {
      u128 lo_a = words128(x, 8 * t), hi_a = words128(x, 8 * t + 4), lo_b = words128(y, 8 * t),
           hi_b = words128(y, 8 * t + 4);
      u128 lo = sub ? lo_a - lo_b : lo_a + lo_b;
      bool carry = sub ? lo_a < lo_b : lo < lo_a;
      u128 hi = sub ? hi_a - hi_b - carry : hi_a + hi_b + carry;
      for (u128 h : {lo, hi}) {
        want.push_back(static_cast<uint64_t>(h));
        want.push_back(static_cast<uint64_t>(h >> 64));
      }
    }
    return compare_u64("words", want, values_of<uint64_t>(after[2]));
  };
  return c;
}

// 64 x 64 -> 128-bit products from 32-bit halves, and x * y0 + z (96 bits), with the
// mad.cc / madc carry forms.
KernelCase multiword_mul() {
  KernelCase c;
  c.name = "carry.mul64x64.u32";
  c.family = "carry";
  c.forms = {"mad.lo.cc.u32",  "madc.hi.u32",   "madc.hi.cc.u32",
             "madc.lo.cc.u32", "mad.hi.cc.u32", "addc.u32"};
  std::ostringstream p;
  p << header(3) << thread_base(0, 8) << thread_base(1, 16) << thread_base(2, 28);
  p << "  ld.global.u32 %r10, [%rd10];\n  ld.global.u32 %r11, [%rd10+4];\n"     // x0, x1
    << "  ld.global.u32 %r12, [%rd11];\n  ld.global.u32 %r13, [%rd11+4];\n"     // y0, y1
    << "  ld.global.u32 %r14, [%rd11+8];\n  ld.global.u32 %r15, [%rd11+12];\n"  // z0, z1
    // x * y, 128 bits in r20..r23
    << "  mul.lo.u32 %r20, %r10, %r12;\n  mul.hi.u32 %r21, %r10, %r12;\n"
    << "  mad.lo.cc.u32 %r21, %r10, %r13, %r21;\n  madc.hi.u32 %r22, %r10, %r13, 0;\n"
    << "  mad.lo.cc.u32 %r21, %r11, %r12, %r21;\n  madc.hi.cc.u32 %r22, %r11, %r12, %r22;\n"
    << "  madc.hi.u32 %r23, %r11, %r13, 0;\n"
    << "  mad.lo.cc.u32 %r22, %r11, %r13, %r22;\n  addc.u32 %r23, %r23, 0;\n"
    // x * y0 + z, 96 bits in r30..r32
    << "  mad.lo.cc.u32 %r30, %r10, %r12, %r14;\n  madc.lo.cc.u32 %r31, %r11, %r12, %r15;\n  "
       "addc.u32 %r32, 0, 0;\n"
    << "  mad.hi.cc.u32 %r31, %r10, %r12, %r31;\n  madc.hi.u32 %r32, %r11, %r12, %r32;\n";
  for (int k = 0; k < 4; ++k) p << "  st.global.u32 [%rd12+" << 4 * k << "], %r" << 20 + k << ";\n";
  for (int k = 0; k < 3; ++k)
    p << "  st.global.u32 [%rd12+" << 16 + 4 * k << "], %r" << 30 + k << ";\n";
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto x = random_words(2 * kThreads, 31), y = random_words(4 * kThreads, 32);
  c.buffers = {bytes_of(x), bytes_of(y), std::vector<uint8_t>(28 * kThreads, 0)};
  c.check = [x, y](const Buffers& after) {
    std::vector<uint32_t> want;
    for (uint32_t t = 0; t < kThreads; ++t) {
      uint64_t a = x[2 * t] | static_cast<uint64_t>(x[2 * t + 1]) << 32,
               b = y[4 * t] | static_cast<uint64_t>(y[4 * t + 1]) << 32;
      uint64_t z = y[4 * t + 2] | static_cast<uint64_t>(y[4 * t + 3]) << 32;
      u128 prod = static_cast<u128>(a) * b, m = static_cast<u128>(a) * y[4 * t] + z;
      for (int k = 0; k < 4; ++k) want.push_back(static_cast<uint32_t>(prod >> (32 * k)));
      for (int k = 0; k < 3; ++k) want.push_back(static_cast<uint32_t>(m >> (32 * k)));
    }
    return compare_u32("words", want, values_of<uint32_t>(after[2]));
  };
  return c;
}

// The carry flag lives across a branch: add.cc before a data-dependent branch, addc after
// the join (also .s32 forms, whose carry is the same unsigned carry).
KernelCase carry_across_branch() {
  KernelCase c;
  c.name = "carry.across-branch.s32";
  c.family = "carry";
  c.forms = {"add.cc.s32", "addc.s32", "sub.cc.s32", "subc.s32", "addc.cc.s32", "subc.cc.s32"};
  std::ostringstream p;
  p << header(3) << thread_base(0, 8) << thread_base(1, 8) << thread_base(2, 16);
  p << "  ld.global.u32 %r10, [%rd10];\n  ld.global.u32 %r11, [%rd10+4];\n"
    << "  ld.global.u32 %r12, [%rd11];\n  ld.global.u32 %r13, [%rd11+4];\n"
    << "  add.cc.s32 %r20, %r10, %r12;\n"
    << "  and.b32 %r5, %r0, 1;\n  setp.eq.u32 %p1, %r5, 0;\n  mov.u32 %r6, 7;\n"
    << "  @%p1 bra EVEN;\n  mov.u32 %r6, 9;\nEVEN:\n"
    << "  addc.cc.s32 %r21, %r11, %r13;\n  addc.s32 %r22, %r6, 0;\n"
    << "  sub.cc.s32 %r23, %r10, %r12;\n  subc.cc.s32 %r24, %r11, %r13;\n  subc.s32 %r25, %r6, 0;\n"
    << "  st.global.u32 [%rd12], %r20;\n  st.global.u32 [%rd12+4], %r21;\n  st.global.u32 "
       "[%rd12+8], %r22;\n"
    << "  st.global.u32 [%rd12+12], %r24;\n  ret;\n}\n";
  // %r23 and %r25 feed the chain; the stored words check it.
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto x = random_words(2 * kThreads, 41), y = random_words(2 * kThreads, 42);
  c.buffers = {bytes_of(x), bytes_of(y), std::vector<uint8_t>(16 * kThreads, 0)};
  c.check = [x, y](const Buffers& after) {
    std::vector<uint32_t> want;
    for (uint32_t t = 0; t < kThreads; ++t) {
      uint64_t a = x[2 * t] | static_cast<uint64_t>(x[2 * t + 1]) << 32,
               b = y[2 * t] | static_cast<uint64_t>(y[2 * t + 1]) << 32;
      u128 s = static_cast<u128>(a) + b;
      uint64_t d = a - b;
      want.push_back(static_cast<uint32_t>(s));
      want.push_back(static_cast<uint32_t>(s >> 32));
      want.push_back((t % 2 ? 9u : 7u) + static_cast<uint32_t>(s >> 64));
      want.push_back(static_cast<uint32_t>(d >> 32));
    }
    return compare_u32("words", want, values_of<uint32_t>(after[2]));
  };
  return c;
}

// lop3.b32 with all 256 truth tables (PTX ISA: bit 4a + 2b + c of immLut).
KernelCase lop3_all() {
  KernelCase c;
  c.name = "lop3.b32.all-tables";
  c.family = "lop3";
  c.forms = {"lop3.b32"};
  std::ostringstream p;
  p << header(2) << thread_base(0, 12) << thread_base(1, 4);
  p << "  ld.global.u32 %r1, [%rd10];\n  ld.global.u32 %r2, [%rd10+4];\n  ld.global.u32 %r3, "
       "[%rd10+8];\n";
  for (int lut = 0; lut < 256; ++lut)
    p << "  lop3.b32 %r" << 300 + lut % 256 << ", %r1, %r2, %r3, " << lut
      << ";\n  st.global.u32 [%rd11+" << lut * kThreads * 4 << "], %r" << 300 + lut % 256 << ";\n";
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto in = random_words(3 * kThreads, 51);
  c.buffers = {bytes_of(in), std::vector<uint8_t>(256 * kThreads * 4, 0)};
  c.check = [in](const Buffers& after) {
    std::vector<uint32_t> want(256 * kThreads);
    for (int lut = 0; lut < 256; ++lut)
      for (uint32_t t = 0; t < kThreads; ++t) {
        uint32_t a = in[3 * t], b = in[3 * t + 1], cc = in[3 * t + 2], r = 0;
        for (int bit = 0; bit < 32; ++bit) {
          int i = ((a >> bit & 1) << 2) | ((b >> bit & 1) << 1) | (cc >> bit & 1);
          r |= static_cast<uint32_t>((lut >> i) & 1) << bit;
        }
        want[lut * kThreads + t] = r;
      }
    // Threads' words are laid out [lut][thread]; the kernel stores at [rd11 + lut * N * 4]
    // where rd11 = base + tid * 4.
    return compare_u32("lop3", want, values_of<uint32_t>(after[1]));
  };
  return c;
}

// setp on .f16x2 / .bf16x2: p from the low halves, q from the high halves, with and
// without a BoolOp and with .ftz.
KernelCase setp_x2(bool bf) {
  KernelCase c;
  const std::string t = bf ? "bf16x2" : "f16x2";
  const ref::Format f = bf ? ref::kBF16 : ref::kF16;
  c.name = "setp." + t + ".pairs";
  c.family = "setp";
  static const char* kCmps[] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",  "equ",
                                "neu", "ltu", "leu", "gtu", "geu", "num", "nan"};
  std::ostringstream p;
  p << header(2) << thread_base(0, 12) << thread_base(1, 4);
  p << "  ld.global.u32 %r1, [%rd10];\n  ld.global.u32 %r2, [%rd10+4];\n  ld.global.u32 %r3, "
       "[%rd10+8];\n"
    << "  setp.ne.u32 %p60, %r3, 0;\n  mov.b32 {%h1, %h2}, %r1;\n  mov.b32 {%h3, %h4}, %r2;\n";
  struct Variant {
    std::string form;
    const char* cmp;
    bool ftz;
    int bop;      // 0 none, 1 and, 2 or, 3 xor
    bool scalar;  // setp.<cmp>.{f16,bf16} p|q on the low halves: q = !(a cmp b) op c
  };
  std::vector<Variant> vs;
  for (const char* cmp : kCmps) vs.push_back({"setp." + std::string(cmp) + "." + t, cmp, false, 0});
  if (!bf)
    for (const char* cmp : {"eq", "lt", "gtu"})
      vs.push_back({"setp." + std::string(cmp) + ".ftz." + t, cmp, true, 0});
  vs.push_back({"setp.lt.and." + t, "lt", false, 1});
  vs.push_back({"setp.ge.or." + t, "ge", false, 2});
  vs.push_back({"setp.neu.xor." + t, "neu", false, 3});
  const std::string et = bf ? "bf16" : "f16";
  for (const char* cmp : {"lt", "equ", "nan"})
    vs.push_back({"setp." + std::string(cmp) + "." + et, cmp, false, 0, true});
  vs.push_back({"setp.ge.or." + et, "ge", false, 2, true});
  for (size_t k = 0; k < vs.size(); ++k) {
    c.forms.push_back(vs[k].form);
    p << "  " << vs[k].form << " %p1|%p2, " << (vs[k].scalar ? "%h1, %h3" : "%r1, %r2")
      << (vs[k].bop ? ", %p60" : "") << ";\n"
      << "  selp.u32 %r10, 1, 0, %p1;\n  selp.u32 %r11, 2, 0, %p2;\n  or.b32 %r12, %r10, %r11;\n"
      << "  st.global.u32 [%rd11+" << k * kThreads * 4 << "], %r12;\n";
  }
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  static const uint16_t kF16Vals[] = {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00,
                                      0x7e00, 0x0001, 0x8001, 0x3c01, 0x4000};
  static const uint16_t kBF16Vals[] = {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80,
                                       0x7fc0, 0x0001, 0x8001, 0x3f81, 0x4000};
  const uint16_t* vals = bf ? kBF16Vals : kF16Vals;
  std::mt19937 rng(bf ? 61 : 62);
  std::vector<uint32_t> in(3 * kThreads);
  for (uint32_t i = 0; i < kThreads; ++i) {
    in[3 * i] = vals[rng() % 11] | static_cast<uint32_t>(vals[rng() % 11]) << 16;
    in[3 * i + 1] = vals[rng() % 11] | static_cast<uint32_t>(vals[rng() % 11]) << 16;
    in[3 * i + 2] = rng() % 2;
  }
  c.buffers = {bytes_of(in), std::vector<uint8_t>(vs.size() * kThreads * 4, 0)};
  c.check = [in, vs, f](const Buffers& after) {
    std::vector<uint32_t> want;
    for (const Variant& v : vs) {
      for (uint32_t t = 0; t < kThreads; ++t) {
        auto compare = [&](int h) {  // a cmp b on halves h
          uint32_t xa = (in[3 * t] >> (16 * h)) & 0xffff, xb = (in[3 * t + 1] >> (16 * h)) & 0xffff;
          if (v.ftz) {
            if (ref::is_subnormal(f, xa)) xa &= f.sign_bit();
            if (ref::is_subnormal(f, xb)) xb &= f.sign_bit();
          }
          const double x = ref::value_of(f, xa), y = ref::value_of(f, xb);
          const std::string cmp = v.cmp;
          const bool un = std::isnan(x) || std::isnan(y);
          const std::string b = cmp.size() == 3 && cmp.back() == 'u' ? cmp.substr(0, 2) : cmp;
          if (cmp == "num") return !un;
          if (cmp == "nan") return un;
          if (un) return cmp.size() == 3;
          return b == "eq"   ? x == y
                 : b == "ne" ? x != y
                 : b == "lt" ? x < y
                 : b == "le" ? x <= y
                 : b == "gt" ? x > y
                             : x >= y;
        };
        const bool cpred = in[3 * t + 2] != 0;
        auto combine = [&](bool res) {
          return v.bop == 1   ? res && cpred
                 : v.bop == 2 ? res || cpred
                 : v.bop == 3 ? res != cpred
                              : res;
        };
        const bool lo = compare(0), hi = v.scalar ? !lo : compare(1);
        want.push_back(static_cast<uint32_t>(combine(lo)) | static_cast<uint32_t>(combine(hi))
                                                                << 1);
      }
    }
    return compare_u32("p|q", want, values_of<uint32_t>(after[1]));
  };
  return c;
}

// setp with a BoolOp and a predicate pair: p = (a cmp b) op c, q = !(a cmp b) op c
// (PTX ISA setp), on integer and float types.
KernelCase setp_boolop() {
  KernelCase c;
  c.name = "setp.boolop-pairs";
  c.family = "setp";
  struct Variant {
    std::string cmp, bop, type;
  };
  std::vector<Variant> vs;
  for (std::string t : {"s32", "u32", "f32", "f64", "ftz.f32"})
    for (std::string cmp : {"lt", "ge", "eq", "ne", "gtu", "leu", "nan", "num"}) {
      if (t[0] != 'f' && (cmp == "gtu" || cmp == "leu" || cmp == "nan" || cmp == "num")) continue;
      for (std::string bop : {"and", "or", "xor"}) vs.push_back({cmp, bop, t});
    }
  std::ostringstream p;
  p << header(2) << thread_base(0, 24) << thread_base(1, 4);
  p << "  ld.global.u32 %r1, [%rd10];\n  ld.global.u32 %r2, [%rd10+4];\n  ld.global.u64 %rd1, "
       "[%rd10+8];\n"
    << "  ld.global.u64 %rd2, [%rd10+16];\n  and.b32 %r3, %r0, 1;\n  setp.ne.u32 %p60, %r3, 0;\n";
  for (size_t k = 0; k < vs.size(); ++k) {
    const Variant& v = vs[k];
    const bool wide = v.type == "f64";
    std::string form = "setp." + v.cmp + "." + v.bop + "." + v.type;
    c.forms.push_back(form);
    p << "  " << form << " %p1|%p2, " << (wide ? "%rd1, %rd2" : "%r1, %r2") << ", %p60;\n"
      << "  selp.u32 %r10, 1, 0, %p1;\n  selp.u32 %r11, 2, 0, %p2;\n  or.b32 %r12, %r10, %r11;\n"
      << "  st.global.u32 [%rd11+" << k * kThreads * 4 << "], %r12;\n";
  }
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  static const uint32_t k32[] = {0,           0x80000000u, 0x3f800000u, 0xbf800000u, 0x7f800000u,
                                 0x7fc00000u, 0x00000001u, 0x80000001u, 5,           0xfffffffbu};
  static const uint64_t k64[] = {0,
                                 0x8000000000000000ull,
                                 0x3ff0000000000000ull,
                                 0xbff0000000000000ull,
                                 0x7ff8000000000000ull,
                                 0x0000000000000001ull,
                                 0x7ff0000000000000ull,
                                 5};
  std::mt19937 rng(71);
  std::vector<uint32_t> in(6 * kThreads);
  for (uint32_t i = 0; i < kThreads; ++i) {
    in[6 * i] = k32[rng() % 10];
    in[6 * i + 1] = k32[rng() % 10];
    uint64_t x = k64[rng() % 8], y = k64[rng() % 8];
    std::memcpy(&in[6 * i + 2], &x, 8);
    std::memcpy(&in[6 * i + 4], &y, 8);
  }
  c.buffers = {bytes_of(in), std::vector<uint8_t>(vs.size() * kThreads * 4, 0)};
  c.check = [in, vs](const Buffers& after) {
    std::vector<uint32_t> want;
    for (const Variant& v : vs) {
      for (uint32_t t = 0; t < kThreads; ++t) {
        bool res;
        if (v.type == "s32" || v.type == "u32") {
          const bool sg = v.type == "s32";
          int64_t x = sg ? static_cast<int64_t>(static_cast<int32_t>(in[6 * t]))
                         : static_cast<int64_t>(in[6 * t]);
          int64_t y = sg ? static_cast<int64_t>(static_cast<int32_t>(in[6 * t + 1]))
                         : static_cast<int64_t>(in[6 * t + 1]);
          res = v.cmp == "lt" ? x < y : v.cmp == "ge" ? x >= y : v.cmp == "eq" ? x == y : x != y;
        } else {
          double x, y;
          if (v.type == "f64") {
            std::memcpy(&x, &in[6 * t + 2], 8);
            std::memcpy(&y, &in[6 * t + 4], 8);
          } else {
            float fx, fy;
            std::memcpy(&fx, &in[6 * t], 4);
            std::memcpy(&fy, &in[6 * t + 1], 4);
            if (v.type == "ftz.f32") {  // flush subnormals to a zero of the same sign
              if (std::fpclassify(fx) == FP_SUBNORMAL) fx = std::copysign(0.0f, fx);
              if (std::fpclassify(fy) == FP_SUBNORMAL) fy = std::copysign(0.0f, fy);
            }
            x = fx, y = fy;
          }
          bool un = std::isnan(x) || std::isnan(y);
          if (v.cmp == "nan")
            res = un;
          else if (v.cmp == "num")
            res = !un;
          else if (v.cmp == "gtu")
            res = un || x > y;
          else if (v.cmp == "leu")
            res = un || x <= y;
          else if (un)
            res = false;
          else
            res = v.cmp == "lt" ? x < y : v.cmp == "ge" ? x >= y : v.cmp == "eq" ? x == y : x != y;
        }
        const bool cp = t % 2 == 1;
        auto combine = [&](bool r) {
          return v.bop == "and" ? (r && cp) : v.bop == "or" ? (r || cp) : (r != cp);
        };
        want.push_back(static_cast<uint32_t>(combine(res)) | static_cast<uint32_t>(combine(!res))
                                                                 << 1);
      }
    }
    return compare_u32("p|q", want, values_of<uint32_t>(after[1]));
  };
  return c;
}

// Immediate operands, which take their own lowering paths (bfi/bfe positions in the
// instruction word, prmt selectors, shift counts, ...), against host code.
KernelCase immediates() {
  KernelCase c;
  c.name = "alu.immediate-operands";
  c.family = "bits";
  struct Op {
    std::string form, text;
    std::function<uint64_t(uint64_t a, uint64_t b)> ref;
    bool wide;
  };
  auto bfe = [](uint64_t x, int w, int pos, int len, bool sg) {  // positions below the msb only
    if (w == 32) x &= 0xffffffffull;
    if (pos + len > w)
      len = w - pos;  // bits above the msb repeat the field's top bit (or are zero)
    uint64_t r = (x >> pos) & ((1ull << len) - 1);
    if (sg && (x >> (pos + len - 1) & 1)) r |= ~((1ull << len) - 1);
    return w == 64 ? r : r & 0xffffffffull;
  };
  auto bfi = [](uint64_t a, uint64_t b, int w, int pos, int len) {
    uint64_t r = b;
    for (int i = 0; i < len && pos + i < w; ++i)
      r = (r & ~(1ull << (pos + i))) | ((a >> i & 1) << (pos + i));
    return w == 64 ? r : r & 0xffffffffull;
  };
  auto prmt = [](uint64_t a, uint64_t b, uint32_t sel) {
    uint64_t bytes = (a & 0xffffffffull) | (b & 0xffffffffull) << 32, r = 0;
    for (int i = 0; i < 4; ++i) {
      uint32_t s = sel >> (4 * i) & 0xf;
      uint64_t byte = bytes >> (8 * (s & 7)) & 0xff;
      if (s & 8) byte = (byte & 0x80) ? 0xff : 0;
      r |= byte << (8 * i);
    }
    return r;
  };
  auto u32 = [](uint64_t v) { return v & 0xffffffffull; };
  auto s32 = [](uint64_t v) { return static_cast<int64_t>(static_cast<int32_t>(v)); };
  std::vector<Op> ops = {
      {"bfi.b32", "bfi.b32 %D, %A, %B, 8, 12",
       [=](uint64_t a, uint64_t b) { return bfi(a, b, 32, 8, 12); }, false},
      {"bfi.b32", "bfi.b32 %D, %A, %B, 28, 8",
       [=](uint64_t a, uint64_t b) { return bfi(a, b, 32, 28, 8); }, false},
      {"bfi.b64", "bfi.b64 %D, %A, %B, 40, 30",
       [=](uint64_t a, uint64_t b) { return bfi(a, b, 64, 40, 30); }, true},
      {"bfe.u32", "bfe.u32 %D, %A, 4, 9",
       [=](uint64_t a, uint64_t) { return bfe(a, 32, 4, 9, false); }, false},
      {"bfe.s32", "bfe.s32 %D, %A, 28, 8",
       [=](uint64_t a, uint64_t) { return bfe(a, 32, 28, 8, true); }, false},
      {"bfe.s64", "bfe.s64 %D, %A, 60, 10",
       [=](uint64_t a, uint64_t) { return bfe(a, 64, 60, 10, true); }, true},
      {"prmt.b32", "prmt.b32 %D, %A, %B, 0x3210",
       [=](uint64_t a, uint64_t b) { return prmt(a, b, 0x3210); }, false},
      {"prmt.b32", "prmt.b32 %D, %A, %B, 0x7531",
       [=](uint64_t a, uint64_t b) { return prmt(a, b, 0x7531); }, false},
      {"prmt.b32", "prmt.b32 %D, %A, %B, 0x8b4f",
       [=](uint64_t a, uint64_t b) { return prmt(a, b, 0x8b4f); }, false},
      {"shf.l.wrap.b32", "shf.l.wrap.b32 %D, %A, %B, 13",
       [=](uint64_t a, uint64_t b) { return u32(((u32(b) << 32 | u32(a)) << 13) >> 32); }, false},
      {"shf.r.clamp.b32", "shf.r.clamp.b32 %D, %A, %B, 40",
       [=](uint64_t, uint64_t b) { return u32(b); }, false},
      {"shl.b32", "shl.b32 %D, %A, 7", [=](uint64_t a, uint64_t) { return u32(a << 7); }, false},
      {"shr.s32", "shr.s32 %D, %A, 31",
       [=](uint64_t a, uint64_t) { return u32(static_cast<uint64_t>(s32(a) >> 31)); }, false},
      {"shr.u64", "shr.u64 %D, %A, 63", [=](uint64_t a, uint64_t) { return a >> 63; }, true},
      {"bmsk.wrap.b32", "bmsk.wrap.b32 %D, 1, 2", [=](uint64_t, uint64_t) { return uint64_t{6}; },
       false},  // the PTX ISA's example
      {"bmsk.wrap.b32", "bmsk.wrap.b32 %D, %A, 5",
       [=](uint64_t a, uint64_t) {
         uint32_t a1 = a & 31, sum = a1 + 5;
         uint32_t mask0 = ~0u << a1, mask1 = sum >= 32 ? 0 : ~0u << sum;
         return static_cast<uint64_t>(mask0 & ~mask1);
       },
       false},
      {"dp4a.s32.s32", "dp4a.s32.s32 %D, %A, %B, 100",
       [=](uint64_t a, uint64_t b) {
         int64_t acc = 100;
         for (int i = 0; i < 4; ++i)
           acc += static_cast<int8_t>(a >> (8 * i)) * static_cast<int8_t>(b >> (8 * i));
         return u32(static_cast<uint64_t>(acc));
       },
       false},
      {"szext.wrap.s32", "szext.wrap.s32 %D, %A, 12",
       [=](uint64_t a, uint64_t) { return bfe(a, 32, 0, 12, true); }, false},
      {"mad.lo.s32", "mad.lo.s32 %D, %A, 3, 7",
       [=](uint64_t a, uint64_t) { return u32(a * 3 + 7); }, false},
      {"add.s32", "add.s32 %D, %A, -5", [=](uint64_t a, uint64_t) { return u32(a - 5); }, false},
      {"min.s32", "min.s32 %D, %A, -3",
       [=](uint64_t a, uint64_t) {
         return u32(static_cast<uint64_t>(std::min<int64_t>(s32(a), -3)));
       },
       false},
      {"max.u32", "max.u32 %D, %A, 100",
       [=](uint64_t a, uint64_t) { return std::max<uint64_t>(u32(a), 100); }, false},
      {"mul.hi.u32", "mul.hi.u32 %D, %A, 0x9e3779b9",
       [=](uint64_t a, uint64_t) { return (u32(a) * 0x9e3779b9ull) >> 32; }, false},
      {"add.cc.u32", "add.cc.u32 %D, %A, 1;\n  addc.u32 %D, %D, 0",
       [=](uint64_t a, uint64_t) { return u32(u32(a) + 1 + (u32(a) == 0xffffffffu)); }, false},
      {"lop3.b32", "lop3.b32 %D, %A, %B, 0x0f0f0f0f, 0x96",
       [=](uint64_t a, uint64_t b) { return u32(a ^ b ^ 0x0f0f0f0full); }, false},
  };
  std::ostringstream p;
  p << header(2) << thread_base(0, 16) << thread_base(1, 8);
  p << "  ld.global.u32 %r1, [%rd10];\n  ld.global.u32 %r2, [%rd10+4];\n  ld.global.u64 %rd1, "
       "[%rd10];\n"
    << "  ld.global.u64 %rd2, [%rd10+8];\n";
  for (size_t k = 0; k < ops.size(); ++k) {
    std::string t = ops[k].text;
    const bool w = ops[k].wide;
    for (auto [from, to] : {std::pair<std::string, std::string>{"%D", w ? "%rd3" : "%r3"},
                            {"%A", w ? "%rd1" : "%r1"},
                            {"%B", w ? "%rd2" : "%r2"}})
      for (size_t at = t.find(from); at != std::string::npos; at = t.find(from))
        t.replace(at, from.size(), to);
    if (std::find(c.forms.begin(), c.forms.end(), ops[k].form) == c.forms.end())
      c.forms.push_back(ops[k].form);
    p << "  " << t << ";\n";
    if (w)
      p << "  st.global.u64 [%rd11+" << k * kThreads * 8 << "], %rd3;\n";
    else
      p << "  cvt.u64.u32 %rd3, %r3;\n  st.global.u64 [%rd11+" << k * kThreads * 8 << "], %rd3;\n";
  }
  p << "  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto in = random_words(4 * kThreads, 81);
  c.buffers = {bytes_of(in), std::vector<uint8_t>(ops.size() * kThreads * 8, 0)};
  c.check = [in, ops](const Buffers& after) {
    std::vector<uint64_t> want;
    for (const Op& op : ops)
      for (uint32_t t = 0; t < kThreads; ++t) {
        uint64_t lo = in[4 * t], hi = in[4 * t + 1], hi2 = in[4 * t + 2], hi3 = in[4 * t + 3];
        uint64_t a = op.wide ? (lo | hi << 32) : lo, b = op.wide ? (hi2 | hi3 << 32) : hi;
        want.push_back(op.ref(a, b));
      }
    return compare_u64("results", want, values_of<uint64_t>(after[1]));
  };
  return c;
}

// Packing and unpacking halves and words with mov (the f16x2/bf16x2 register idiom):
// mov.b32 {lo, hi} <-> .b32 and mov.b64 {lo, hi} <-> .b64, element 0 in the low bits.
KernelCase pack_unpack() {
  KernelCase c;
  c.name = "mov.pack-unpack";
  c.family = "mov";
  c.forms = {"mov.b32", "mov.b64"};
  std::ostringstream p;
  p << header(2) << thread_base(0, 8) << thread_base(1, 32);
  p << "  ld.global.u32 %r1, [%rd10];\n  ld.global.u32 %r2, [%rd10+4];\n"
    << "  mov.b32 {%h1, %h2}, %r1;\n"   // unpack the halves of a
    << "  mov.b32 %r3, {%h2, %h1};\n"   // and repack them swapped
    << "  mov.b64 %rd1, {%r1, %r2};\n"  // a in the low word
    << "  mov.b64 {%r4, %r5}, %rd1;\n"
    << "  mov.b32 %r6, {%h1, %h1};\n"
    << "  st.global.u32 [%rd11], %r3;\n  st.global.u64 [%rd11+8], %rd1;\n"
    << "  st.global.u32 [%rd11+16], %r5;\n  st.global.u32 [%rd11+20], %r4;\n"
    << "  st.global.u32 [%rd11+24], %r6;\n  st.global.u16 [%rd11+28], %h2;\n  ret;\n}\n";
  c.ptx = p.str();
  c.launch.block[0] = kThreads;
  auto in = random_words(2 * kThreads, 91);
  c.buffers = {bytes_of(in), std::vector<uint8_t>(32 * kThreads, 0)};
  c.check = [in](const Buffers& after) {
    std::vector<uint32_t> want;
    for (uint32_t t = 0; t < kThreads; ++t) {
      const uint32_t a = in[2 * t], b = in[2 * t + 1];
      want.insert(want.end(),
                  {(a >> 16) | (a << 16), 0, a, b, b, a, (a & 0xffff) * 0x10001u, a >> 16});
    }
    std::vector<uint32_t> got = values_of<uint32_t>(after[1]);
    for (uint32_t t = 0; t < kThreads; ++t) got[8 * t + 1] = 0;  // padding
    return compare_u32("words", want, got);
  };
  return c;
}

}  // namespace

std::vector<KernelCase> alu_cases() {
  std::vector<KernelCase> v;
  v.push_back(add_sub_128(/*sub=*/false));
  v.push_back(add_sub_128(/*sub=*/true));
  for (bool s : {false, true}) {
    v.push_back(add_sub_256(/*sub=*/false, s));
    v.push_back(add_sub_256(/*sub=*/true, s));
  }
  v.push_back(multiword_mul());
  v.push_back(carry_across_branch());
  v.push_back(lop3_all());
  v.push_back(setp_x2(/*bf=*/false));
  v.push_back(setp_x2(/*bf=*/true));
  v.push_back(setp_boolop());
  v.push_back(immediates());
  v.push_back(pack_unpack());
  return v;
}

}  // namespace strata::ptx_conformance
