// PageWalker::walk: the hardware MMU's table walk (hw/contract/page_table.h).
//
// Every table address and every VRAM page address is checked against VRAM before it is
// dereferenced, so a corrupt table faults instead of reading outside VRAM. Entries are
// read with relaxed atomic loads: the KMD may rewrite tables while SMs walk them, and
// such a race yields either the old or the new entry, never a torn one.
#include <atomic>

#include "hw/sim/memory.h"

namespace strata::hw::sim {
namespace {

constexpr int kTopLevel = 4;

// True if [addr, addr + bytes) lies inside VRAM (overflow-safe).
bool in_vram(uint64_t addr, uint64_t bytes, uint64_t vram_size) {
  return addr <= vram_size && bytes <= vram_size - addr;
}

uint64_t load_entry(uint8_t* vram, uint64_t table, int index) {
  auto* entry = reinterpret_cast<uint64_t*>(vram + table + static_cast<uint64_t>(index) * 8);
  return std::atomic_ref<uint64_t>(*entry).load(std::memory_order_relaxed);
}

}  // namespace

bool PageWalker::walk(uint64_t va, Translation* out) const {
  if ((va >> kVaBits) != 0) return false;  // not a 48-bit GPU virtual address
  uint64_t table = pt_root_;
  for (int level = kTopLevel; level >= 1; --level) {
    if ((table & (kPageSize - 1)) != 0 || !in_vram(table, kPageSize, vram_size_)) return false;
    const uint64_t entry = load_entry(vram_, table, pt_index(va, level));
    if ((entry & kPteValid) == 0) return false;
    const uint64_t addr = entry & kPteAddrMask;
    const bool leaf = level == 1 || (level == 2 && (entry & kPteHuge) != 0);
    if (!leaf) {
      // Tables live in VRAM; a directory entry claiming host memory is corrupt.
      if ((entry & (kPteSysmem | kPteHuge)) != 0) return false;
      table = addr;
      continue;
    }
    const uint64_t page_size = level == 2 ? kHugePageSize : kPageSize;
    if ((addr & (page_size - 1)) != 0) return false;
    uint8_t* host_page;
    if ((entry & kPteSysmem) != 0) {
      host_page = reinterpret_cast<uint8_t*>(static_cast<uintptr_t>(addr));
    } else {
      if (!in_vram(addr, page_size, vram_size_)) return false;
      host_page = vram_ + addr;
    }
    out->host_page = host_page;
    out->page_va = va & ~(page_size - 1);
    out->page_size = page_size;
    out->writable = (entry & kPteWritable) != 0;
    out->sm_access = (entry & kPteCopyOnly) == 0;
    return true;
  }
  return false;
}

}  // namespace strata::hw::sim
