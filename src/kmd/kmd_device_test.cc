// The KMD against the fake GPU (kmd/testing/fake_gpu.h): contexts, memory, channels,
// ring wrap-around, fences, timeouts and fault recovery.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <thread>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/contract/packets.h"
#include "kmd/kmd.h"
#include "kmd/testing/fake_gpu.h"

namespace strata::kmd {
namespace {

template <typename T>
std::vector<uint32_t> packet(hw::PacketOp op, const T& payload, uint8_t flags = 0) {
  std::vector<uint32_t> p(1 + sizeof(T) / 4);
  p[0] = hw::PacketHeader::make(op, sizeof(T) / 4, flags).raw;
  std::memcpy(&p[1], &payload, sizeof(T));
  return p;
}

class KmdDeviceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    auto device = kmd_create_device(0, config_, testing::create_fake_gpu());
    ASSERT_TRUE(device.ok()) << device.status().to_string();
    device_ = *device;
    h_ = kmd_handle(device_);
    KmdGetInfo info{};
    ASSERT_TRUE(kmd_ioctl(h_, kIoctlGetInfo, &info).ok());
    info_ = info;
    KmdContextCreate ctx{};
    ASSERT_TRUE(kmd_ioctl(h_, kIoctlContextCreate, &ctx).ok());
    ctx_ = ctx.context;
  }

  // Device memory mapped at a fresh VA; returns {va, phys}.
  std::pair<uint64_t, uint64_t> alloc_mapped(uint64_t size, ContextId ctx = 0) {
    KmdMemAlloc mem{size, 0};
    EXPECT_TRUE(kmd_ioctl(h_, kIoctlMemAlloc, &mem).ok());
    KmdVaAlloc va{size, 0};
    EXPECT_TRUE(kmd_ioctl(h_, kIoctlVaAlloc, &va).ok());
    KmdMap map{ctx ? ctx : ctx_, mem.memory, va.va, 0, size, kMapWritable};
    Status s = kmd_ioctl(h_, kIoctlMap, &map);
    EXPECT_TRUE(s.ok()) << s.to_string();
    return {va.va, mem.phys_addr};
  }

  ChannelId channel(uint32_t ring_bytes = 0, ContextId ctx = 0) {
    KmdChannelCreate ch{ctx ? ctx : ctx_, 0, 0, ring_bytes};
    Status s = kmd_ioctl(h_, kIoctlChannelCreate, &ch);
    EXPECT_TRUE(s.ok()) << s.to_string();
    return ch.channel;
  }

  StatusOr<uint64_t> submit(ChannelId ch, const std::vector<uint32_t>& dwords) {
    KmdSubmit s{ch, static_cast<uint32_t>(dwords.size()), dwords.data(), 0};
    RETURN_IF_ERROR(kmd_ioctl(h_, kIoctlSubmit, &s));
    return s.fence;
  }

  Status wait(ChannelId ch, uint64_t fence, uint64_t timeout_ns = 5'000'000'000) {
    KmdFenceWait w{ch, 0, fence, timeout_ns};
    return kmd_ioctl(h_, kIoctlFenceWait, &w);
  }

  hw::ArchConfig config_;
  std::shared_ptr<KmdDevice> device_;
  KmdHandle h_;
  KmdGetInfo info_{};
  ContextId ctx_ = 0;
};

TEST_F(KmdDeviceTest, ReportsDevice) {
  EXPECT_EQ(info_.uapi_version, kKmdUapiVersion);
  EXPECT_EQ(info_.num_channels, 8u);
  EXPECT_EQ(info_.vram_size, 256ull << 20);
  EXPECT_EQ(info_.shared_window % (16 << 20), 0u);
  EXPECT_EQ(info_.local_window % (16 << 20), 0u);
  EXPECT_NE(info_.shared_window, info_.local_window);
  EXPECT_NE(info_.arch, nullptr);
  EXPECT_NE(info_.vram_aperture, nullptr);
  KmdReadTimer t1{}, t2{};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlReadTimer, &t1).ok());
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlReadTimer, &t2).ok());
  EXPECT_LE(t1.ns, t2.ns);
}

