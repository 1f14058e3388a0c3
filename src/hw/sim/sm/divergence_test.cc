// Divergence, reconvergence and forward progress (Volta-style independent thread
// scheduling), with one and two worker threads.
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;

constexpr uint8_t kEq = static_cast<uint8_t>(isa::CmpOp::EQ);
constexpr uint8_t kNe = static_cast<uint8_t>(isa::CmpOp::NE);
constexpr uint8_t kLt = static_cast<uint8_t>(isa::CmpOp::LT);
constexpr uint8_t kBallot = static_cast<uint8_t>(isa::VoteOp::BALLOT);

std::vector<uint32_t> ptrs(std::initializer_list<uint64_t> vas) {
  std::vector<uint32_t> p;
  for (uint64_t va : vas) {
    p.push_back(static_cast<uint32_t>(va));
    p.push_back(static_cast<uint32_t>(va >> 32));
  }
  return p;
}

// Appends: out[gid] = R<reg> (param 0), out2[gid] = R<reg2> (param 1).
void store_results(std::vector<isa::Inst>& code, uint8_t reg, uint8_t reg2) {
  for (const isa::Inst& i : element_address(0, 4)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(reg).space(MemSpace::GLOBAL));
  for (const isa::Inst& i : element_address(8, 4)) code.push_back(i);
  code.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(reg2).space(MemSpace::GLOBAL));
  code.push_back(B(Opcode::EXIT));
}

TEST(Divergence, NestedIfElseReconverges) {
  Harness h;
  const uint64_t out = h.alloc(4096), ballot = h.alloc(4096);
  std::vector<isa::Inst> c = prologue();
  const size_t bssy0 = c.size();
  c.push_back(B(Opcode::BSSY).mod(0));
  c.push_back(B(Opcode::AND).t(DataType::B32).d(8).a(0).bi(1));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(kEq));
  const size_t bra_else = c.size();
  c.push_back(B(Opcode::BRA).guard(0));
  c.push_back(B(Opcode::BSSY).mod(1));
  c.push_back(B(Opcode::AND).t(DataType::B32).d(9).a(0).bi(2));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(1).a(9).bi(0).mod(kEq));
  const size_t bra_in_else = c.size();
  c.push_back(B(Opcode::BRA).guard(1));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(3));
  const size_t bra_in_end = c.size();
  c.push_back(B(Opcode::BRA));
  c[bra_in_else].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(1));
  c[bra_in_end].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::BSYNC).mod(1));
  const size_t bra_end = c.size();
  c.push_back(B(Opcode::BRA));
  c[bra_else].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(10));
  c[bra_end].imm = static_cast<uint32_t>(c.size());
  c[bssy0].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::BSYNC).mod(0));
  c.push_back(B(Opcode::VOTE).d(11).ps(isa::kPT).mod(kBallot));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(10).a(10).bi(100));
  store_results(c, 10, 11);
  for (int threads : {1, 2}) {
    ScopedThreads st(threads);
    ASSERT_EQ(h.launch(c, Dim{2}, Dim{48}, ptrs({out, ballot})).kind, FaultKind::kNone);
    auto r = h.read<uint32_t>(out, 96);
    auto b = h.read<uint32_t>(ballot, 96);
    for (uint32_t i = 0; i < 96; ++i) {
      const uint32_t tid = i % 48;
      EXPECT_EQ(r[i], 100u + ((tid & 1) ? ((tid & 2) ? 3 : 1) : 10)) << i;
      EXPECT_EQ(b[i], tid < 32 ? 0xffffffffu : 0xffffu) << i;  // converged again
    }
  }
}

