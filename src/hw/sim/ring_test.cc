// The command processor driven through MMIO: rings, copies, fills, semaphores,
// timestamps and completion interrupts.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <thread>
#include <vector>

#include "hw/contract/report.h"
#include "hw/sim/sim_test_util.h"

namespace strata::hw::sim {
namespace {

using testing::TestDevice;
using testing::wait_for;

constexpr uint64_t kVa = 0x200000000ull;         // 64 KiB of data at kDataBase
constexpr uint64_t kSemVa = kVa + 0xf000;        // semaphores on the last page
constexpr uint64_t kSemPa = TestDevice::kDataBase + 0xf000;

class RingTest : public ::testing::Test {
 protected:
  RingTest() {
    d_.map(kVa, TestDevice::kDataBase, 0x10000);
    d_.setup_channel(0);
  }
  void release(uint32_t ch, uint64_t va, uint64_t value, uint8_t flags = 0) {
    d_.write_packet(ch, PacketOp::kSemRelease, SemPacket{va, value}, flags);
  }
  bool wait_sem(uint64_t pa, uint64_t value) {
    return wait_for([&] { return d_.read_u64(pa) >= value; });
  }
  TestDevice d_;
};

TEST_F(RingTest, CopyFillTimestampAndSemaphore) {
  std::atomic<int> interrupts{0};
  d_.gpu().set_interrupt_handler([&] {
    d_.gpu().write_reg(REG_INTR_STATUS, d_.reg(REG_INTR_STATUS));
    interrupts.fetch_add(1);
  });
  d_.gpu().write_reg(REG_INTR_ENABLE, kIntrCompletion);

  alignas(4096) static uint8_t host[2 * 4096];
  std::memset(host, 0xee, sizeof(host));
  d_.map_sysmem(host, sizeof(host));

  // Source pattern in VRAM, written through the aperture.
  for (int i = 0; i < 6100; ++i) d_.vram()[TestDevice::kDataBase + i] = static_cast<uint8_t>(i * 7);
  d_.write_packet(0, PacketOp::kTimestamp, TimestampPacket{kSemVa + 8});
  // VRAM -> VRAM across a page boundary, at unaligned offsets.
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{kVa + 3, kVa + 0x8000 + 1, 6000});
  // Fill 2-byte pattern, then 4-byte, then bytes.
  d_.write_packet(0, PacketOp::kFill, FillPacket{kVa + 0x6000, 4096 + 8, 0xbeef, 2});
  d_.write_packet(0, PacketOp::kFill, FillPacket{kVa + 0x7000 + 8, 16, 0x11223344, 4});
  // VRAM -> sysmem, spanning two host pages.
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{kVa, reinterpret_cast<uintptr_t>(host) + 100, 5000});
  d_.write_packet(0, PacketOp::kTimestamp, TimestampPacket{kSemVa + 16});
  release(0, kSemVa, 1, kPacketInterrupt);
  d_.doorbell(0);

  ASSERT_TRUE(wait_sem(kSemPa, 1));
  const uint8_t* v = d_.vram() + TestDevice::kDataBase;
  for (int i = 0; i < 6000; ++i) ASSERT_EQ(v[0x8000 + 1 + i], static_cast<uint8_t>((i + 3) * 7)) << i;
  EXPECT_EQ(v[0x8000], 0);
  EXPECT_EQ(v[0x8000 + 6001], 0);
  for (int i = 0; i < 4096 + 8; i += 2) {
    ASSERT_EQ(v[0x6000 + i], 0xef);
    ASSERT_EQ(v[0x6000 + i + 1], 0xbe);
  }
  uint32_t word;
  std::memcpy(&word, v + 0x7000 + 12, 4);
  EXPECT_EQ(word, 0x11223344u);
  for (int i = 0; i < 5000; ++i) ASSERT_EQ(host[100 + i], v[i]) << i;
  EXPECT_EQ(host[99], 0xee);
  EXPECT_EQ(host[5100], 0xee);

  const uint64_t t0 = d_.read_u64(kSemPa + 8);
  const uint64_t t1 = d_.read_u64(kSemPa + 16);
  EXPECT_LT(t0, t1);  // the copies and fills advanced the device clock
  const uint32_t lo = d_.reg(REG_TIMER_LO);
  const uint64_t now = lo | (uint64_t{d_.reg(REG_TIMER_HI)} << 32);
  EXPECT_GE(now, t1);

  EXPECT_TRUE(wait_for([&] { return interrupts.load() >= 1; }));
  EXPECT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_GET) == d_.ch_reg(0, REG_CH_PUT); }));
  EXPECT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u);
}

