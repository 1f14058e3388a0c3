// Sector cache mechanics and the L2 policy (cache.h), against counts that follow from
// the geometry alone.
#include "hw/perf/cache.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <vector>

namespace strata::hw::perf {
namespace {

using Fill = SectorCache::Fill;

TEST(SectorCache, Geometry) {
  SectorCache c(64 * 1024, 4);
  EXPECT_EQ(c.sets(), 64 * 1024 / (128 * 4));
  EXPECT_EQ(c.ways(), 4u);
  EXPECT_EQ(c.capacity_bytes(), 64u * 1024);
  SectorCache odd(3 * 128 * 5 + 100, 5);  // rounds down to whole sets
  EXPECT_EQ(odd.sets(), 3u);
  SectorCache tiny(256, 16);  // fewer lines than ways: one set of two ways
  EXPECT_EQ(tiny.sets(), 1u);
  EXPECT_EQ(tiny.ways(), 2u);
  SectorCache none(100, 4);
  EXPECT_EQ(none.sets(), 0u);
  EXPECT_EQ(none.access(0, 0xf, Fill::kClean).hits, 0u);
  EXPECT_EQ(none.access(0, 0xf, Fill::kClean).hits, 0u);
}

TEST(SectorCache, SectorsFillIndependently) {
  SectorCache c(16 * 1024, 4);
  EXPECT_EQ(c.access(0x1000, 0b0001, Fill::kClean).hits, 0u);
  EXPECT_EQ(c.access(0x1000 + 32, 0b0011, Fill::kClean).hits,
            0b0001u);  // same line, sector 0 present
  EXPECT_EQ(c.access(0x1000, 0b1111, Fill::kClean).hits, 0b0011u);
  EXPECT_EQ(c.access(0x1000, 0b1111, Fill::kClean).hits, 0b1111u);
  EXPECT_EQ(c.valid_sectors(), 4u);
  c.invalidate(0x1000, 0b0100);
  EXPECT_EQ(c.access(0x1000, 0b1111, Fill::kNone).hits, 0b1011u);
  // kNone allocates nothing.
  EXPECT_EQ(c.access(0x9000, 0b1111, Fill::kNone).hits, 0u);
  EXPECT_EQ(c.access(0x9000, 0b1111, Fill::kNone).hits, 0u);
}

// Consecutive lines of one aligned block of `sets` lines land in distinct sets; the
// blocks are rotated, so a power-of-two stride does not pile into one set.
TEST(SectorCache, HashSpreadsLinesAndStrides) {
  SectorCache c(256 * 1024, 4);  // 512 sets
  const uint32_t sets = c.sets();
  for (uint64_t block : {0ull, 1ull, 12345ull}) {
    std::set<uint32_t> seen;
    for (uint64_t i = 0; i < sets; ++i) seen.insert(c.set_of((block * sets + i) * kLineBytes));
    EXPECT_EQ(seen.size(), sets) << "block " << block;
  }
  for (uint64_t stride : {4096ull, 65536ull, 1ull << 20}) {
    std::set<uint32_t> seen;
    for (uint64_t i = 0; i < 64; ++i) seen.insert(c.set_of(i * stride));
    EXPECT_GE(seen.size(), 48u) << "stride " << stride;  // 64 balls into 512 bins: few collisions
  }
}

// With a number of sets that is not a power of two (192: blocks of 256 lines), at most
// two lines of an aligned block share a set, and every set is used.
TEST(SectorCache, HashWithSetsNotAPowerOfTwo) {
  SectorCache c(96 * 1024, 4);
  ASSERT_EQ(c.sets(), 192u);
  for (uint64_t block : {0ull, 7ull, 99999ull}) {
    std::vector<int> per_set(c.sets(), 0);
    for (uint64_t i = 0; i < 256; ++i) ++per_set[c.set_of((block * 256 + i) * kLineBytes)];
    EXPECT_LE(*std::max_element(per_set.begin(), per_set.end()), 2) << "block " << block;
    EXPECT_GE(*std::min_element(per_set.begin(), per_set.end()), 1) << "block " << block;
  }
}

TEST(SectorCache, LeastRecentlyUsedIsEvicted) {
  SectorCache c(4 * 128, 4);  // one set of four ways
  for (uint64_t l = 0; l < 4; ++l) c.access(l * 128, 0xf, Fill::kClean);
  c.access(0, 0xf, Fill::kClean);  // line 0 becomes most recent; line 1 is now the LRU
  const SectorCache::Result r = c.access(4 * 128, 0b0001, Fill::kClean);
  EXPECT_EQ(r.hits, 0u);
  EXPECT_EQ(r.evicted_line, 128u);
  EXPECT_EQ(r.evicted_dirty, 0u);
  EXPECT_EQ(c.access(0, 0xf, Fill::kNone).hits, 0xfu);
  EXPECT_EQ(c.access(128, 0xf, Fill::kNone).hits, 0u);
}

TEST(SectorCache, DirtySectorsAreReportedOnEviction) {
  SectorCache c(2 * 128, 2);  // one set of two ways
  c.access(0, 0b0101, Fill::kDirty);
  c.access(128, 0b1111, Fill::kClean);
  EXPECT_EQ(c.dirty_sectors(), 2u);
  const SectorCache::Result r = c.access(256, 0b0001, Fill::kClean);
  EXPECT_EQ(r.evicted_line, 0u);
  EXPECT_EQ(r.evicted_dirty, 0b0101u);
  EXPECT_EQ(c.dirty_sectors(), 0u);
}

// A contiguous array of at most (ways - 1) x sets lines fits whatever its alignment:
// a second pass hits everywhere.
TEST(SectorCache, ArrayThatFitsHitsOnTheSecondPass) {
  SectorCache c(64 * 1024, 4);
  const uint64_t lines = 3 * c.sets();
  for (uint64_t base : {0ull, 0x12345680ull}) {
    SectorCache fresh(64 * 1024, 4);
    for (uint64_t i = 0; i < lines; ++i)
      EXPECT_EQ(fresh.access(base + i * 128, 0xf, Fill::kClean).hits, 0u);
    uint64_t hits = 0;
    for (uint64_t i = 0; i < lines; ++i)
      hits += std::popcount(fresh.access(base + i * 128, 0xf, Fill::kClean).hits);
    EXPECT_EQ(hits, lines * 4);
  }
  // Streaming twice the capacity through LRU: the second pass misses everywhere.
  const uint64_t big = 2 * c.sets() * c.ways();
  for (uint64_t i = 0; i < big; ++i) c.access(i * 128, 0xf, Fill::kClean);
  uint64_t hits = 0;
  for (uint64_t i = 0; i < big; ++i)
    hits += std::popcount(c.access(i * 128, 0xf, Fill::kClean).hits);
  EXPECT_EQ(hits, 0u);
}

TEST(CacheState, ReadsWritesAndAtomicsCountL2AndDram) {
  CacheState cs(8 * 1024, 4);  // 64 lines
  KernelStats s;
  cs.apply({0x0, 0b0011, L2Op::kRead}, s);  // 2 misses, read from DRAM
  EXPECT_EQ(s.l2_misses, 2u);
  EXPECT_EQ(s.dram_read_sectors, 2u);
  cs.apply({0x0, 0b0111, L2Op::kRead}, s);  // 2 hits, 1 miss
  EXPECT_EQ(s.l2_hits, 2u);
  EXPECT_EQ(s.l2_misses, 3u);
  EXPECT_EQ(s.dram_read_sectors, 3u);
  cs.apply({0x1000, 0b1111, L2Op::kWrite}, s);  // write-allocate without reading DRAM
  EXPECT_EQ(s.l2_misses, 7u);
  EXPECT_EQ(s.dram_read_sectors, 3u);
  cs.apply({0x2000, 0b0001, L2Op::kAtomic}, s);  // atomic miss reads the sector
  EXPECT_EQ(s.dram_read_sectors, 4u);
  cs.apply({0x2000, 0b0001, L2Op::kAtomic}, s);
  EXPECT_EQ(s.l2_hits, 3u);
  EXPECT_EQ(cs.l2().dirty_sectors(), 5u);
  EXPECT_EQ(s.dram_write_sectors, 0u);
  cs.flush(&s);
  EXPECT_EQ(s.dram_write_sectors, 5u);
  EXPECT_EQ(cs.l2().dirty_sectors(), 0u);
}

// Writing N sectors through an L2 smaller than them: every sector is written to DRAM
// exactly once, by eviction or by the final flush.
TEST(CacheState, WriteBackConservesSectors) {
  CacheState cs(16 * 1024, 4);  // 128 lines
  KernelStats s;
  const uint64_t lines = 1000;
  for (uint64_t i = 0; i < lines; ++i) cs.apply({i * 128, 0xf, L2Op::kWrite}, s);
  EXPECT_EQ(s.l2_misses, lines * 4);
  EXPECT_EQ(s.dram_read_sectors, 0u);
  EXPECT_GE(s.dram_write_sectors, (lines - 128) * 4);
  cs.flush(&s);
  EXPECT_EQ(s.dram_write_sectors, lines * 4);
}

TEST(CacheState, NoL2SendsEverythingToDram) {
  CacheState cs(0, 16);
  KernelStats s;
  cs.apply({0, 0b0011, L2Op::kRead}, s);
  cs.apply({0, 0b0001, L2Op::kWrite}, s);
  EXPECT_EQ(s.l2_hits, 0u);
  EXPECT_EQ(s.l2_misses, 3u);
  EXPECT_EQ(s.dram_read_sectors, 2u);
  EXPECT_EQ(s.dram_write_sectors, 1u);
}

TEST(CacheConfig, WaysComeFromTheConfig) {
  ArchConfig cfg;
  EXPECT_EQ(l1_ways(cfg), kDefaultL1Ways);
  EXPECT_EQ(l2_ways(cfg), kDefaultL2Ways);
  cfg.l1_ways = 8;
  cfg.l2_ways = 24;
  EXPECT_EQ(l1_ways(cfg), 8u);
  EXPECT_EQ(l2_ways(cfg), 24u);
  cfg.l2_bytes = 24 * 128 * 10;
  EXPECT_EQ(CacheState(cfg).l2().sets(), 10u);
}

TEST(CacheConfig, L1LosesTheSharedCarveOut) {
  ArchConfig cfg;
  cfg.l1_bytes = 256 * 1024;
  EXPECT_EQ(l1_capacity(cfg, 0), 256u * 1024);
  EXPECT_EQ(l1_capacity(cfg, 100 * 1024), 156u * 1024);
  EXPECT_EQ(l1_capacity(cfg, 300 * 1024), 0u);
}

}  // namespace
}  // namespace strata::hw::perf
