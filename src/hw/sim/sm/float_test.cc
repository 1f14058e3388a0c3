// Floating-point and conversion semantics: rounding modes, FTZ, SAT, NaN rules, F16.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <limits>

#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

uint64_t fb(float f) { return std::bit_cast<uint32_t>(f); }
float bf(uint64_t u) { return std::bit_cast<float>(static_cast<uint32_t>(u)); }
uint64_t db(double d) { return std::bit_cast<uint64_t>(d); }

std::vector<uint64_t> f32op(Opcode op, const std::vector<float>& a, const std::vector<float>& b, uint8_t mod = 0,
                            const std::vector<float>& c = {}) {
  Harness h;
  std::vector<uint64_t> ua, ub, uc;
  for (float x : a) ua.push_back(fb(x));
  for (float x : b) ub.push_back(fb(x));
  for (float x : c) uc.push_back(fb(x));
  return run_map(h, {B(op).t(DataType::F32).d(10).a(8).b(9).c(12).mod(mod)}, ua, ub, false, uc);
}

TEST(Float, AddRoundingModes) {
  const float one = 1.0f, tiny = std::ldexp(1.0f, -30);
  auto rn = f32op(Opcode::FADD, {one, -one}, {tiny, -tiny}, static_cast<uint8_t>(isa::Round::RN));
  auto rp = f32op(Opcode::FADD, {one, -one}, {tiny, -tiny}, static_cast<uint8_t>(isa::Round::RP));
  auto rm = f32op(Opcode::FADD, {one, -one}, {tiny, -tiny}, static_cast<uint8_t>(isa::Round::RM));
  auto rz = f32op(Opcode::FADD, {one, -one}, {tiny, -tiny}, static_cast<uint8_t>(isa::Round::RZ));
  EXPECT_EQ(bf(rn[0]), 1.0f);
  EXPECT_EQ(bf(rp[0]), std::nextafter(1.0f, 2.0f));
  EXPECT_EQ(bf(rm[0]), 1.0f);
  EXPECT_EQ(bf(rm[1]), std::nextafter(-1.0f, -2.0f));
  EXPECT_EQ(bf(rz[1]), -1.0f);
}

TEST(Float, FtzAndSat) {
  const float denorm = std::ldexp(1.0f, -140);
  auto plain = f32op(Opcode::FMUL, {denorm, 2.0f, -3.0f}, {1.0f, 0.75f, 1.0f});
  auto ftz = f32op(Opcode::FMUL, {denorm, 2.0f, -3.0f}, {1.0f, 0.75f, 1.0f}, isa::kModFtz);
  auto sat = f32op(Opcode::FMUL, {denorm, 2.0f, -3.0f}, {1.0f, 0.75f, 1.0f}, isa::kModSat);
  EXPECT_EQ(bf(plain[0]), denorm);
  EXPECT_EQ(bf(ftz[0]), 0.0f);
  EXPECT_EQ(bf(sat[1]), 1.0f);
  EXPECT_EQ(bf(sat[2]), 0.0f);
}

TEST(Float, FmaSingleRounding) {
  const float a = 1.0f + std::ldexp(1.0f, -12);
  auto r = f32op(Opcode::FFMA, {a}, {a}, 0, {-(1.0f + std::ldexp(1.0f, -11))});
  EXPECT_EQ(bf(r[0]), std::ldexp(1.0f, -24));
}

TEST(Float, MinMaxNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto mn = f32op(Opcode::FMIN, {nan, 1.0f, 0.0f}, {2.0f, nan, -0.0f});
  auto mx = f32op(Opcode::FMAX, {nan, 1.0f, 0.0f}, {2.0f, nan, -0.0f});
  EXPECT_EQ(bf(mn[0]), 2.0f);
  EXPECT_EQ(bf(mn[1]), 1.0f);
  EXPECT_TRUE(std::signbit(bf(mn[2])));
  EXPECT_FALSE(std::signbit(bf(mx[2])));
}

