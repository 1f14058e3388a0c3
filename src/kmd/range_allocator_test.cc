#include "kmd/range_allocator.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace strata::kmd {
namespace {

constexpr uint64_t kKiB = 1024;

TEST(RangeAllocator, AlignsAndRoundsToGranule) {
  RangeAllocator a("test", 0x10000, 1 << 20, 4 * kKiB);
  auto x = a.allocate(1, 0);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(*x % (4 * kKiB), 0u);
  EXPECT_EQ(a.allocation_size(*x), 4 * kKiB);
  auto y = a.allocate(100, 64 * kKiB);
  ASSERT_TRUE(y.ok());
  EXPECT_EQ(*y % (64 * kKiB), 0u);
  EXPECT_EQ(a.free_bytes(), (1u << 20) - 8 * kKiB);
}

TEST(RangeAllocator, RejectsBadArguments) {
  RangeAllocator a("test", 0, 1 << 20, 4 * kKiB);
  EXPECT_EQ(a.allocate(0, 0).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.allocate(16, 3).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.free(12345).code(), Code::kInvalidValue);
  auto x = a.allocate(16, 0);
  ASSERT_TRUE(x.ok());
  EXPECT_TRUE(a.free(*x).ok());
  EXPECT_EQ(a.free(*x).code(), Code::kInvalidValue);  // double free
}

TEST(RangeAllocator, AllocatesAtAFixedAddress) {
  RangeAllocator a("test", 0x10000, 1 << 20, 4 * kKiB);
  // Inside the free range: taken exactly, splitting the free block around it.
  auto x = a.allocate_at(0x10000 + 64 * kKiB, 10 * kKiB);
  ASSERT_TRUE(x.ok());
  EXPECT_EQ(*x, 0x10000 + 64 * kKiB);
  EXPECT_EQ(a.allocation_size(*x), 12 * kKiB);  // rounded to the granule
  EXPECT_EQ(a.free_block_count(), 2u);
  // Overlapping it, outside the range, unaligned or empty: refused.
  EXPECT_EQ(a.allocate_at(0x10000 + 60 * kKiB, 8 * kKiB).status().code(), Code::kNotFound);
  EXPECT_EQ(a.allocate_at(0x10000 + 72 * kKiB, 4 * kKiB).status().code(), Code::kNotFound);
  EXPECT_EQ(a.allocate_at(0x1000, 4 * kKiB).status().code(), Code::kNotFound);
  EXPECT_EQ(a.allocate_at(0x10000 + (1 << 20) - 4 * kKiB, 8 * kKiB).status().code(),
            Code::kNotFound);
  EXPECT_EQ(a.allocate_at(0x10000 + 100, 4 * kKiB).status().code(), Code::kInvalidValue);
  EXPECT_EQ(a.allocate_at(0x10000, 0).status().code(), Code::kInvalidValue);
  // Right after it and at the very start: fine; freeing coalesces back to one block.
  auto y = a.allocate_at(0x10000 + 76 * kKiB, 4 * kKiB);
  ASSERT_TRUE(y.ok());
  auto z = a.allocate_at(0x10000, 4 * kKiB);
  ASSERT_TRUE(z.ok());
  EXPECT_TRUE(a.free(*x).ok());
  EXPECT_TRUE(a.free(*y).ok());
  EXPECT_TRUE(a.free(*z).ok());
  EXPECT_EQ(a.free_block_count(), 1u);
  EXPECT_EQ(a.free_bytes(), 1u << 20);
}

TEST(RangeAllocator, OutOfMemoryNamesLargestBlock) {
  RangeAllocator a("VRAM", 0, 64 * kKiB, 4 * kKiB);
  ASSERT_TRUE(a.allocate(60 * kKiB, 0).ok());
  auto fail = a.allocate(8 * kKiB, 0);
  ASSERT_EQ(fail.status().code(), Code::kOutOfMemory);
  EXPECT_NE(fail.status().message().find("largest free block 4096"), std::string::npos)
      << fail.status().message();
  EXPECT_EQ(a.allocate(1ull << 40, 0).status().code(), Code::kOutOfMemory);
}

TEST(RangeAllocator, FragmentationThenCoalescing) {
  RangeAllocator a("test", 0, 64 * kKiB, 4 * kKiB);
  std::vector<uint64_t> blocks;
  for (int i = 0; i < 16; ++i) blocks.push_back(*a.allocate(4 * kKiB, 0));
  EXPECT_EQ(a.allocate(4 * kKiB, 0).status().code(), Code::kOutOfMemory);
  // Free every other block: 32 KiB free but no 8 KiB hole.
  for (int i = 0; i < 16; i += 2) ASSERT_TRUE(a.free(blocks[i]).ok());
  EXPECT_EQ(a.free_bytes(), 32 * kKiB);
  EXPECT_EQ(a.free_block_count(), 8u);
  EXPECT_EQ(a.allocate(8 * kKiB, 0).status().code(), Code::kOutOfMemory);
  // Freeing the rest coalesces into one block.
  for (int i = 1; i < 16; i += 2) ASSERT_TRUE(a.free(blocks[i]).ok());
  EXPECT_EQ(a.free_block_count(), 1u);
  EXPECT_EQ(a.largest_free_block(), 64 * kKiB);
  EXPECT_TRUE(a.allocate(64 * kKiB, 0).ok());
}

TEST(RangeAllocator, RandomizedNeverOverlaps) {
  RangeAllocator a("test", 0, 1 << 24, 4 * kKiB);
  std::mt19937 rng(7);
  std::vector<std::pair<uint64_t, uint64_t>> live;
  for (int step = 0; step < 3000; ++step) {
    if (live.empty() || rng() % 3 != 0) {
      const uint64_t size = (rng() % 64 + 1) * 4 * kKiB;
      const uint64_t align = 4 * kKiB << (rng() % 5);
      auto x = a.allocate(size, align);
      if (!x.ok()) continue;
      EXPECT_EQ(*x % align, 0u);
      for (auto& [s, n] : live) ASSERT_TRUE(*x + size <= s || s + n <= *x);
      live.emplace_back(*x, size);
    } else {
      const size_t i = rng() % live.size();
      ASSERT_TRUE(a.free(live[i].first).ok());
      live.erase(live.begin() + static_cast<long>(i));
    }
  }
  for (auto& [s, n] : live) ASSERT_TRUE(a.free(s).ok());
  EXPECT_EQ(a.free_block_count(), 1u);
  EXPECT_EQ(a.free_bytes(), 1u << 24);
}

}  // namespace
}  // namespace strata::kmd
