// Sector cache models: the L1 of each SM and the device's L2, fed by the memory handlers
// (hw/sim/sm/mem_model.h) in the deterministic modeled interleaving of hw/sim/sm/grid.cc.
// They count hits and misses into KernelStats; they hold tags only, never data.
//
// Geometry: 128-byte lines of four 32-byte sectors, each sector with its own valid and
// dirty bit; `ways` lines per set, least-recently-used replacement within a set. The
// number of sets is capacity / (128 x ways), rounded down (need not be a power of two);
// a capacity under one line keeps nothing (every access misses).
//
// Set index (the hash): with L = address / 128 (the line number), S sets and B the
// smallest power of two >= S, the lines are cut into aligned blocks of B lines and each
// block is rotated by a pseudo-random amount:
//   set(L) = (L mod B + R(L div B)) mod S,   R(t) = floor(h(t) x S / 2^32),
//   h(t) = the high 32 bits of t x 0x9E3779B97F4A7C15 (Fibonacci hashing).
// When S is a power of two (B = S) the S lines of a block land in S distinct sets, so a
// contiguous array of at most (ways - 1) x S lines never conflicts with itself; otherwise
// at most two lines of a block share a set. Power-of-two strides (columns of a matrix,
// lines a multiple of B apart) spread over all sets instead of piling into one, as
// NVIDIA's address hashing does on the real chips. No division: cheap per access.
//
// Policies (what the callers do; NVIDIA's documented L1/L2 behaviour):
//   L1, per SM (capacity: the config's L1 + shared capacity minus the shared memory the
//   resident CTAs use: the most CTAs any SM of the grid holds at once x their shared
//   memory, reserved bytes included; grid.cc): global and texture loads allocate (clean); global
//   stores write through without allocating (a store to a present sector is a hit and keeps it
//   valid); local loads allocate, local stores allocate dirty (write-back: dirty local
//   sectors go to L2 when evicted); atomics bypass L1 and invalidate its copy; L2-only
//   loads (cp.async.cg) neither look up nor fill the L1 and count no L1 access.
//   L2, per device (CacheState): reads allocate, a miss reads the sector from DRAM;
//   writes allocate the sector dirty without reading DRAM (write-allocate per sector);
//   atomics are performed in L2 (a miss reads DRAM, the sector becomes dirty); evicting
//   a dirty sector writes it to DRAM.
// Lifetimes: each grid starts with empty L1s (the real L1 is not coherent and is
// invalidated between kernels); dirty local data still in an L1 when the grid ends is
// dead and dropped. The L2 (CacheState) persists from grid to grid when the command
// processor passes the same CacheState to every launch (GridLaunch::caches).
// Addresses are virtual (the SM's view; local memory uses stats.h's per-warp local
// sector addresses); the L2 of the real chip is physically indexed, which the model
// ignores. Cache operators (ld.cg, ld.volatile, ...) are not distinguished: every global
// load is looked up in L1.
//
// Thread safety: a cache has one user at a time, except that accesses to different sets
// may run concurrently once the storage exists (allocate()): replacement state is kept
// per set, so the L2 can be replayed by several workers, each owning a subset of the sets.
// (Such a shared cache must not use way hints: CacheState's L2 does not.)
//
// Speed: access(address, sectors, fill) first tries a way hint, a small direct-indexed
// table of (line, set, way) for recently used lines, checked against the line's tag: a
// hint only saves the set hash and the way scan and never changes a result (a line lives
// in one set, once; a stale hint fails the tag check and the normal lookup runs). Within
// a set, the lookup compares the most recently used way's tag before scanning the others
// (per-set state, so safe for set-partitioned concurrent users).
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/perf/kernel_stats.h"

namespace strata::hw::perf {

inline constexpr uint32_t kLineBytes = 128;
inline constexpr uint32_t kSectorBytes = 32;
inline constexpr uint32_t kSectorsPerLine = kLineBytes / kSectorBytes;

// Sectors in a line's sector mask (bits 0-3), without a popcount call (the default x86-64
// target has no popcount instruction): a table of 16 four-bit counts.
inline constexpr uint32_t sector_count(uint32_t mask) {
  return static_cast<uint32_t>((0x4332322132212110ull >> ((mask & 15u) * 4)) & 15u);
}

// Associativity used when the config gives none (sm.l1_ways / device.l2_ways of 0, as in
// hand-built test configs); the arch/*.toml files all set them.
inline constexpr uint32_t kDefaultL1Ways = 4;
inline constexpr uint32_t kDefaultL2Ways = 16;

class SectorCache {
 public:
  // What a missing sector becomes.
  enum class Fill : uint8_t {
    kNone,   // nothing is allocated (write-through, no write-allocate; lookups)
    kClean,  // missing sectors are filled clean (allocating the line if absent)
    kDirty,  // every accessed sector becomes valid and dirty (write-back, write-allocate)
  };
  struct Result {
    uint32_t hits = 0;           // mask of the accessed sectors that were valid
    uint64_t evicted_line = 0;   // byte address of the line evicted to make room
    uint32_t evicted_dirty = 0;  // that line's dirty sectors (mask), to be written back
  };

  SectorCache() = default;  // keeps nothing
  SectorCache(uint64_t capacity_bytes, uint32_t ways);

  uint32_t sets() const { return sets_; }
  uint32_t ways() const { return ways_; }
  uint64_t capacity_bytes() const { return static_cast<uint64_t>(sets_) * ways_ * kLineBytes; }
  // The set of the line holding byte `address` (the hash above).
  uint32_t set_of(uint64_t address) const;