TEST_F(KmdDeviceTest, RejectsBadRequests) {
  EXPECT_EQ(kmd_ioctl(h_, kIoctlGetInfo, nullptr).code(), Code::kInvalidValue);
  KmdGetInfo info{};
  EXPECT_EQ(kmd_ioctl(h_, static_cast<IoctlCode>(ioctl_code(1, 3)), &info).code(), Code::kInvalidValue);
  EXPECT_EQ(kmd_ioctl(KmdHandle{}, kIoctlGetInfo, &info).code(), Code::kInvalidHandle);
  KmdChannelCreate ch{999, 0, 0, 0};
  EXPECT_EQ(kmd_ioctl(h_, kIoctlChannelCreate, &ch).code(), Code::kInvalidHandle);
  KmdMap map{ctx_, 12345, info_.va_range_base, 0, 4096, 0};
  EXPECT_EQ(kmd_ioctl(h_, kIoctlMap, &map).code(), Code::kInvalidHandle);
  KmdMemAlloc huge{1ull << 40, 0};
  EXPECT_EQ(kmd_ioctl(h_, kIoctlMemAlloc, &huge).code(), Code::kOutOfMemory);
  // Device memory may not be mapped outside the reserved VA range (host addresses).
  KmdMemAlloc mem{4096, 0};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlMemAlloc, &mem).ok());
  KmdMap outside{ctx_, mem.memory, 0x10000, 0, 4096, 0};
  EXPECT_EQ(kmd_ioctl(h_, kIoctlMap, &outside).code(), Code::kInvalidValue);
  std::vector<uint32_t> garbage = {hw::PacketHeader::make(hw::PacketOp::kCopy, 1).raw, 0};
  ChannelId c = channel();
  EXPECT_EQ(submit(c, garbage).status().code(), Code::kInvalidValue);
}

TEST_F(KmdDeviceTest, FillAndCopyThroughPageTables) {
  auto [src, src_phys] = alloc_mapped(64 * 1024);
  auto [dst, dst_phys] = alloc_mapped(64 * 1024);
  ChannelId c = channel();
  std::vector<uint32_t> cmds = packet(hw::PacketOp::kFill, hw::FillPacket{src, 4096, 0xa1b2c3d4, 4});
  auto copy = packet(hw::PacketOp::kCopy, hw::CopyPacket{src, dst + 8, 4096});
  cmds.insert(cmds.end(), copy.begin(), copy.end());
  auto fence = submit(c, cmds);
  ASSERT_TRUE(fence.ok()) << fence.status().to_string();
  ASSERT_TRUE(wait(c, *fence).ok());
  uint32_t word;
  std::memcpy(&word, info_.vram_aperture + dst_phys + 8 + 100 * 4, 4);
  EXPECT_EQ(word, 0xa1b2c3d4u);
}

TEST_F(KmdDeviceTest, RingWrapsAroundUnderManySmallSubmissions) {
  // A 4 KiB ring and 2000 submissions of a timestamp + counter write: the ring wraps
  // dozens of times and fills up, exercising back-pressure.
  auto [va, phys] = alloc_mapped(4096);
  ChannelId c = channel(4096);
  uint64_t last = 0;
  for (uint64_t i = 1; i <= 2000; ++i) {
    auto cmds = packet(hw::PacketOp::kTimestamp, hw::TimestampPacket{va + 8});
    auto sem = packet(hw::PacketOp::kSemRelease, hw::SemPacket{va, i});
    cmds.insert(cmds.end(), sem.begin(), sem.end());
    auto fence = submit(c, cmds);
    ASSERT_TRUE(fence.ok()) << fence.status().to_string();
    EXPECT_EQ(*fence, last + 1);
    last = *fence;
  }
  ASSERT_TRUE(wait(c, last).ok());
  uint64_t value;
  std::memcpy(&value, info_.vram_aperture + phys, 8);
  EXPECT_EQ(value, 2000u);
}

