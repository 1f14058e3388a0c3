// Kernel parameters whose address is taken (nvcc: `mov.b64 %rd, k_param_1;` then
// `cvta.param.u64` and generic loads, or ld.param through the register). A parameter's
// address is its offset in constant bank 0: ld.param through a register reads the bank
// (LDC with a register offset); only a generic address (cvta.param) makes the compiler
// copy the parameter block to local memory at entry, and generic loads read that copy.
#include <gtest/gtest.h>

#include <cstring>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

// Thread t reads word (t % 7) of the by-value array `s` through a generic pointer,
// word (6 - t % 7) through ld.param on a register address, and the trailing byte
// parameter both ways.
constexpr const char* kParamAddress = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .align 4 .b8 s[28], .param .u8 tail)
{
  .reg .b16 %rs<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [out];
  mov.b64 %rd2, s;
  cvta.param.u64 %rd3, %rd2;
  mov.u32 %r1, %tid.x;
  rem.u32 %r2, %r1, 7;
  mul.wide.u32 %rd4, %r2, 4;
  add.s64 %rd5, %rd3, %rd4;
  ld.u32 %r3, [%rd5];
  sub.u32 %r4, 6, %r2;
  mul.wide.u32 %rd6, %r4, 4;
  add.s64 %rd7, %rd2, %rd6;
  ld.param.u32 %r5, [%rd7];
  mov.u64 %rd8, tail;
  ld.param.u8 %rs1, [%rd8];
  cvta.param.u64 %rd9, %rd8;
  ld.s8 %r6, [%rd9];
  cvt.u32.u16 %r7, %rs1;
  mul.wide.u32 %rd10, %r1, 16;
  add.s64 %rd11, %rd1, %rd10;
  st.global.v4.u32 [%rd11], {%r3, %r5, %r7, %r6};
  ret;
}
)";

TEST(ExecParamAddress, LoadsThroughParameterAddresses) {
  PtxExec e;
  Status s = e.compile(kParamAddress);
  ASSERT_TRUE(s.ok()) << s.to_string();
  const sxbin::KernelDesc* k = e.kernel("k");
  ASSERT_NE(k, nullptr);
  ASSERT_EQ(k->param_bytes, 37u);
  constexpr uint32_t kThreads = 40;
  uint64_t out = e.alloc(kThreads * 16);
  std::vector<uint8_t> block(37, 0);
  std::memcpy(block.data(), &out, 8);
  uint32_t words[7];
  for (uint32_t i = 0; i < 7; ++i) words[i] = 0x1000u * (i + 1) + 0xabcd0000u * i + 7;
  std::memcpy(block.data() + 8, words, sizeof(words));
  block[36] = 0xf3;  // 243 unsigned, -13 signed
  auto f = e.run_with_param_block("k", Dim{1}, Dim{kThreads}, block);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  SCOPED_TRACE(e.disassembly("k"));
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto r = e.read<uint32_t>(out, kThreads * 4);
  for (uint32_t t = 0; t < kThreads; ++t) {
    EXPECT_EQ(r[4 * t + 0], words[t % 7]) << "generic load, thread " << t;
    EXPECT_EQ(r[4 * t + 1], words[6 - t % 7]) << "ld.param via register, thread " << t;
    EXPECT_EQ(r[4 * t + 2], 243u) << "thread " << t;
    EXPECT_EQ(r[4 * t + 3], static_cast<uint32_t>(-13)) << "thread " << t;
  }
}

// nvcc's copy of a by-value struct parameter whose address is taken (a loop of ld.param
// through a register): read from the constant bank, with no local copy of the block.
TEST(ExecParamAddress, RegisterLoadsReadTheConstantBank) {
  PtxExec e;
  Status s = e.compile(R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .align 8 .b8 s[40])
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  mov.b64 %rd2, s;
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd3, %r1, 40;
  add.s64 %rd4, %rd1, %rd3;
  mov.u32 %r2, 0;
$loop:
  mul.wide.u32 %rd5, %r2, 8;
  add.s64 %rd6, %rd2, %rd5;
  ld.param.v2.u32 {%r3, %r4}, [%rd6];
  add.s64 %rd7, %rd4, %rd5;
  st.global.v2.u32 [%rd7], {%r3, %r4};
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 5;
  @%p1 bra $loop;
  ret;
}
)");
  ASSERT_TRUE(s.ok()) << s.to_string();
  const sxbin::KernelDesc* k = e.kernel("k");
  ASSERT_NE(k, nullptr);
  EXPECT_EQ(k->local_bytes, 0u) << e.disassembly("k");
  constexpr uint32_t kThreads = 33;
  uint64_t out = e.alloc(kThreads * 40);
  std::vector<uint8_t> block(48, 0);
  std::memcpy(block.data(), &out, 8);
  uint32_t words[10];
  for (uint32_t i = 0; i < 10; ++i) words[i] = 0x9e3779b9u * (i + 1);
  std::memcpy(block.data() + 8, words, sizeof(words));
  auto f = e.run_with_param_block("k", Dim{1}, Dim{kThreads}, block);
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto r = e.read<uint32_t>(out, kThreads * 10);
  for (uint32_t t = 0; t < kThreads; ++t)
    for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(r[10 * t + i], words[i]) << "thread " << t;
}

// Without an escaping address no local copy is made.
TEST(ExecParamAddress, NoCopyWithoutAddressTaken) {
  PtxExec e;
  Status s = e.compile(R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 v)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [v];
  st.global.u32 [%rd1], %r1;
  ret;
}
)");
  ASSERT_TRUE(s.ok()) << s.to_string();
  EXPECT_EQ(e.kernel("k")->local_bytes, 0u);
}

}  // namespace
}  // namespace strata::compiler::testing
