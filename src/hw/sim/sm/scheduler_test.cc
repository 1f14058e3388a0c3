// CTA scheduling across worker threads (grid.cc): CTAs of very different lengths, so
// that idle workers take over queued CTAs from busy ones. Statistics must not depend on
// the number of worker threads, and a CTA's SM clock must never run backwards, also
// when the CTA moves to another worker.
#include <gtest/gtest.h>

#include <algorithm>

#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;

constexpr uint8_t kLt = static_cast<uint8_t>(isa::CmpOp::LT);
constexpr uint8_t kNe = static_cast<uint8_t>(isa::CmpOp::NE);
constexpr uint32_t kCtas = 16;
constexpr uint32_t kBlock = 64;
constexpr uint32_t kTripUnit = 300;  // CTA i loops (i + 1) * kTripUnit times

// out[gid] = 1 if the thread ever read a %clock smaller than its previous read;
// trips[gid] = loop iterations it ran.
std::vector<isa::Inst> clock_kernel() {
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(13).bi(kTripUnit));
  c.push_back(B(Opcode::IMAD).t(DataType::U32).d(9).a(1).b(13).c(13));  // trips
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(11).bi(0));             // previous clock
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(12).bi(0));             // went backwards
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(8).bi(0));              // iterations
  const size_t loop = c.size();
  c.push_back(B(Opcode::S2R).d(10).mod(static_cast<uint8_t>(isa::SpecialReg::CLOCK_LO)));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(3).a(10).b(11).mod(kLt));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(12).bi(1).guard(3));
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(11).b(10));
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(8).a(8).bi(1));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(2).a(8).b(9).mod(kNe));
  c.push_back(B(Opcode::BRA).guard(2).imm(static_cast<uint32_t>(loop)));
  for (const isa::Inst& i : element_address(0, 4)) c.push_back(i);
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(12).space(MemSpace::GLOBAL));
  for (const isa::Inst& i : element_address(8, 4)) c.push_back(i);
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(8).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::EXIT));
  return c;
}

GridStats run_unbalanced(int threads) {
  ScopedThreads st(threads);
  Harness h;
  const uint64_t out = h.alloc(kCtas * kBlock * 4), trips = h.alloc(kCtas * kBlock * 4);
  std::vector<uint32_t> params;
  for (uint64_t va : {out, trips}) {
    params.push_back(static_cast<uint32_t>(va));
    params.push_back(static_cast<uint32_t>(va >> 32));
  }
  GridStats stats;
  EXPECT_EQ(h.launch(clock_kernel(), Dim{kCtas}, Dim{kBlock}, params, {}, &stats).kind, FaultKind::kNone);
  const std::vector<uint32_t> backwards = h.read<uint32_t>(out, kCtas * kBlock);
  const std::vector<uint32_t> ran = h.read<uint32_t>(trips, kCtas * kBlock);
  for (uint32_t t = 0; t < kCtas * kBlock; ++t) {
    EXPECT_EQ(backwards[t], 0u) << "clock ran backwards in thread " << t << " with " << threads << " workers";
    EXPECT_EQ(ran[t], (t / kBlock + 1) * kTripUnit) << "thread " << t;
  }
  return stats;
}

TEST(Scheduler, StatisticsAndClocksDoNotDependOnWorkerThreads) {
  const GridStats one = run_unbalanced(1);
  // Per warp: 9 setup and 9 store/exit instructions, 7 per iteration.
  uint64_t expected = 0;
  for (uint32_t cta = 0; cta < kCtas; ++cta) expected += (kBlock / 32) * (18 + 7ull * (cta + 1) * kTripUnit);
  EXPECT_EQ(one.warp_instructions, expected);
  EXPECT_EQ(one.thread_instructions, expected * 32);
  for (int threads : {2, 3, 8}) {
    const GridStats many = run_unbalanced(threads);
    EXPECT_EQ(many.warp_instructions, one.warp_instructions) << threads << " workers";
    EXPECT_EQ(many.thread_instructions, one.thread_instructions) << threads << " workers";
    EXPECT_EQ(many.warp_instructions_per_sm, one.warp_instructions_per_sm) << threads << " workers";
  }
}

