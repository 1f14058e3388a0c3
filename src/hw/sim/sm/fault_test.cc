// Faults: bad addresses, traps, illegal instructions, deadlocks and hangs.
#include <gtest/gtest.h>

#include <cstdlib>

#include "hw/sim/sm/test_harness.h"
#include "isa/encode.h"

namespace strata::hw::sim::testing {
namespace {

using isa::MemSpace;

FaultRecord run(const std::vector<isa::Inst>& code, uint64_t param, Dim block = Dim{32}, LaunchOptions opts = {},
                Harness* hp = nullptr) {
  Harness local;
  Harness& h = hp ? *hp : local;
  return h.launch(code, Dim{2}, block, {static_cast<uint32_t>(param), static_cast<uint32_t>(param >> 32)}, opts);
}

TEST(Fault, UnmappedAddress) {
  auto f = run({B(Opcode::MOV).t(DataType::U64).d(4).bi(0x1000),
                B(Opcode::LD).t(DataType::U32).d(8).a(4).imm(8).space(MemSpace::GLOBAL), B(Opcode::EXIT)}, 0);
  EXPECT_EQ(f.kind, FaultKind::kUnmapped);
  EXPECT_EQ(f.address, 0x1008u);
  EXPECT_EQ(f.pc, 1u);
}

TEST(Fault, MisalignedAndWriteProtect) {
  Harness h;
  const uint64_t buf = h.alloc(4096);
  auto f = run({B(Opcode::LDC).t(DataType::U64).d(4).imm(0),
                B(Opcode::LD).t(DataType::U64).d(8).a(4).imm(4).space(MemSpace::GLOBAL), B(Opcode::EXIT)},
               buf, Dim{32}, {}, &h);
  EXPECT_EQ(f.kind, FaultKind::kMisaligned);
  const uint64_t ro = h.alloc(4096, /*writable=*/false);
  f = run({B(Opcode::LDC).t(DataType::U64).d(4).imm(0),
           B(Opcode::ST).t(DataType::U32).a(4).b(0).space(MemSpace::GLOBAL), B(Opcode::EXIT)}, ro, Dim{32}, {}, &h);
  EXPECT_EQ(f.kind, FaultKind::kWriteProtect);
}

TEST(Fault, SharedOutOfWindow) {
  auto f = run({B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
                B(Opcode::SHL).t(DataType::B32).d(1).a(0).bi(2),
                B(Opcode::LD).t(DataType::U32).d(8).a(1).space(MemSpace::SHARED), B(Opcode::EXIT)},
               0, Dim{32}, LaunchOptions{.shared_bytes = 64});
  EXPECT_EQ(f.kind, FaultKind::kAddressSpace);
  EXPECT_EQ(f.address, 64u);
  EXPECT_EQ(f.tid[0], 16u);
}

TEST(Fault, CallOrReturnOutsideTheProgram) {
  // Lane l calls instruction l + 5: lanes 0-2 reach the EXITs, lane 3 is the first past the end.
  auto f = run({B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
                B(Opcode::IADD).t(DataType::U32).d(1).a(0).bi(5), B(Opcode::CALL).d(2).b(1), B(Opcode::EXIT),
                B(Opcode::EXIT), B(Opcode::EXIT), B(Opcode::EXIT), B(Opcode::EXIT)},
               0);
  EXPECT_EQ(f.kind, FaultKind::kInvalidPc);  // lanes 3.. target 8 and beyond
  EXPECT_EQ(f.address, 8u);
  EXPECT_EQ(f.tid[0], 3u);
  auto g = run({B(Opcode::MOV).t(DataType::U32).d(1).bi(1000), B(Opcode::RET).a(1)}, 0);
  EXPECT_EQ(g.kind, FaultKind::kInvalidPc);
  EXPECT_EQ(g.address, 1000u);
}

TEST(Fault, TrapAndAssert) {
  auto t = run({B(Opcode::TRAP).imm(0)}, 0);
  EXPECT_EQ(t.kind, FaultKind::kTrap);
  auto a = run({B(Opcode::NOP), B(Opcode::TRAP).imm(1)}, 0);
  EXPECT_EQ(a.kind, FaultKind::kAssert);
  EXPECT_EQ(a.pc, 1u);
}

TEST(Fault, IllegalInstructionAndRunningOffTheEnd) {
  Harness h;
  std::vector<uint8_t> bytes = isa::encode_program(std::vector<isa::Inst>{B(Opcode::NOP), B(Opcode::NOP)});
  std::fill(bytes.begin() + 16, bytes.begin() + 18, 0xff);  // opcode 1023
  auto f = h.launch_raw(bytes, Dim{1}, Dim{32}, {});
  EXPECT_EQ(f.kind, FaultKind::kIllegalInstruction);
  EXPECT_EQ(f.pc, 1u);
  auto g = h.launch({B(Opcode::NOP)}, Dim{1}, Dim{32}, {});
  EXPECT_EQ(g.kind, FaultKind::kInvalidPc);
}

TEST(Fault, DeadlockIsDetected) {
  // Warp 0 waits at CTA barrier 0, warp 1 at barrier 1: neither can complete.
  Harness h;
  std::vector<isa::Inst> code = {
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::TID_X)),
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(0).bi(32).mod(static_cast<uint8_t>(isa::CmpOp::LT)),
      B(Opcode::BAR).imm(0).mod(static_cast<uint8_t>(isa::BarOp::SYNC)).guard(0),
      B(Opcode::BAR).imm(1).mod(static_cast<uint8_t>(isa::BarOp::SYNC)).guard(0, true),
      B(Opcode::EXIT),
  };
  for (int threads : {1, 2}) {
    ScopedThreads st(threads);
    auto f = h.launch(code, Dim{3}, Dim{64}, {});
    EXPECT_EQ(f.kind, FaultKind::kTrap);
  }
}

