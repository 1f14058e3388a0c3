// ProcessVaSpace: the host address ranges the KMD reserves in this process so that GPU
// addresses never collide with host pointers (unified addressing).
//
// - The GPU VA range: reserved with mmap(PROT_NONE, MAP_NORESERVE), 1 GiB aligned; 1 TiB
//   when the host grants it, else the largest power of two down to 32 GiB (hosts with
//   little free address space, e.g. under ThreadSanitizer, whose application range
//   holds barely one 1 TiB mapping). Device allocations of every device and context get
//   VAs from it; the host can never have memory there, so a device pointer is never a
//   valid host pointer.
// - The shared- and local-memory windows: 16 MiB each, 16 MiB aligned, also reserved,
//   so no host or device pointer falls inside them (generic addressing decides the
//   space by window).
// Created on first use; lives until process exit. Thread-safe.
#pragma once

#include <cstdint>
#include <mutex>

#include "base/status.h"
#include "kmd/range_allocator.h"

namespace strata::kmd {

inline constexpr uint64_t kGpuVaRangeBytes = 1ull << 40;     // preferred size
inline constexpr uint64_t kMinGpuVaRangeBytes = 32ull << 30;  // smallest acceptable
inline constexpr uint64_t kWindowBytes = 16ull << 20;

class ProcessVaSpace {
 public:
  // kOutOfMemory if the host refuses the reservation.
  static StatusOr<ProcessVaSpace*> get();

  // `hint`: 0, or the preferred start, used when it is aligned and the range is free
  // (else the range starts elsewhere).
  StatusOr<uint64_t> allocate(uint64_t size, uint64_t alignment, uint64_t hint = 0);
  Status free(uint64_t va);
  bool contains(uint64_t va) const { return va >= base_ && va - base_ < size_; }

  uint64_t base() const { return base_; }
  uint64_t size() const { return size_; }
  uint64_t shared_window() const { return shared_window_; }
  uint64_t local_window() const { return local_window_; }

 private:
  ProcessVaSpace(uint64_t base, uint64_t size, uint64_t shared_window, uint64_t local_window);
  uint64_t base_;
  uint64_t size_;
  uint64_t shared_window_;
  uint64_t local_window_;
  std::mutex mu_;
  RangeAllocator allocator_;
};

}  // namespace strata::kmd
