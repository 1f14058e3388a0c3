// The MMIO register file of the simulated GPU (hw/contract/regs.def).
#include <gtest/gtest.h>

#include <atomic>

#include "hw/sim/sim_test_util.h"

namespace strata::hw::sim {
namespace {

using testing::TestDevice;
using testing::test_config;

TEST(Mmio, IdentificationRegisters) {
  TestDevice d;
  EXPECT_EQ(d.reg(REG_ID), kIdMagic);
  EXPECT_EQ(d.reg(REG_REVISION), 1u);
  const uint64_t vram = d.reg(REG_VRAM_SIZE_LO) | (uint64_t{d.reg(REG_VRAM_SIZE_HI)} << 32);
  EXPECT_EQ(vram, static_cast<uint64_t>(test_config().vram_bytes));
  EXPECT_EQ(d.gpu().vram_size(), vram);
  EXPECT_EQ(d.reg(REG_NUM_SMS), static_cast<uint32_t>(test_config().sm_count));
  EXPECT_EQ(d.reg(REG_NUM_CHANNELS), 64u);
}

TEST(Mmio, ReadOnlyAndUnmappedRegisters) {
  TestDevice d;
  d.gpu().write_reg(REG_ID, 0);
  EXPECT_EQ(d.reg(REG_ID), kIdMagic);
  EXPECT_EQ(d.reg(0x0ffc), 0u);  // unmapped
  d.gpu().write_reg(0x0ffc, 1);
  EXPECT_EQ(d.reg(channel_reg(64, REG_CH_RING_SIZE)), 0u);  // beyond the last channel
  d.set_ch_reg(3, REG_CH_GET, 123);  // read-only
  EXPECT_EQ(d.ch_reg(3, REG_CH_GET), 0u);
  EXPECT_EQ(d.reg(REG_FAULT_KIND), 0u);  // empty fault FIFO
}

TEST(Mmio, ChannelAndWindowRegistersHoldValues) {
  TestDevice d;
  d.set_ch_reg(5, REG_CH_RING_BASE_LO, 0x12345000);
  d.set_ch_reg(5, REG_CH_RING_BASE_HI, 0x1);
  d.set_ch_reg(5, REG_CH_ASID, 77);
  EXPECT_EQ(d.ch_reg(5, REG_CH_RING_BASE_LO), 0x12345000u);
  EXPECT_EQ(d.ch_reg(5, REG_CH_RING_BASE_HI), 1u);
  EXPECT_EQ(d.ch_reg(5, REG_CH_ASID), 77u);
  EXPECT_EQ(d.ch_reg(4, REG_CH_ASID), 0u);
  d.gpu().write_reg(REG_SHARED_WINDOW_LO, 0x01000000);
  d.gpu().write_reg(REG_SHARED_WINDOW_HI, 0x7f00);
  d.gpu().write_reg(REG_LOCAL_WINDOW_HI, 0x7e00);
  EXPECT_EQ(d.reg(REG_SHARED_WINDOW_LO), 0x01000000u);
  EXPECT_EQ(d.reg(REG_SHARED_WINDOW_HI), 0x7f00u);
  EXPECT_EQ(d.reg(REG_LOCAL_WINDOW_HI), 0x7e00u);
}

TEST(Mmio, VramIsZeroedAndWritable) {
  TestDevice d;
  uint8_t* v = d.vram();
  const uint64_t last = d.gpu().vram_size() - 1;
  EXPECT_EQ(v[0], 0);
  EXPECT_EQ(v[last], 0);
  v[last] = 42;
  EXPECT_EQ(v[last], 42);
}

TEST(Mmio, InterruptsAreEdgeDeliveredAndWriteOneToClear) {
  TestDevice d;
  std::atomic<int> calls{0};
  d.gpu().set_interrupt_handler([&] {
    // The handler may touch registers: no GPU lock is held.
    const uint32_t status = d.reg(REG_INTR_STATUS);
    d.gpu().write_reg(REG_INTR_STATUS, status);
    calls.fetch_add(1);
  });
  d.setup_channel(0);
  d.gpu().write_reg(REG_INTR_ENABLE, kIntrCompletion | kIntrFault);
  EXPECT_EQ(d.reg(REG_INTR_ENABLE), kIntrCompletion | kIntrFault);
  d.write_packet_bytes(0, PacketOp::kNop, nullptr, 0, kPacketInterrupt);
  d.doorbell(0);
  ASSERT_TRUE(testing::wait_for([&] { return calls.load() >= 1; }));
  EXPECT_TRUE(testing::wait_for([&] { return d.reg(REG_INTR_STATUS) == 0; }));
}

TEST(Mmio, MaskedInterruptIsDeliveredWhenEnabled) {
  TestDevice d;
  std::atomic<int> calls{0};
  d.gpu().set_interrupt_handler([&] { calls.fetch_add(1); });
  d.setup_channel(0);
  d.write_packet_bytes(0, PacketOp::kNop, nullptr, 0, kPacketInterrupt);
  d.doorbell(0);
  ASSERT_TRUE(testing::wait_for([&] { return (d.reg(REG_INTR_STATUS) & kIntrCompletion) != 0; }));
  EXPECT_EQ(calls.load(), 0);
  d.gpu().write_reg(REG_INTR_ENABLE, kIntrCompletion);
  EXPECT_TRUE(testing::wait_for([&] { return calls.load() == 1; }));
  d.gpu().write_reg(REG_INTR_STATUS, kIntrCompletion);
  EXPECT_EQ(d.reg(REG_INTR_STATUS) & kIntrCompletion, 0u);
}

}  // namespace
}  // namespace strata::hw::sim
