// Launches through the ring: tiny encoded programs run by the SM core.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "hw/contract/report.h"
#include "hw/sim/sim_test_util.h"
#include "isa/encode.h"
#include "isa/latency.h"

namespace strata::hw::sim {
namespace {

using testing::TestDevice;
using testing::wait_for;

constexpr uint64_t kCodeVa = 0x500000000ull;
constexpr uint64_t kCodePa = TestDevice::kDataBase;
constexpr uint64_t kDataVa = 0x600000000ull;
constexpr uint64_t kDataPa = TestDevice::kDataBase + 0x10000;
constexpr uint64_t kSemVa = kDataVa + 0x1000;
constexpr uint64_t kSemPa = kDataPa + 0x1000;
constexpr uint64_t kParamsVa = kDataVa + 0x2000;
constexpr uint64_t kParamsPa = kDataPa + 0x2000;

isa::Inst inst(isa::Opcode op) {
  isa::Inst i;
  i.op = op;
  return i;
}

// out[0] = 0x1234, where `out` is the u64 kernel parameter at c[0][0].
std::vector<isa::Inst> store_program() {
  isa::Inst ldc = inst(isa::Opcode::LDC);
  ldc.rd = 0;
  ldc.type = isa::DataType::U64;
  ldc.mod = 0;
  ldc.space = isa::MemSpace::CONST;
  isa::Inst mov = inst(isa::Opcode::MOV);
  mov.rd = 2;
  mov.type = isa::DataType::U32;
  mov.b_imm = true;
  mov.imm = 0x1234;
  isa::Inst st = inst(isa::Opcode::ST);
  st.ra = 0;
  st.rb = 2;
  st.type = isa::DataType::U32;
  st.space = isa::MemSpace::GLOBAL;
  // Control bits that make it hazard-free (tests run with STRATA_CHECK_HAZARDS=1): the
  // store waits on the LDC's barrier and issues after the MOV's latency.
  ldc.ctrl.wbar = 0;
  mov.ctrl.stall = isa::latency(mov).cycles;
  st.ctrl.wait = 1u << 0;
  return {ldc, mov, st, inst(isa::Opcode::EXIT)};
}

class LaunchTest : public ::testing::Test {
 protected:
  LaunchTest() {
    d_.map(kCodeVa, kCodePa, 0x2000, /*writable=*/false);
    d_.map(kDataVa, kDataPa, 0x4000);
    d_.setup_channel(0);
  }
  void load_code(const std::vector<isa::Inst>& program, uint64_t offset = 0) {
    const std::vector<uint8_t> bytes = isa::encode_program(program);
    std::memcpy(d_.vram() + kCodePa + offset, bytes.data(), bytes.size());
    code_size_ = static_cast<uint32_t>(bytes.size());
  }
  LaunchPacket packet(uint32_t kernel_id, uint64_t code_va = kCodeVa) {
    LaunchPacket p{};
    p.code_va = code_va;
    p.code_size = code_size_;
    p.kernel_id = kernel_id;
    p.grid[0] = p.grid[1] = p.grid[2] = 1;
    p.block[0] = 32;
    p.block[1] = p.block[2] = 1;
    p.regs_per_thread = 8;
    p.num_barriers = 1;
    p.cbanks[0] = ConstBankBinding{kParamsVa, 8, 0};
    return p;
  }
  uint64_t timer() {
    const uint32_t lo = d_.reg(REG_TIMER_LO);
    return lo | (uint64_t{d_.reg(REG_TIMER_HI)} << 32);
  }
  TestDevice d_;
  uint32_t code_size_ = 0;
};

TEST_F(LaunchTest, KernelStoresThroughItsParameter) {
  load_code(store_program());
  d_.write_u64(kParamsPa, kDataVa + 0x40);
  const uint64_t before = timer();
  d_.write_packet(0, PacketOp::kLaunch, packet(7));
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, 1});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.read_u64(kSemPa) == 1 || d_.ch_reg(0, REG_CH_STATUS); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u) << "fault kind " << d_.reg(REG_FAULT_KIND);
  uint32_t value;
  std::memcpy(&value, d_.vram() + kDataPa + 0x40, 4);
  EXPECT_EQ(value, 0x1234u);
  // The launch cost at least the configured overhead on the device clock.
  EXPECT_GE(timer() - before, static_cast<uint64_t>(testing::test_config().launch_overhead_ns));
}

