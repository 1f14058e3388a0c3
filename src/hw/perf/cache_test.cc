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

// A reference sector cache written from cache.h's documentation alone (the set hash, LRU
// replacement, the fill policies, invalidation), without way hints or any other shortcut.
class ReferenceCache {
 public:
  ReferenceCache(uint64_t capacity, uint32_t ways) {
    const uint64_t lines = capacity / 128;
    ways_ = static_cast<uint32_t>(std::min<uint64_t>(ways, lines));
    sets_ = static_cast<uint32_t>(lines / ways_);
    blocks_ = 1;
    while (blocks_ < sets_) blocks_ *= 2;  // B: the smallest power of two >= S
    set_lines_.resize(sets_);
  }
  uint32_t set_of(uint64_t line) const {
    const uint64_t t = line / blocks_;
    const uint64_t h = (t * 0x9E3779B97F4A7C15ull) >> 32;
    return static_cast<uint32_t>((line % blocks_ + ((h * sets_) >> 32)) % sets_);
  }
  SectorCache::Result access(uint64_t address, uint32_t sectors, Fill fill) {
    SectorCache::Result r;
    if (sectors == 0) return r;  // touches nothing
    const uint64_t line = address / 128;
    std::vector<Entry>& set = set_lines_[set_of(line)];  // most recently used first
    for (size_t i = 0; i < set.size(); ++i) {
      if (set[i].line != line) continue;
      Entry e = set[i];
      r.hits = e.valid & sectors;
      if (fill != Fill::kNone) e.valid |= sectors;
      if (fill == Fill::kDirty) e.dirty |= sectors;
      set.erase(set.begin() + static_cast<ptrdiff_t>(i));
      set.insert(set.begin(), e);
      return r;
    }
    if (fill == Fill::kNone) return r;
    if (set.size() == ways_) {
      r.evicted_line = set.back().line * 128;
      r.evicted_dirty = set.back().dirty;
      set.pop_back();
    }
    set.insert(set.begin(), Entry{line, sectors, fill == Fill::kDirty ? sectors : 0u});
    return r;
  }
  void invalidate(uint64_t address, uint32_t sectors) {
    std::vector<Entry>& set = set_lines_[set_of(address / 128)];
    for (size_t i = 0; i < set.size(); ++i) {
      if (set[i].line != address / 128) continue;
      set[i].valid &= ~sectors;
      set[i].dirty &= ~sectors;
      if (set[i].valid == 0) set.erase(set.begin() + static_cast<ptrdiff_t>(i));
      return;
    }
  }
  uint64_t valid_sectors() const {
    uint64_t n = 0;
    for (const auto& set : set_lines_)
      for (const Entry& e : set) n += static_cast<uint64_t>(__builtin_popcount(e.valid));
    return n;
  }

 private:
  struct Entry {
    uint64_t line;
    uint32_t valid, dirty;
  };
  uint32_t sets_ = 0, ways_ = 0;
  uint64_t blocks_ = 1;
  std::vector<std::vector<Entry>> set_lines_;
};

// The lookup shortcuts (way hints, most-recently-used way first) change no result: long
// random sequences of accesses with every fill policy and invalidations, over address
// ranges that hit, conflict and thrash, give the reference's hits and evictions.
TEST(SectorCache, MatchesTheReferenceModelOnRandomAccesses) {
  struct Geometry {
    uint64_t capacity;
    uint32_t ways;
    uint64_t span;  // bytes the addresses are drawn from
  };
  for (const Geometry g : {Geometry{16 * 1024, 4, 8 * 1024}, Geometry{16 * 1024, 4, 64 * 1024},
                           Geometry{3 * 128 * 5, 5, 16 * 1024}, Geometry{64 * 1024, 16, 1 << 20},
                           Geometry{128 * 8, 8, 4096}}) {
    SectorCache c(g.capacity, g.ways);
    ReferenceCache ref(g.capacity, g.ways);
    uint64_t x = 0x243F6A8885A308D3ull;  // xorshift64
    auto next = [&x] {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      return x;
    };
    for (int i = 0; i < 100000; ++i) {
      const uint64_t r = next();
      // Mostly a small window that moves (reuse, as warps touch neighbouring lines),
      // sometimes anywhere in the span.
      const uint64_t window = (static_cast<uint64_t>(i) / 64 * 512) % g.span;
      const uint64_t address =
          (r & 7) == 0 ? (r >> 8) % g.span : (window + ((r >> 8) % 1024)) % g.span;
      const uint32_t sectors = static_cast<uint32_t>((r >> 40) & 15);
      const uint32_t op = static_cast<uint32_t>((r >> 44) % 8);
      SCOPED_TRACE(::testing::Message()
                   << "capacity " << g.capacity << " ways " << g.ways << " step " << i);
      if (op == 7) {
        c.invalidate(address, sectors);
        ref.invalidate(address, sectors);
        continue;
      }
      const Fill fill = op < 4 ? Fill::kClean : op < 6 ? Fill::kNone : Fill::kDirty;
      const SectorCache::Result got = c.access(address, sectors, fill);
      const SectorCache::Result want = ref.access(address, sectors, fill);
      ASSERT_EQ(got.hits, want.hits);
      ASSERT_EQ(got.evicted_dirty, want.evicted_dirty);
      if (want.evicted_dirty != 0) ASSERT_EQ(got.evicted_line, want.evicted_line);
    }
    EXPECT_EQ(c.valid_sectors(), ref.valid_sectors());
  }
}

TEST(SectorCache, SectorCountIsThePopulationCount) {
  for (uint32_t m = 0; m < 16; ++m)
    EXPECT_EQ(sector_count(m), static_cast<uint32_t>(__builtin_popcount(m))) << m;
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
