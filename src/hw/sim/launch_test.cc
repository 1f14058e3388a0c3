// Launches through the ring: tiny encoded programs run by the SM core.
#include <gtest/gtest.h>

#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "hw/contract/report.h"
#include "hw/sim/sim_test_util.h"
#include "isa/encode.h"
#include "isa/inst.h"
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

// ---- Per-instruction counters (kReportPcCounters) ----

constexpr uint64_t kPcTestVa = 0x680000000ull;  // inputs, outputs, reports and the pc area
constexpr uint64_t kPcTestPa = TestDevice::kDataBase + 0x100000;
constexpr uint64_t kInOff = 0x0, kReportOff = 0x1000, kPcAreaOff = 0x4000, kOutOff = 0x8000;
constexpr uint64_t kPcTestBytes = 0x10000;
constexpr uint32_t kPcBlockThreads = 64;  // two warps per CTA

// Control bits that make any straight-line code hazard-free: every instruction waits on
// barrier 0, which every variable-latency instruction sets, and stalls for the longest
// fixed latency.
std::vector<isa::Inst> serialized(std::vector<isa::Inst> code) {
  for (isa::Inst& i : code) {
    i.ctrl = isa::Control{};
    i.ctrl.stall = isa::kMaxFixedLatency;
    i.ctrl.wait = 1u << 0;
    if (isa::latency(i).kind == isa::LatencyKind::kVariable) i.ctrl.wbar = 0;
  }
  return code;
}

isa::Inst op(isa::Opcode o, isa::DataType t, uint8_t d, uint8_t a, uint8_t b,
             isa::MemSpace space = isa::MemSpace::GENERIC) {
  isa::Inst i = inst(o);
  i.type = t;
  i.rd = d;
  i.ra = a;
  i.rb = b;
  i.space = space;
  return i;
}

// Thread t of CTA c (params: u64 in, u64 out):
//   v = ((u32*)in)[2 t]          strided: a warp's 32 loads span 256 bytes = 8 sectors
//   ((u32*)out)[64 c + t] = v    coalesced: 128 bytes = 4 sectors
//   shared[8 t] = v              lanes l and l + 16 share a bank: 2 wavefronts, 1 conflict
//   local[0] = v                 interleaved local layout: 32 consecutive words, 4 sectors
// The pcs of the memory instructions.
constexpr uint32_t kPcLd = 6, kPcStGlobal = 11, kPcStShared = 13, kPcStLocal = 14;
std::vector<isa::Inst> pc_test_program() {
  using isa::DataType;
  using isa::MemSpace;
  using isa::Opcode;
  isa::Inst s2r = op(Opcode::S2R, DataType::kNone, 1, isa::kRZ, isa::kRZ);
  s2r.mod = static_cast<uint8_t>(isa::SpecialReg::TID_X);
  isa::Inst s2r_cta = op(Opcode::S2R, DataType::kNone, 13, isa::kRZ, isa::kRZ);
  s2r_cta.mod = static_cast<uint8_t>(isa::SpecialReg::CTAID_X);
  isa::Inst ldc_in = op(Opcode::LDC, DataType::U64, 2, isa::kRZ, isa::kRZ, MemSpace::CONST);
  isa::Inst ldc_out = ldc_in;
  ldc_out.rd = 4;
  ldc_out.imm = 8;
  isa::Inst eight = op(Opcode::MOV, DataType::U32, 20, isa::kRZ, isa::kRZ);
  eight.b_imm = true;
  eight.imm = 8;
  isa::Inst in_addr = op(Opcode::IMADWIDE, DataType::U32, 6, 1, 20);
  in_addr.rc = 2;
  isa::Inst block = eight;
  block.rd = 22;
  block.imm = kPcBlockThreads;
  isa::Inst global_tid = op(Opcode::IMAD, DataType::U32, 14, 13, 22);
  global_tid.rc = 1;
  isa::Inst four = eight;
  four.rd = 21;
  four.imm = 4;
  isa::Inst out_addr = op(Opcode::IMADWIDE, DataType::U32, 8, 14, 21);
  out_addr.rc = 4;
  isa::Inst shl = op(Opcode::SHL, DataType::B32, 12, 1, isa::kRZ);
  shl.b_imm = true;
  shl.imm = 3;
  const std::vector<isa::Inst> code = {
      s2r,                                                                     // 0
      s2r_cta,                                                                 // 1
      ldc_in,                                                                  // 2
      ldc_out,                                                                 // 3
      eight,                                                                   // 4
      in_addr,                                                                 // 5
      op(Opcode::LD, DataType::U32, 10, 6, isa::kRZ, MemSpace::GLOBAL),        // 6
      block,                                                                   // 7
      global_tid,                                                              // 8
      four,                                                                    // 9
      out_addr,                                                                // 10
      op(Opcode::ST, DataType::U32, isa::kRZ, 8, 10, MemSpace::GLOBAL),        // 11
      shl,                                                                     // 12
      op(Opcode::ST, DataType::U32, isa::kRZ, 12, 10, MemSpace::SHARED),       // 13
      op(Opcode::ST, DataType::U32, isa::kRZ, isa::kRZ, 10, MemSpace::LOCAL),  // 14
      inst(Opcode::EXIT),                                                      // 15
  };
  return serialized(code);
}

