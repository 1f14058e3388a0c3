#include "kmd/page_tables.h"

#include <fmt/format.h>

#include <atomic>
#include <cstring>

#include "hw/contract/page_table.h"

namespace strata::kmd {
namespace {

using hw::kHugePageSize;
using hw::kPageSize;
using hw::kPteAddrMask;
using hw::kPteHuge;
using hw::kPteSysmem;
using hw::kPteValid;
using hw::kPteWritable;
using hw::pt_index;

constexpr uint64_t kDirectoryFlags = kPteValid | kPteWritable;

}  // namespace

PageTables::PageTables(uint8_t* vram, RangeAllocator* vram_allocator)
    : vram_(vram), vram_allocator_(vram_allocator) {}

PageTables::~PageTables() {
  for (uint64_t table : tables_) (void)vram_allocator_->free(table);
}

Status PageTables::init() {
  ASSIGN_OR_RETURN(root_, new_table());
  return ok_status();
}

uint64_t PageTables::load(uint64_t table, int index) const {
  auto* entry = reinterpret_cast<uint64_t*>(vram_ + table + static_cast<uint64_t>(index) * 8);
  return std::atomic_ref<uint64_t>(*entry).load(std::memory_order_acquire);
}

void PageTables::store(uint64_t table, int index, uint64_t entry) {
  auto* slot = reinterpret_cast<uint64_t*>(vram_ + table + static_cast<uint64_t>(index) * 8);
  std::atomic_ref<uint64_t>(*slot).store(entry, std::memory_order_release);
}

StatusOr<uint64_t> PageTables::new_table() {
  auto table = vram_allocator_->allocate(kPageSize, kPageSize);
  if (!table.ok()) {
    return error(Code::kOutOfMemory,
                 "no device memory for a page table: " + table.status().message());
  }
  std::memset(vram_ + *table, 0, kPageSize);
  tables_.push_back(*table);
  return *table;
}

StatusOr<uint64_t> PageTables::child(uint64_t table, int index) {
  const uint64_t entry = load(table, index);
  if ((entry & kPteValid) != 0) return entry & kPteAddrMask;
  ASSIGN_OR_RETURN(uint64_t next, new_table());
  store(table, index, next | kDirectoryFlags);
  return next;
}

bool PageTables::lookup(uint64_t va, uint64_t* target, uint64_t* pte_flags) const {
  if ((va >> hw::kVaBits) != 0 || tables_.empty()) return false;
  uint64_t table = root_;
  for (int level = 4; level >= 1; --level) {
    const uint64_t entry = load(table, pt_index(va, level));
    if ((entry & kPteValid) == 0) return false;
    const bool leaf = level == 1 || (level == 2 && (entry & kPteHuge) != 0);
    if (!leaf) {
      table = entry & kPteAddrMask;
      continue;
    }
    const uint64_t page = level == 2 ? kHugePageSize : kPageSize;
    *target = (entry & kPteAddrMask) + (va & (page - 1));
    *pte_flags = entry & ~kPteAddrMask;
    return true;
  }
  return false;
}

bool PageTables::range_free(uint64_t va, uint64_t size) const {
  for (uint64_t off = 0; off < size;) {
    uint64_t target, flags;
    if (lookup(va + off, &target, &flags)) return false;
    off += kPageSize;
  }
  return true;
}

Status PageTables::map(uint64_t va, uint64_t target, uint64_t size, uint64_t pte_flags) {
  if (size == 0 || va % kPageSize != 0 || target % kPageSize != 0 || size % kPageSize != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("map [0x{:x}, +0x{:x}) -> 0x{:x}: not 4 KiB aligned", va, size, target));
  }
  if ((pte_flags & ~(kPteWritable | kPteSysmem | hw::kPteCopyOnly)) != 0) {
    return error(Code::kInvalidValue, fmt::format("map: bad PTE flags 0x{:x}", pte_flags));
  }
  const uint64_t limit = 1ull << hw::kVaBits;
  if (va >= limit || size > limit - va) {
    return error(Code::kInvalidValue,
                 fmt::format("map [0x{:x}, +0x{:x}): outside the 48-bit GPU VA space", va, size));
  }
  if (!range_free(va, size)) {
    return error(Code::kInvalidValue,
                 fmt::format("map [0x{:x}, +0x{:x}): range is already mapped", va, size));
  }
  const uint64_t leaf_flags = pte_flags | kPteValid;
  uint64_t off = 0;
  while (off < size) {
    const uint64_t v = va + off;
    const uint64_t t = target + off;
    ASSIGN_OR_RETURN(uint64_t l3, child(root_, pt_index(v, 4)));
    ASSIGN_OR_RETURN(uint64_t l2, child(l3, pt_index(v, 3)));
    const bool huge = v % kHugePageSize == 0 && t % kHugePageSize == 0 && size - off >= kHugePageSize &&
                      (load(l2, pt_index(v, 2)) & kPteValid) == 0;
    if (huge) {
      store(l2, pt_index(v, 2), t | leaf_flags | kPteHuge);
      off += kHugePageSize;
      continue;
    }
    ASSIGN_OR_RETURN(uint64_t l1, child(l2, pt_index(v, 2)));
    store(l1, pt_index(v, 1), t | leaf_flags);
    off += kPageSize;
  }
  return ok_status();
}

Status PageTables::split_huge(uint64_t l2_table, int index) {
  const uint64_t entry = load(l2_table, index);
  ASSIGN_OR_RETURN(uint64_t l1, new_table());
  const uint64_t base = entry & kPteAddrMask;
  const uint64_t flags = (entry & ~kPteAddrMask) & ~kPteHuge;
  for (int i = 0; i < 512; ++i) store(l1, i, (base + i * kPageSize) | flags);
  store(l2_table, index, l1 | kDirectoryFlags);
  return ok_status();
}

Status PageTables::unmap(uint64_t va, uint64_t size) {
  if (va % kPageSize != 0 || size % kPageSize != 0) {
    return error(Code::kInvalidValue,
                 fmt::format("unmap [0x{:x}, +0x{:x}): not 4 KiB aligned", va, size));
  }
  const uint64_t limit = 1ull << hw::kVaBits;
  if (va >= limit || size > limit - va) {
    return error(Code::kInvalidValue,
                 fmt::format("unmap [0x{:x}, +0x{:x}): outside the GPU VA space", va, size));
  }
  uint64_t off = 0;
  while (off < size) {
    const uint64_t v = va + off;
    uint64_t e4 = load(root_, pt_index(v, 4));
    if ((e4 & kPteValid) == 0) {
      off += kPageSize;
      continue;
    }
    uint64_t l3 = e4 & kPteAddrMask;
    uint64_t e3 = load(l3, pt_index(v, 3));
    if ((e3 & kPteValid) == 0) {
      off += kPageSize;
      continue;
    }
    uint64_t l2 = e3 & kPteAddrMask;
    uint64_t e2 = load(l2, pt_index(v, 2));
    if ((e2 & kPteValid) == 0) {
      off += kPageSize;
      continue;
    }
    if ((e2 & kPteHuge) != 0) {
      if (v % kHugePageSize == 0 && size - off >= kHugePageSize) {
        store(l2, pt_index(v, 2), 0);
        off += kHugePageSize;
        continue;
      }
      RETURN_IF_ERROR(split_huge(l2, pt_index(v, 2)));
      e2 = load(l2, pt_index(v, 2));
    }
    store(e2 & kPteAddrMask, pt_index(v, 1), 0);
    off += kPageSize;
  }
  return ok_status();
}

}  // namespace strata::kmd
