// The hazard checker (hazard_check.h) on hand-written code: it must catch a missing
// stall, a missing barrier wait and a write-after-read on a store's source, and accept
// the same code with the control bits docs/isa.md asks for.
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"
#include "isa/latency.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;

struct Ctl {
  uint8_t stall = 1;
  uint8_t wbar = isa::kNoDepBarrier, rbar = isa::kNoDepBarrier, wait = 0;
};

isa::Inst with(isa::Inst i, Ctl c) {
  i.ctrl.stall = c.stall;
  i.ctrl.wbar = c.wbar;
  i.ctrl.rbar = c.rbar;
  i.ctrl.wait = c.wait;
  return i;
}

FaultRecord run(const std::vector<isa::Inst>& code, bool check = true, Dim grid = Dim{1},
                Harness* hp = nullptr, uint64_t param = 0) {
  Harness local;
  Harness& h = hp ? *hp : local;
  LaunchOptions o;
  o.check_hazards = check;
  return h.launch(code, grid, Dim{64},
                  {static_cast<uint32_t>(param), static_cast<uint32_t>(param >> 32)}, o);
}

uint8_t fixed_latency(isa::Opcode op, DataType t) {
  isa::Inst i;
  i.op = op;
  i.type = t;
  const isa::LatencyInfo& l = isa::latency(i);
  EXPECT_EQ(l.kind, isa::LatencyKind::kFixed);
  return l.cycles;
}

// R1 = 5; R2 = R1 + 1: R2's read of R1 must come `latency` cycles after the MOV.
std::vector<isa::Inst> dependent_pair(uint8_t first_stall, uint8_t nop_stall = 0) {
  std::vector<isa::Inst> code = {
      with(B(Opcode::MOV).t(DataType::U32).d(1).bi(5), {.stall = first_stall})};
  if (nop_stall) code.push_back(with(B(Opcode::NOP), {.stall = nop_stall}));
  code.push_back(B(Opcode::IADD).t(DataType::U32).d(2).a(1).bi(1));
  code.push_back(B(Opcode::EXIT));
  return code;
}

TEST(Hazard, MissingStall) {
  const uint8_t lat = fixed_latency(Opcode::MOV, DataType::U32);
  ASSERT_GT(lat, 1);
  FaultRecord f = run(dependent_pair(static_cast<uint8_t>(lat - 1)));
  EXPECT_EQ(f.kind, FaultKind::kHazard);
  EXPECT_EQ(f.pc, 1u);
  EXPECT_EQ(f.address, 1u);  // R1
  EXPECT_EQ(run(dependent_pair(lat)).kind, FaultKind::kNone);
  // Stalls add up along the path: 1 + (lat - 1) cycles.
  EXPECT_EQ(run(dependent_pair(1, static_cast<uint8_t>(lat - 1))).kind, FaultKind::kNone);
  EXPECT_EQ(run(dependent_pair(1, static_cast<uint8_t>(lat - 2))).kind, FaultKind::kHazard);
  // Without checking the same code runs.
  EXPECT_EQ(run(dependent_pair(1), /*check=*/false).kind, FaultKind::kNone);
}

TEST(Hazard, Fp64LatencyAndPredicates) {
  const uint8_t lat = fixed_latency(Opcode::FADD, DataType::F64);
  auto code = [&](uint8_t stall) {
    return std::vector<isa::Inst>{
        with(B(Opcode::FADD).t(DataType::F64).d(2).a(4).b(6), {.stall = stall}),
        B(Opcode::FADD).t(DataType::F64).d(8).a(2).b(2), B(Opcode::EXIT)};
  };
  EXPECT_EQ(run(code(static_cast<uint8_t>(lat - 1))).kind, FaultKind::kHazard);
  EXPECT_EQ(run(code(lat)).kind, FaultKind::kNone);
  // A guard predicate is a source too; the fault names it as 256 + p.
  const uint8_t plat = fixed_latency(Opcode::ISETP, DataType::U32);
  auto guarded = [&](uint8_t stall) {
    return std::vector<isa::Inst>{
        with(B(Opcode::ISETP).t(DataType::U32).pd(3).a(isa::kRZ).b(isa::kRZ).mod(0),
             {.stall = stall}),
        B(Opcode::MOV).t(DataType::U32).d(1).bi(1).guard(3), B(Opcode::EXIT)};
  };
  FaultRecord f = run(guarded(1));
  EXPECT_EQ(f.kind, FaultKind::kHazard);
  EXPECT_EQ(f.address, 256u + 3);
  EXPECT_EQ(run(guarded(plat)).kind, FaultKind::kNone);
}