class PcCountersTest : public LaunchTest {
 protected:
  PcCountersTest() {
    d_.map(kPcTestVa, kPcTestPa, kPcTestBytes);
    load_code(pc_test_program());
    d_.write_u64(kParamsPa, kPcTestVa + kInOff);
    d_.write_u64(kParamsPa + 8, kPcTestVa + kOutOff);
    for (uint32_t i = 0; i < 2 * kPcBlockThreads; ++i) {
      const uint32_t v = 1000 + i;
      std::memcpy(d_.vram() + kPcTestPa + kInOff + 4 * i, &v, 4);
    }
  }
  LaunchPacket pc_packet(uint32_t ctas) {
    LaunchPacket p = packet(1);
    p.grid[0] = ctas;
    p.block[0] = kPcBlockThreads;
    p.regs_per_thread = 32;
    p.shared_bytes = 8 * kPcBlockThreads;
    p.local_bytes_per_thread = 4;
    p.cbanks[0] = ConstBankBinding{kParamsVa, 16, 0};
    return p;
  }
  // Arms reporting with per-instruction counters, runs `launches` launches of `ctas`
  // CTAs and waits for them; false if the channel faulted.
  bool run(uint32_t capacity, int launches, uint32_t ctas,
           uint32_t flags = kReportCounters | kReportPcCounters) {
    std::memset(d_.vram() + kPcTestPa + kPcAreaOff, 0xab, kOutOff - kPcAreaOff);
    d_.write_packet(0, PacketOp::kReport,
                    ReportPacket{kPcTestVa + kReportOff, flags, capacity, kPcTestVa + kPcAreaOff});
    for (int i = 0; i < launches; ++i) d_.write_packet(0, PacketOp::kLaunch, pc_packet(ctas));
    d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, ++sem_});
    d_.doorbell(0);
    EXPECT_TRUE(
        wait_for([&] { return d_.read_u64(kSemPa) == sem_ || d_.ch_reg(0, REG_CH_STATUS); }));
    return d_.ch_reg(0, REG_CH_STATUS) == 0;
  }
  WorkReport report(int k) {
    WorkReport r;
    std::memcpy(&r, d_.vram() + kPcTestPa + kReportOff + k * sizeof(WorkReport), sizeof(r));
    return r;
  }
  PcCounters record(uint32_t i) {
    PcCounters r;
    std::memcpy(&r, d_.vram() + kPcTestPa + kPcAreaOff + i * sizeof(PcCounters), sizeof(r));
    return r;
  }
  std::vector<PcCounters> records(uint32_t first, uint32_t count) {
    std::vector<PcCounters> v;
    for (uint32_t i = 0; i < count; ++i) v.push_back(record(first + i));
    return v;
  }
  uint64_t sem_ = 0;
};

static_assert(3 * sizeof(WorkReport) <= kPcAreaOff - kReportOff);

bool same(const PcCounters& a, const PcCounters& b) {
  return std::memcmp(&a, &b, sizeof(a)) == 0;
}

// What each instruction of pc_test_program does in `warps` warps, from the access
// patterns alone (see the program).
PcCounters expected_record(uint32_t pc, uint64_t warps) {
  PcCounters e{};
  e.pc = pc;
  e.warp_instructions = warps;
  e.thread_instructions = 32 * warps;
  switch (pc) {
    case kPcLd:
      e.global_requests = warps, e.global_sectors = 8 * warps, e.global_bytes = 128 * warps;
      break;
    case kPcStGlobal:
      e.global_requests = warps, e.global_sectors = 4 * warps, e.global_bytes = 128 * warps;
      break;
    case kPcStShared:
      e.shared_requests = warps, e.shared_wavefronts = 2 * warps, e.shared_bank_conflicts = warps;
      break;
    case kPcStLocal:
      e.local_requests = warps, e.local_sectors = 4 * warps;
      break;
    default:
      break;
  }
  return e;
}

