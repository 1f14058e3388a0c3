// Block layout (compiler/target/sx/layout.h): a loop's rarely taken path that the PTX
// places after the kernel's `ret` (as nvcc does with out-of-line paths and inlined
// callees) is laid out inside the loop, so that nothing of the loop follows the exit and
// the values live in the loop get live intervals that end with it.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "exec_harness.h"

namespace strata::compiler::testing {
namespace {

// Thread t sums, over i < n, slow_mul(i, t) when i % 8 == 7 (the slow path, after `ret`,
// calling a function whose blocks inlining appends to the kernel's) and i otherwise;
// slow_mul(a, b) = b == 0 ? 5 : a * b.
constexpr char kSlowLoop[] = R"(.version 8.0
.target sm_80
.address_size 64
.func (.param .b32 res) slow_mul(.param .b32 pa, .param .b32 pb)
{
  .reg .b32 %a<4>;
  .reg .pred %q;
  ld.param.b32 %a1, [pa];
  ld.param.b32 %a2, [pb];
  setp.eq.u32 %q, %a2, 0;
  @%q bra ZERO;
  mul.lo.u32 %a3, %a1, %a2;
  st.param.b32 [res], %a3;
  ret;
ZERO:
  st.param.b32 [res], 5;
  ret;
}
.visible .entry slow_loop(.param .u64 out, .param .u32 n)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  and.b32 %r5, %r3, 7;
  setp.eq.u32 %p1, %r5, 7;
  @%p1 bra SLOW;
  add.u32 %r4, %r4, %r3;
BACK:
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r1;
  @%p2 bra LOOP;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
SLOW:
  {
  .param .b32 r0;
  .param .b32 a0;
  .param .b32 a1;
  st.param.b32 [a0], %r3;
  st.param.b32 [a1], %r2;
  call.uni (r0), slow_mul, (a0, a1);
  ld.param.b32 %r6, [r0];
  }
  add.u32 %r4, %r4, %r6;
  bra.uni BACK;
}
)";

TEST(ExecLayout, SlowPathAfterRetIsPlacedInsideTheLoop) {
  PtxExec e;
  Status st = e.compile(kSlowLoop);
  ASSERT_TRUE(st.ok()) << st.to_string();
  constexpr uint32_t kThreads = 32, kN = 40;
  const uint64_t out = e.alloc(kThreads * 4);
  auto f = e.run("slow_loop", Dim{1}, Dim{kThreads}, {out, kN});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  const std::vector<uint32_t> got = e.read<uint32_t>(out, kThreads);
  for (uint32_t t = 0; t < kThreads; ++t) {
    uint32_t want = 0;
    for (uint32_t i = 0; i < kN; ++i) want += i % 8 != 7 ? i : t == 0 ? 5 : i * t;
    ASSERT_EQ(got[t], want) << "thread " << t;
  }
  // Nothing of the loop follows the code after it: no branch after the result's store.
  const std::string dis = e.disassembly("slow_loop");
  std::istringstream in(dis);
  bool after_store = false;
  for (std::string l; std::getline(in, l);) {
    if (after_store) EXPECT_EQ(l.find("BRA"), std::string::npos) << "loop code after the loop: " << l << "\n" << dis;
    after_store |= l.find("ST.GLOBAL") != std::string::npos;
  }
  EXPECT_TRUE(after_store) << dis;
}

}  // namespace
}  // namespace strata::compiler::testing
