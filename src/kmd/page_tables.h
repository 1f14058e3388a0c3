// PageTables: one GPU address space's 4-level page tables, written into VRAM in the
// format of hw/contract/page_table.h.
//
// Mappings of 2 MiB-aligned pieces (VA and target both aligned, 2 MiB or more left)
// use huge L2 entries; the rest 4 KiB L1 entries. Unmapping part of a huge page splits
// it into a 4 KiB table first. Tables emptied by unmap stay allocated until the
// address space is destroyed. Entries are written with atomic stores so a concurrent
// hardware walk sees the old or the new entry, never a torn one.
// Not thread-safe (the KMD device lock guards it).
#pragma once

#include <cstdint>
#include <vector>

#include "base/status.h"
#include "kmd/range_allocator.h"

namespace strata::kmd {

class PageTables {
 public:
  // `vram` is VRAM physical address 0; tables are allocated from `vram_allocator`.
  PageTables(uint8_t* vram, RangeAllocator* vram_allocator);
  ~PageTables();  // frees every table
  PageTables(const PageTables&) = delete;
  PageTables& operator=(const PageTables&) = delete;

  // Allocates the level-4 table. kOutOfMemory if VRAM is exhausted.
  Status init();
  uint64_t root() const { return root_; }

  // Maps [va, va + size) to [target, target + size). `pte_flags` is a subset of
  // kPteWritable | kPteSysmem | kPteCopyOnly (sysmem: target is a host address). va,
  // target and size must be 4 KiB multiples, va + size within the 48-bit VA space.
  // kInvalidValue if any page is already mapped (nothing is changed then); kOutOfMemory
  // for tables.
  Status map(uint64_t va, uint64_t target, uint64_t size, uint64_t pte_flags);
  // Clears the entries of [va, va + size) (4 KiB multiples); holes are ignored.
  Status unmap(uint64_t va, uint64_t size);

  // Translates `va` as the hardware would (for tests and diagnostics): the target
  // address and PTE flags, or false if unmapped.
  bool lookup(uint64_t va, uint64_t* target, uint64_t* pte_flags) const;

  size_t table_count() const { return tables_.size(); }

 private:
  uint64_t load(uint64_t table, int index) const;
  void store(uint64_t table, int index, uint64_t entry);
  StatusOr<uint64_t> new_table();
  // The table at `level` - 1 under entry `index` of `table`, created if absent.
  StatusOr<uint64_t> child(uint64_t table, int index);
  bool range_free(uint64_t va, uint64_t size) const;
  Status split_huge(uint64_t l2_table, int index);

  uint8_t* vram_;
  RangeAllocator* vram_allocator_;
  uint64_t root_ = 0;
  std::vector<uint64_t> tables_;
};

}  // namespace strata::kmd
