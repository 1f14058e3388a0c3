// %envreg0..31 read the launch environment, constant bank 4 (compiler/sxbin/sxbin.h): the
// driver binds it at every launch, with the cooperative grid workspace in %envreg1
// (high word) and %envreg2 (low word), where CUDA's cooperative groups look for it
// (cooperative_groups/details/driver_abi.h). The PTX ISA only says the registers are
// driver-defined, so the expected values here are the ones the test binds.
#include <gtest/gtest.h>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

// Stores %envreg0..31 to out[0..31], and %envreg1:%envreg2 joined as CUDA's
// load_env_reg64<1, 2> does to out[32..33] (u64).
std::string envreg_kernel() {
  std::string ptx =
      ".version 8.3\n.target sm_80\n.address_size 64\n"
      ".visible .entry k(.param .u64 p)\n{\n"
      "  .reg .b32 %r<4>;\n  .reg .b64 %rd<8>;\n"
      "  ld.param.u64 %rd1, [p];\n";
  for (int i = 0; i < 32; ++i) {
    ptx += "  mov.u32 %r1, %envreg" + std::to_string(i) + ";\n";
    ptx += "  st.global.u32 [%rd1+" + std::to_string(4 * i) + "], %r1;\n";
  }
  ptx +=
      "  mov.u32 %r2, %envreg2;\n  cvt.u64.u32 %rd2, %r2;\n"
      "  mov.u32 %r3, %envreg1;\n  cvt.u64.u32 %rd3, %r3;\n"
      "  bfi.b64 %rd4, %rd3, %rd2, 32, 32;\n"
      "  st.global.u64 [%rd1+128], %rd4;\n"
      "  ret;\n}\n";
  return ptx;
}

TEST(EnvReg, ReadsTheLaunchEnvironmentBank) {
  PtxExec e;
  ASSERT_TRUE(e.compile(envreg_kernel()).ok());
  std::vector<uint32_t> env(32);
  for (uint32_t i = 0; i < 32; ++i) env[i] = 0x1000u * (i + 1) + i;
  env[1] = 0x00007f12;  // a workspace VA 0x00007f12'345678c0
  env[2] = 0x345678c0;
  e.set_env_regs(env);
  const uint64_t out = e.alloc(256);
  e.write(out, std::vector<uint32_t>(64, 0xdeadbeef));
  auto fault = e.run("k", {1}, {32}, {out});
  ASSERT_TRUE(fault.ok()) << fault.status().to_string();
  ASSERT_EQ(fault->kind, hw::FaultKind::kNone) << e.disassembly("k");
  std::vector<uint32_t> got = e.read<uint32_t>(out, 32);
  for (uint32_t i = 0; i < 32; ++i) EXPECT_EQ(got[i], env[i]) << "%envreg" << i;
  EXPECT_EQ(e.read<uint64_t>(out + 128, 1)[0], 0x00007f12345678c0ull);
}

TEST(EnvReg, ZeroByDefault) {
  PtxExec e;
  ASSERT_TRUE(e.compile(envreg_kernel()).ok());
  const uint64_t out = e.alloc(256);
  e.write(out, std::vector<uint32_t>(64, 0xdeadbeef));
  auto fault = e.run("k", {2}, {64}, {out});
  ASSERT_TRUE(fault.ok()) << fault.status().to_string();
  ASSERT_EQ(fault->kind, hw::FaultKind::kNone);
  for (uint32_t v : e.read<uint32_t>(out, 34)) EXPECT_EQ(v, 0u);
}

TEST(EnvReg, RejectsRegistersPtxDoesNotDefine) {
  for (const char* name : {"%envreg32", "%envreg01", "%envregx"}) {
    SCOPED_TRACE(name);
    PtxExec e;
    Status s = e.compile(std::string(".version 8.3\n.target sm_80\n.address_size 64\n"
                                     ".visible .entry k()\n{\n  .reg .b32 %r<2>;\n"
                                     "  mov.u32 %r1, ") +
                         name + ";\n  ret;\n}\n");
    EXPECT_FALSE(s.ok());
  }
}

}  // namespace
}  // namespace strata::compiler::testing
