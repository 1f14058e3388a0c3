#include "hw/sim/device_clock.h"

#include <gtest/gtest.h>

namespace strata::hw::sim {
namespace {

TEST(DeviceClock, AdvancesOnlyWhenTold) {
  DeviceClock clock;
  EXPECT_EQ(clock.now_ns(), 0u);
  EXPECT_EQ(clock.advance(10), 10u);
  EXPECT_EQ(clock.advance(5), 15u);
  EXPECT_EQ(clock.now_ns(), 15u);
}

TEST(DeviceClock, AdvanceToIsMonotonic) {
  DeviceClock clock;
  EXPECT_EQ(clock.advance_to(100), 100u);
  EXPECT_EQ(clock.advance_to(40), 100u);  // never backwards
  EXPECT_EQ(clock.now_ns(), 100u);
  EXPECT_EQ(clock.advance_to(101), 101u);
}

}  // namespace
}  // namespace strata::hw::sim
