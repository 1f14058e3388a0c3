#include "kmd/ring.h"

#include <gtest/gtest.h>

#include <vector>

#include "hw/contract/packets.h"

namespace strata::kmd {
namespace {

std::vector<uint32_t> sem_packet(uint64_t value) {
  std::vector<uint32_t> p(5);
  p[0] = hw::PacketHeader::make(hw::PacketOp::kSemRelease, 4).raw;
  p[3] = static_cast<uint32_t>(value);
  return p;
}

TEST(Ring, WrapsWithNopPadding) {
  std::vector<uint32_t> mem(64 / 4, 0xdeadbeef);
  Ring ring(mem.data(), 64);
  uint32_t get = 0;
  // 5-dword packets: three fit in 60 usable bytes; the fourth needs the wrap.
  for (int i = 0; i < 3; ++i) {
    ASSERT_GE(ring.free_bytes(get), ring.bytes_needed(5));
    ring.write_packet(sem_packet(i));
  }
  EXPECT_EQ(ring.put(), 60u);
  EXPECT_LT(ring.free_bytes(get), ring.bytes_needed(5));  // full
  get = 40;                                                  // consumer took two packets
  EXPECT_EQ(ring.bytes_needed(5), 4u + 20u);                 // 4 bytes of padding
  ASSERT_GE(ring.free_bytes(get), ring.bytes_needed(5));
  ring.write_packet(sem_packet(7));
  EXPECT_EQ(ring.put(), 20u);
  const hw::PacketHeader pad{mem[15]};
  EXPECT_EQ(pad.op(), hw::PacketOp::kNop);
  EXPECT_EQ(pad.dwords(), 0u);
  EXPECT_EQ(hw::PacketHeader{mem[0]}.op(), hw::PacketOp::kSemRelease);
  EXPECT_EQ(mem[3], 7u);
  EXPECT_EQ(ring.commit(), 20u);
  EXPECT_EQ(ring.committed_put(), 20u);
}

TEST(Ring, ValidatesPacketStreams) {
  auto p = sem_packet(1);
  int count = 0;
  auto visit = [&](std::span<const uint32_t>) { ++count; };
  std::vector<uint32_t> two = p;
  two.insert(two.end(), p.begin(), p.end());
  EXPECT_TRUE(for_each_packet(two, 100, visit).ok());
  EXPECT_EQ(count, 2);
  std::vector<uint32_t> truncated(p.begin(), p.end() - 1);
  EXPECT_EQ(for_each_packet(truncated, 100, visit).code(), Code::kInvalidValue);
  std::vector<uint32_t> wrong = {hw::PacketHeader::make(hw::PacketOp::kCopy, 2).raw, 0, 0};
  EXPECT_EQ(for_each_packet(wrong, 100, visit).code(), Code::kInvalidValue);
  std::vector<uint32_t> unknown = {0x55};
  EXPECT_EQ(for_each_packet(unknown, 100, visit).code(), Code::kInvalidValue);
  std::vector<uint32_t> big(60, 0);
  big[0] = hw::PacketHeader::make(hw::PacketOp::kNop, 59).raw;
  EXPECT_EQ(for_each_packet(big, 8, visit).code(), Code::kInvalidValue);
}

}  // namespace
}  // namespace strata::kmd
