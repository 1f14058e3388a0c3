// The device event scheduler (timeline.h): relations between modeled intervals, which
// hold whatever the fast model's formulas (hw/perf/fast_model.cc) are.
#include "hw/sim/timeline.h"

#include <gtest/gtest.h>

#include "hw/sim/sim_test_util.h"

namespace strata::hw::sim {
namespace {

ArchConfig small_config() {
  ArchConfig c;
  c.sm_count = 4;
  c.core_clock_mhz = 1000;  // 1 cycle = 1 ns
  c.warp_schedulers_per_sm = 4;
  c.launch_overhead_ns = 1000;
  c.async_engines = 2;
  return c;
}

// A grid of `ctas` CTAs, `per_sm` resident per SM, each SM issuing `work` warp
// instructions.
perf::KernelStats grid(uint64_t ctas, uint32_t per_sm, uint64_t work) {
  perf::KernelStats s;
  s.ctas = ctas;
  s.ctas_per_sm = per_sm;
  s.threads_per_cta = 128;
  s.warps_per_cta = 4;
  s.warp_instructions = 4 * work;
  s.sm_warp_instructions = {work, work, work, work};
  return s;
}

// The interval starts when the front end takes the launch; the model's duration holds
// the launch overhead once (the CTAs start launch_overhead_ns into the interval).
TEST(Timeline, StartsAtSubmissionAndCountsTheLaunchOverheadOnce) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  t.set_submit(0, 50000);
  perf::KernelTime kt;
  const Timeline::Interval iv = t.kernel(0, grid(4, 1, 4000), &kt);
  EXPECT_EQ(iv.submit_ns, 50000u);
  EXPECT_EQ(iv.start_ns, 50000u);
  EXPECT_EQ(iv.end_ns, iv.start_ns + kt.ns);
  EXPECT_EQ(kt.launch_ns, 1000u);
  EXPECT_GE(kt.ns, kt.launch_ns);
  EXPECT_GT(kt.ns, 0u);
  EXPECT_EQ(clock.now_ns(), iv.end_ns);  // TIMER: the latest completion
}

TEST(Timeline, StreamOrderWithinAChannel) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime kt;
  const Timeline::Interval a = t.kernel(0, grid(1, 1, 4000), &kt);
  const Timeline::Interval b = t.kernel(0, grid(1, 1, 4000), &kt);
  EXPECT_GE(b.start_ns, a.end_ns);
  EXPECT_EQ(t.now(0), b.end_ns);
}

TEST(Timeline, SmallKernelsOnTwoChannelsOverlap) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime kt;
  // One CTA each on a 4-SM device: each needs a quarter of the SMs.
  const Timeline::Interval a = t.kernel(0, grid(1, 1, 40000), &kt);
  const Timeline::Interval b = t.kernel(1, grid(1, 1, 40000), &kt);
  EXPECT_DOUBLE_EQ(a.sm_share, 0.25);
  EXPECT_DOUBLE_EQ(b.sm_share, 0.25);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_LT(b.start_ns, a.end_ns);
  // Together they take less than one after the other.
  EXPECT_LT(std::max(a.end_ns, b.end_ns) - a.start_ns,
            (a.end_ns - a.start_ns) + (b.end_ns - b.start_ns));
}

TEST(Timeline, KernelsSerializeWhenTheSmsAreFull) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime kt;
  const Timeline::Interval a = t.kernel(0, grid(64, 2, 40000), &kt);  // 8 waves: all SMs
  const Timeline::Interval b = t.kernel(1, grid(64, 2, 40000), &kt);
  EXPECT_DOUBLE_EQ(a.sm_share, 1.0);
  EXPECT_GE(b.start_ns, a.end_ns);
  EXPECT_DOUBLE_EQ(b.sm_share, 1.0);
}

TEST(Timeline, AKernelTakesWhatIsFreeOrWaitsWhicheverEndsFirst) {
  const ArchConfig c = small_config();
  for (uint64_t b_ctas : {1, 2, 8}) {
    DeviceClock clock;
    Timeline t(c, 4, &clock);
    perf::KernelTime kt;
    const Timeline::Interval a = t.kernel(0, grid(3, 1, 40000), &kt);  // 3 of 4 SMs
    EXPECT_DOUBLE_EQ(a.sm_share, 0.75);
    const perf::KernelStats b_stats = grid(b_ctas, 1, 40000);
    const Timeline::Interval b = t.kernel(1, b_stats, &kt);
    // Either the free quarter now, or what it wants once A has ended.
    const double want = std::min(1.0, static_cast<double>(b_ctas) / 4);
    const uint64_t now_end = a.start_ns + perf::model_kernel(c, b_stats, std::min(want, 0.25)).ns;
    const uint64_t later_end = a.end_ns + perf::model_kernel(c, b_stats, want).ns;
    EXPECT_EQ(b.end_ns, std::min(now_end, later_end)) << b_ctas << " CTAs";
    if (now_end <= later_end) {
      EXPECT_EQ(b.start_ns, a.start_ns);
      EXPECT_DOUBLE_EQ(b.sm_share, std::min(want, 0.25));
    } else {
      EXPECT_EQ(b.start_ns, a.end_ns);
      EXPECT_DOUBLE_EQ(b.sm_share, want);
    }
  }
}