TEST(Float, SetpOrderedAndUnordered) {
  Harness h;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto run = [&](isa::CmpOp op) {
    std::vector<isa::Inst> body = {
        B(Opcode::FSETP).t(DataType::F32).pd(0).a(8).b(9).mod(static_cast<uint8_t>(op)),
        B(Opcode::MOV).t(DataType::U32).d(10).bi(0),
        B(Opcode::MOV).t(DataType::U32).d(10).bi(1).guard(0),
    };
    return run_map(h, body, {fb(nan), fb(1.0f), fb(1.0f)}, {fb(1.0f), fb(1.0f), fb(2.0f)});
  };
  EXPECT_EQ(run(isa::CmpOp::NE), (std::vector<uint64_t>{0, 0, 1}));
  EXPECT_EQ(run(isa::CmpOp::NEU), (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_EQ(run(isa::CmpOp::LTU), (std::vector<uint64_t>{1, 0, 1}));
  EXPECT_EQ(run(isa::CmpOp::NAN_), (std::vector<uint64_t>{1, 0, 0}));
}

TEST(Float, Double) {
  Harness h;
  auto r = run_map(h, {B(Opcode::FDIV).t(DataType::F64).d(12).a(8).b(10)}, {db(1.0), db(-6.0)}, {db(3.0), db(2.0)}, true);
  EXPECT_EQ(std::bit_cast<double>(r[0]), 1.0 / 3.0);
  EXPECT_EQ(std::bit_cast<double>(r[1]), -3.0);
}

TEST(Float, MufuAndF16) {
  auto r = f32op(Opcode::MUFU, {4.0f, 3.0f}, {0, 0}, static_cast<uint8_t>(isa::MufuOp::SQRT));
  EXPECT_EQ(bf(r[0]), 2.0f);
  Harness h;
  // F16: 1.0 (0x3c00) + 2.0 (0x4000) = 3.0 (0x4200); 65504 + 65504 overflows to inf.
  auto s = run_map(h, {B(Opcode::FADD).t(DataType::F16).d(10).a(8).b(9)}, {0x3c00, 0x7bff}, {0x4000, 0x7bff});
  EXPECT_EQ(s, (std::vector<uint64_t>{0x4200, 0x7c00}));
}

std::vector<uint64_t> cvt(DataType dst, DataType src, uint8_t mod, const std::vector<uint64_t>& a, bool wide = false) {
  Harness h;
  return run_map(h, {B(Opcode::CVT).t(dst).t2(src).d(wide ? 12 : 10).a(8).mod(mod)}, a,
                 std::vector<uint64_t>(a.size(), 0), wide);
}

TEST(Convert, FloatToIntSaturatesAndNaNIsZero) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto r = cvt(DataType::S32, DataType::F32, static_cast<uint8_t>(isa::Round::RZ),
               {fb(3e9f), fb(-3e9f), fb(nan), fb(-2.7f), fb(2.5f)});
  EXPECT_EQ(r, (std::vector<uint64_t>{0x7fffffff, 0x80000000, 0, 0xfffffffe, 2}));
  auto rn = cvt(DataType::S32, DataType::F32, static_cast<uint8_t>(isa::Round::RN), {fb(2.5f), fb(3.5f), fb(-2.5f)});
  EXPECT_EQ(rn, (std::vector<uint64_t>{2, 4, 0xfffffffe}));
  auto u8 = cvt(DataType::U8, DataType::F32, static_cast<uint8_t>(isa::Round::RZ), {fb(300.0f), fb(-5.0f)});
  EXPECT_EQ(u8, (std::vector<uint64_t>{255, 0}));
}

TEST(Convert, IntToFloatRounding) {
  // 2^24 + 1 is not representable in f32: RN -> 2^24, RP -> 2^24 + 2.
  auto rn = cvt(DataType::F32, DataType::U32, static_cast<uint8_t>(isa::Round::RN), {(1u << 24) + 1});
  auto rp = cvt(DataType::F32, DataType::U32, static_cast<uint8_t>(isa::Round::RP), {(1u << 24) + 1});
  EXPECT_EQ(bf(rn[0]), 16777216.0f);
  EXPECT_EQ(bf(rp[0]), 16777218.0f);
}

TEST(Convert, IntToIntAndFloatWidths) {
  auto s = cvt(DataType::S32, DataType::S8, 0, {0x80, 0x7f});
  EXPECT_EQ(s, (std::vector<uint64_t>{0xffffff80, 0x7f}));
  auto sat = cvt(DataType::U16, DataType::S32, isa::kModSat, {0xffffffff, 70000});
  EXPECT_EQ(sat, (std::vector<uint64_t>{0, 65535}));
  auto h = cvt(DataType::F16, DataType::F32, 0, {fb(1.0f), fb(1e6f), fb(std::ldexp(1.0f, -24))});
  EXPECT_EQ(h, (std::vector<uint64_t>{0x3c00, 0x7c00, 0x0001}));
  auto f = cvt(DataType::F32, DataType::F16, 0, {0x3c00, 0xc000});
  EXPECT_EQ(f, (std::vector<uint64_t>{fb(1.0f), fb(-2.0f)}));
  auto ri = cvt(DataType::F32, DataType::F32, isa::kModRoundInt | static_cast<uint8_t>(isa::Round::RM), {fb(-1.5f), fb(2.7f)});
  EXPECT_EQ(ri, (std::vector<uint64_t>{fb(-2.0f), fb(2.0f)}));
}

}  // namespace
}  // namespace strata::hw::sim::testing