  // Accesses the sectors in mask `sectors` (bit i: bytes [32i, 32i+32) of the line) of
  // the line holding byte `address`. A hit makes the line most recently used. `set`, when
  // given, must be set_of(address).
  inline Result access(uint64_t address, uint32_t sectors, Fill fill);
  inline Result access(uint64_t address, uint32_t sectors, Fill fill, uint32_t set);
  // Drops those sectors (their dirty data is discarded); the line goes when none is left.
  void invalidate(uint64_t address, uint32_t sectors);
  // Sectors currently valid / dirty.
  uint64_t valid_sectors() const;
  uint64_t dirty_sectors() const;
  // Cleans every dirty sector; returns how many there were (to be written back).
  uint64_t write_back_all();
  // Allocates the tag store now (otherwise done by the first access, which is not safe
  // for concurrent users). Fresh zero pages: costs nothing until touched.
  void allocate();

 private:
  friend class CacheState;
  int find(uint32_t set, uint64_t tag) const;
  // access(address, sectors, fill, set) past the most-recently-used way's tag check.
  Result access_slow(uint64_t address, uint32_t sectors, Fill fill, uint32_t set);

  struct Line {
    uint64_t tag;   // line number + 1; 0: no line
    uint64_t lru;   // last use (the set's stamp); the smallest in a set is evicted
    uint8_t valid;  // sector masks
    uint8_t dirty;
  };
  // A way hint: the line with `tag` was at lines_[index], in `set`, when last used.
  struct Hint {
    uint64_t tag;
    uint32_t set;
    uint32_t index;
  };
  static constexpr uint32_t kHints = 64;  // direct-indexed by line number

  // A hit on line `l` of `set` (found by tag): the hit path of access().
  Result hit(Line& l, uint32_t set, uint32_t sectors, Fill fill) {
    Result r;
    r.hits = l.valid & sectors;
    l.lru = ++stamp_[set];
    if (fill != Fill::kNone) l.valid |= static_cast<uint8_t>(sectors);
    if (fill == Fill::kDirty) l.dirty |= static_cast<uint8_t>(sectors);
    return r;
  }
  void remember(uint64_t tag, uint32_t set, uint32_t way) {
    mru_[set] = way;
    if (hints_) hints_[tag & (kHints - 1)] = {tag, set, set * ways_ + way};
  }

  struct Free {
    void operator()(void* p) const;
  };
  uint32_t sets_ = 0;
  uint32_t ways_ = 0;
  uint32_t block_bits_ = 0;                  // log2 of B (see the hash above)
  bool use_hints_ = true;                    // false for a cache with concurrent users
  std::unique_ptr<Line[], Free> lines_;      // sets_ x ways_
  std::unique_ptr<uint64_t[], Free> stamp_;  // per set: uses so far
  std::unique_ptr<uint32_t[], Free> mru_;    // per set: the way used last
  std::unique_ptr<Hint[], Free> hints_;      // kHints of them, or none
};

inline SectorCache::Result SectorCache::access(uint64_t address, uint32_t sectors, Fill fill) {
  const uint64_t tag = address / kLineBytes + 1;
  sectors &= (1u << kSectorsPerLine) - 1;
  if (hints_ && sectors != 0) {
    const Hint& h = hints_[tag & (kHints - 1)];
    if (h.tag == tag && lines_[h.index].tag == tag) [[likely]]
      return hit(lines_[h.index], h.set, sectors, fill);
  }
  return access(address, sectors, fill, set_of(address));
}

inline SectorCache::Result SectorCache::access(uint64_t address, uint32_t sectors, Fill fill,
                                               uint32_t set) {
  sectors &= (1u << kSectorsPerLine) - 1;
  if (lines_ && sectors != 0) {
    const uint64_t tag = address / kLineBytes + 1;
    Line* s = lines_.get() + static_cast<size_t>(set) * ways_;
    if (const uint32_t m = mru_[set]; s[m].tag == tag) [[likely]] {
      if (hints_) hints_[tag & (kHints - 1)] = {tag, set, set * ways_ + m};
      return hit(s[m], set, sectors, fill);
    }
  }
  return access_slow(address, sectors, fill, set);
}

// One L2 request (an L1 miss, a store, an atomic or an L1 write-back), as the SMs log
// them for the epoch's replay.
enum class L2Op : uint8_t { kRead, kWrite, kAtomic };
struct L2Request {
  static constexpr uint32_t kAnySet = UINT32_MAX;
  uint64_t address = 0;  // any byte of the line
  uint8_t sectors = 0;   // mask
  L2Op op = L2Op::kRead;
  uint32_t set = kAnySet;  // the L2 set of `address`, when the requester computed it
};

// The device's L2 contents, which persist from grid to grid (GridLaunch::caches).
class CacheState {
 public:
  // L2 of config.l2_bytes with the config's associativity.
  explicit CacheState(const ArchConfig& config);
  CacheState(uint64_t l2_bytes, uint32_t l2_ways);

  // Applies `request` to the L2 and counts l2_hits/l2_misses/dram_*_sectors into `stats`.
  // Requests to different sets may be applied concurrently.
  void apply(const L2Request& request, KernelStats& stats);
  // Writes every dirty sector back to DRAM (counted into stats->dram_write_sectors).
  void flush(KernelStats* stats);

  SectorCache& l2() { return l2_; }
  const SectorCache& l2() const { return l2_; }

 private:
  SectorCache l2_;
};

// The associativity and usable L1 capacity of an SM under a config. `shared_in_use` is
// the shared memory of the resident CTAs (the carve-out taken from the L1 capacity).
uint32_t l1_ways(const ArchConfig& config);
uint32_t l2_ways(const ArchConfig& config);
uint64_t l1_capacity(const ArchConfig& config, uint64_t shared_in_use);

}  // namespace strata::hw::perf
