// Generated-code quality, pinned: instruction-count bounds on the checked-in benchmark
// kernels (bench/kernels/sim_kernels.ptx) and execution of the shapes the back end's
// phi coalescing, immediate sharing and block layout rewrite (loops with several
// carried values, a swap of two carried values, constants in c slots).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <sstream>

#include "exec_harness.h"
#include "isa/inst.h"

namespace strata::compiler::testing {
namespace {

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

size_t inst_count(const PtxExec& e, const std::string& name) {
  const sxbin::KernelDesc* k = e.kernel(name);
  return k ? k->code_size / isa::kInstBytes : 0;
}

float bits_f(uint32_t b) {
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}

class SimKernels : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string ptx = read_text(std::string(STRATA_SOURCE_DIR) + "/bench/kernels/sim_kernels.ptx");
    ASSERT_FALSE(ptx.empty());
    Status s = e_.compile(ptx, 2);
    ASSERT_TRUE(s.ok()) << s.to_string();
  }
  PtxExec e_;
};

// alu_bound has 63 PTX instructions and triad 28. Before phi coalescing, immediate
// sharing, fall-through layout and exit-only post-dominators they compiled to 139 and
// 43 Strata instructions; now 78 and 25.
TEST_F(SimKernels, InstructionCountsStayBounded) {
  size_t alu = inst_count(e_, "alu_bound"), triad = inst_count(e_, "triad");
  EXPECT_LE(alu, 80u) << e_.disassembly("alu_bound");
  EXPECT_LE(triad, 26u) << e_.disassembly("triad");
  EXPECT_GT(alu, 50u);
  EXPECT_GT(triad, 20u);
}

TEST_F(SimKernels, AluBoundComputesTheReference) {
  for (uint32_t iters : {0u, 1u, 3u, 4u, 7u, 10u}) {
    const int n = 2 * 64;
    uint64_t out = e_.alloc(n * 4);
    auto f = e_.run("alu_bound", Dim{2}, Dim{64}, {out, iters});
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    ASSERT_EQ(f->kind, hw::FaultKind::kNone) << e_.disassembly("alu_bound");
    auto got = e_.read<float>(out, n);
    for (int t = 0; t < n; ++t) {
      float a = static_cast<float>(t) * bits_f(0x3A83126F), b = 1.0f;
      uint32_t r = static_cast<uint32_t>(t);
      for (uint32_t i = 0; i < iters; ++i) {
        a = std::fmaf(a, bits_f(0x3F7FBE77), 0.5f);
        b = std::fmaf(b, a, -0.25f);
        r = r * 1664525u + 1013904223u;
        r ^= r >> 13;
      }
      float want = (a + b) + static_cast<float>(r & 0xffff);
      ASSERT_EQ(got[t], want) << "iters " << iters << " thread " << t << "\n" << e_.disassembly("alu_bound");
    }
  }
}

TEST_F(SimKernels, TriadComputesTheReference) {
  const uint32_t n = 1000;
  uint64_t a = e_.alloc(n * 4), b = e_.alloc(n * 4), c = e_.alloc(n * 4);
  std::vector<float> hb(n), hc(n);
  for (uint32_t i = 0; i < n; ++i) {
    hb[i] = static_cast<float>(i) * 0.5f;
    hc[i] = 3.0f - static_cast<float>(i);
  }
  e_.write(b, hb);
  e_.write(c, hc);
  uint32_t scalar;
  float s = 1.5f;
  std::memcpy(&scalar, &s, 4);
  auto f = e_.run("triad", Dim{3}, Dim{128}, {a, b, c, scalar, n});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << e_.disassembly("triad");
  auto got = e_.read<float>(a, n);
  for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(got[i], std::fmaf(hc[i], s, hb[i])) << i;
}

// Two loop-carried values swapped every iteration (a parallel-copy cycle once the phis
// are coalesced), a third carried value that stays live after the loop next to its
// successor (lost-copy shape), and the loop exit's condition computed before the
// carried values change.
TEST(ExecCodegen, SwappedLoopCarriedValues) {
  PtxExec e;
  Status s = e.compile(R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 100;
  mov.u32 %r3, 7;
  mov.u32 %r4, 0;
  mov.u32 %r6, 0;
LOOP:
  mov.u32 %r5, %r1;
  mov.u32 %r1, %r2;
  mov.u32 %r2, %r5;
  mov.u32 %r7, %r6;
  add.u32 %r6, %r6, %r3;
  add.u32 %r4, %r4, 1;
  setp.lt.u32 %p1, %r4, %r9;
  @%p1 bra LOOP;
  mov.u32 %r8, %tid.x;
  mul.wide.u32 %rd2, %r8, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+4], %r2;
  st.global.u32 [%rd3+8], %r7;
  st.global.u32 [%rd3+12], %r6;
  ret;
}
)");
  ASSERT_TRUE(s.ok()) << s.to_string();
  for (uint32_t n : {1u, 2u, 5u}) {
    uint64_t out = e.alloc(32 * 16);
    auto f = e.run("k", Dim{1}, Dim{32}, {out, n});
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    ASSERT_EQ(f->kind, hw::FaultKind::kNone);
    auto got = e.read<uint32_t>(out, 32 * 4);
    for (uint32_t t = 0; t < 32; ++t) {
      uint32_t a = t, b = t + 100;
      if (n % 2) std::swap(a, b);
      EXPECT_EQ(got[4 * t], a) << "n " << n << "\n" << e.disassembly("k");
      EXPECT_EQ(got[4 * t + 1], b);
      EXPECT_EQ(got[4 * t + 2], 7 * (n - 1));
      EXPECT_EQ(got[4 * t + 3], 7 * n);
    }
  }
}

}  // namespace
}  // namespace strata::compiler::testing
