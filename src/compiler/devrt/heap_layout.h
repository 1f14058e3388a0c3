// DEVICE HEAP: the memory behind device-side malloc/free, shared by the device runtime
// library (heap.cu, compiled by nvcc) and the driver that allocates and initialises it
// (cuda/driver/device_runtime.cc). Plain constants only: this header is read by nvcc
// and by the host compiler.
//
// The driver allocates kHeapHeaderBytes + cudaLimitMallocHeapSize bytes at a VA H
// (aligned to 256) when the first kernel that calls malloc/free is launched, zero-fills
// the header, stores the arena size at H + kHeapArenaBytes and H in the driver bank
// c[3] (sxbin.h, kDriverBankDeviceHeapVa), where the library reads it.
//
//   H + 0                 u64 arena bytes (the heap size limit)
//   H + 8                 u64 arena bytes handed out so far (bump pointer, CAS)
//   H + 64 + 8 * c        u64 free list of size class c: (tag << 32) | (block index + 1),
//                         0 = empty; a block's index is its arena offset / 16, and the
//                         next link (same encoding, without tag) is the block's u64 at
//                         block + 16 while it is free. The tag makes CAS pops ABA-safe.
//   H + kHeapHeaderBytes  the arena: blocks of size class c are heap_block_bytes(c) long
//
// Block: a 16-byte header (u32 size class, u32 kHeapBlockLive / kHeapBlockFree, u64
// unused), then the caller's bytes (16-byte aligned). An over-aligned allocation
// (__nv_aligned_device_malloc) places, just before the pointer it returns, a header
// with class kHeapAlignedClass whose u64 is the distance back to the underlying block's
// pointer.
#pragma once

#include <cstdint>

namespace strata::compiler::devrt {

inline constexpr uint64_t kHeapArenaBytes = 0;
inline constexpr uint64_t kHeapBump = 8;
inline constexpr uint64_t kHeapFreeLists = 64;
inline constexpr uint32_t kHeapClasses = 128;
inline constexpr uint64_t kHeapHeaderBytes = 2048;
inline constexpr uint64_t kHeapBlockHeaderBytes = 16;
inline constexpr uint64_t kHeapAlignment = 16;  // CUDA: malloc's pointers are 16-byte aligned
// Block indices are 32-bit counts of 16 bytes: the arena is at most 64 GiB.
inline constexpr uint64_t kHeapMaxArenaBytes = (uint64_t{1} << 36) - kHeapAlignment;
inline constexpr uint32_t kHeapBlockLive = 0x4b485453u;  // "STHK"
inline constexpr uint32_t kHeapBlockFree = 0x45455246u;  // "FREE"
inline constexpr uint32_t kHeapAlignedClass = 0xffffffffu;

// Size class c holds blocks (header included) of 16 * (4 + c % 4) * 2^(c / 4) bytes:
// four classes per power of two from 64 bytes up.
inline constexpr uint64_t heap_block_bytes(uint32_t c) {
  return uint64_t{16} * ((uint64_t{4} + (c & 3u)) << (c >> 2));
}

}  // namespace strata::compiler::devrt
