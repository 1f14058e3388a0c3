// ld/st of .v2/.v4 vectors with 8- and 16-bit elements: one access of the whole vector,
// elements unpacked with sign/zero extension and packed for stores.
#include <gtest/gtest.h>

#include <cstring>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

// Thread t: in = 16 bytes at in + 16 t; writes 12 words of loaded elements and 16
// bytes of stored vectors.
constexpr const char* kNarrowVectors = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 in, .param .u64 out, .param .u64 packed)
{
  .reg .b16 %rs<16>;
  .reg .b32 %r<32>;
  .reg .b64 %rd<16>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u64 %rd3, [packed];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd4, %r1, 16;
  add.s64 %rd5, %rd1, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  mul.wide.u32 %rd7, %r1, 64;
  add.s64 %rd8, %rd2, %rd7;
  ld.global.v4.s8 {%r2, %r3, %r4, %r5}, [%rd5];
  ld.global.v2.u8 {%rs1, %rs2}, [%rd5+4];
  ld.global.v4.s16 {%rs3, %rs4, %rs5, %rs6}, [%rd5+8];
  ld.global.v2.u16 {%r6, %r7}, [%rd5+4];
  cvt.s32.s16 %r8, %rs3;
  cvt.s32.s16 %r9, %rs4;
  cvt.s32.s16 %r10, %rs5;
  cvt.s32.s16 %r11, %rs6;
  cvt.u32.u16 %r12, %rs1;
  cvt.u32.u16 %r13, %rs2;
  st.global.v4.u32 [%rd8], {%r2, %r3, %r4, %r5};
  st.global.v4.u32 [%rd8+16], {%r8, %r9, %r10, %r11};
  st.global.v4.u32 [%rd8+32], {%r12, %r13, %r6, %r7};
  add.s32 %r14, %r2, %r1;
  st.global.v4.u8 [%rd6], {%r14, %r3, 0x1ff, %r5};
  st.global.v2.b16 [%rd6+4], {%rs4, %rs3};
  st.global.v2.u8 [%rd6+6], {%rs2, %rs1};
  st.global.v4.s16 [%rd6+8], {%rs6, %rs5, %rs4, %rs3};
  ret;
}
)";

TEST(ExecNarrowVector, LoadsAndStores) {
  PtxExec e;
  Status s = e.compile(kNarrowVectors);
  ASSERT_TRUE(s.ok()) << s.to_string();
  constexpr uint32_t kThreads = 32;
  std::vector<uint8_t> in(kThreads * 16);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i * 37 + 0x75);
  uint64_t din = e.alloc(in.size()), dout = e.alloc(kThreads * 64), dpacked = e.alloc(kThreads * 16);
  e.write(din, in);
  auto f = e.run("k", Dim{1}, Dim{kThreads}, {din, dout, dpacked});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  SCOPED_TRACE(e.disassembly("k"));
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto out = e.read<uint32_t>(dout, kThreads * 16);
  auto packed = e.read<uint8_t>(dpacked, kThreads * 16);
  for (uint32_t t = 0; t < kThreads; ++t) {
    const uint8_t* b = &in[16 * t];
    auto s8 = [&](int i) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(b[i]))); };
    auto u16 = [&](int i) { return static_cast<uint32_t>(b[i] | (b[i + 1] << 8)); };
    auto s16 = [&](int i) { return static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(u16(i)))); };
    const uint32_t want[12] = {s8(0),   s8(1),   s8(2),  s8(3),  s16(8),  s16(10), s16(12),
                               s16(14), b[4],    b[5],   u16(4), u16(6)};
    for (int i = 0; i < 12; ++i) EXPECT_EQ(out[16 * t + i], want[i]) << "thread " << t << " word " << i;
    const uint8_t* p = &packed[16 * t];
    // v4.u8 at 0; v2.b16 {rs4, rs3} at 4, whose upper half the v2.u8 {rs2, rs1} at 6
    // then overwrites.
    const uint8_t want_packed[8] = {static_cast<uint8_t>(b[0] + t), b[1], 0xff, b[3], b[10], b[11], b[5], b[4]};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(p[i], want_packed[i]) << "thread " << t << " byte " << i;
    // The .v4.s16 store: elements rs6, rs5, rs4, rs3 = bytes 14-15, 12-13, 10-11, 8-9.
    const uint8_t want_v4[8] = {b[14], b[15], b[12], b[13], b[10], b[11], b[8], b[9]};
    for (int i = 0; i < 8; ++i) EXPECT_EQ(p[8 + i], want_v4[i]) << "thread " << t << " byte " << 8 + i;
  }
}

}  // namespace
}  // namespace strata::compiler::testing
