// Integer data paths, executed: loads into registers wider than the access (PTX: sign-
// or zero-extension by the instruction type), cvt between integer widths, 64-bit
// immediates, mul24/mad24 and bfi with register operands.
#include <gtest/gtest.h>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

constexpr const char* kHeader = ".version 8.0\n.target sm_80\n.address_size 64\n";

// Runs a one-thread kernel `k(.u64 in, .u64 out, <extra params>)` and returns `n`
// 64-bit results from out.
std::vector<uint64_t> run_one(const std::string& body, const std::string& extra_params,
                              const std::vector<uint8_t>& input, std::vector<uint64_t> extra_args, size_t n,
                              int opt_level = 2) {
  PtxExec e;
  std::string ptx = std::string(kHeader) + ".visible .entry k(.param .u64 in, .param .u64 out" + extra_params +
                    ")\n{\n.reg .pred %p<8>;\n.reg .b16 %rs<16>;\n.reg .b32 %r<32>;\n.reg .b64 %rd<32>;\n"
                    "ld.param.u64 %rd30, [in];\nld.param.u64 %rd31, [out];\n" +
                    body + "ret;\n}\n";
  Status s = e.compile(ptx, opt_level);
  EXPECT_TRUE(s.ok()) << s.to_string();
  if (!s.ok()) return {};
  uint64_t in = e.alloc(4096), out = e.alloc(4096);
  e.write(in, input);
  std::vector<uint64_t> args = {in, out};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  auto f = e.run("k", Dim{1}, Dim{1}, args);
  EXPECT_TRUE(f.ok()) << f.status().to_string();
  if (!f.ok()) return {};
  EXPECT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  return e.read<uint64_t>(out, n);
}

// in: bytes 0-3 = -2 (s32), byte 4 = 0x80, byte 5 = 0x7f, bytes 6-7 = 0x8001.
const std::vector<uint8_t> kInput = {0xfe, 0xff, 0xff, 0xff, 0x80, 0x7f, 0x01, 0x80};

TEST(ExecLoad, GlobalLoadsExtendIntoWideRegisters) {
  for (int opt : {0, 2}) {
    auto r = run_one(R"(
      ld.global.s32 %rd1, [%rd30];    st.global.u64 [%rd31], %rd1;
      ld.global.u32 %rd2, [%rd30];    st.global.u64 [%rd31+8], %rd2;
      ld.global.s8 %rd3, [%rd30+4];   st.global.u64 [%rd31+16], %rd3;
      ld.global.u8 %rd4, [%rd30+4];   st.global.u64 [%rd31+24], %rd4;
      ld.global.s16 %rd5, [%rd30+6];  st.global.u64 [%rd31+32], %rd5;
      ld.global.u16 %rd6, [%rd30+6];  st.global.u64 [%rd31+40], %rd6;
      ld.global.s8 %r1, [%rd30+4];    cvt.u64.u32 %rd7, %r1;  st.global.u64 [%rd31+48], %rd7;
      ld.global.u8 %r2, [%rd30+4];    cvt.u64.u32 %rd8, %r2;  st.global.u64 [%rd31+56], %rd8;
      ld.global.s16 %rs1, [%rd30+6];  cvt.s64.s16 %rd9, %rs1; st.global.u64 [%rd31+64], %rd9;
      ld.global.s8 %rs2, [%rd30+4];   cvt.s32.s16 %r3, %rs2;  cvt.u64.u32 %rd10, %r3; st.global.u64 [%rd31+72], %rd10;
      ld.global.s32 %r4, [%rd30];     cvt.s64.s32 %rd11, %r4; st.global.u64 [%rd31+80], %rd11;
    )", "", kInput, {}, 11, opt);
    ASSERT_EQ(r.size(), 11u);
    EXPECT_EQ(r[0], 0xfffffffffffffffeull) << "opt " << opt;
    EXPECT_EQ(r[1], 0x00000000fffffffeull);
    EXPECT_EQ(r[2], 0xffffffffffffff80ull);
    EXPECT_EQ(r[3], 0x80ull);
    EXPECT_EQ(r[4], 0xffffffffffff8001ull);
    EXPECT_EQ(r[5], 0x8001ull);
    EXPECT_EQ(r[6], 0xffffff80ull);
    EXPECT_EQ(r[7], 0x80ull);
    EXPECT_EQ(r[8], 0xffffffffffff8001ull);
    EXPECT_EQ(r[9], 0xffffff80ull);
    EXPECT_EQ(r[10], 0xfffffffffffffffeull);
  }
}