// S2R is variable-latency: its consumer must wait on the barrier it set.
TEST(Hazard, MissingWait) {
  auto code = [](Ctl producer, Ctl consumer) {
    return std::vector<isa::Inst>{
        with(B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)), producer),
        with(B(Opcode::IADD).t(DataType::U32).d(1).a(0).bi(1), consumer), B(Opcode::EXIT)};
  };
  FaultRecord f = run(code({.wbar = 2}, {}));
  EXPECT_EQ(f.kind, FaultKind::kHazard);
  EXPECT_EQ(f.pc, 1u);
  EXPECT_EQ(f.address, 0u);  // R0
  EXPECT_EQ(run(code({.wbar = 2}, {.wait = 1u << 2})).kind, FaultKind::kNone);
  // Waiting on another barrier does not help; no stall count does either.
  EXPECT_EQ(run(code({.stall = 15, .wbar = 2}, {.wait = 1u << 1})).kind, FaultKind::kHazard);
  // A variable-latency result without a barrier can never be read safely.
  EXPECT_EQ(run(code({.stall = 15}, {.wait = 0x3f})).kind, FaultKind::kHazard);
  // Overwriting it before it landed is a hazard too (write after write).
  std::vector<isa::Inst> waw = {
      with(B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)), {.wbar = 0}),
      B(Opcode::MOV).t(DataType::U32).d(0).bi(1), B(Opcode::EXIT)};
  EXPECT_EQ(run(waw).kind, FaultKind::kHazard);
}

// A store reads its sources late (the memory pipe): overwriting one of them must wait
// on the store's read barrier.
TEST(Hazard, WriteAfterReadOnAStoreSource) {
  Harness h;
  const uint64_t buf = h.alloc(4096);
  const uint8_t lat = fixed_latency(Opcode::MOV, DataType::U32);
  auto code = [&](Ctl store, Ctl overwrite) {
    return std::vector<isa::Inst>{
        with(B(Opcode::LDC).t(DataType::U64).d(4).imm(0), {.wbar = 0}),
        with(B(Opcode::MOV).t(DataType::U32).d(6).bi(7), {.stall = lat}),
        with(B(Opcode::ST).t(DataType::U32).a(4).b(6).space(MemSpace::GLOBAL), store),
        with(B(Opcode::MOV).t(DataType::U32).d(6).bi(8), overwrite), B(Opcode::EXIT)};
  };
  FaultRecord f = run(code({.rbar = 1, .wait = 1}, {}), true, Dim{1}, &h, buf);
  EXPECT_EQ(f.kind, FaultKind::kHazard);
  EXPECT_EQ(f.pc, 3u);
  EXPECT_EQ(f.address, 6u);  // R6
  EXPECT_EQ(run(code({.rbar = 1, .wait = 1}, {.wait = 1u << 1}), true, Dim{1}, &h, buf).kind,
            FaultKind::kNone);
  EXPECT_EQ(h.read<uint32_t>(buf, 1)[0], 7u);
  // The address pair is a late source as well.
  std::vector<isa::Inst> addr = code({.rbar = 1, .wait = 1}, {.wait = 1u << 1});
  addr.insert(addr.end() - 1, B(Opcode::MOV).t(DataType::U32).d(5).bi(0));
  EXPECT_EQ(run(addr, true, Dim{1}, &h, buf).kind,
            FaultKind::kNone);  // barrier 1 already waited on
  addr = code({.rbar = 1, .wait = 1}, {});
  addr[3] = B(Opcode::MOV).t(DataType::U32).d(5).bi(0);
  f = run(addr, true, Dim{1}, &h, buf);
  EXPECT_EQ(f.kind, FaultKind::kHazard);
  EXPECT_EQ(f.address, 5u);
  // A store that sets no read barrier never releases its sources.
  EXPECT_EQ(run(code({.wait = 1}, {.stall = 15, .wait = 0x3f}), true, Dim{1}, &h, buf).kind,
            FaultKind::kHazard);
}

// Lanes that did not write a register are not affected by the write's latency.
TEST(Hazard, LanesAreTrackedApart) {
  // Lanes >= 16 write R1 (guarded); lanes < 16 read their own R1 right away.
  const std::vector<isa::Inst> code = {
      with(B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::LANEID)), {.wbar = 0}),
      with(B(Opcode::ISETP)
               .t(DataType::U32)
               .pd(0)
               .a(0)
               .bi(16)
               .mod(static_cast<uint8_t>(isa::CmpOp::GE)),
           {.stall = 4, .wait = 1}),
      B(Opcode::MOV).t(DataType::U32).d(1).bi(3).guard(0),
      B(Opcode::IADD).t(DataType::U32).d(2).a(1).bi(1).guard(0, /*neg=*/true), B(Opcode::EXIT)};
  EXPECT_EQ(run(code).kind, FaultKind::kNone);
  std::vector<isa::Inst> all = code;
  all[3].guard = isa::kPT;
  all[3].guard_neg = false;
  EXPECT_EQ(run(all).kind, FaultKind::kHazard);
}

// The verdict is a per-warp property: the same with any number of worker threads.
TEST(Hazard, DeterministicAcrossThreadCounts) {
  const std::vector<isa::Inst> code = dependent_pair(1);
  FaultRecord one, many;
  {
    ScopedThreads t(1);
    one = run(code, true, Dim{16});
  }
  {
    ScopedThreads t(4);
    many = run(code, true, Dim{16});
  }
  EXPECT_EQ(one.kind, FaultKind::kHazard);
  EXPECT_EQ(many.kind, one.kind);
  EXPECT_EQ(many.pc, one.pc);
  EXPECT_EQ(many.address, one.address);
}

}  // namespace
}  // namespace strata::hw::sim::testing
