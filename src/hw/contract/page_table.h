// GPU page tables, as written by the KMD and walked by the hardware MMU.
//
// 48-bit GPU virtual addresses, 4 levels of 512 eight-byte entries (like x86-64):
//   VA[47:39] -> L4, VA[38:30] -> L3, VA[29:21] -> L2, VA[20:12] -> L1 -> 4 KiB page.
// An L2 entry with kPteHuge maps a 2 MiB page directly. Tables are 4 KiB, 4 KiB aligned,
// in VRAM; a channel's root is CH_PT_BASE. Entries with kPteSysmem point at host memory
// (pinned/registered host pages; the address is the host's own address, which is what
// UVA needs), other entries at VRAM physical addresses.
#pragma once

#include <cstdint>

namespace strata::hw {

inline constexpr uint64_t kPteValid = 1ull << 0;
inline constexpr uint64_t kPteWritable = 1ull << 1;
inline constexpr uint64_t kPteSysmem = 1ull << 2;
// Leaf only: the page is reachable by the copy engine (and the command processor) but
// not by SM loads, stores and atomics, which fault on it as on an unmapped page (the
// KMD's copy-only mappings of peer memory, for copies without peer access).
inline constexpr uint64_t kPteCopyOnly = 1ull << 3;
inline constexpr uint64_t kPteHuge = 1ull << 7;   // L2 only: 2 MiB page
inline constexpr uint64_t kPteAddrMask = 0x000ffffffffff000ull;

inline constexpr uint64_t kPageSize = 4096;
inline constexpr uint64_t kHugePageSize = 2ull << 20;
inline constexpr int kVaBits = 48;

constexpr int pt_index(uint64_t va, int level) {  // level 4..1
  return static_cast<int>((va >> (12 + 9 * (level - 1))) & 511);
}

}  // namespace strata::hw