TEST(ExecLoad, SharedAndLocalLoadsExtend) {
  auto r = run_one(R"(
    .shared .align 8 .b8 sh[16];
    .local .align 8 .b8 lo[16];
    ld.global.u32 %r1, [%rd30];
    st.shared.u32 [sh], %r1;
    st.local.u32 [lo+4], %r1;
    ld.shared.s32 %rd1, [sh];      st.global.u64 [%rd31], %rd1;
    ld.shared.u32 %rd2, [sh];      st.global.u64 [%rd31+8], %rd2;
    ld.local.s32 %rd3, [lo+4];     st.global.u64 [%rd31+16], %rd3;
    ld.shared.s8 %rd4, [sh+1];     st.global.u64 [%rd31+24], %rd4;
    ld.local.u16 %rd5, [lo+6];     st.global.u64 [%rd31+32], %rd5;
  )", "", kInput, {}, 5);
  ASSERT_EQ(r.size(), 5u);
  EXPECT_EQ(r[0], 0xfffffffffffffffeull);
  EXPECT_EQ(r[1], 0xfffffffeull);
  EXPECT_EQ(r[2], 0xfffffffffffffffeull);
  EXPECT_EQ(r[3], 0xffffffffffffffffull);
  EXPECT_EQ(r[4], 0xffffull);
}

TEST(ExecLoad, ParamLoadsExtend) {
  auto r = run_one(R"(
    ld.param.s8 %rd1, [p8];     st.global.u64 [%rd31], %rd1;
    ld.param.u8 %rd2, [p8];     st.global.u64 [%rd31+8], %rd2;
    ld.param.s16 %rd3, [p16];   st.global.u64 [%rd31+16], %rd3;
    ld.param.s32 %rd4, [p32];   st.global.u64 [%rd31+24], %rd4;
    ld.param.u32 %rd5, [p32];   st.global.u64 [%rd31+32], %rd5;
    ld.param.s8 %r1, [p8];      cvt.u64.u32 %rd6, %r1;  st.global.u64 [%rd31+40], %rd6;
  )", ", .param .s8 p8, .param .s16 p16, .param .s32 p32", {}, {0x85, 0x8002, 0xfffffff0}, 6);
  ASSERT_EQ(r.size(), 6u);
  EXPECT_EQ(r[0], 0xffffffffffffff85ull);
  EXPECT_EQ(r[1], 0x85ull);
  EXPECT_EQ(r[2], 0xffffffffffff8002ull);
  EXPECT_EQ(r[3], 0xfffffffffffffff0ull);
  EXPECT_EQ(r[4], 0xfffffff0ull);
  EXPECT_EQ(r[5], 0xffffff85ull);
}

