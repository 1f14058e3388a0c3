// *.sync warp operations reached by threads that are not converged: the compiler's
// WARPSYNC makes the member threads wait for each other before VOTE/SHFL exchange.
#include <gtest/gtest.h>

#include "exec_harness.h"
#include "isa/encode.h"

namespace strata::compiler::testing {
namespace {

// Each lane t runs iterations i = 0..4t (acc += t + i), then leaves the loop through a
// block that is not a reconvergence point (the loop has a second exit), where the lanes
// arrive a few at a time (the long loop yields to them) and exchange with
// shfl.sync/vote.sync over the full warp.
constexpr const char* kDivergentExit = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 limit)
{
  .reg .pred %p<4>;
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [limit];
  mov.u32 %r1, %tid.x;
  shl.b32 %r10, %r1, 2;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
LOOP:
  add.u32 %r4, %r4, %r1;
  add.u32 %r4, %r4, %r3;
  setp.ge.u32 %p1, %r3, %r10;
  @%p1 bra DONE;
  add.u32 %r3, %r3, 1;
  setp.gt.u32 %p2, %r3, %r9;
  @%p2 bra OUT;
  bra.uni LOOP;
DONE:
  shfl.sync.bfly.b32 %r5, %r4, 1, 31, -1;
  shfl.sync.idx.b32 %r6, %r4, 31, 31, -1;
  and.b32 %r7, %r4, 1;
  setp.ne.u32 %p3, %r7, 0;
  vote.sync.ballot.b32 %r8, %p3, -1;
  st.global.v4.u32 [%rd3], {%r5, %r6, %r8, %r4};
OUT:
  ret;
}
)";

uint32_t acc_of(uint32_t t) {
  const uint32_t n = 4 * t;
  return (n + 1) * t + n * (n + 1) / 2;
}

TEST(ExecWarp, SyncOpsWaitForDivergedMembers) {
  PtxExec e;
  Status s = e.compile(kDivergentExit);
  ASSERT_TRUE(s.ok()) << s.to_string();
  uint64_t out = e.alloc(32 * 16);
  auto f = e.run("k", Dim{1}, Dim{32}, {out, 1000});
  ASSERT_TRUE(f.ok()) << f.status().to_string();
  ASSERT_EQ(f->kind, hw::FaultKind::kNone) << "pc " << f->pc;
  auto r = e.read<uint32_t>(out, 32 * 4);
  SCOPED_TRACE(e.disassembly("k"));
  uint32_t ballot = 0;
  for (uint32_t t = 0; t < 32; ++t) ballot |= (acc_of(t) & 1u) << t;
  for (uint32_t t = 0; t < 32; ++t) {
    EXPECT_EQ(r[4 * t + 3], acc_of(t)) << "lane " << t;
    EXPECT_EQ(r[4 * t + 0], acc_of(t ^ 1)) << "shfl.bfly, lane " << t;
    EXPECT_EQ(r[4 * t + 1], acc_of(31)) << "shfl.idx, lane " << t;
    EXPECT_EQ(r[4 * t + 2], ballot) << "vote.ballot, lane " << t;
  }
}

TEST(ExecWarp, WarpSyncPrecedesEachSyncOpButNotActivemask) {
  const std::string ptx = R"(
.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 mask)
{
  .reg .pred %p<2>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [mask];
  activemask.b32 %r2;
  setp.ne.u32 %p1, %r2, 0;
  vote.sync.all.pred %p1, %p1, %r1;
  selp.u32 %r3, 1, 0, %p1;
  shfl.sync.down.b32 %r4, %r3, 1, 31, %r1;
  xor.b32 %r5, %r4, %r2;
  st.global.u32 [%rd1], %r5;
  ret;
}
)";
  PtxExec e;
  Status s = e.compile(ptx);
  ASSERT_TRUE(s.ok()) << s.to_string();
  const sxbin::KernelDesc* k = e.kernel("k");
  auto code = isa::decode_program(std::span<const uint8_t>(e.binary().code.data() + k->code_offset, k->code_size));
  ASSERT_TRUE(code.ok());
  int votes = 0, shfls = 0;
  for (size_t i = 0; i < code->size(); ++i) {
    const isa::Inst& in = (*code)[i];
    bool exchange = (in.op == isa::Opcode::VOTE && in.mod != static_cast<uint8_t>(isa::VoteOp::BALLOT)) ||
                    in.op == isa::Opcode::SHFL;
    if (in.op == isa::Opcode::VOTE && in.mod == static_cast<uint8_t>(isa::VoteOp::BALLOT)) {
      // activemask: no WARPSYNC in front.
      EXPECT_TRUE(i == 0 || (*code)[i - 1].op != isa::Opcode::WARPSYNC);
    }
    if (!exchange) continue;
    votes += in.op == isa::Opcode::VOTE;
    shfls += in.op == isa::Opcode::SHFL;
    bool synced = false;
    for (size_t j = i; j-- > 0 && !synced;) {
      if ((*code)[j].op == isa::Opcode::WARPSYNC) synced = true;
      else if ((*code)[j].op == isa::Opcode::VOTE || (*code)[j].op == isa::Opcode::SHFL) break;
    }
    EXPECT_TRUE(synced) << "instruction " << i;
  }
  EXPECT_EQ(votes, 1);
  EXPECT_EQ(shfls, 1);
  // And it runs: 32 lanes, full mask.
  uint64_t out = e.alloc(4);
  auto f = e.run("k", Dim{1}, Dim{32}, {out, 0xffffffffu});
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(f->kind, hw::FaultKind::kNone);
  EXPECT_EQ(e.read<uint32_t>(out, 1)[0], 1u ^ 0xffffffffu);
}

}  // namespace
}  // namespace strata::compiler::testing