TEST(Fault, SpinWithoutProgressTimesOut) {
  setenv("STRATA_HANG_TIMEOUT_MS", "300", 1);
  Harness h;
  const uint64_t flag = h.alloc(4096);
  std::vector<isa::Inst> code = {
      B(Opcode::LDC).t(DataType::U64).d(14).imm(0),
      B(Opcode::LD).t(DataType::U32).d(8).a(14).sem(isa::MemSem::RELAXED).space(MemSpace::GLOBAL),
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).bi(0).mod(static_cast<uint8_t>(isa::CmpOp::EQ)),
      B(Opcode::BRA).guard(0).imm(1),
      B(Opcode::EXIT),
  };
  auto f = run(code, flag, Dim{32}, {}, &h);
  unsetenv("STRATA_HANG_TIMEOUT_MS");
  EXPECT_EQ(f.kind, FaultKind::kTrap);
}

// Every CTA faults at an address of its own. Which fault the grid reports must not
// depend on the host threads: the first of the lowest-numbered SM (SM 0 runs CTAs 0 and 4
// of the harness's 4 SMs, CTA 0 first), even when other SMs fault earlier in wall time.
TEST(Fault, ReportedFaultIsIndependentOfWorkerThreads) {
  Harness h;
  std::vector<isa::Inst> code = {
      B(Opcode::S2R).d(0).mod(static_cast<uint8_t>(isa::SpecialReg::CTAID_X)),
      B(Opcode::SHL).t(DataType::B32).d(1).a(0).bi(8),
      B(Opcode::MOV).t(DataType::U64).d(4).bi(0x1000),
      B(Opcode::IADD).t(DataType::U32).d(4).a(4).b(1),
      B(Opcode::LD).t(DataType::U32).d(8).a(4).space(MemSpace::GLOBAL),
      B(Opcode::EXIT),
  };
  for (int threads : {1, 2, 4}) {
    ScopedThreads st(threads);
    for (int repeat = 0; repeat < 5; ++repeat) {
      auto f = h.launch(code, Dim{8}, Dim{32}, {});
      EXPECT_EQ(f.kind, FaultKind::kUnmapped) << threads << " threads";
      EXPECT_EQ(f.address, 0x1000u) << threads << " threads";
      EXPECT_EQ(f.cta[0], 0u) << threads << " threads";
    }
  }
}

TEST(Fault, BadLaunchIsRejected) {
  Harness h;
  auto f = h.launch({B(Opcode::EXIT)}, Dim{1}, Dim{2048}, {});
  EXPECT_EQ(f.kind, FaultKind::kBadPacket);
}

}  // namespace
}  // namespace strata::hw::sim::testing