TEST(ExecLoad, IntegerConversions) {
  auto r = run_one(R"(
    mov.u32 %r1, 0x12345687;
    cvt.u16.u32 %rs1, %r1;     cvt.u64.u16 %rd1, %rs1;   st.global.u64 [%rd31], %rd1;
    cvt.s8.s32 %r2, %r1;       cvt.u64.u32 %rd2, %r2;    st.global.u64 [%rd31+8], %rd2;
    cvt.u8.u32 %r3, %r1;       cvt.u64.u32 %rd3, %r3;    st.global.u64 [%rd31+16], %rd3;
    cvt.s64.s8 %rd4, %r1;      st.global.u64 [%rd31+24], %rd4;
    cvt.s16.s32 %rs2, %r1;     cvt.s64.s16 %rd5, %rs2;   st.global.u64 [%rd31+32], %rd5;
    mov.u64 %rd6, 0x8000000012345678;
    cvt.u32.u64 %r4, %rd6;     cvt.u64.u32 %rd7, %r4;    st.global.u64 [%rd31+40], %rd7;
    cvt.s32.s64 %r5, %rd6;     cvt.s64.s32 %rd8, %r5;    st.global.u64 [%rd31+48], %rd8;
    cvt.sat.s32.s64 %r6, %rd6; cvt.s64.s32 %rd9, %r6;    st.global.u64 [%rd31+56], %rd9;
    cvt.s64.s16 %rd10, %rs1;   st.global.u64 [%rd31+64], %rd10;
  )", "", {}, {}, 9);
  ASSERT_EQ(r.size(), 9u);
  EXPECT_EQ(r[0], 0x5687ull);
  EXPECT_EQ(r[1], 0xffffff87ull);
  EXPECT_EQ(r[2], 0x87ull);
  EXPECT_EQ(r[3], 0xffffffffffffff87ull);
  EXPECT_EQ(r[4], 0x5687ull);
  EXPECT_EQ(r[5], 0x12345678ull);
  EXPECT_EQ(r[6], 0x12345678ull);
  EXPECT_EQ(r[7], 0xffffffff80000000ull);
  EXPECT_EQ(r[8], 0x5687ull);
}

TEST(ExecLoad, SixtyFourBitImmediates) {
  for (int opt : {0, 2}) {
    auto r = run_one(R"(
      mov.u64 %rd1, 0x123456789abcdef0;   st.global.u64 [%rd31], %rd1;
      add.s64 %rd2, %rd1, -1;             st.global.u64 [%rd31+8], %rd2;
      and.b64 %rd3, %rd1, 0xffffffff00000000; st.global.u64 [%rd31+16], %rd3;
      mov.u64 %rd4, -2;                   st.global.u64 [%rd31+24], %rd4;
      add.u64 %rd5, %rd4, 0x100000000;    st.global.u64 [%rd31+32], %rd5;
      setp.lt.s64 %p1, %rd4, -1;          selp.u64 %rd6, 11, 22, %p1; st.global.u64 [%rd31+40], %rd6;
      mul.lo.s64 %rd7, %rd1, -3;          st.global.u64 [%rd31+48], %rd7;
      xor.b64 %rd8, %rd1, 0x8000000000000001; st.global.u64 [%rd31+56], %rd8;
    )", "", {}, {}, 8, opt);
    ASSERT_EQ(r.size(), 8u);
    const uint64_t x = 0x123456789abcdef0ull;
    EXPECT_EQ(r[0], x) << "opt " << opt;
    EXPECT_EQ(r[1], x - 1);
    EXPECT_EQ(r[2], 0x1234567800000000ull);
    EXPECT_EQ(r[3], 0xfffffffffffffffeull);
    EXPECT_EQ(r[4], 0xfffffffffffffffeull + 0x100000000ull);
    EXPECT_EQ(r[5], 11u);
    EXPECT_EQ(r[6], x * static_cast<uint64_t>(-3));
    EXPECT_EQ(r[7], x ^ 0x8000000000000001ull);
  }
}