TEST(Timeline, CopiesOverlapComputeAndShareEngines) {
  ArchConfig c = small_config();
  c.async_engines = 1;
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime kt;
  const Timeline::Interval k = t.kernel(0, grid(4, 1, 400000), &kt);
  const Timeline::Interval x =
      t.copy(1, perf::MemoryKind::kHost, perf::MemoryKind::kDevice, 1 << 20);
  const Timeline::Interval y =
      t.copy(2, perf::MemoryKind::kDevice, perf::MemoryKind::kHost, 1 << 20);
  EXPECT_LT(x.start_ns, k.end_ns);  // the copy engine runs beside the SMs
  EXPECT_GE(y.start_ns, x.end_ns);  // one engine: the copies take turns
  const perf::CopyTime model =
      perf::model_copy(c, perf::MemoryKind::kHost, perf::MemoryKind::kDevice, 1 << 20);
  EXPECT_EQ(x.end_ns - x.start_ns, model.ns);
  EXPECT_GE(x.start_ns, model.latency_ns);
}

TEST(Timeline, SemaphoreTimePropagatesBetweenChannels) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime kt;
  const Timeline::Interval a = t.kernel(0, grid(64, 2, 40000), &kt);
  // Channel 0 releases at its current time; channel 1 acquires it.
  const uint64_t released = t.now(0);
  EXPECT_EQ(released, a.end_ns);
  t.wait_until(1, released);
  EXPECT_GE(t.now(1), a.end_ns);
  const Timeline::Interval b = t.kernel(1, grid(1, 1, 10), &kt);
  EXPECT_GE(b.start_ns, a.end_ns);
}

TEST(Timeline, LowerPriorityKernelsStartAfterDispatchedHigherOnes) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime kt;
  t.set_submit(0, 100000);
  const Timeline::Interval high = t.kernel(0, grid(1, 1, 4000), &kt, /*priority=*/1);
  const Timeline::Interval low = t.kernel(1, grid(1, 1, 4000), &kt, /*priority=*/0);
  EXPECT_GE(low.start_ns, high.start_ns);
  // The other way round: no constraint.
  t.set_submit(2, 0);
  const Timeline::Interval high2 = t.kernel(2, grid(1, 1, 4000), &kt, /*priority=*/1);
  EXPECT_LT(high2.start_ns, low.start_ns);
}

TEST(Timeline, ResetForgetsAChannelsTimes) {
  const ArchConfig c = small_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  t.set_submit(2, 1000000);
  EXPECT_EQ(t.now(2), 1000000u);
  t.reset(2);
  EXPECT_EQ(t.now(2), 0u);
  EXPECT_EQ(clock.now_ns(), 0u);
}

// Through the rings: kHostTime, a copy, a timed release on one channel and a timed
// acquire on another; the acquirer's timestamp is not earlier than the releaser's.
TEST(TimelinePackets, SemaphoreTimeCarriesAcrossChannels) {
  using testing::TestDevice;
  TestDevice d;
  constexpr uint64_t kVa = 0x40000000;
  constexpr uint64_t kBytes = 1 << 20;
  d.map(kVa, TestDevice::kDataBase, 3 * kBytes);
  const uint64_t sem = kVa + 2 * kBytes;  // {value, time}
  const uint64_t stamps = sem + 64;       // u64 per channel
  const auto pa = [&](uint64_t va) { return TestDevice::kDataBase + (va - kVa); };
  d.setup_channel(0);
  d.setup_channel(1);
  d.setup_channel(2);

  // Channel 1 waits for the semaphore, then stamps.
  d.write_packet(1, PacketOp::kHostTime, HostTimePacket{0});
  d.write_packet(1, PacketOp::kSemAcquire, SemPacket{sem, 1}, kPacketSemTime);
  d.write_packet(1, PacketOp::kTimestamp, TimestampPacket{stamps + 8});
  d.doorbell(1);
  // Channel 0, submitted at 5 us: a 1 MiB copy inside VRAM, the release, a stamp.
  d.write_packet(0, PacketOp::kHostTime, HostTimePacket{5000});
  d.write_packet(0, PacketOp::kCopy, CopyPacket{kVa, kVa + kBytes, kBytes});
  d.write_packet(0, PacketOp::kSemRelease, SemPacket{sem, 1}, kPacketSemTime);
  d.write_packet(0, PacketOp::kTimestamp, TimestampPacket{stamps});
  d.doorbell(0);
  // Channel 2: submitted at 1 s, nothing before it: its time is the submission's.
  d.write_packet(2, PacketOp::kHostTime, HostTimePacket{1000000000});
  d.write_packet(2, PacketOp::kTimestamp, TimestampPacket{stamps + 16});
  d.doorbell(2);
  for (uint32_t ch = 0; ch < 3; ++ch) {
    ASSERT_TRUE(
        testing::wait_for([&] { return d.ch_reg(ch, REG_CH_GET) == d.ch_reg(ch, REG_CH_PUT); }));
  }
  const perf::CopyTime copy = perf::model_copy(testing::test_config(), perf::MemoryKind::kDevice,
                                               perf::MemoryKind::kDevice, kBytes);
  const uint64_t released = d.read_u64(pa(sem) + 8);
  EXPECT_EQ(d.read_u64(pa(sem)), 1u);
  EXPECT_GE(released, 5000 + copy.latency_ns + copy.ns);
  EXPECT_EQ(d.read_u64(pa(stamps)), released);      // the release and the stamp after it
  EXPECT_GE(d.read_u64(pa(stamps + 8)), released);  // the acquirer continues after it
  EXPECT_EQ(d.read_u64(pa(stamps + 16)), 1000000000u);
  // TIMER: the latest modeled completion (the copy's end).
  const uint64_t timer = d.reg(REG_TIMER_LO) | (uint64_t{d.reg(REG_TIMER_HI)} << 32);
  EXPECT_EQ(timer, released);
}

}  // namespace
}  // namespace strata::hw::sim