// CALL through a register with a per-lane target (gid % 3 picks one of three
// functions), RET to the address CALL wrote; BSSY/BSYNC around the call reconverge the
// lanes, and a function that calls another (nested CALL/RET) returns correctly.
TEST(Divergence, CallWithPerLaneTargetsAndReturn) {
  Harness h;
  const uint64_t out = h.alloc(4096), ballot = h.alloc(4096);
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::IREM).t(DataType::U32).d(8).a(3).bi(3));
  const size_t table = c.size();
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(9).a(8).bi(0));  // + first function's index
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(0));
  const size_t bssy = c.size();
  c.push_back(B(Opcode::BSSY).mod(3));
  c.push_back(B(Opcode::CALL).d(20).b(9));
  c[bssy].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::BSYNC).mod(3));
  c.push_back(B(Opcode::VOTE).d(11).ps(isa::kPT).mod(kBallot));
  store_results(c, 10, 11);
  // The three functions, one instruction apart: f0 jumps to f2's body via a nested call.
  const size_t f0 = c.size();
  c[table].imm = static_cast<uint32_t>(f0);
  c[table].b_imm = true;
  c.push_back(B(Opcode::BRA));                                        // f0: -> its body
  c.push_back(B(Opcode::BRA));                                        // f1: -> its body
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(10).a(10).bi(5));   // f2: R10 += 5
  c.push_back(B(Opcode::RET).a(20));
  const size_t f0_body = c.size();
  c[f0].imm = static_cast<uint32_t>(f0_body);
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(100));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(21).b(20));              // keep the return address
  c.push_back(B(Opcode::CALL).d(20).bi(static_cast<uint32_t>(f0 + 2)));  // nested: f2
  c.push_back(B(Opcode::RET).a(21));
  c[f0 + 1].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(7));           // f1: R10 = 7
  c.push_back(B(Opcode::RET).a(20));
  ASSERT_EQ(h.launch(c, Dim{1}, Dim{64}, ptrs({out, ballot})).kind, FaultKind::kNone);
  auto r = h.read<uint32_t>(out, 64);
  auto b = h.read<uint32_t>(ballot, 64);
  for (uint32_t t = 0; t < 64; ++t) {
    EXPECT_EQ(r[t], t % 3 == 0 ? 105u : t % 3 == 1 ? 7u : 5u) << t;
    EXPECT_EQ(b[t], 0xffffffffu) << "converged after the call, thread " << t;
  }
}

TEST(Divergence, LoopWithPerLaneTripCounts) {
  Harness h;
  const uint64_t out = h.alloc(4096), ballot = h.alloc(4096);
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(8).b(0));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(10).bi(0));
  const size_t bssy = c.size();
  c.push_back(B(Opcode::BSSY).mod(0));
  const size_t loop = c.size();
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(kEq));
  const size_t exit_bra = c.size();
  c.push_back(B(Opcode::BRA).guard(0));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(10).a(10).bi(2));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(8).a(8).bi(0xffffffff));
  c.push_back(B(Opcode::BRA).imm(static_cast<uint32_t>(loop)));
  c[exit_bra].imm = c[bssy].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::BSYNC).mod(0));
  c.push_back(B(Opcode::VOTE).d(11).ps(isa::kPT).mod(kBallot));
  store_results(c, 10, 11);
  GridStats stats;
  ASSERT_EQ(h.launch(c, Dim{1}, Dim{32}, ptrs({out, ballot}), {}, &stats).kind, FaultKind::kNone);
  auto r = h.read<uint32_t>(out, 32);
  auto b = h.read<uint32_t>(ballot, 32);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(r[i], 2 * i);
    EXPECT_EQ(b[i], 0xffffffffu);
  }
  EXPECT_GT(stats.warp_instructions, 31u * 5);
  EXPECT_LT(stats.thread_instructions, stats.warp_instructions * 32);  // divergent iterations
  EXPECT_EQ(stats.warp_instructions_per_sm.size(), 4u);
}

// (a) All 32 lanes of one warp take turns on a spin lock (CAS loop) and increment a
// plain counter inside the critical section.
TEST(ForwardProgress, SpinLockInsideOneWarp) {
  for (int threads : {1, 2}) {
    ScopedThreads st(threads);
    Harness h;
    const uint64_t lock = h.alloc(4096);
    std::vector<isa::Inst> c = {
        B(Opcode::LDC).t(DataType::U64).d(14).imm(0),
        B(Opcode::MOV).t(DataType::U32).d(20).bi(1),
    };
    const size_t bssy = c.size();
    c.push_back(B(Opcode::BSSY).mod(0));
    const size_t loop = c.size();
    c.push_back(B(Opcode::ATOM).t(DataType::U32).d(8).a(14).b(isa::kRZ).c(20).mod(static_cast<uint8_t>(isa::AtomOp::CAS))
                    .sem(isa::MemSem::ACQUIRE).space(MemSpace::GLOBAL));
    c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(kNe));
    c.push_back(B(Opcode::BRA).guard(0).imm(static_cast<uint32_t>(loop)));
    c.push_back(B(Opcode::LD).t(DataType::U32).d(9).a(14).imm(4).space(MemSpace::GLOBAL));
    c.push_back(B(Opcode::IADD).t(DataType::U32).d(9).a(9).bi(1));
    c.push_back(B(Opcode::ST).t(DataType::U32).a(14).imm(4).b(9).space(MemSpace::GLOBAL));
    c.push_back(B(Opcode::ATOM).t(DataType::U32).d(isa::kRZ).a(14).b(isa::kRZ).mod(static_cast<uint8_t>(isa::AtomOp::EXCH))
                    .sem(isa::MemSem::RELEASE).space(MemSpace::GLOBAL));
    c[bssy].imm = static_cast<uint32_t>(c.size());
    c.push_back(B(Opcode::BSYNC).mod(0));
    c.push_back(B(Opcode::EXIT));
    ASSERT_EQ(h.launch(c, Dim{8}, Dim{64}, ptrs({lock})).kind, FaultKind::kNone) << threads;
    EXPECT_EQ(h.read<uint32_t>(lock + 4, 1)[0], 8u * 64) << threads;
  }
}

