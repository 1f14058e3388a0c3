// The simulated memory system's translation path, shared by the command processor,
// copy engine and SMs. Implemented in memory.cc (owner: memory system).
//
// PageWalker walks a channel's page tables (hw/contract/page_table.h) in VRAM; it is
// immutable after construction and thread-safe. Tlb is a small software TLB in front
// of it, one per executing host thread (not thread-safe). Neither checks bounds
// within a mapped page: exact bounds checking is the sanitizer's job, as on real GPUs.
#pragma once

#include <cstdint>

#include "hw/contract/fault.h"
#include "hw/contract/page_table.h"

namespace strata::hw::sim {

struct Translation {
  uint8_t* host_page = nullptr;  // host address of the first byte of the page
  uint64_t page_va = 0;          // GPU VA of the first byte of the page
  uint64_t page_size = 0;        // kPageSize or kHugePageSize
  bool writable = false;
  bool sm_access = true;  // false for kPteCopyOnly pages
};

class PageWalker {
 public:
  // `vram` is VRAM physical address 0; `pt_root` the level-4 table's physical address.
  PageWalker(uint8_t* vram, uint64_t vram_size, uint64_t pt_root)
      : vram_(vram), vram_size_(vram_size), pt_root_(pt_root) {}

  // Walks the tables for `va`. Returns false (kUnmapped) for a missing entry, a
  // non-canonical address, or a table/page outside VRAM.
  bool walk(uint64_t va, Translation* out) const;

 private:
  uint8_t* vram_;
  uint64_t vram_size_;
  uint64_t pt_root_;
};

class Tlb {
 public:
  explicit Tlb(const PageWalker* walker) : walker_(walker) {}

  // Host pointer for the access [va, va + size), or nullptr with *fault set.
  // `size` is 1..16 and a power of two; misaligned addresses fault (kMisaligned), as
  // do writes through read-only pages (kWriteProtect) and unmapped or copy-only pages
  // (kUnmapped: the Tlb serves the SMs).
  inline uint8_t* translate(uint64_t va, uint32_t size, bool write, FaultKind* fault) {
    if ((va & (size - 1)) != 0) {
      *fault = FaultKind::kMisaligned;
      return nullptr;
    }
    Entry& e = entries_[(va >> 12) & (kEntries - 1)];
    if (e.host_page == nullptr || va - e.page_va >= e.page_size) {
      Translation t;
      if (!walker_->walk(va, &t) || !t.sm_access) {
        *fault = FaultKind::kUnmapped;
        return nullptr;
      }
      e = Entry{t.host_page, t.page_va, t.page_size, t.writable};
    }
    if (write && !e.writable) {
      *fault = FaultKind::kWriteProtect;
      return nullptr;
    }
    return e.host_page + (va - e.page_va);
  }

  void flush() {
    for (Entry& e : entries_) e = Entry{};
  }

 private:
  struct Entry {
    uint8_t* host_page = nullptr;
    uint64_t page_va = 0;
    uint64_t page_size = 0;
    bool writable = false;
  };
  static constexpr int kEntries = 64;
  const PageWalker* walker_;
  Entry entries_[kEntries];
};

}  // namespace strata::hw::sim