TEST_F(PcCountersTest, OneRecordPerExecutedInstruction) {
  constexpr uint32_t kCtas = 3, kWarps = kCtas * kPcBlockThreads / 32;
  const uint32_t n = static_cast<uint32_t>(pc_test_program().size());
  ASSERT_TRUE(run(/*capacity=*/64, /*launches=*/1, kCtas))
      << "fault kind " << d_.reg(REG_FAULT_KIND);
  const WorkReport r = report(0);
  ASSERT_EQ(r.written, 1u);
  const KernelCounters& c = r.counters;
  EXPECT_EQ(c.pc_first, 0u);
  EXPECT_EQ(c.pc_count, n);
  EXPECT_EQ(c.pc_executed, n);
  PcCounters sum{};
  for (uint32_t i = 0; i < n; ++i) {
    const PcCounters got = record(i);
    const PcCounters want = expected_record(i, kWarps);
    EXPECT_TRUE(same(got, want)) << "pc " << i << ": record pc " << got.pc << " warps "
                                 << got.warp_instructions << " lanes " << got.thread_instructions
                                 << " global " << got.global_requests << "/" << got.global_sectors
                                 << "/" << got.global_bytes << " local " << got.local_requests
                                 << "/" << got.local_sectors << " shared " << got.shared_requests
                                 << "/" << got.shared_wavefronts << "/"
                                 << got.shared_bank_conflicts;
    sum.warp_instructions += got.warp_instructions;
    sum.thread_instructions += got.thread_instructions;
    sum.global_requests += got.global_requests;
    sum.global_sectors += got.global_sectors;
    sum.global_bytes += got.global_bytes;
    sum.local_requests += got.local_requests;
    sum.local_sectors += got.local_sectors;
    sum.shared_requests += got.shared_requests;
    sum.shared_wavefronts += got.shared_wavefronts;
    sum.shared_bank_conflicts += got.shared_bank_conflicts;
  }
  // Nothing past the launch's records was written.
  const PcCounters untouched = record(n);
  EXPECT_EQ(untouched.pc, 0xababababu);
  // The records add up to the counter block.
  EXPECT_EQ(sum.warp_instructions, c.warp_instructions);
  EXPECT_EQ(sum.thread_instructions, c.thread_instructions);
  EXPECT_EQ(sum.global_requests,
            c.global_load_requests + c.global_store_requests + c.global_atomic_requests);
  EXPECT_EQ(sum.global_sectors,
            c.global_load_sectors + c.global_store_sectors + c.global_atomic_sectors);
  EXPECT_EQ(sum.global_bytes, c.global_load_bytes + c.global_store_bytes + c.global_atomic_bytes);
  EXPECT_EQ(sum.local_requests, c.local_load_requests + c.local_store_requests);
  EXPECT_EQ(sum.local_sectors, c.local_load_sectors + c.local_store_sectors);
  EXPECT_EQ(sum.shared_requests, c.shared_requests);
  EXPECT_EQ(sum.shared_wavefronts, c.shared_wavefronts);
  EXPECT_EQ(sum.shared_bank_conflicts, c.shared_bank_conflicts);
  // And the kernel did what the program says.
  for (uint32_t i = 0; i < kCtas * kPcBlockThreads; ++i) {
    uint32_t v;
    std::memcpy(&v, d_.vram() + kPcTestPa + kOutOff + 4 * i, 4);
    EXPECT_EQ(v, 1000 + 2 * (i % kPcBlockThreads)) << i;
  }
}