// A launch armed with kReportCounters stores its times and the grid's counter block
// (hw/contract/report.h): one warp of the store program, under the fast model.
TEST_F(LaunchTest, WorkReportCarriesTheCounterBlock) {
  constexpr uint64_t kReportVa = kDataVa + 0x3000, kReportPa = kDataPa + 0x3000;
  static_assert(sizeof(WorkReport) <= 0x1000);
  load_code(store_program());
  d_.write_u64(kParamsPa, kDataVa + 0x40);
  LaunchPacket p = packet(7);
  p.grid_id = 99;
  d_.write_packet(0, PacketOp::kReport, ReportPacket{kReportVa, kReportCounters, 0});
  d_.write_packet(0, PacketOp::kLaunch, p);
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, 1});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.read_u64(kSemPa) == 1 || d_.ch_reg(0, REG_CH_STATUS); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u) << "fault kind " << d_.reg(REG_FAULT_KIND);
  WorkReport r;
  std::memcpy(&r, d_.vram() + kReportPa, sizeof(r));
  EXPECT_EQ(r.written, 1u);
  EXPECT_EQ(r.op, static_cast<uint32_t>(ReportOp::kLaunch));
  EXPECT_EQ(r.grid_id, 99u);
  // At least the configured launch overhead long.
  EXPECT_GE(r.end_ns - r.start_ns,
            static_cast<uint64_t>(testing::test_config().launch_overhead_ns));
  const KernelCounters& c = r.counters;
  EXPECT_EQ(c.valid & (kCountersExecution | kCountersModel), kCountersExecution | kCountersModel);
  EXPECT_EQ(c.ctas, 1u);
  EXPECT_EQ(c.threads_per_cta, 32u);
  EXPECT_EQ(c.sms_used, 1u);
  EXPECT_EQ(c.warp_instructions, store_program().size());  // one warp, straight-line code
  EXPECT_EQ(c.thread_instructions, 32 * c.warp_instructions);
  // The one store: a full warp writing the same 4 bytes -> one request, one sector.
  EXPECT_EQ(c.global_store_requests, 1u);
  EXPECT_EQ(c.global_store_sectors, 1u);
  EXPECT_EQ(c.global_store_bytes, 32u * 4);
  if (std::getenv("STRATA_TIMING") == nullptr) {
    EXPECT_EQ(c.valid & kCountersDetailed, 0u);
    EXPECT_EQ(c.timing_mode, static_cast<uint32_t>(ReportTiming::kFast));
  }
}

TEST_F(LaunchTest, TrapReportsKernelAndThread) {
  isa::Inst trap = inst(isa::Opcode::TRAP);
  load_code({trap, inst(isa::Opcode::EXIT)});
  d_.write_packet(0, PacketOp::kLaunch, packet(42));
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kTrap));
  EXPECT_EQ(d_.reg(REG_FAULT_KERNEL_ID), 42u);
  EXPECT_EQ(d_.reg(REG_FAULT_PC), 0u);
}

// With STRATA_CHECK_HAZARDS set, a launch runs the hazard checker: the store program
// without its control bits reads the LDC's result without waiting on a barrier.
TEST_F(LaunchTest, CheckedLaunchFaultsOnAHazard) {
  std::vector<isa::Inst> program = store_program();
  for (isa::Inst& i : program) i.ctrl = isa::Control{};
  load_code(program);
  d_.write_u64(kParamsPa, kDataVa + 0x40);
  const char* saved = std::getenv("STRATA_CHECK_HAZARDS");
  const std::string old = saved ? saved : "";
  setenv("STRATA_CHECK_HAZARDS", "1", 1);
  d_.write_packet(0, PacketOp::kLaunch, packet(11));
  d_.doorbell(0);
  const bool faulted = wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; });
  if (saved) setenv("STRATA_CHECK_HAZARDS", old.c_str(), 1);
  else unsetenv("STRATA_CHECK_HAZARDS");
  ASSERT_TRUE(faulted);
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kHazard));
  EXPECT_EQ(d_.reg(REG_FAULT_PC), 2u);    // the ST
  EXPECT_EQ(d_.reg(REG_FAULT_ADDR_LO), 0u);  // R0, the LDC's result
}

TEST_F(LaunchTest, UnmappedCodeFaults) {
  load_code(store_program());
  d_.write_packet(0, PacketOp::kLaunch, packet(3, 0x700000000ull));
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kUnmapped));
  EXPECT_EQ(d_.reg(REG_FAULT_KERNEL_ID), 3u);
}

TEST_F(LaunchTest, InvalidLaunchIsABadPacket) {
  load_code(store_program());
  LaunchPacket p = packet(5);
  p.block[0] = 4096;  // above max_threads_per_block
  d_.write_packet(0, PacketOp::kLaunch, p);
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kBadPacket));
}

TEST_F(LaunchTest, IcacheInvalidateRefetchesCode) {
  // Code that spans a page boundary: 4 instructions starting 32 bytes before it.
  const uint64_t offset = 0x1000 - 32;
  load_code(store_program(), offset);
  d_.write_u64(kParamsPa, kDataVa + 0x80);
  d_.write_packet(0, PacketOp::kLaunch, packet(1, kCodeVa + offset));
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, 1});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.read_u64(kSemPa) == 1; }));
  // Replace the code with a trap. Without invalidation the cached program still runs.
  load_code({inst(isa::Opcode::TRAP), inst(isa::Opcode::EXIT), inst(isa::Opcode::EXIT),
             inst(isa::Opcode::EXIT)},
            offset);
  d_.write_packet(0, PacketOp::kLaunch, packet(1, kCodeVa + offset));
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, 2});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.read_u64(kSemPa) == 2; }));
  d_.write_packet(0, PacketOp::kIcacheInvalidate, RangePacket{kCodeVa, 0x2000});
  d_.write_packet(0, PacketOp::kLaunch, packet(9, kCodeVa + offset));
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kTrap));
  EXPECT_EQ(d_.reg(REG_FAULT_KERNEL_ID), 9u);
}

}  // namespace
}  // namespace strata::hw::sim
