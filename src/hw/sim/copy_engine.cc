#include "hw/sim/copy_engine.h"

#include <algorithm>
#include <cstring>

namespace strata::hw::sim {
namespace {

// Host pointer and contiguous bytes available at `va`, or a fault.
struct Span {
  uint8_t* host = nullptr;
  uint64_t bytes = 0;
};

DmaResult map(const PageWalker& walker, uint64_t va, bool write, Span* out) {
  Translation t;
  if (!walker.walk(va, &t)) return {FaultKind::kUnmapped, va};
  if (write && !t.writable) return {FaultKind::kWriteProtect, va};
  const uint64_t offset = va - t.page_va;
  *out = Span{t.host_page + offset, t.page_size - offset};
  return {};
}

bool overflows(uint64_t va, uint64_t bytes) { return bytes != 0 && va + bytes < va; }

}  // namespace

DmaResult dma_copy(const PageWalker& walker, uint64_t dst_va, uint64_t src_va, uint64_t bytes) {
  if (overflows(dst_va, bytes)) return {FaultKind::kUnmapped, dst_va};
  if (overflows(src_va, bytes)) return {FaultKind::kUnmapped, src_va};
  while (bytes > 0) {
    Span src, dst;
    DmaResult r = map(walker, src_va, /*write=*/false, &src);
    if (!r.ok()) return r;
    r = map(walker, dst_va, /*write=*/true, &dst);
    if (!r.ok()) return r;
    const uint64_t n = std::min({bytes, src.bytes, dst.bytes});
    std::memmove(dst.host, src.host, n);
    src_va += n;
    dst_va += n;
    bytes -= n;
  }
  return {};
}

DmaResult dma_fill(const PageWalker& walker, uint64_t dst_va, uint64_t bytes, uint32_t value,
                   uint32_t elem_size) {
  if (elem_size != 1 && elem_size != 2 && elem_size != 4) return {FaultKind::kMisaligned, dst_va};
  if (dst_va % elem_size != 0 || bytes % elem_size != 0) return {FaultKind::kMisaligned, dst_va};
  if (overflows(dst_va, bytes)) return {FaultKind::kUnmapped, dst_va};
  uint8_t pattern[4];
  std::memcpy(pattern, &value, 4);  // packets are little-endian, as is every supported host
  while (bytes > 0) {
    Span dst;
    DmaResult r = map(walker, dst_va, /*write=*/true, &dst);
    if (!r.ok()) return r;
    const uint64_t n = std::min(bytes, dst.bytes);  // pages are multiples of elem_size
    if (elem_size == 1) {
      std::memset(dst.host, pattern[0], n);
    } else {
      for (uint64_t i = 0; i < n; i += elem_size) std::memcpy(dst.host + i, pattern, elem_size);
    }
    dst_va += n;
    bytes -= n;
  }
  return {};
}

DmaResult dma_read(const PageWalker& walker, uint64_t src_va, uint64_t bytes, uint8_t* out) {
  if (overflows(src_va, bytes)) return {FaultKind::kUnmapped, src_va};
  while (bytes > 0) {
    Span src;
    DmaResult r = map(walker, src_va, /*write=*/false, &src);
    if (!r.ok()) return r;
    const uint64_t n = std::min(bytes, src.bytes);
    std::memcpy(out, src.host, n);
    out += n;
    src_va += n;
    bytes -= n;
  }
  return {};
}

}  // namespace strata::hw::sim
