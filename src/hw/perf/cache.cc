#include "hw/perf/cache.h"

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <new>

namespace strata::hw::perf {

void SectorCache::Free::operator()(void* p) const {
  std::free(p);
}

SectorCache::SectorCache(uint64_t capacity_bytes, uint32_t ways) {
  const uint64_t lines = capacity_bytes / kLineBytes;
  if (lines == 0 || ways == 0) return;
  ways_ = static_cast<uint32_t>(std::min<uint64_t>(ways, lines));
  sets_ = static_cast<uint32_t>(std::min<uint64_t>(lines / ways_, uint64_t{1} << 31));
  block_bits_ = static_cast<uint32_t>(std::bit_width(sets_ - 1));
}

void SectorCache::allocate() {
  if (lines_ || sets_ == 0) return;
  // calloc: large tag stores come from fresh zero pages that cost nothing until touched.
  Line* p = static_cast<Line*>(std::calloc(static_cast<size_t>(sets_) * ways_, sizeof(Line)));
  uint64_t* stamps = static_cast<uint64_t*>(std::calloc(sets_, sizeof(uint64_t)));
  uint32_t* mru = static_cast<uint32_t*>(std::calloc(sets_, sizeof(uint32_t)));
  // Hints index lines_ with 32 bits; a zero tag (no line) never matches a lookup.
  const bool hinted = use_hints_ && static_cast<uint64_t>(sets_) * ways_ <= UINT32_MAX;
  Hint* hints = hinted ? static_cast<Hint*>(std::calloc(kHints, sizeof(Hint))) : nullptr;
  if (p == nullptr || stamps == nullptr || mru == nullptr || (hinted && hints == nullptr)) {
    std::free(p);
    std::free(stamps);
    std::free(mru);
    std::free(hints);
    throw std::bad_alloc();
  }
  lines_.reset(p);
  stamp_.reset(stamps);
  mru_.reset(mru);
  hints_.reset(hints);
}

uint32_t SectorCache::set_of(uint64_t address) const {
  if (sets_ == 0) return 0;
  const uint64_t line = address / kLineBytes;
  const uint64_t block = line >> block_bits_;
  const uint64_t offset = line & ((uint64_t{1} << block_bits_) - 1);  // < 2 x sets
  const uint64_t hash = (block * 0x9E3779B97F4A7C15ull) >> 32;
  uint64_t set = offset + ((hash * sets_) >> 32);  // < 3 x sets
  while (set >= sets_) set -= sets_;
  return static_cast<uint32_t>(set);
}

int SectorCache::find(uint32_t set, uint64_t tag) const {
  const Line* s = lines_.get() + static_cast<size_t>(set) * ways_;
  if (const uint32_t m = mru_[set]; s[m].tag == tag) return static_cast<int>(m);
  for (uint32_t w = 0; w < ways_; ++w) {
    if (s[w].tag == tag) return static_cast<int>(w);
  }
  return -1;
}

SectorCache::Result SectorCache::access_slow(uint64_t address, uint32_t sectors, Fill fill,
                                             uint32_t set) {
  Result r;
  sectors &= (1u << kSectorsPerLine) - 1;
  if (sets_ == 0 || sectors == 0) return r;
  if (!lines_) allocate();
  const uint64_t tag = address / kLineBytes + 1;
  Line* s = lines_.get() + static_cast<size_t>(set) * ways_;
  if (const uint32_t m = mru_[set]; s[m].tag == tag) {
    remember(tag, set, m);
    return hit(s[m], set, sectors, fill);
  }
  // One pass looks for the line and for the way to allocate: an empty way, else the least
  // recently used one. Empty ways (never used, or emptied by invalidate) have lru 0 and
  // lines in use lru >= 1, so the first way of the smallest lru is the first empty one.
  uint32_t victim = 0;
  uint64_t oldest = s[0].lru;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (s[w].tag == tag) {
      remember(tag, set, w);
      return hit(s[w], set, sectors, fill);
    }
    if (s[w].lru < oldest) oldest = s[w].lru, victim = w;
  }
  if (fill == Fill::kNone) return r;
  Line& l = s[victim];
  if (l.tag != 0) {
    r.evicted_line = (l.tag - 1) * kLineBytes;
    r.evicted_dirty = l.dirty;
  }
  l.tag = tag;
  l.lru = ++stamp_[set];
  l.valid = static_cast<uint8_t>(sectors);
  l.dirty = fill == Fill::kDirty ? static_cast<uint8_t>(sectors) : 0;
  remember(tag, set, victim);
  return r;
}