// Spins until the u32 at R14 is non-zero (relaxed loads), then continues.
void spin_until_set(std::vector<isa::Inst>& c) {
  const size_t spin = c.size();
  c.push_back(B(Opcode::LD).t(DataType::U32).d(8).a(14).sem(isa::MemSem::RELAXED).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(kEq));
  c.push_back(B(Opcode::BRA).guard(0).imm(static_cast<uint32_t>(spin)));
}
// Busy work, then sets the u32 at R14 with a release store.
void work_then_set(std::vector<isa::Inst>& c) {
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(9).bi(2000));
  const size_t l = c.size();
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(9).a(9).bi(0xffffffff));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(2).a(9).bi(0).mod(kNe));
  c.push_back(B(Opcode::BRA).guard(2).imm(static_cast<uint32_t>(l)));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(21).bi(1));
  c.push_back(B(Opcode::ST).t(DataType::U32).a(14).b(21).sem(isa::MemSem::RELEASE).space(MemSpace::GLOBAL));
}

// (b) Warp 1 spins on a flag that warp 0 sets later, without bar.sync.
// (c) CTA 0 spins on a flag that CTA 1 sets (the waiter is scheduled first).
void flag_handoff(bool across_ctas, int threads) {
  ScopedThreads st(threads);
  Harness h;
  const uint64_t flag = h.alloc(4096), out = h.alloc(4096);
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::LDC).t(DataType::U64).d(14).imm(8));
  if (across_ctas) {
    c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(1).a(1).bi(0).mod(kEq));  // ctaid == 0: waiter
  } else {
    c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(1).a(0).bi(32).mod(static_cast<uint8_t>(isa::CmpOp::GE)));
  }
  const size_t bssy = c.size();
  c.push_back(B(Opcode::BSSY).mod(0));
  const size_t to_wait = c.size();
  c.push_back(B(Opcode::BRA).guard(1));
  work_then_set(c);
  const size_t to_end = c.size();
  c.push_back(B(Opcode::BRA));
  c[to_wait].imm = static_cast<uint32_t>(c.size());
  spin_until_set(c);
  c[to_end].imm = c[bssy].imm = static_cast<uint32_t>(c.size());
  c.push_back(B(Opcode::BSYNC).mod(0));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(22).bi(5));
  for (const isa::Inst& i : element_address(0, 4)) c.push_back(i);
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(22).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::EXIT));
  const Dim grid = across_ctas ? Dim{2} : Dim{1};
  const Dim block = across_ctas ? Dim{32} : Dim{64};
  ASSERT_EQ(h.launch(c, grid, block, ptrs({out, flag})).kind, FaultKind::kNone);
  for (uint32_t v : h.read<uint32_t>(out, 64)) EXPECT_EQ(v, 5u);
}
TEST(ForwardProgress, FlagHandoffBetweenWarpsOneThread) { flag_handoff(false, 1); }
TEST(ForwardProgress, FlagHandoffBetweenWarpsTwoThreads) { flag_handoff(false, 2); }
TEST(ForwardProgress, FlagHandoffBetweenCtasOneThread) { flag_handoff(true, 1); }
TEST(ForwardProgress, FlagHandoffBetweenCtasTwoThreads) { flag_handoff(true, 2); }

}  // namespace
}  // namespace strata::hw::sim::testing
