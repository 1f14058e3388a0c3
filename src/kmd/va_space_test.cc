#include "kmd/va_space.h"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>

namespace strata::kmd {
namespace {

TEST(ProcessVaSpace, ReservesTheFullRangeAndHandsOutAlignedVas) {
  auto space = ProcessVaSpace::get();
  ASSERT_TRUE(space.ok()) << space.status().to_string();
  ProcessVaSpace* va = *space;
  EXPECT_GE(va->size(), kMinGpuVaRangeBytes);
  EXPECT_EQ(va->base() % (1ull << 30), 0u);
  auto a = va->allocate(1 << 20, 1 << 16);
  ASSERT_TRUE(a.ok());
  EXPECT_TRUE(va->contains(*a));
  EXPECT_EQ(*a % (1 << 16), 0u);
  EXPECT_FALSE(va->contains(va->base() + va->size()));
  EXPECT_FALSE(va->contains(va->shared_window()));
  EXPECT_TRUE(va->free(*a).ok());
}

// In a child process limited to 200 GiB of address space: the range must fall back to
// 128 GiB and still hand out VAs. Exits 0 on success, else a code naming the failure.
void reserve_under_address_space_limit() {
  rlimit limit{};
  limit.rlim_cur = limit.rlim_max = 200ull << 30;
  if (setrlimit(RLIMIT_AS, &limit) != 0) std::exit(2);
  auto space = ProcessVaSpace::get();
  if (!space.ok()) std::exit(3);
  if ((*space)->size() != (128ull << 30)) std::exit(4);
  auto va = (*space)->allocate(1 << 20, 1 << 16);
  std::exit(va.ok() && (*space)->contains(*va) ? 0 : 5);
}

// With less address space than 1 TiB the range falls back to the largest power of two
// that fits. "threadsafe" death tests re-run the binary, so the child starts without a
// reservation.
TEST(ProcessVaSpaceDeathTest, FallsBackToASmallerRangeWhenAddressSpaceIsScarce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(reserve_under_address_space_limit(), ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace strata::kmd
