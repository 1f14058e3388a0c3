// Convergence barriers around branches whose join is also reached from outside them
// (docs/isa.md, BSSY/BSYNC): each BSYNC must be reached only through its BSSY, or a
// thread arriving around the BSSY waits on the mask an earlier BSSY of the same barrier
// left, for threads that wait elsewhere, and the block deadlocks. Expected values come
// from the host formulas beside each kernel.
#include <gtest/gtest.h>

#include "exec_harness.h"
#include "isa/encode.h"

namespace strata::compiler::testing {
namespace {

// Odd lanes run the loop twice, even lanes once. The first trip takes the inner if/else;
// the second jumps straight to the if/else's join, around the branch into it: nvcc's
// shape for an unswitched, rotated inner loop in a grid-stride loop.
constexpr const char* kJoinReachedAroundInLoop = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .pred %p<4>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  add.u32 %r2, %r2, 1;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  setp.eq.u32 %p1, %r3, 1;
  @%p1 bra JOIN;
  and.b32 %r5, %r1, 2;
  setp.ne.u32 %p2, %r5, 0;
  @%p2 bra TWO;
  add.u32 %r4, %r4, 1;
  bra.uni JOIN;
TWO:
  add.u32 %r4, %r4, 2;
JOIN:
  add.u32 %r4, %r4, 100;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p3, %r3, %r2;
  @%p3 bra LOOP;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

uint32_t join_in_loop_ref(uint32_t t) {
  return 100 + ((t & 2) != 0 ? 2 : 1) + ((t & 1) != 0 ? 100 : 0);
}

// Nested if/elses that every lane runs, then, for lanes below `lanes` only, a chain of
// early exits to one join (an inlined (value, index) merge with early returns: cuBLAS
// iamax's final step with `lanes` = 1).
constexpr const char* kChainOfEarlyExits = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 lanes)
{
  .reg .pred %p<8>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r5, [lanes];
  mov.u32 %r1, %tid.x;
  mov.u32 %r4, 0;
  setp.ge.u32 %p1, %r1, 1024;
  @%p1 bra A_END;
  setp.ge.u32 %p2, %r1, 1025;
  @%p2 bra B_END;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p3, %r2, 0;
  @%p3 bra ODD;
  add.u32 %r4, %r4, 10;
  bra.uni C_END;
ODD:
  add.u32 %r4, %r4, 20;
C_END:
  add.u32 %r4, %r4, 1;
B_END:
  add.u32 %r4, %r4, 1;
A_END:
  setp.ge.u32 %p4, %r1, %r5;
  @%p4 bra TAIL;
  setp.eq.u32 %p5, %r1, 0;
  @%p5 bra JOIN;
  setp.eq.u32 %p6, %r1, 1;
  @%p6 bra JOIN;
  setp.eq.u32 %p7, %r1, 2;
  @%p7 bra FIVE;
  add.u32 %r4, %r4, 3;
  bra.uni JOIN;
FIVE:
  add.u32 %r4, %r4, 5;
JOIN:
  add.u32 %r4, %r4, 100;
TAIL:
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r4;
  ret;
}
)";

uint32_t chain_ref(uint32_t t, uint32_t lanes) {
  uint32_t v = ((t & 1) != 0 ? 20 : 10) + 2;
  if (t < lanes) v += t <= 1 ? 100 : t == 2 ? 105 : 103;
  return v;
}

