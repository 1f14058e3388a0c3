// .f16 and .f16x2 arithmetic, cvt between f16 and f32 under each rounding mode, setp on
// f16 and packing halves with mov, checked against a host reference (_Float16 for
// round-to-nearest, exact neighbour selection for the directed roundings).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

uint16_t bits_of(_Float16 h) {
  uint16_t b;
  std::memcpy(&b, &h, 2);
  return b;
}
float to_float(uint16_t b) {
  _Float16 h;
  std::memcpy(&h, &b, 2);
  return static_cast<float>(h);
}
uint16_t next_up(uint16_t b) {
  if ((b & 0x7fff) == 0) return 0x0001;
  return (b & 0x8000) ? static_cast<uint16_t>(b - 1) : static_cast<uint16_t>(b + 1);
}
uint16_t next_down(uint16_t b) { return static_cast<uint16_t>(next_up(b ^ 0x8000) ^ 0x8000); }

// f32 -> f16 with rounding 0 RN, 1 RZ, 2 RM, 3 RP.
uint16_t round_half(long double x, int mode) {
  uint16_t h = bits_of(static_cast<_Float16>(x));
  if (std::isnan(x) || static_cast<long double>(to_float(h)) == x || mode == 0) return h;
  uint16_t below = h, above = h;
  if (static_cast<long double>(to_float(h)) < x) above = next_up(h);
  else below = next_down(h);
  if (mode == 2) return below;
  if (mode == 3) return above;
  return x > 0 ? below : above;
}
uint16_t half_of(float x) { return round_half(x, 0); }

constexpr const char* kHalf = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<2>;
  .reg .b16 %rs<32>;
  .reg .f32 %f<8>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 16;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.v4.f32 {%f1, %f2, %f3, %f4}, [%rd4];
  mul.wide.u32 %rd5, %r1, 64;
  add.s64 %rd6, %rd2, %rd5;
  cvt.rn.f16.f32 %rs1, %f1;
  cvt.rn.f16.f32 %rs2, %f2;
  cvt.rn.f16.f32 %rs3, %f3;
  add.f16 %rs4, %rs1, %rs2;
  sub.f16 %rs5, %rs1, %rs2;
  mul.f16 %rs6, %rs1, %rs2;
  fma.rn.f16 %rs7, %rs1, %rs2, %rs3;
  min.f16 %rs8, %rs1, %rs2;
  max.f16 %rs9, %rs1, %rs2;
  neg.f16 %rs10, %rs1;
  abs.f16 %rs11, %rs10;
  cvt.rz.f16.f32 %rs12, %f1;
  cvt.rm.f16.f32 %rs13, %f1;
  cvt.rp.f16.f32 %rs14, %f1;
  mov.b16 %rs15, 0x3c00;
  add.f16 %rs15, %rs15, %rs3;
  st.global.v4.b16 [%rd6], {%rs4, %rs5, %rs6, %rs7};
  st.global.v4.b16 [%rd6+8], {%rs8, %rs9, %rs10, %rs11};
  st.global.v4.b16 [%rd6+16], {%rs12, %rs13, %rs14, %rs15};
  cvt.f32.f16 %f5, %rs4;
  setp.lt.f16 %p1, %rs1, %rs2;
  selp.u32 %r2, 1, 0, %p1;
  st.global.v2.u32 [%rd6+24], {%f5, %r2};
  mov.b32 %r3, {%rs1, %rs2};
  mov.b32 %r4, {%rs3, %rs1};
  add.f16x2 %r5, %r3, %r4;
  mul.f16x2 %r6, %r3, %r4;
  fma.rn.f16x2 %r7, %r3, %r4, %r3;
  neg.f16x2 %r8, %r3;
  max.f16x2 %r9, %r3, %r4;
  cvt.rn.f16x2.f32 %r10, %f3, %f4;
  mov.b32 {%rs16, %rs17}, %r7;
  st.global.v4.b32 [%rd6+32], {%r5, %r6, %r7, %r8};
  st.global.v2.b32 [%rd6+48], {%r9, %r10};
  st.global.v2.b16 [%rd6+56], {%rs17, %rs16};
  ret;
}
)";

