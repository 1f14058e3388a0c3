// Faults: the fault FIFO, CH_STATUS, the fault interrupt, channel reset and reuse.
#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>

#include "hw/sim/sim_test_util.h"

namespace strata::hw::sim {
namespace {

using testing::TestDevice;
using testing::wait_for;

constexpr uint64_t kVa = 0x300000000ull;
constexpr uint64_t kSemVa = kVa + 0x3000;
constexpr uint64_t kSemPa = TestDevice::kDataBase + 0x3000;

class FaultTest : public ::testing::Test {
 protected:
  FaultTest() {
    d_.map(kVa, TestDevice::kDataBase, 0x4000);
    d_.map(kVa + 0x4000, TestDevice::kDataBase + 0x4000, 0x1000, /*writable=*/false);
    d_.setup_channel(0);
  }
  bool wait_faulted(uint32_t ch) {
    return wait_for([&] { return d_.ch_reg(ch, REG_CH_STATUS) == 1; });
  }
  uint64_t fault_addr() {
    return d_.reg(REG_FAULT_ADDR_LO) | (uint64_t{d_.reg(REG_FAULT_ADDR_HI)} << 32);
  }
  TestDevice d_;
};

TEST_F(FaultTest, UnmappedCopyFaultsStopsAndRecovers) {
  std::atomic<int> fault_interrupts{0};
  d_.gpu().set_interrupt_handler([&] {
    const uint32_t status = d_.reg(REG_INTR_STATUS);
    if (status & kIntrFault) fault_interrupts.fetch_add(1);
    d_.gpu().write_reg(REG_INTR_STATUS, status);
  });
  d_.gpu().write_reg(REG_INTR_ENABLE, kIntrFault | kIntrCompletion);

  const uint64_t unmapped = 0x7000000000ull + 0x123;
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{unmapped, kVa, 64});
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, 1});
  d_.doorbell(0);
  ASSERT_TRUE(wait_faulted(0));
  EXPECT_TRUE(wait_for([&] { return fault_interrupts.load() >= 1; }));
  EXPECT_EQ(d_.reg(REG_FAULT_CHANNEL), 0u);
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kUnmapped));
  EXPECT_EQ(fault_addr(), unmapped);
  EXPECT_EQ(d_.ch_reg(0, REG_CH_GET), 0u);  // stopped at the faulting packet
  std::this_thread::sleep_for(std::chrono::milliseconds(5));
  EXPECT_EQ(d_.read_u64(kSemPa), 0u);  // later packets did not run

  d_.gpu().write_reg(REG_FAULT_ACK, 1);
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), 0u);

  // Ringing again does nothing until reset.
  d_.doorbell(0);
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_EQ(d_.ch_reg(0, REG_CH_STATUS), 1u);
  d_.reset_channel(0);
  EXPECT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u);
  EXPECT_EQ(d_.ch_reg(0, REG_CH_GET), 0u);
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa, 2});
  d_.doorbell(0);
  ASSERT_TRUE(wait_for([&] { return d_.read_u64(kSemPa) == 2; }));
}

TEST_F(FaultTest, WriteToReadOnlyPage) {
  d_.write_packet(0, PacketOp::kFill, FillPacket{kVa + 0x4000, 16, 0, 4});
  d_.doorbell(0);
  ASSERT_TRUE(wait_faulted(0));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kWriteProtect));
  EXPECT_EQ(fault_addr(), kVa + 0x4000);
}

TEST_F(FaultTest, MisalignedSemaphoreAndFill) {
  d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kSemVa + 4, 1});
  d_.doorbell(0);
  ASSERT_TRUE(wait_faulted(0));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kMisaligned));
  d_.gpu().write_reg(REG_FAULT_ACK, 1);
  d_.reset_channel(0);
  d_.write_packet(0, PacketOp::kFill, FillPacket{kVa + 2, 8, 0, 4});
  d_.doorbell(0);
  ASSERT_TRUE(wait_faulted(0));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kMisaligned));
}

TEST_F(FaultTest, MalformedPacketsAreBadPackets) {
  struct Case {
    const char* what;
    std::function<void()> write;
  };
  const Case cases[] = {
      {"unknown op", [&] { d_.write_raw_dword(0, PacketHeader::make(static_cast<PacketOp>(0x55), 0).raw); }},
      {"short copy payload",
       [&] {
         const uint32_t payload[4] = {};
         d_.write_packet_bytes(0, PacketOp::kCopy, payload, sizeof(payload));
       }},
      {"unknown flag", [&] { d_.write_raw_dword(0, PacketHeader::make(PacketOp::kNop, 0, 0x80).raw); }},
      {"bad fill element", [&] { d_.write_packet(0, PacketOp::kFill, FillPacket{kVa, 6, 0, 3}); }},
      {"packet beyond PUT", [&] { d_.write_raw_dword(0, PacketHeader::make(PacketOp::kSemRelease, 4).raw); }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    d_.reset_channel(0);
    c.write();
    d_.doorbell(0);
    ASSERT_TRUE(wait_faulted(0));
    EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kBadPacket));
    EXPECT_EQ(fault_addr(), TestDevice::kRingBase);  // the packet's ring address
    d_.gpu().write_reg(REG_FAULT_ACK, 1);
  }
}

TEST_F(FaultTest, InvalidRingConfiguration) {
  d_.set_ch_reg(0, REG_CH_RING_SIZE, 1000);  // not a power of two
  d_.write_packet_bytes(0, PacketOp::kNop, nullptr, 0);
  d_.doorbell(0);
  ASSERT_TRUE(wait_faulted(0));
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kBadPacket));
}

TEST_F(FaultTest, FifoKeepsFaultsInOrderAcrossChannels) {
  d_.setup_channel(1);
  d_.write_packet(0, PacketOp::kCopy, CopyPacket{0x1000, kVa, 8});
  d_.doorbell(0);
  ASSERT_TRUE(wait_faulted(0));
  d_.write_packet(1, PacketOp::kCopy, CopyPacket{0x2000, kVa, 8});
  d_.doorbell(1);
  ASSERT_TRUE(wait_faulted(1));
  EXPECT_EQ(d_.reg(REG_FAULT_CHANNEL), 0u);
  EXPECT_EQ(fault_addr(), 0x1000u);
  d_.gpu().write_reg(REG_FAULT_ACK, 1);
  EXPECT_EQ(d_.reg(REG_FAULT_CHANNEL), 1u);
  EXPECT_EQ(fault_addr(), 0x2000u);
  EXPECT_NE(d_.reg(REG_INTR_STATUS) & kIntrFault, 0u);  // still pending
  d_.gpu().write_reg(REG_FAULT_ACK, 1);
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), 0u);
}

}  // namespace
}  // namespace strata::hw::sim