TEST_F(KmdDeviceTest, FenceWaitTimesOutThenCompletesAfterHostSignal) {
  alignas(4096) static uint64_t host_sem[512];
  host_sem[0] = 0;
  const uint64_t addr = reinterpret_cast<uint64_t>(host_sem);
  KmdHostMap hm{ctx_, kMapWritable, addr, sizeof(host_sem)};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlHostMap, &hm).ok());
  ChannelId c = channel();
  auto fence = submit(c, packet(hw::PacketOp::kSemAcquire, hw::SemPacket{addr, 5}));
  ASSERT_TRUE(fence.ok());
  EXPECT_EQ(wait(c, *fence, 0).code(), Code::kNotReady);
  EXPECT_EQ(wait(c, *fence, 30'000'000).code(), Code::kNotReady);
  std::atomic_ref<uint64_t>(host_sem[0]).store(5);
  KmdNotify n{};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlNotify, &n).ok());
  EXPECT_TRUE(wait(c, *fence).ok());
  KmdUnmap um{ctx_, 0, addr, sizeof(host_sem)};
  EXPECT_TRUE(kmd_ioctl(h_, kIoctlUnmap, &um).ok());
  EXPECT_EQ(kmd_ioctl(h_, kIoctlUnmap, &um).code(), Code::kInvalidValue);
}

TEST_F(KmdDeviceTest, WaitEventReturnsOnInterrupt) {
  KmdWaitEvent ev{0, 0, 0};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlWaitEvent, &ev).ok());
  const uint64_t seen = ev.count;
  ChannelId c = channel();
  auto fence = submit(c, {});
  ASSERT_TRUE(fence.ok());
  ASSERT_TRUE(wait(c, *fence).ok());
  KmdWaitEvent ev2{seen, 1'000'000'000, 0};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlWaitEvent, &ev2).ok());
  EXPECT_GT(ev2.count, seen);
}

TEST_F(KmdDeviceTest, FaultIsStickyForTheContextOnly) {
  auto [dst, dst_phys] = alloc_mapped(4096);
  ChannelId c = channel();
  const uint64_t unmapped = info_.va_range_base + (512ull << 30);
  auto fence = submit(c, packet(hw::PacketOp::kCopy, hw::CopyPacket{unmapped, dst, 64}));
  ASSERT_TRUE(fence.ok());
  Status s = wait(c, *fence);
  ASSERT_EQ(s.code(), Code::kIllegalAddress) << s.to_string();
  EXPECT_NE(s.message().find(fmt::format("0x{:x}", unmapped)), std::string::npos) << s.message();
  KmdContextQueryFault q{};
  q.context = ctx_;
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlContextQueryFault, &q).ok());
  EXPECT_EQ(q.faulted, 1u);
  EXPECT_EQ(q.kind, hw::FaultKind::kUnmapped);
  EXPECT_EQ(q.address, unmapped);
  EXPECT_EQ(submit(c, {}).status().code(), Code::kIllegalAddress);

  // A new context on the same device works.
  KmdContextCreate fresh{};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlContextCreate, &fresh).ok());
  auto [va, phys] = alloc_mapped(4096, fresh.context);
  ChannelId c2 = channel(0, fresh.context);
  auto f2 = submit(c2, packet(hw::PacketOp::kFill, hw::FillPacket{va, 16, 0x7, 1}));
  ASSERT_TRUE(f2.ok());
  ASSERT_TRUE(wait(c2, *f2).ok());
  EXPECT_EQ(info_.vram_aperture[phys + 15], 7);
  KmdContextDestroy d{ctx_};
  EXPECT_TRUE(kmd_ioctl(h_, kIoctlContextDestroy, &d).ok());
}

TEST_F(KmdDeviceTest, ChannelsRunOutAndAreReused) {
  std::vector<ChannelId> channels;
  for (uint32_t i = 0; i < info_.num_channels; ++i) channels.push_back(channel());
  KmdChannelCreate extra{ctx_, 0, 0, 0};
  EXPECT_EQ(kmd_ioctl(h_, kIoctlChannelCreate, &extra).code(), Code::kOutOfMemory);
  KmdChannelDestroy d{channels.back()};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlChannelDestroy, &d).ok());
  EXPECT_TRUE(kmd_ioctl(h_, kIoctlChannelCreate, &extra).ok());
}

TEST_F(KmdDeviceTest, ContextDestroyReleasesVram) {
  KmdGetInfo before{};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlGetInfo, &before).ok());
  KmdContextCreate ctx{};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlContextCreate, &ctx).ok());
  channel(0, ctx.context);
  KmdContextDestroy d{ctx.context};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlContextDestroy, &d).ok());
  KmdGetInfo after{};
  ASSERT_TRUE(kmd_ioctl(h_, kIoctlGetInfo, &after).ok());
  EXPECT_EQ(before.vram_free, after.vram_free);
}

}  // namespace
}  // namespace strata::kmd
