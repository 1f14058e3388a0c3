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
  if (p == nullptr || stamps == nullptr) {
    std::free(p);
    std::free(stamps);
    throw std::bad_alloc();
  }
  lines_.reset(p);
  stamp_.reset(stamps);
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
  for (uint32_t w = 0; w < ways_; ++w) {
    if (s[w].tag == tag) return static_cast<int>(w);
  }
  return -1;
}

SectorCache::Result SectorCache::access(uint64_t address, uint32_t sectors, Fill fill) {
  return access(address, sectors, fill, set_of(address));
}

SectorCache::Result SectorCache::access(uint64_t address, uint32_t sectors, Fill fill,
                                        uint32_t set) {
  Result r;
  sectors &= (1u << kSectorsPerLine) - 1;
  if (sets_ == 0 || sectors == 0) return r;
  if (!lines_) allocate();
  const uint64_t tag = address / kLineBytes + 1;
  Line* s = lines_.get() + static_cast<size_t>(set) * ways_;
  int way = find(set, tag);
  if (way >= 0) {
    Line& l = s[way];
    r.hits = l.valid & sectors;
    l.lru = ++stamp_[set];
    if (fill == Fill::kClean) l.valid |= sectors;
    if (fill == Fill::kDirty) l.valid |= sectors, l.dirty |= sectors;
    return r;
  }
  if (fill == Fill::kNone) return r;
  // Allocate: an empty way, else the least recently used one.
  uint32_t victim = 0;
  for (uint32_t w = 0; w < ways_; ++w) {
    if (s[w].tag == 0) {
      victim = w;
      break;
    }
    if (s[w].lru < s[victim].lru) victim = w;
  }
  Line& l = s[victim];
  if (l.tag != 0) {
    r.evicted_line = (l.tag - 1) * kLineBytes;
    r.evicted_dirty = l.dirty;
  }
  l.tag = tag;
  l.lru = ++stamp_[set];
  l.valid = static_cast<uint8_t>(sectors);
  l.dirty = fill == Fill::kDirty ? static_cast<uint8_t>(sectors) : 0;
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
  l2_.allocate();
}

void CacheState::apply(const L2Request& request, KernelStats& stats) {
  const uint32_t sectors = request.sectors & ((1u << kSectorsPerLine) - 1);
  const uint32_t n = static_cast<uint32_t>(std::popcount(sectors));
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
      stats.dram_read_sectors += n - std::popcount(r.hits);
      break;
    case L2Op::kWrite:
      r = l2_.access(request.address, sectors, SectorCache::Fill::kDirty, set);
      break;
    case L2Op::kAtomic:
      r = l2_.access(request.address, sectors, SectorCache::Fill::kDirty, set);
      stats.dram_read_sectors += n - std::popcount(r.hits);
      break;
  }
  const uint32_t hits = static_cast<uint32_t>(std::popcount(r.hits));
  stats.l2_hits += hits;
  stats.l2_misses += n - hits;
  stats.dram_write_sectors += static_cast<uint64_t>(std::popcount(r.evicted_dirty));
}

void CacheState::flush(KernelStats* stats) {
  const uint64_t n = l2_.write_back_all();
  if (stats != nullptr) stats->dram_write_sectors += n;
}

}  // namespace strata::hw::perf