// Every BSYNC of the kernel's code is reached only through its BSSY (same barrier,
// reconvergence point at the BSYNCs starting that block): on the instruction graph, no
// path from the entry, or from the BSYNC itself around a loop, reaches it otherwise.
void expect_bsync_behind_bssy(const PtxExec& e, const std::string& name) {
  const sxbin::KernelDesc* k = e.kernel(name);
  ASSERT_NE(k, nullptr);
  auto code = isa::decode_program(
      std::span<const uint8_t>(e.binary().code.data() + k->code_offset, k->code_size));
  ASSERT_TRUE(code.ok());
  const size_t n = code->size();
  auto succs = [&](size_t i) {
    std::vector<size_t> s;
    const isa::Inst& in = (*code)[i];
    if (in.op == isa::Opcode::EXIT && in.guard == isa::kPT && !in.guard_neg) return s;
    if (in.op == isa::Opcode::BRA) {
      s.push_back(in.imm);
      if (in.guard == isa::kPT && !in.guard_neg) return s;
    }
    if (i + 1 < n) s.push_back(i + 1);
    return s;
  };
  for (size_t sync = 0; sync < n; ++sync) {
    if ((*code)[sync].op != isa::Opcode::BSYNC) continue;
    const uint8_t barrier = (*code)[sync].mod;
    size_t point = sync;  // its BSSY's target: this BSYNC or one in the run before it
    while (point > 0 && (*code)[point - 1].op == isa::Opcode::BSYNC) --point;
    // Walk forward from the entry and from just after this BSYNC, stopping at its BSSYs;
    // reaching the BSYNC means a path around them.
    std::vector<bool> seen(n, false);
    std::vector<size_t> stack = {0};
    for (size_t s : succs(sync)) stack.push_back(s);
    bool reached = false;
    while (!stack.empty() && !reached) {
      const size_t i = stack.back();
      stack.pop_back();
      if (seen[i]) continue;
      seen[i] = true;
      const isa::Inst& in = (*code)[i];
      if (in.op == isa::Opcode::BSSY && in.mod == barrier && in.imm >= point && in.imm <= sync)
        continue;
      if (i == sync) {
        reached = true;
        break;
      }
      for (size_t s : succs(i)) stack.push_back(s);
    }
    EXPECT_FALSE(reached) << name << ": BSYNC B" << int{barrier} << " at " << sync
                          << " is reachable without passing a BSSY B" << int{barrier} << "\n"
                          << e.disassembly(name);
  }
}

TEST(ExecConvergence, JoinReachedAroundItsBranchInALoop) {
  PtxExec e;
  Status s = e.compile(kJoinReachedAroundInLoop);
  ASSERT_TRUE(s.ok()) << s.to_string();
  expect_bsync_behind_bssy(e, "k");
  for (uint32_t threads : {32u, 64u, 128u}) {
    uint64_t out = e.alloc(threads * 4);
    auto f = e.run("k", Dim{1}, Dim{threads}, {out});
    ASSERT_TRUE(f.ok()) << f.status().to_string();
    ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "threads " << threads << ", pc " << f->pc << "\n"
                                             << e.disassembly("k");
    auto r = e.read<uint32_t>(out, threads);
    for (uint32_t t = 0; t < threads; ++t) EXPECT_EQ(r[t], join_in_loop_ref(t)) << "thread " << t;
  }
}

TEST(ExecConvergence, ChainOfEarlyExitsToOneJoin) {
  PtxExec e;
  Status s = e.compile(kChainOfEarlyExits);
  ASSERT_TRUE(s.ok()) << s.to_string();
  expect_bsync_behind_bssy(e, "k");
  for (uint32_t threads : {32u, 96u})
    for (uint32_t lanes : {1u, 2u, 3u, 4u, 32u, 96u}) {
      uint64_t out = e.alloc(threads * 4);
      auto f = e.run("k", Dim{1}, Dim{threads}, {out, lanes});
      ASSERT_TRUE(f.ok()) << f.status().to_string();
      ASSERT_EQ(f->kind, hw::FaultKind::kNone)
          << "threads " << threads << " lanes " << lanes << ", pc " << f->pc << "\n"
          << e.disassembly("k");
      auto r = e.read<uint32_t>(out, threads);
      for (uint32_t t = 0; t < threads; ++t)
        EXPECT_EQ(r[t], chain_ref(t, lanes)) << "thread " << t << " lanes " << lanes;
    }
}

}  // namespace
}  // namespace strata::compiler::testing