TEST_F(RingTest, HugePageCopy) {
  const uint64_t huge_va = 0x400000000ull;
  const uint64_t huge_pa = 0x4000000;  // 64 MiB, 2 MiB aligned
  d_.map_huge(huge_va, huge_pa);
  d_.write_packet(0, PacketOp::kFill, FillPacket{huge_va + 0x1ff000, 0x1000, 0xab, 1});
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{huge_va + 0x1ff800, kVa, 0x800});
  release(0, kSemVa, 1);
  d_.doorbell(0);
  ASSERT_TRUE(wait_sem(kSemPa, 1));
  EXPECT_EQ(d_.vram()[huge_pa + 0x1fffff], 0xab);
  EXPECT_EQ(d_.vram()[TestDevice::kDataBase + 0x7ff], 0xab);
  EXPECT_EQ(d_.vram()[TestDevice::kDataBase + 0x800], 0);
}

TEST_F(RingTest, PacketsWrapAroundTheRing) {
  d_.setup_channel(1, /*ring_bytes=*/64);
  // Each release is 5 dwords (20 bytes): packets straddle the 64-byte ring's end.
  for (uint64_t value = 1; value <= 40; ++value) {
    release(1, kSemVa, value);
    d_.doorbell(1);
    ASSERT_TRUE(wait_sem(kSemPa, value)) << value;
    ASSERT_TRUE(wait_for([&] { return d_.ch_reg(1, REG_CH_GET) == d_.ch_reg(1, REG_CH_PUT); }));
  }
  EXPECT_EQ(d_.read_u64(kSemPa), 40u);
  EXPECT_EQ(d_.ch_reg(1, REG_CH_GET), (40u * 20u) % 64u);
}

TEST_F(RingTest, NopPayloadIsSkipped) {
  const uint32_t padding[3] = {1, 2, 3};
  d_.write_packet_bytes(0, PacketOp::kNop, padding, sizeof(padding));
  release(0, kSemVa, 9);
  d_.doorbell(0);
  ASSERT_TRUE(wait_sem(kSemPa, 9));
}

TEST_F(RingTest, BlockedAcquireDoesNotBlockOtherChannels) {
  d_.setup_channel(2);
  const uint64_t a = kSemVa + 0x100, b = kSemVa + 0x108, c = kSemVa + 0x110;
  // Channel 0 waits for a >= 1, then releases b.
  d_.write_packet(0, PacketOp::kSemAcquire, SemPacket{a, 1});
  release(0, b, 1);
  d_.doorbell(0);
  // Channel 2 proceeds meanwhile.
  d_.write_packet(2, PacketOp::kFill, FillPacket{kVa, 64, 0x5a, 1});
  release(2, c, 1);
  d_.doorbell(2);
  ASSERT_TRUE(wait_sem(kSemPa + 0x110, 1));
  EXPECT_EQ(d_.read_u64(kSemPa + 0x108), 0u);
  EXPECT_EQ(d_.ch_reg(0, REG_CH_GET), 0u);  // still at the acquire
  // Channel 2 releases a: channel 0 continues.
  release(2, a, 1);
  d_.doorbell(2);
  ASSERT_TRUE(wait_sem(kSemPa + 0x108, 1));
}

TEST_F(RingTest, AcquireNoticesHostWrites) {
  const uint64_t a = kSemVa + 0x200, b = kSemVa + 0x208;
  d_.write_packet(0, PacketOp::kSemAcquire, SemPacket{a, 5});
  release(0, b, 1);
  d_.doorbell(0);
  d_.write_u64(kSemPa + 0x200, 4);  // not enough
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(d_.read_u64(kSemPa + 0x208), 0u);
  d_.write_u64(kSemPa + 0x200, 6);  // no doorbell: the command processor polls
  ASSERT_TRUE(wait_sem(kSemPa + 0x208, 1));
}

TEST_F(RingTest, DisabledChannelDoesNotRun) {
  d_.set_ch_reg(0, REG_CH_CTRL, 0);  // disable
  release(0, kSemVa, 3);
  d_.doorbell(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(d_.read_u64(kSemPa), 0u);
  d_.set_ch_reg(0, REG_CH_CTRL, 1);  // enable, keeping GET/PUT
  ASSERT_TRUE(wait_sem(kSemPa, 3));
}

}  // namespace
}  // namespace strata::hw::sim

