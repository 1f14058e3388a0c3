// The device heap behind CUDA's device-side malloc, free and __nv_aligned_device_malloc,
// compiled by nvcc to PTX at build time (CMakeLists.txt) and linked by the compiler into
// programs that call them (devrt.h). The heap's layout is heap_layout.h.
//
// A segregated-fit allocator: 128 size classes (four per power of two), each a lock-free
// LIFO free list (CAS on a tagged 64-bit head, so a concurrent pop/push cannot ABA), and
// a bump pointer (CAS) that carves new blocks from the arena. malloc takes a block of its
// class from the free list, else a new one from the arena, else any free block of a
// larger class; it returns NULL when none exists. Blocks never split or coalesce: a freed
// block is reused only by allocations of its class or smaller ones. Every operation is
// thread-safe against every other, in the same grid or another.
#include <cstddef>
#include <cstdint>

#include "compiler/devrt/heap_layout.h"

using namespace strata::compiler::devrt;

// Lowered by the compiler to a read of the heap's VA from the driver bank c[3]
// (compiler/ir/lower_device_runtime.cc); 0 when the context has no heap.
extern "C" __device__ unsigned long long __strata_device_heap();

namespace {

__device__ unsigned long long* heap_word(unsigned long long heap, uint64_t offset) {
  return reinterpret_cast<unsigned long long*>(heap + offset);
}

__device__ unsigned long long load_volatile(unsigned long long* p) {
  return *static_cast<volatile unsigned long long*>(p);
}

// The smallest class whose blocks hold `bytes` (header included); kHeapClasses if none.
__device__ uint32_t class_of(uint64_t bytes) {
  uint64_t units = (bytes + 15) / 16;
  if (units <= 4) return 0;
  uint32_t e = 63 - __clzll(static_cast<long long>(units)) - 2;  // 4 << e <= units < 8 << e
  uint64_t step = uint64_t{1} << e;
  uint64_t q = (units - (uint64_t{4} << e) + step - 1) >> e;  // 0..4
  uint32_t c = 4 * e + static_cast<uint32_t>(q);
  return c < kHeapClasses ? c : kHeapClasses;
}

// Pops a block of class c; returns its arena offset or ~0 when the list is empty.
__device__ uint64_t pop(unsigned long long heap, uint32_t c) {
  unsigned long long* head = heap_word(heap, kHeapFreeLists + 8 * c);
  unsigned long long arena = heap + kHeapHeaderBytes;
  unsigned long long old = load_volatile(head);
  while ((old & 0xffffffffull) != 0) {
    uint64_t offset = ((old & 0xffffffffull) - 1) * 16;
    // The block may be popped and reused by another thread meanwhile: then `next` is
    // garbage, but the head's tag has changed and the CAS below fails.
    unsigned long long next = load_volatile(heap_word(arena, offset + kHeapBlockHeaderBytes));
    unsigned long long desired = (((old >> 32) + 1) << 32) | (next & 0xffffffffull);
    unsigned long long seen = atomicCAS(head, old, desired);
    if (seen == old) {
      __threadfence();
      return offset;
    }
    old = seen;
  }
  return ~uint64_t{0};
}

__device__ void push(unsigned long long heap, uint32_t c, uint64_t offset) {
  unsigned long long* head = heap_word(heap, kHeapFreeLists + 8 * c);
  unsigned long long arena = heap + kHeapHeaderBytes;
  unsigned long long old = load_volatile(head);
  for (;;) {
    *static_cast<volatile unsigned long long*>(heap_word(arena, offset + kHeapBlockHeaderBytes)) =
        old & 0xffffffffull;
    __threadfence();
    unsigned long long desired = (((old >> 32) + 1) << 32) | (offset / 16 + 1);
    unsigned long long seen = atomicCAS(head, old, desired);
    if (seen == old) return;
    old = seen;
  }
}

// Carves `bytes` from the arena; returns the offset or ~0 when the arena is used up.
__device__ uint64_t bump(unsigned long long heap, uint64_t bytes) {
  unsigned long long arena_bytes = load_volatile(heap_word(heap, kHeapArenaBytes));
  unsigned long long* used = heap_word(heap, kHeapBump);
  unsigned long long old = load_volatile(used);
  for (;;) {
    if (old > arena_bytes || bytes > arena_bytes - old) return ~uint64_t{0};
    unsigned long long seen = atomicCAS(used, old, old + bytes);
    if (seen == old) return old;
    old = seen;
  }
}

__device__ void* block_pointer(unsigned long long heap, uint64_t offset, uint32_t c) {
  unsigned long long block = heap + kHeapHeaderBytes + offset;
  unsigned int* header = reinterpret_cast<unsigned int*>(block);
  header[0] = c;
  header[1] = kHeapBlockLive;
  return reinterpret_cast<void*>(block + kHeapBlockHeaderBytes);
}

}  // namespace