void SectorCache::invalidate(uint64_t address, uint32_t sectors) {
  if (sets_ == 0 || !lines_) return;
  const uint32_t set = set_of(address);
  const int way = find(set, address / kLineBytes + 1);
  if (way < 0) return;
  Line& l = lines_[static_cast<size_t>(set) * ways_ + way];
  l.valid &= static_cast<uint8_t>(~sectors);
  l.dirty &= static_cast<uint8_t>(~sectors);
  if (l.valid == 0) l = Line{};
}

uint64_t SectorCache::valid_sectors() const {
  uint64_t n = 0;
  if (!lines_) return 0;
  for (size_t i = 0, e = static_cast<size_t>(sets_) * ways_; i < e; ++i)
    n += std::popcount(lines_[i].valid);
  return n;
}

uint64_t SectorCache::dirty_sectors() const {
  uint64_t n = 0;
  if (!lines_) return 0;
  for (size_t i = 0, e = static_cast<size_t>(sets_) * ways_; i < e; ++i)
    n += std::popcount(lines_[i].dirty);
  return n;
}

uint64_t SectorCache::write_back_all() {
  const uint64_t n = dirty_sectors();
  if (lines_) {
    for (size_t i = 0, e = static_cast<size_t>(sets_) * ways_; i < e; ++i) lines_[i].dirty = 0;
  }
  return n;
}

uint32_t l1_ways(const ArchConfig& config) {
  return config.l1_ways > 0 ? static_cast<uint32_t>(config.l1_ways) : kDefaultL1Ways;
}

uint32_t l2_ways(const ArchConfig& config) {
  return config.l2_ways > 0 ? static_cast<uint32_t>(config.l2_ways) : kDefaultL2Ways;
}

uint64_t l1_capacity(const ArchConfig& config, uint64_t shared_in_use) {
  const uint64_t total = config.l1_bytes > 0 ? static_cast<uint64_t>(config.l1_bytes) : 0;
  return shared_in_use >= total ? 0 : total - shared_in_use;
}

CacheState::CacheState(const ArchConfig& config)
    : CacheState(config.l2_bytes > 0 ? static_cast<uint64_t>(config.l2_bytes) : 0,
                 l2_ways(config)) {}

CacheState::CacheState(uint64_t l2_bytes, uint32_t l2_ways) : l2_(l2_bytes, l2_ways) {
  l2_.use_hints_ = false;  // replayed by several workers at once (set-partitioned)
  l2_.allocate();
}

void CacheState::apply(const L2Request& request, KernelStats& stats) {
  const uint32_t sectors = request.sectors & ((1u << kSectorsPerLine) - 1);
  const uint32_t n = sector_count(sectors);
  if (l2_.sets() == 0) {  // no L2: everything goes to DRAM
    stats.l2_misses += n;
    (request.op == L2Op::kWrite ? stats.dram_write_sectors : stats.dram_read_sectors) += n;
    if (request.op == L2Op::kAtomic) stats.dram_write_sectors += n;
    return;
  }
  const uint32_t set =
      request.set != L2Request::kAnySet ? request.set : l2_.set_of(request.address);
  SectorCache::Result r;
  switch (request.op) {
    case L2Op::kRead:
      r = l2_.access(request.address, sectors, SectorCache::Fill::kClean, set);
      stats.dram_read_sectors += n - sector_count(r.hits);
      break;
    case L2Op::kWrite:
      r = l2_.access(request.address, sectors, SectorCache::Fill::kDirty, set);
      break;
    case L2Op::kAtomic:
      r = l2_.access(request.address, sectors, SectorCache::Fill::kDirty, set);
      stats.dram_read_sectors += n - sector_count(r.hits);
      break;
  }
  const uint32_t hits = sector_count(r.hits);
  stats.l2_hits += hits;
  stats.l2_misses += n - hits;
  stats.dram_write_sectors += sector_count(r.evicted_dirty);
}

void CacheState::flush(KernelStats* stats) {
  const uint64_t n = l2_.write_back_all();
  if (stats != nullptr) stats->dram_write_sectors += n;
}

}  // namespace strata::hw::perf
