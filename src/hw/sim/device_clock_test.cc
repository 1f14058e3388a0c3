#include "hw/sim/device_clock.h"

#include <gtest/gtest.h>

#include "hw/sim/sim_test_util.h"

namespace strata::hw::sim {
namespace {

TEST(DeviceClock, AdvancesOnlyWhenTold) {
  DeviceClock clock;
  EXPECT_EQ(clock.now_ns(), 0u);
  EXPECT_EQ(clock.advance(10), 10u);
  EXPECT_EQ(clock.advance(5), 15u);
  EXPECT_EQ(clock.now_ns(), 15u);
}

TEST(DeviceClock, DramBandwidthFollowsTheConfig) {
  ArchConfig c;
  c.memory_clock_mhz = 2619;
  c.memory_bus_width_bits = 5120;
  c.memory_transfers_per_clock = 2;
  EXPECT_NEAR(dram_bytes_per_second(c), 3.352e12, 1e9);  // H100 SXM: 3.35 TB/s
  // 1 GB copy: read + write at 3.352 TB/s.
  EXPECT_NEAR(static_cast<double>(copy_duration_ns(c, 1000000000)), 2e9 / 3.352e12 * 1e9, 1000);
  EXPECT_NEAR(static_cast<double>(fill_duration_ns(c, 1000000000)), 1e9 / 3.352e12 * 1e9, 1000);
  EXPECT_EQ(copy_duration_ns(c, 0), 0u);
  EXPECT_EQ(fill_duration_ns(c, 1), 1u);  // rounded up
}

TEST(DeviceClock, KernelCostIsOverheadPlusBusiestSm) {
  ArchConfig c;
  c.sm_count = 4;
  c.core_clock_mhz = 1000;          // 1 cycle = 1 ns
  c.warp_schedulers_per_sm = 4;
  c.launch_overhead_ns = 2000;
  EXPECT_EQ(kernel_duration_ns(c, 0, {}), 2000u);
  // Busiest SM issued 4000 warp instructions at 4 per cycle: 1000 ns.
  EXPECT_EQ(kernel_duration_ns(c, 5000, {4000, 500, 500, 0}), 3000u);
  // Without a per-SM breakdown, spread evenly: 16000 / 4 SMs / 4 per ns.
  EXPECT_EQ(kernel_duration_ns(c, 16000, {}), 3000u);
}

TEST(DeviceClock, ShippedConfigGivesPlausibleNumbers) {
  const ArchConfig& g1 = testing::test_config();
  // 256-bit GDDR6 at 14 Gbps: 448 GB/s.
  EXPECT_NEAR(dram_bytes_per_second(g1), 448e9, 1e6);
}

}  // namespace
}  // namespace strata::hw::sim
