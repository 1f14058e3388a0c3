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

// Bandwidth sharing (timeline.h): small_config plus 64 B/ns of DRAM (1000 MHz x 256 bits
// / 8 x 2 transfers) and 256 B/ns of L2.
ArchConfig memory_config() {
  ArchConfig c = small_config();
  c.memory_clock_mhz = 1000;
  c.memory_bus_width_bits = 256;
  c.memory_transfers_per_clock = 2;
  c.l2_bytes_per_clock = 256;
  return c;
}
constexpr double kDramBytesPerNs = 64;

// Half the device's CTA slots (4 CTAs, 2 per SM: spread over all 4 SMs) streaming
// `sectors` sectors: every load sector reaches DRAM (no cache counters), so the grid is
// DRAM-bound when `sectors` x 32 B / 64 B/ns exceeds its `work` issue cycles.
perf::KernelStats streaming(uint64_t sectors, uint64_t work = 1000) {
  perf::KernelStats s = grid(4, 2, work);
  s.global_loads = {sectors / 4, sectors};
  return s;
}

// Host reference: A's body holds the whole DRAM bandwidth from L (its launch overhead)
// to L + T; B, placed beside it, moves its bytes only after A, so it ends at L + 2T.
TEST(Timeline, TwoDramBoundKernelsTakeAsLongAsOneAfterTheOther) {
  const ArchConfig c = memory_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  const perf::KernelStats s = streaming(200000);  // 6.4 MB: 100 us at 64 B/ns
  const perf::KernelTime alone = perf::model_kernel(c, s, 0.5);
  ASSERT_EQ(alone.bound, perf::Bound::kDram);
  const uint64_t body = alone.ns - alone.launch_ns;
  ASSERT_EQ(body, 200000u * 32 / 64);
  perf::KernelTime ka, kb;
  const Timeline::Interval a = t.kernel(0, s, &ka);
  const Timeline::Interval b = t.kernel(1, s, &kb);
  // They fit on the SMs together: without bandwidth sharing they would overlap fully.
  EXPECT_DOUBLE_EQ(a.sm_share, 0.5);
  EXPECT_DOUBLE_EQ(b.sm_share, 0.5);
  EXPECT_EQ(a.start_ns, 0u);
  EXPECT_EQ(b.start_ns, 0u);
  EXPECT_EQ(a.end_ns, alone.ns);
  EXPECT_EQ(ka.ns, alone.ns);
  EXPECT_EQ(b.end_ns, alone.launch_ns + 2 * body);
  EXPECT_EQ(kb.ns, b.end_ns - b.start_ns);
  EXPECT_EQ(kb.bound, perf::Bound::kDram);
  EXPECT_NEAR(kb.dram_cycles, 2.0 * body, 1.0);  // 1 cycle = 1 ns
  // Placed commands are not revised.
  EXPECT_EQ(t.now(0), a.end_ns);
  EXPECT_EQ(t.now(1), b.end_ns);
  EXPECT_EQ(clock.now_ns(), b.end_ns);
}

TEST(Timeline, ComputeBoundKernelsThatFitTogetherDoNotSlow) {
  const ArchConfig c = memory_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  // 100000 issue cycles per SM; 32000 sectors = 1 MB = 16 us of DRAM: 16% of the peak.
  const perf::KernelStats s = streaming(32000, 400000);
  const perf::KernelTime alone = perf::model_kernel(c, s, 0.5);
  ASSERT_EQ(alone.bound, perf::Bound::kIssue);
  perf::KernelTime ka, kb;
  const Timeline::Interval a = t.kernel(0, s, &ka);
  const Timeline::Interval b = t.kernel(1, s, &kb);
  EXPECT_EQ(a.start_ns, b.start_ns);
  EXPECT_EQ(a.end_ns, a.start_ns + alone.ns);
  EXPECT_EQ(b.end_ns, b.start_ns + alone.ns);
  EXPECT_EQ(kb.ns, alone.ns);
  EXPECT_EQ(kb.bound, perf::Bound::kIssue);
}

// Host reference: A (100000 issue cycles, DRAM 50%) and then B (100000 issue cycles,
// DRAM 80%) side by side. While A runs B gets the 50% A leaves, progressing at 0.5 / 0.8
// of its speed: by A's end (L + 100000) it has done 62500 of its 100000; the rest alone.
TEST(Timeline, ANewcomerTakesTheBandwidthLeft) {
  const ArchConfig c = memory_config();
  DeviceClock clock;
  Timeline t(c, 4, &clock);
  perf::KernelTime ka, kb;
  const Timeline::Interval a = t.kernel(0, streaming(100000, 400000), &ka);
  const Timeline::Interval b = t.kernel(1, streaming(160000, 400000), &kb);
  ASSERT_EQ(ka.ns, 1000u + 100000);
  EXPECT_EQ(a.end_ns, 101000u);
  EXPECT_EQ(b.start_ns, 0u);
  EXPECT_EQ(b.end_ns, 101000u + 37500);
  EXPECT_EQ(kb.bound, perf::Bound::kDram);
}

