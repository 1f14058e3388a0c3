#include "cuda/runtime/launch_config.h"

#include <gtest/gtest.h>

#include <thread>

namespace strata::cuda::runtime {
namespace {

TEST(LaunchConfigTest, NestedLaunchesPopInReverseOrder) {
  // k1<<<4, 64>>>(x, f()) where f() launches k2<<<2, 32>>>: push k1, push k2, pop k2, pop k1.
  push_launch_config({dim3(4), dim3(64), 0, nullptr});
  push_launch_config({dim3(2), dim3(32), 128, nullptr});
  EXPECT_EQ(launch_config_depth(), 2u);
  LaunchConfig config;
  ASSERT_TRUE(pop_launch_config(&config));
  EXPECT_EQ(config.grid.x, 2u);
  EXPECT_EQ(config.shared_mem, 128u);
  ASSERT_TRUE(pop_launch_config(&config));
  EXPECT_EQ(config.grid.x, 4u);
  EXPECT_EQ(config.block.x, 64u);
  EXPECT_FALSE(pop_launch_config(&config));
  EXPECT_EQ(config.grid.x, 4u);  // untouched on failure
}

TEST(LaunchConfigTest, StacksArePerThread) {
  push_launch_config({dim3(7), dim3(1), 0, nullptr});
  std::thread other([] {
    LaunchConfig config;
    EXPECT_FALSE(pop_launch_config(&config));
    push_launch_config({dim3(9), dim3(1), 0, nullptr});
    EXPECT_EQ(launch_config_depth(), 1u);
  });
  other.join();
  LaunchConfig config;
  ASSERT_TRUE(pop_launch_config(&config));
  EXPECT_EQ(config.grid.x, 7u);
}

}  // namespace
}  // namespace strata::cuda::runtime
