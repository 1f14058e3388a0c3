#include "kmd/va_space.h"

#include <sys/mman.h>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fmt/format.h>

#include "base/log.h"
#include "hw/contract/page_table.h"

namespace strata::kmd {
namespace {

// Reserves `bytes` of host VA aligned to `alignment` (inaccessible, uncommitted).
StatusOr<uint64_t> reserve(uint64_t bytes, uint64_t alignment, const char* what) {
  const uint64_t total = bytes + alignment;
  void* p = mmap(nullptr, total, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    return error(Code::kOutOfMemory, fmt::format("cannot reserve {} bytes of host address space "
                                                 "for the {}: {}", total, what, std::strerror(errno)));
  }
  const uint64_t start = reinterpret_cast<uint64_t>(p);
  const uint64_t aligned = (start + alignment - 1) & ~(alignment - 1);
  // Give back the slack on both sides.
  if (aligned > start) munmap(p, aligned - start);
  const uint64_t tail = start + total - (aligned + bytes);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + bytes), tail);
  if (((aligned + bytes - 1) >> hw::kVaBits) != 0) {
    munmap(reinterpret_cast<void*>(aligned), bytes);
    return error(Code::kOutOfMemory,
                 fmt::format("the {} reservation at 0x{:x} is outside the 48-bit GPU VA space",
                             what, aligned));
  }
  return aligned;
}

// The GPU VA range: kGpuVaRangeBytes, or the largest power of two down to
// kMinGpuVaRangeBytes that the host can reserve. Returns (base, size).
StatusOr<std::pair<uint64_t, uint64_t>> reserve_gpu_va_range() {
  Status last = ok_status();
  for (uint64_t size = kGpuVaRangeBytes; size >= kMinGpuVaRangeBytes; size /= 2) {
    auto base = reserve(size, 1ull << 30, "GPU VA range");
    if (base.ok()) {
      if (size != kGpuVaRangeBytes) {
        STRATA_LOG_INFO("kmd: reserved a {} GiB GPU VA range ({}); device allocations "
                        "share it", size >> 30, last.message());
      }
      return std::make_pair(*base, size);
    }
    last = base.status();
  }
  return last;
}

}  // namespace

ProcessVaSpace::ProcessVaSpace(uint64_t base, uint64_t size, uint64_t shared_window,
                               uint64_t local_window)
    : base_(base), size_(size), shared_window_(shared_window), local_window_(local_window),
      allocator_("GPU VA range", base, size, hw::kPageSize) {}

StatusOr<ProcessVaSpace*> ProcessVaSpace::get() {
  static StatusOr<ProcessVaSpace*> instance = []() -> StatusOr<ProcessVaSpace*> {
    ASSIGN_OR_RETURN(auto range, reserve_gpu_va_range());
    ASSIGN_OR_RETURN(uint64_t windows, reserve(2 * kWindowBytes, kWindowBytes, "shared/local windows"));
    STRATA_LOG_DEBUG("kmd: GPU VA range [0x{:x}, 0x{:x}), shared window 0x{:x}, local window 0x{:x}",
                     range.first, range.first + range.second, windows, windows + kWindowBytes);
    return new ProcessVaSpace(range.first, range.second, windows, windows + kWindowBytes);
  }();
  return instance;
}

StatusOr<uint64_t> ProcessVaSpace::allocate(uint64_t size, uint64_t alignment, uint64_t hint) {
  std::lock_guard lock(mu_);
  if (hint != 0 && (alignment == 0 || hint % alignment == 0)) {
    auto at = allocator_.allocate_at(hint, size);
    if (at.ok()) return at;
  }
  return allocator_.allocate(size, alignment);
}

Status ProcessVaSpace::free(uint64_t va) {
  std::lock_guard lock(mu_);
  return allocator_.free(va);
}

}  // namespace strata::kmd