namespace strata::hw::sim {
namespace {

// Work reports (hw/contract/report.h): armed by kReport, each work packet stores its
// times in its slot, `written` last; disarmed packets and non-work packets store nothing.
TEST_F(RingTest, WorkReportsOfCopiesAndFills) {
  constexpr uint64_t kReportVa = kVa + 0xa000;  // three slots fit below the semaphores
  constexpr uint64_t kReportPa = TestDevice::kDataBase + 0xa000;
  static_assert(3 * sizeof(WorkReport) <= 0x5000);
  d_.write_packet(0, PacketOp::kReport, ReportPacket{kReportVa, 0, 0});
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{kVa, kVa + 0x1000, 4096});
  d_.write_packet(0, PacketOp::kTimestamp, TimestampPacket{kSemVa + 8});  // not work
  d_.write_packet(0, PacketOp::kFill, FillPacket{kVa + 0x2000, 256, 7, 4});
  d_.write_packet(0, PacketOp::kReport, ReportPacket{0, 0, 0});
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{kVa, kVa + 0x3000, 64});  // not reported
  release(0, kSemVa, 1);
  d_.doorbell(0);
  ASSERT_TRUE(wait_sem(kSemPa, 1));
  auto report = [&](int k) {
    WorkReport r;
    std::memcpy(&r, d_.vram() + kReportPa + k * sizeof(WorkReport), sizeof(r));
    return r;
  };
  const WorkReport copy = report(0), fill = report(1), none = report(2);
  EXPECT_EQ(copy.written, 1u);
  EXPECT_EQ(copy.op, static_cast<uint32_t>(ReportOp::kCopy));
  EXPECT_EQ(copy.bytes, 4096u);
  EXPECT_EQ(copy.faulted, 0u);
  EXPECT_LE(copy.submit_ns, copy.start_ns);
  EXPECT_LT(copy.start_ns, copy.end_ns);
  EXPECT_EQ(copy.counters.valid, 0u);
  EXPECT_EQ(fill.written, 1u);
  EXPECT_EQ(fill.op, static_cast<uint32_t>(ReportOp::kFill));
  EXPECT_EQ(fill.bytes, 256u);
  EXPECT_GE(fill.start_ns, copy.end_ns);  // in channel order
  // The timestamp between them was taken after the copy and before the fill.
  const uint64_t stamp = d_.read_u64(kSemPa + 8);
  EXPECT_GE(stamp, copy.end_ns);
  EXPECT_LE(stamp, fill.start_ns);
  EXPECT_EQ(none.written, 0u);  // disarmed
  EXPECT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u);
}

TEST_F(RingTest, UnmappedWorkReportFaultsTheChannel) {
  d_.write_packet(0, PacketOp::kReport, ReportPacket{0x7000000000ull, 0, 0});
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{kVa, kVa + 0x1000, 64});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kUnmapped));
  EXPECT_EQ(d_.reg(REG_FAULT_ADDR_LO), 0u);
  EXPECT_EQ(d_.reg(REG_FAULT_ADDR_HI), 0x70u);
  // The copy itself ran before the report was stored.
  EXPECT_EQ(std::memcmp(d_.vram() + TestDevice::kDataBase, d_.vram() + TestDevice::kDataBase + 0x1000, 64), 0);
}

TEST_F(RingTest, MisalignedReportAddressIsAFault) {
  d_.write_packet(0, PacketOp::kReport, ReportPacket{kVa + 4, 0, 0});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kMisaligned));
}

TEST_F(RingTest, UnknownReportFlagIsABadPacket) {
  d_.write_packet(0, PacketOp::kReport, ReportPacket{kVa, kKnownReportFlags + 1, 0, 0});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kBadPacket));
}

TEST_F(RingTest, MisalignedPcAreaIsAFault) {
  const uint32_t flags = kReportCounters | kReportPcCounters;
  d_.write_packet(0, PacketOp::kReport, ReportPacket{kVa, flags, 4, kVa + 0x1004});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.ch_reg(0, REG_CH_STATUS) == 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kMisaligned));
  EXPECT_EQ(d_.reg(REG_FAULT_ADDR_LO), static_cast<uint32_t>(kVa + 0x1004));
}

// Copies and fills are reported, but only launches store per-instruction records.
TEST_F(RingTest, CopiesStoreNoPcRecords) {
  constexpr uint64_t kPcArea = 0x8000;
  std::memset(d_.vram() + TestDevice::kDataBase + kPcArea, 0xab, sizeof(PcCounters));
  d_.write_packet(
      0, PacketOp::kReport,
      ReportPacket{kVa + 0xa000, kReportCounters | kReportPcCounters, 4, kVa + kPcArea});
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{kVa, kVa + 0x1000, 64});
  release(0, kSemVa, 1);
  d_.doorbell(0);
  ASSERT_TRUE(wait_sem(kSemPa, 1));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u);
  WorkReport r;
  std::memcpy(&r, d_.vram() + TestDevice::kDataBase + 0xa000, sizeof(r));
  EXPECT_EQ(r.written, 1u);
  EXPECT_EQ(r.op, static_cast<uint32_t>(ReportOp::kCopy));
  uint8_t area[sizeof(PcCounters)];
  std::memcpy(area, d_.vram() + TestDevice::kDataBase + kPcArea, sizeof(area));
  for (uint8_t b : area) EXPECT_EQ(b, 0xab);
}

}  // namespace
}  // namespace strata::hw::sim