// %globaltimer (docs/hw-contract.md, "Clock model"): the launch's start time plus the SM's
// cycles = warp instructions issued on the SM / warp schedulers, so every reading lies
// between the start and the start plus the modeled kernel time, busiest SM's instructions /
// (schedulers x core clock), whatever the number of workers.
TEST(Scheduler, GlobalTimerStaysWithinTheModeledKernelTime) {
  constexpr uint64_t kStartNs = 1000;  // Harness::launch_raw's launch time
  std::vector<isa::Inst> c = prologue();
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(13).bi(kTripUnit));
  c.push_back(B(Opcode::IMAD).t(DataType::U32).d(9).a(1).b(13).c(13));  // trips
  c.push_back(B(Opcode::MOV).t(DataType::U32).d(8).bi(0));
  const size_t loop = c.size();
  c.push_back(B(Opcode::IADD).t(DataType::U32).d(8).a(8).bi(1));
  c.push_back(B(Opcode::ISETP).t(DataType::U32).pd(2).a(8).b(9).mod(kNe));
  c.push_back(B(Opcode::BRA).guard(2).imm(static_cast<uint32_t>(loop)));
  c.push_back(B(Opcode::S2R).d(10).mod(static_cast<uint8_t>(isa::SpecialReg::GLOBALTIMER_LO)));
  c.push_back(B(Opcode::S2R).d(11).mod(static_cast<uint8_t>(isa::SpecialReg::GLOBALTIMER_HI)));
  for (const isa::Inst& i : element_address(0, 4)) c.push_back(i);
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(10).space(MemSpace::GLOBAL));
  for (const isa::Inst& i : element_address(8, 4)) c.push_back(i);
  c.push_back(B(Opcode::ST).t(DataType::U32).a(6).b(11).space(MemSpace::GLOBAL));
  c.push_back(B(Opcode::EXIT));
  for (int threads : {1, 3}) {
    ScopedThreads st(threads);
    Harness h;
    h.config.warp_schedulers_per_sm = 4;
    const uint64_t lo = h.alloc(kCtas * kBlock * 4), hi = h.alloc(kCtas * kBlock * 4);
    std::vector<uint32_t> params;
    for (uint64_t va : {lo, hi}) {
      params.push_back(static_cast<uint32_t>(va));
      params.push_back(static_cast<uint32_t>(va >> 32));
    }
    GridStats stats;
    ASSERT_EQ(h.launch(c, Dim{kCtas}, Dim{kBlock}, params, {}, &stats).kind, FaultKind::kNone);
    uint64_t busiest = 0;
    for (uint64_t n : stats.warp_instructions_per_sm) busiest = std::max(busiest, n);
    const double kernel_ns = static_cast<double>(busiest) * 1000.0 /
                             static_cast<double>(h.config.warp_schedulers_per_sm * h.config.core_clock_mhz);
    const std::vector<uint32_t> l = h.read<uint32_t>(lo, kCtas * kBlock), u = h.read<uint32_t>(hi, kCtas * kBlock);
    uint64_t latest = 0;
    for (uint32_t t = 0; t < kCtas * kBlock; ++t) {
      const uint64_t ns = uint64_t{u[t]} << 32 | l[t];
      EXPECT_GE(ns, kStartNs) << "thread " << t;
      EXPECT_LE(static_cast<double>(ns), static_cast<double>(kStartNs) + kernel_ns) << "thread " << t;
      latest = std::max(latest, ns);
    }
    EXPECT_GT(latest, kStartNs) << "the timer advances with the instructions issued, " << threads << " workers";
  }
}

}  // namespace
}  // namespace strata::hw::sim::testing