// Host reference, both orders of a device-to-device copy (DRAM read + write: 64 B/ns of
// traffic, its whole demand) and a DRAM-bound kernel (body from L to L + K alone):
// whichever comes second moves its bytes when the first leaves DRAM free, so the DRAM
// never idles and the second ends at copy + kernel bodies (plus L when the kernel went
// first, as the copy runs alone until the kernel's body starts).
TEST(Timeline, ADeviceCopyAndADramBoundKernelShareDram) {
  const ArchConfig c = memory_config();
  const perf::KernelStats s = streaming(200000);  // K = 100 us
  const perf::KernelTime alone = perf::model_kernel(c, s, 0.5);
  const uint64_t launch = alone.launch_ns;
  const uint64_t kernel_body = alone.ns - launch;
  constexpr uint64_t kCopyBytes = 1 << 20;  // 2 MiB of DRAM traffic: 32768 ns
  const perf::CopyTime copy_alone =
      perf::model_copy(c, perf::MemoryKind::kDevice, perf::MemoryKind::kDevice, kCopyBytes);
  const uint64_t copy_body = 2 * kCopyBytes / 64;
  ASSERT_EQ(copy_alone.ns, copy_body);
  ASSERT_EQ(copy_alone.latency_ns, 0u);
  perf::KernelTime kt;
  {  // The kernel first: the copy runs alone until L, then waits for the kernel.
    DeviceClock clock;
    Timeline t(c, 4, &clock);
    const Timeline::Interval k = t.kernel(0, s, &kt);
    const Timeline::Interval x =
        t.copy(1, perf::MemoryKind::kDevice, perf::MemoryKind::kDevice, kCopyBytes);
    EXPECT_EQ(k.end_ns, alone.ns);
    EXPECT_EQ(x.start_ns, 0u);
    EXPECT_EQ(x.end_ns, launch + kernel_body + (copy_body - launch));
  }
  {  // The copy first: the kernel's body waits for it.
    DeviceClock clock;
    Timeline t(c, 4, &clock);
    const Timeline::Interval x =
        t.copy(1, perf::MemoryKind::kDevice, perf::MemoryKind::kDevice, kCopyBytes);
    const Timeline::Interval k = t.kernel(0, s, &kt);
    EXPECT_EQ(x.end_ns, copy_body);
    EXPECT_EQ(k.start_ns, 0u);
    EXPECT_EQ(k.end_ns, copy_body + kernel_body);
    EXPECT_EQ(kt.bound, perf::Bound::kDram);
  }
}

// Fills write DRAM at its full rate; a host-to-device copy (bounded by the host link)
// writes a quarter of it and fits beside a compute-bound kernel.
TEST(Timeline, FillsShareDramAndHostCopiesTakeOnlyTheirRate) {
  ArchConfig c = memory_config();
  c.host_link_bytes_per_second = 16000000000;  // 16 B/ns: a quarter of the DRAM
  perf::KernelTime kt;
  {
    DeviceClock clock;
    Timeline t(c, 4, &clock);
    const Timeline::Interval k = t.kernel(0, streaming(200000), &kt);
    const Timeline::Interval f = t.fill(1, perf::MemoryKind::kDevice, 1 << 20);
    const uint64_t fill_alone = perf::model_fill(c, perf::MemoryKind::kDevice, 1 << 20).ns;
    ASSERT_EQ(fill_alone, (1u << 20) / 64);
    EXPECT_EQ(f.end_ns, k.end_ns + fill_alone - 1000);  // 1000 ns alone before L
  }
  {
    DeviceClock clock;
    Timeline t(c, 4, &clock);
    const Timeline::Interval k = t.kernel(0, streaming(32000, 400000), &kt);  // DRAM 16%
    const Timeline::Interval h =
        t.copy(1, perf::MemoryKind::kHost, perf::MemoryKind::kDevice, 1 << 20);
    EXPECT_EQ(h.end_ns - h.start_ns,
              perf::model_copy(c, perf::MemoryKind::kHost, perf::MemoryKind::kDevice, 1 << 20).ns);
    EXPECT_EQ(k.end_ns, k.start_ns + kt.ns);
  }
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