TEST(ExecLoad, Mul24AndMad24) {
  auto r = run_one(R"(
    mov.u32 %r1, 0xff800003;   // low 24 bits 0x800003 (negative as s24)
    mov.u32 %r2, 0x12000100;   // low 24 bits 0x000100
    mov.u32 %r3, 7;
    mul24.lo.u32 %r4, %r1, %r2;      cvt.u64.u32 %rd1, %r4;  st.global.u64 [%rd31], %rd1;
    mul24.hi.u32 %r5, %r1, %r2;      cvt.u64.u32 %rd2, %r5;  st.global.u64 [%rd31+8], %rd2;
    mul24.lo.s32 %r6, %r1, %r2;      cvt.u64.u32 %rd3, %r6;  st.global.u64 [%rd31+16], %rd3;
    mul24.hi.s32 %r7, %r1, %r2;      cvt.u64.u32 %rd4, %r7;  st.global.u64 [%rd31+24], %rd4;
    mad24.lo.s32 %r8, %r1, %r2, %r3; cvt.u64.u32 %rd5, %r8;  st.global.u64 [%rd31+32], %rd5;
    mad24.hi.u32 %r9, %r1, %r2, %r3; cvt.u64.u32 %rd6, %r9;  st.global.u64 [%rd31+40], %rd6;
  )", "", {}, {}, 6);
  ASSERT_EQ(r.size(), 6u);
  const uint64_t ua = 0x800003, ub = 0x100;
  const int64_t sa = static_cast<int64_t>(ua) - (int64_t{1} << 24), sb = 0x100;
  const uint64_t up = ua * ub, sp = static_cast<uint64_t>(sa * sb);
  EXPECT_EQ(r[0], up & 0xffffffffu);
  EXPECT_EQ(r[1], (up >> 16) & 0xffffffffu);
  EXPECT_EQ(r[2], sp & 0xffffffffu);
  EXPECT_EQ(r[3], (sp >> 16) & 0xffffffffu);
  EXPECT_EQ(r[4], (sp + 7) & 0xffffffffu);
  EXPECT_EQ(r[5], ((up >> 16) + 7) & 0xffffffffu);
}

TEST(ExecLoad, BfiWithRegisterLengthAndPosition) {
  // PTX bfi: pos = b & 0xff, len = c & 0xff; bits [pos, pos + len) of base replaced by a.
  auto ref = [](uint64_t a, uint64_t base, uint32_t pos, uint32_t len, int width) {
    pos &= 0xff;
    len &= 0xff;
    uint64_t out = base;
    for (uint32_t i = 0; i < len && pos + i < static_cast<uint32_t>(width); ++i) {
      uint64_t bit = (a >> i) & 1;
      out = (out & ~(uint64_t{1} << (pos + i))) | (bit << (pos + i));
    }
    return width == 32 ? out & 0xffffffffu : out;
  };
  const uint32_t cases[][2] = {{4, 8}, {0, 32}, {28, 8}, {40, 3}, {0, 0}, {0x104, 0x208}, {31, 1}, {3, 200}};
  for (auto [pos, len] : cases) {
    auto r = run_one(R"(
      ld.param.u32 %r1, [pos];  ld.param.u32 %r2, [len];
      mov.u32 %r3, 0xabcdef12;  mov.u32 %r4, 0x11111111;
      bfi.b32 %r5, %r3, %r4, %r1, %r2;  cvt.u64.u32 %rd1, %r5;  st.global.u64 [%rd31], %rd1;
      bfi.b32 %r6, %r3, %r4, 5, %r2;    cvt.u64.u32 %rd2, %r6;  st.global.u64 [%rd31+8], %rd2;
      mov.u64 %rd3, 0xfedcba9876543210; mov.u64 %rd4, 0x2222222222222222;
      bfi.b64 %rd5, %rd3, %rd4, %r1, %r2;  st.global.u64 [%rd31+16], %rd5;
    )", ", .param .u32 pos, .param .u32 len", {}, {pos, len}, 3);
    ASSERT_EQ(r.size(), 3u);
    EXPECT_EQ(r[0], ref(0xabcdef12, 0x11111111, pos, len, 32)) << pos << "/" << len;
    EXPECT_EQ(r[1], ref(0xabcdef12, 0x11111111, 5, len, 32)) << len;
    EXPECT_EQ(r[2], ref(0xfedcba9876543210ull, 0x2222222222222222ull, pos, len, 64)) << pos << "/" << len;
  }
}

}  // namespace
}  // namespace strata::compiler::testing
