#include "kmd/range_allocator.h"

#include <fmt/format.h>

#include "base/check.h"

namespace strata::kmd {
namespace {

bool is_pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) & ~(a - 1); }

}  // namespace

RangeAllocator::RangeAllocator(std::string name, uint64_t base, uint64_t size, uint64_t granule)
    : name_(std::move(name)), base_(base), size_(size), granule_(granule), free_bytes_(size) {
  CHECK(is_pow2(granule));
  CHECK(base % granule == 0 && size % granule == 0);
  if (size > 0) free_.emplace(base, size);
}

StatusOr<uint64_t> RangeAllocator::allocate(uint64_t size, uint64_t alignment) {
  if (size == 0) return error(Code::kInvalidValue, fmt::format("{}: allocation of 0 bytes", name_));
  if (alignment == 0) alignment = granule_;
  if (!is_pow2(alignment)) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: alignment {} is not a power of two", name_, alignment));
  }
  if (alignment < granule_) alignment = granule_;
  if (size > size_) {
    return error(Code::kOutOfMemory,
                 fmt::format("{}: {} bytes requested, {} in total", name_, size, size_));
  }
  size = align_up(size, granule_);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const uint64_t start = it->first;
    const uint64_t end = it->first + it->second;
    const uint64_t addr = align_up(start, alignment);
    if (addr < start || addr >= end || end - addr < size) continue;
    // Split [start, end) into [start, addr) free, [addr, addr+size) used, rest free.
    free_.erase(it);
    if (addr > start) free_.emplace(start, addr - start);
    if (addr + size < end) free_.emplace(addr + size, end - (addr + size));
    used_.emplace(addr, size);
    free_bytes_ -= size;
    return addr;
  }
  return error(Code::kOutOfMemory,
               fmt::format("{}: out of memory: {} bytes (alignment {}) requested, {} free, "
                           "largest free block {}",
                           name_, size, alignment, free_bytes_, largest_free_block()));
}

StatusOr<uint64_t> RangeAllocator::allocate_at(uint64_t addr, uint64_t size) {
  if (size == 0 || addr % granule_ != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: allocation of {} bytes at 0x{:x}", name_, size, addr));
  }
  size = align_up(size, granule_);
  auto it = free_.upper_bound(addr);
  if (it == free_.begin()) {
    return error(Code::kNotFound, fmt::format("{}: 0x{:x} is not free", name_, addr));
  }
  --it;
  const uint64_t start = it->first;
  const uint64_t end = it->first + it->second;
  if (addr + size < addr || addr + size > end) {
    return error(Code::kNotFound,
                 fmt::format("{}: [0x{:x}, +{}) is not free", name_, addr, size));
  }
  free_.erase(it);
  if (addr > start) free_.emplace(start, addr - start);
  if (addr + size < end) free_.emplace(addr + size, end - (addr + size));
  used_.emplace(addr, size);
  free_bytes_ -= size;
  return addr;
}

Status RangeAllocator::free(uint64_t addr) {
  auto used = used_.find(addr);
  if (used == used_.end()) {
    return error(Code::kInvalidValue,
                 fmt::format("{}: 0x{:x} is not the start of an allocation", name_, addr));
  }
  uint64_t start = used->first;
  uint64_t size = used->second;
  used_.erase(used);
  free_bytes_ += size;
  auto next = free_.lower_bound(start);
  if (next != free_.end() && next->first == start + size) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == start) {
      prev->second += size;
      return ok_status();
    }
  }
  free_.emplace(start, size);
  return ok_status();
}

uint64_t RangeAllocator::allocation_size(uint64_t addr) const {
  auto it = used_.find(addr);
  return it == used_.end() ? 0 : it->second;
}

uint64_t RangeAllocator::largest_free_block() const {
  uint64_t best = 0;
  for (const auto& [start, size] : free_) best = std::max(best, size);
  return best;
}

}  // namespace strata::kmd