// Launches after one kReport fill the pc area one after another; records that do not
// fit are dropped, and the report still says how many instructions ran.
TEST_F(PcCountersTest, LaunchesShareThePcAreaAndOverflowIsDropped) {
  const uint32_t n = static_cast<uint32_t>(pc_test_program().size());
  const uint32_t capacity = n + 5;
  ASSERT_TRUE(run(capacity, /*launches=*/3, /*ctas=*/1)) << "fault kind " << d_.reg(REG_FAULT_KIND);
  const KernelCounters a = report(0).counters, b = report(1).counters, c = report(2).counters;
  EXPECT_EQ(a.pc_first, 0u);
  EXPECT_EQ(a.pc_count, n);
  EXPECT_EQ(a.pc_executed, n);
  EXPECT_EQ(b.pc_first, n);
  EXPECT_EQ(b.pc_count, 5u);
  EXPECT_EQ(b.pc_executed, n);
  EXPECT_EQ(c.pc_first, capacity);
  EXPECT_EQ(c.pc_count, 0u);
  EXPECT_EQ(c.pc_executed, n);
  for (uint32_t i = 0; i < n; ++i) EXPECT_TRUE(same(record(i), expected_record(i, 2))) << i;
  for (uint32_t i = 0; i < 5; ++i) EXPECT_TRUE(same(record(n + i), expected_record(i, 2))) << i;
  EXPECT_EQ(record(capacity).pc, 0xababababu);  // nothing stored past the capacity

  // A new kReport starts the pc area afresh.
  ASSERT_TRUE(run(capacity, /*launches=*/1, /*ctas=*/1));
  EXPECT_EQ(report(0).counters.pc_first, 0u);
  EXPECT_EQ(report(0).counters.pc_count, n);
}

// kReportPcCounters needs kReportCounters; a zero capacity stores nothing either.
TEST_F(PcCountersTest, NoRecordsWithoutCountersOrCapacity) {
  ASSERT_TRUE(run(/*capacity=*/64, /*launches=*/1, /*ctas=*/1, kReportPcCounters));
  EXPECT_EQ(report(0).written, 1u);
  EXPECT_EQ(report(0).counters.valid, 0u);
  EXPECT_EQ(record(0).pc, 0xababababu);
  ASSERT_TRUE(run(/*capacity=*/0, /*launches=*/1, /*ctas=*/1));
  EXPECT_EQ(report(0).written, 1u);
  EXPECT_NE(report(0).counters.valid, 0u);
  EXPECT_EQ(report(0).counters.pc_count, 0u);
  EXPECT_EQ(record(0).pc, 0xababababu);
}

// The records are sums over warps: the same whatever the number of SM worker threads.
TEST_F(PcCountersTest, RecordsDoNotDependOnWorkerThreads) {
  constexpr uint32_t kCtas = 40;  // more CTAs than SMs: several per SM
  static_assert(kOutOff + 4 * kCtas * kPcBlockThreads <= kPcTestBytes);
  const uint32_t n = static_cast<uint32_t>(pc_test_program().size());
  const char* saved = std::getenv("STRATA_THREADS");
  const std::optional<std::string> old = saved ? std::optional<std::string>(saved) : std::nullopt;
  std::vector<std::vector<PcCounters>> runs;
  for (const char* threads : {"1", "3", "8"}) {
    setenv("STRATA_THREADS", threads, 1);
    ASSERT_TRUE(run(/*capacity=*/64, /*launches=*/1, kCtas)) << threads;
    ASSERT_EQ(report(0).counters.pc_count, n) << threads;
    runs.push_back(records(0, n));
  }
  if (old)
    setenv("STRATA_THREADS", old->c_str(), 1);
  else
    unsetenv("STRATA_THREADS");
  for (uint32_t i = 0; i < n; ++i) {
    EXPECT_TRUE(same(runs[0][i], expected_record(i, kCtas * kPcBlockThreads / 32))) << i;
    EXPECT_TRUE(same(runs[1][i], runs[0][i])) << i;
    EXPECT_TRUE(same(runs[2][i], runs[0][i])) << i;
  }
}

// An unmapped pc area faults the channel (kUnmapped) at the first record's address.
TEST_F(PcCountersTest, UnmappedPcAreaFaults) {
  constexpr uint64_t kUnmappedVa = 0x7000000000ull;
  d_.write_packet(
      0, PacketOp::kReport,
      ReportPacket{kPcTestVa + kReportOff, kReportCounters | kReportPcCounters, 16, kUnmappedVa});
  d_.write_packet(0, PacketOp::kLaunch, pc_packet(1));
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kUnmapped));
  EXPECT_EQ(d_.reg(REG_FAULT_ADDR_LO), static_cast<uint32_t>(kUnmappedVa));
  EXPECT_EQ(d_.reg(REG_FAULT_ADDR_HI), static_cast<uint32_t>(kUnmappedVa >> 32));
  // The report is stored (faulted) after the records' fault.
  EXPECT_TRUE(wait_for([&] { return report(0).written == 1; }));
  EXPECT_EQ(report(0).faulted, 1u);
}

}  // namespace
}  // namespace strata::hw::sim
