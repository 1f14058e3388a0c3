// RangeAllocator: hands out aligned, non-overlapping ranges of [base, base + size):
// VRAM physical memory and the reserved GPU VA range both use it.
//
// A free list ordered by address; allocation is first fit with alignment, freeing
// coalesces with both neighbours, so fragmentation is bounded by live allocations.
// Not thread-safe (the KMD device lock guards it).
#pragma once

#include <cstdint>
#include <map>
#include <string>

#include "base/status.h"

namespace strata::kmd {

class RangeAllocator {
 public:
  // `granule` (a power of two) is the smallest unit: sizes round up to it and
  // alignments are at least it. base must be granule-aligned.
  RangeAllocator(std::string name, uint64_t base, uint64_t size, uint64_t granule);

  // kInvalidValue for size 0 or a bad alignment (0 means granule; else a power of two);
  // kOutOfMemory (naming the largest free block) when no free block fits.
  StatusOr<uint64_t> allocate(uint64_t size, uint64_t alignment);
  // Allocates exactly [addr, addr + size) (size rounded up to the granule): kInvalidValue
  // for size 0 or an addr that is not granule-aligned, kNotFound when the range is not
  // entirely free.
  StatusOr<uint64_t> allocate_at(uint64_t addr, uint64_t size);
  // Frees the allocation that starts at `addr`; kInvalidValue if there is none.
  Status free(uint64_t addr);
  // Size of the allocation starting at `addr` (0 if none).
  uint64_t allocation_size(uint64_t addr) const;

  uint64_t free_bytes() const { return free_bytes_; }
  uint64_t largest_free_block() const;
  size_t free_block_count() const { return free_.size(); }
  size_t allocation_count() const { return used_.size(); }

 private:
  std::string name_;
  uint64_t base_;
  uint64_t size_;
  uint64_t granule_;
  uint64_t free_bytes_;
  std::map<uint64_t, uint64_t> free_;  // start -> size
  std::map<uint64_t, uint64_t> used_;  // start -> size
};

}  // namespace strata::kmd
