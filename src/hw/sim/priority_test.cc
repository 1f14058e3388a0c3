// Channel priorities (CH_PRIORITY, docs/hw-contract.md): between packets the command
// processor runs the next packet of the highest-priority channel that can make progress.
// Two channels wait on one gate semaphore that the host opens; the high-priority one
// then writes a counter N times while the low-priority one copies the counter: the copy
// sees N when the writer has priority and 0 when the copier has it. Within one level
// the channel whose packets were submitted first (kHostTime) goes first.
#include <gtest/gtest.h>

#include "hw/sim/sim_test_util.h"

namespace strata::hw::sim {
namespace {

using testing::TestDevice;
using testing::wait_for;

constexpr uint64_t kVa = 0x200000000ull;  // 64 KiB of data at kDataBase
constexpr uint64_t kPa = TestDevice::kDataBase;
constexpr uint64_t kGate = 0x0, kCounter = 0x100, kSeen = 0x200, kWriterDone = 0x300,
                   kCopierDone = 0x308;
constexpr uint32_t kWriter = 3, kCopier = 5;
constexpr uint64_t kWrites = 50;

class PriorityTest : public ::testing::Test {
 protected:
  PriorityTest() {
    d_.map(kVa, kPa, 0x10000);
    d_.setup_channel(kWriter);
    d_.setup_channel(kCopier);
  }
  // Queues the gated work on both channels, opens the gate, returns what the copy saw.
  // A nonzero host time puts a kHostTime packet carrying it ahead of the channel's work.
  uint64_t race(uint32_t writer_priority, uint32_t copier_priority, uint64_t writer_time = 0,
                uint64_t copier_time = 0) {
    d_.set_ch_reg(kWriter, REG_CH_PRIORITY, writer_priority);
    d_.set_ch_reg(kCopier, REG_CH_PRIORITY, copier_priority);
    for (uint64_t off : {kGate, kCounter, kSeen, kWriterDone, kCopierDone}) {
      d_.write_u64(kPa + off, 0);
    }
    d_.write_u64(kPa + kSeen, ~0ull);
    if (writer_time != 0) {
      d_.write_packet(kWriter, PacketOp::kHostTime, HostTimePacket{writer_time});
    }
    if (copier_time != 0) {
      d_.write_packet(kCopier, PacketOp::kHostTime, HostTimePacket{copier_time});
    }
    d_.write_packet(kWriter, PacketOp::kSemAcquire, SemPacket{kVa + kGate, 1});
    for (uint64_t v = 1; v <= kWrites; ++v) {
      d_.write_packet(kWriter, PacketOp::kSemRelease, SemPacket{kVa + kCounter, v});
    }
    d_.write_packet(kWriter, PacketOp::kSemRelease, SemPacket{kVa + kWriterDone, 1});
    d_.write_packet(kCopier, PacketOp::kSemAcquire, SemPacket{kVa + kGate, 1});
    d_.write_packet(kCopier, PacketOp::kCopy, CopyPacket{kVa + kCounter, kVa + kSeen, 8});
    d_.write_packet(kCopier, PacketOp::kSemRelease, SemPacket{kVa + kCopierDone, 1});
    d_.doorbell(kWriter);
    d_.doorbell(kCopier);
    d_.write_u64(kPa + kGate, 1);
    EXPECT_TRUE(wait_for([&] {
      return d_.read_u64(kPa + kWriterDone) == 1 && d_.read_u64(kPa + kCopierDone) == 1;
    }));
    EXPECT_EQ(d_.read_u64(kPa + kCounter), kWrites);
    return d_.read_u64(kPa + kSeen);
  }
  TestDevice d_;
};

TEST_F(PriorityTest, RegisterResetsToZeroAndSaturates) {
  EXPECT_EQ(d_.ch_reg(7, REG_CH_PRIORITY), 0u);
  d_.set_ch_reg(7, REG_CH_PRIORITY, 4);
  EXPECT_EQ(d_.ch_reg(7, REG_CH_PRIORITY), 4u);
  d_.set_ch_reg(7, REG_CH_PRIORITY, 1000);
  EXPECT_EQ(d_.ch_reg(7, REG_CH_PRIORITY), kMaxChannelPriority);
  EXPECT_EQ(d_.ch_reg(8, REG_CH_PRIORITY), 0u);
}

TEST_F(PriorityTest, HigherPriorityChannelRunsFirst) {
  EXPECT_EQ(race(/*writer_priority=*/6, /*copier_priority=*/0), kWrites);
  EXPECT_EQ(race(/*writer_priority=*/1, /*copier_priority=*/kMaxChannelPriority), 0u);
  EXPECT_EQ(race(/*writer_priority=*/2, /*copier_priority=*/1), kWrites);
}

// Equal priorities: the earlier submission runs first, whatever the channel numbers
// (ties: the lower channel), so the order does not depend on wall-clock interleaving.
TEST_F(PriorityTest, EarlierSubmittedChannelRunsFirstWithinALevel) {
  EXPECT_EQ(race(0, 0, /*writer_time=*/1000, /*copier_time=*/2000), kWrites);
  EXPECT_EQ(race(0, 0, /*writer_time=*/4000, /*copier_time=*/3000), 0u);
  EXPECT_EQ(race(2, 2, /*writer_time=*/5000, /*copier_time=*/5000), kWrites);  // kWriter < kCopier
  // Without a kHostTime of its own at its head a channel keeps its last submit time
  // (5000): the writer, now submitted at 6000, goes second.
  EXPECT_EQ(race(1, 1, /*writer_time=*/6000, /*copier_time=*/0), 0u);
}

TEST_F(PriorityTest, BlockedHighPriorityChannelDoesNotStarveLowerOnes) {
  d_.set_ch_reg(kWriter, REG_CH_PRIORITY, kMaxChannelPriority);
  d_.write_u64(kPa + kGate, 0);
  d_.write_u64(kPa + kCopierDone, 0);
  d_.write_packet(kWriter, PacketOp::kSemAcquire, SemPacket{kVa + kGate, 1});
  d_.doorbell(kWriter);
  d_.write_packet(kCopier, PacketOp::kSemRelease, SemPacket{kVa + kCopierDone, 7});
  d_.doorbell(kCopier);
  EXPECT_TRUE(wait_for([&] { return d_.read_u64(kPa + kCopierDone) == 7; }));
  EXPECT_EQ(d_.ch_reg(kWriter, REG_CH_GET), 0u);  // still waiting
  d_.write_u64(kPa + kGate, 1);
  EXPECT_TRUE(wait_for([&] { return d_.ch_reg(kWriter, REG_CH_GET) != 0; }));
}

}  // namespace
}  // namespace strata::hw::sim