extern "C" __device__ void* __strata_malloc(size_t size) {
  unsigned long long heap = __strata_device_heap();
  if (heap == 0) return nullptr;
  unsigned long long arena_bytes = load_volatile(heap_word(heap, kHeapArenaBytes));
  if (size > arena_bytes) return nullptr;
  uint32_t c = class_of(size + kHeapBlockHeaderBytes);
  if (c >= kHeapClasses) return nullptr;
  uint64_t offset = pop(heap, c);
  if (offset == ~uint64_t{0}) offset = bump(heap, heap_block_bytes(c));
  for (uint32_t k = c + 1; offset == ~uint64_t{0} && k < kHeapClasses; ++k) {
    if (heap_block_bytes(k) > arena_bytes) break;
    offset = pop(heap, k);
    if (offset != ~uint64_t{0}) c = k;
  }
  if (offset == ~uint64_t{0}) return nullptr;
  return block_pointer(heap, offset, c);
}

extern "C" __device__ void __strata_free(void* ptr) {
  if (ptr == nullptr) return;
  unsigned long long heap = __strata_device_heap();
  if (heap == 0) return;
  unsigned long long p = reinterpret_cast<unsigned long long>(ptr);
  unsigned int* header = reinterpret_cast<unsigned int*>(p - kHeapBlockHeaderBytes);
  if (header[0] == kHeapAlignedClass && header[1] == kHeapBlockLive) {
    p -= *reinterpret_cast<unsigned long long*>(p - 8);
    header = reinterpret_cast<unsigned int*>(p - kHeapBlockHeaderBytes);
  }
  unsigned long long arena = heap + kHeapHeaderBytes;
  unsigned long long arena_bytes = load_volatile(heap_word(heap, kHeapArenaBytes));
  // Pointers that malloc did not return (or freed twice) are ignored.
  if (p < arena + kHeapBlockHeaderBytes || p >= arena + arena_bytes) return;
  uint32_t c = header[0];
  if (c >= kHeapClasses || header[1] != kHeapBlockLive) return;
  header[1] = kHeapBlockFree;
  push(heap, c, p - kHeapBlockHeaderBytes - arena);
}

// __nv_aligned_device_malloc(size, align): NULL unless align is a power of two.
extern "C" __device__ void* __strata_aligned_malloc(size_t size, size_t align) {
  if (align == 0 || (align & (align - 1)) != 0) return nullptr;
  if (align <= kHeapAlignment) return __strata_malloc(size);
  if (size + align < size) return nullptr;
  void* raw = __strata_malloc(size + align);
  if (raw == nullptr) return nullptr;
  unsigned long long p = reinterpret_cast<unsigned long long>(raw);
  unsigned long long aligned = (p + kHeapBlockHeaderBytes + align - 1) & ~(align - 1);
  unsigned int* header = reinterpret_cast<unsigned int*>(aligned - kHeapBlockHeaderBytes);
  header[0] = kHeapAlignedClass;
  header[1] = kHeapBlockLive;
  *reinterpret_cast<unsigned long long*>(aligned - 8) = aligned - p;
  return reinterpret_cast<void*>(aligned);
}

// Dynamic parallelism's device-side cudaMalloc/cudaFree (nvcc: __cudaCDP2Malloc /
// __cudaCDP2Free) allocate from the same heap as malloc/free, as CUDA documents; they
// return a cudaError_t (cudaErrorMemoryAllocation = 2 when the heap is exhausted).
extern "C" __device__ int __strata_cdp2_malloc(void** ptr, size_t size) {
  *ptr = __strata_malloc(size);
  return *ptr != nullptr ? 0 : 2;
}

extern "C" __device__ int __strata_cdp2_free(void* ptr) {
  __strata_free(ptr);
  return 0;
}