TEST(ExecF16, ScalarPackedAndConversions) {
  PtxExec e;
  Status s = e.compile(kHalf);
  ASSERT_TRUE(s.ok()) << s.to_string();
  SCOPED_TRACE(e.disassembly("k"));
  constexpr uint32_t kThreads = 64;
  std::vector<float> in(kThreads * 4);
  for (uint32_t t = 0; t < kThreads; ++t) {
    in[4 * t + 0] = (static_cast<float>(t) - 30.0f) * 0.3713f + 1e-4f * static_cast<float>(t);
    in[4 * t + 1] = 100.0f / static_cast<float>(t + 1) - 7.0f;
    in[4 * t + 2] = static_cast<float>(t * t) * 1.7f - 50.0f;
    in[4 * t + 3] = std::ldexp(1.0f + static_cast<float>(t) / 64.0f, static_cast<int>(t % 40) - 28);
  }
  in[0] = 70000.0f;        // overflows f16
  in[4] = 1.0e-6f;         // an f16 subnormal
  in[8] = -65519.0f;       // rounds to -65504 (RN), -inf (RM)
  in[12 + 1] = NAN;        // NaN operand
  in[16] = 0.1f;
  in[17] = -0.1f;
  uint64_t din = e.alloc(in.size() * 4), dout = e.alloc(kThreads * 64);
  e.write(din, in);
  auto f = e.run("k", Dim{1}, Dim{kThreads}, {din, dout});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto h = e.read<uint16_t>(dout, kThreads * 32);
  auto w = e.read<uint32_t>(dout, kThreads * 16);
  auto same = [](uint16_t got, uint16_t want) {
    bool got_nan = (got & 0x7c00) == 0x7c00 && (got & 0x3ff), want_nan = (want & 0x7c00) == 0x7c00 && (want & 0x3ff);
    return want_nan ? got_nan : got == want;
  };
  auto minmax = [](uint16_t a, uint16_t b, bool max) -> uint16_t {
    float x = to_float(a), y = to_float(b);
    if (std::isnan(x)) return b;
    if (std::isnan(y)) return a;
    if (x == y) return max ? (a & b) : (a | b);  // -0 < +0
    return (x < y) != max ? a : b;
  };
  for (uint32_t t = 0; t < kThreads; ++t) {
    SCOPED_TRACE(::testing::Message() << "thread " << t);
    const float* x = &in[4 * t];
    uint16_t a = half_of(x[0]), b = half_of(x[1]), c = half_of(x[2]);
    long double fa = to_float(a), fb = to_float(b), fc = to_float(c);
    const uint16_t want[12] = {round_half(fa + fb, 0), round_half(fa - fb, 0), round_half(fa * fb, 0),
                               round_half(fa * fb + fc, 0), minmax(a, b, false), minmax(a, b, true),
                               static_cast<uint16_t>(a ^ 0x8000), static_cast<uint16_t>(a & 0x7fff),
                               round_half(x[0], 1), round_half(x[0], 2), round_half(x[0], 3),
                               round_half(1.0L + fc, 0)};
    const uint16_t* o = &h[32 * t];
    for (int i = 0; i < 12; ++i) EXPECT_TRUE(same(o[i], want[i])) << "slot " << i << ": got " << std::hex << o[i] << " want " << want[i];
    float sum = to_float(want[0]);
    uint32_t sum_bits;
    std::memcpy(&sum_bits, &sum, 4);
    if (!std::isnan(sum)) EXPECT_EQ(w[16 * t + 6], sum_bits) << "cvt.f32.f16";
    EXPECT_EQ(w[16 * t + 7], fa < fb ? 1u : 0u) << "setp.lt.f16";
    // Packed: r3 = {a, b}, r4 = {c, a} (element 0 low).
    auto pk = [](uint16_t lo, uint16_t hi) { return static_cast<uint32_t>(lo) | static_cast<uint32_t>(hi) << 16; };
    const uint16_t p_add[2] = {round_half(fa + fc, 0), round_half(fb + fa, 0)};
    const uint16_t p_mul[2] = {round_half(fa * fc, 0), round_half(fb * fa, 0)};
    const uint16_t p_fma[2] = {round_half(fa * fc + fa, 0), round_half(fb * fa + fb, 0)};
    const uint16_t p_max[2] = {minmax(a, c, true), minmax(b, a, true)};
    const uint32_t* pw = &w[16 * t + 8];
    auto check = [&](uint32_t got, const uint16_t* want2, const char* what) {
      EXPECT_TRUE(same(static_cast<uint16_t>(got), want2[0]) && same(static_cast<uint16_t>(got >> 16), want2[1]))
          << what << ": got " << std::hex << got << " want " << pk(want2[0], want2[1]);
    };
    check(pw[0], p_add, "add.f16x2");
    check(pw[1], p_mul, "mul.f16x2");
    check(pw[2], p_fma, "fma.f16x2");
    EXPECT_EQ(pw[3], pk(a ^ 0x8000, b ^ 0x8000)) << "neg.f16x2";
    check(pw[4], p_max, "max.f16x2");
    EXPECT_EQ(pw[5], pk(half_of(x[3]), c)) << "cvt.rn.f16x2.f32";
    EXPECT_TRUE(same(h[32 * t + 28], p_fma[1]) && same(h[32 * t + 29], p_fma[0])) << "unpacked halves";
  }
}

}  // namespace
}  // namespace strata::compiler::testing
