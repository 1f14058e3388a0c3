// record_memory_access: the L1 policy of hw/perf/cache.h applied to one warp memory
// instruction. L1 hits and misses are counted into the worker's statistics; what goes
// to L2 is appended to the SM's log for the epoch (with its L2 set), which grid.cc
// replays into the device's L2 in SM order after the epoch.
#include "hw/sim/sm/mem_model.h"

#include <bit>
#include <type_traits>

#include "hw/sim/sm/trace_hook.h"

namespace strata::hw::sim {
namespace {

using perf::L2Op;
using perf::SectorCache;

constexpr uint64_t kLineMask = ~uint64_t{perf::kLineBytes - 1};

inline void log_l2(SmState& sm, uint64_t line, uint32_t sectors, L2Op op) {
  if (sectors != 0)
    sm.l2_log.push_back({line, static_cast<uint8_t>(sectors), op, sm.l2->set_of(line)});
}

// One line's sectors (mask) of an access of kind K; returns the sectors that hit in L1
// (counted with the accessed ones as L1 hits and misses, except for atomics).
template <AccessKind K>
inline uint32_t access_line(SmState& sm, uint64_t line, uint32_t mask) {
  SectorCache::Result r;
  if constexpr (K == AccessKind::kLoad || K == AccessKind::kTexture ||
                K == AccessKind::kLocalLoad) {
    r = sm.l1.access(line, mask, SectorCache::Fill::kClean);
    log_l2(sm, r.evicted_line, r.evicted_dirty, L2Op::kWrite);  // a dirty local line written back
    log_l2(sm, line, mask & ~r.hits, L2Op::kRead);
    return r.hits;
  } else if constexpr (K == AccessKind::kLoadL2) {  // the L1 is not involved
    log_l2(sm, line, mask, L2Op::kRead);
    return 0;
  } else if constexpr (K == AccessKind::kStore) {  // write-through, no write-allocate
    r = sm.l1.access(line, mask, SectorCache::Fill::kNone);
    log_l2(sm, line, mask, L2Op::kWrite);
    return r.hits;
  } else if constexpr (K == AccessKind::kLocalStore) {  // write-back, write-allocate
    if (sm.l1.sets() == 0) {
      log_l2(sm, line, mask, L2Op::kWrite);
      return 0;
    }
    r = sm.l1.access(line, mask, SectorCache::Fill::kDirty);
    log_l2(sm, r.evicted_line, r.evicted_dirty, L2Op::kWrite);
    return r.hits;
  } else {  // kAtomic: performed in L2; L1's copy is stale
    sm.l1.invalidate(line, mask);
    log_l2(sm, line, mask, L2Op::kAtomic);
    return 0;
  }
}

// Adds an access's L1 counts (none for atomics and L2-only loads, which bypass L1).
template <AccessKind K>
inline void count_l1(perf::KernelStats& st, uint32_t accessed, uint32_t hits) {
  if constexpr (K != AccessKind::kAtomic && K != AccessKind::kLoadL2) {
    st.l1_hits += hits;
    st.l1_misses += accessed - hits;
  }
}

// The sorted sector list of record_memory_access, line by line.
template <AccessKind K>
void access_sectors(SmState& sm, perf::KernelStats& st, const uint64_t* sectors, uint32_t count) {
  uint32_t accessed = 0, hits = 0;
  uint32_t i = 0;
  while (i < count) {
    const uint64_t line = sectors[i] & kLineMask;
    uint32_t mask = 0;
    for (; i < count && (sectors[i] & kLineMask) == line; ++i) {
      mask |= 1u << ((sectors[i] / perf::kSectorBytes) % perf::kSectorsPerLine);
    }
    accessed += perf::sector_count(mask);
    hits += perf::sector_count(access_line<K>(sm, line, mask));
  }
  count_l1<K>(st, accessed, hits);
}

// The block bitmap of record_block_access: each non-zero nibble is one line's sector mask,
// in ascending order.
template <AccessKind K>
[[gnu::always_inline]] inline void access_block(SmState& sm, perf::KernelStats& st, uint64_t block,
                                                const uint64_t* bits) {
  uint32_t accessed = 0, hits = 0;
  for (int h = 0; h < 2; ++h) {
    for (uint64_t b = bits[h]; b != 0;) {
      const int nibble = std::countr_zero(b) >> 2;
      const uint32_t mask = static_cast<uint32_t>(b >> (4 * nibble)) & 15u;
      b &= ~(uint64_t{15} << (4 * nibble));
      accessed += perf::sector_count(mask);
      hits += perf::sector_count(
          access_line<K>(sm, block + perf::kLineBytes * (16 * h + nibble), mask));
    }
  }
  count_l1<K>(st, accessed, hits);
}

// Calls f(std::integral_constant<AccessKind, kind>{}).
template <typename F>
[[gnu::always_inline]] inline void dispatch(AccessKind kind, F&& f) {
  // Global loads and stores first: the common kinds.
  if (kind == AccessKind::kLoad) return f(std::integral_constant<AccessKind, AccessKind::kLoad>{});
  if (kind == AccessKind::kStore)
    return f(std::integral_constant<AccessKind, AccessKind::kStore>{});
  switch (kind) {
    case AccessKind::kLoad:
      return f(std::integral_constant<AccessKind, AccessKind::kLoad>{});
    case AccessKind::kStore:
      return f(std::integral_constant<AccessKind, AccessKind::kStore>{});
    case AccessKind::kAtomic:
      return f(std::integral_constant<AccessKind, AccessKind::kAtomic>{});
    case AccessKind::kLocalLoad:
      return f(std::integral_constant<AccessKind, AccessKind::kLocalLoad>{});
    case AccessKind::kLocalStore:
      return f(std::integral_constant<AccessKind, AccessKind::kLocalStore>{});
    case AccessKind::kTexture:
      return f(std::integral_constant<AccessKind, AccessKind::kTexture>{});
    case AccessKind::kLoadL2:
      return f(std::integral_constant<AccessKind, AccessKind::kLoadL2>{});
  }
}

}  // namespace

void record_memory_access(ExecContext& ctx, AccessKind kind, const uint64_t* sectors,
                          uint32_t count) {
  if (ctx.worker->trace != nullptr) [[unlikely]]
    trace_memory(ctx, kind, sectors, count);
  if (ctx.grid->sms == nullptr || count == 0) return;
  SmState& sm = ctx.grid->sms[ctx.cta->sm];
  perf::KernelStats& st = ctx.worker->stats;
  dispatch(kind, [&](auto k) { access_sectors<decltype(k)::value>(sm, st, sectors, count); });
}

void record_block_access(ExecContext& ctx, AccessKind kind, uint64_t block, const uint64_t* bits) {
  if (ctx.worker->trace != nullptr) [[unlikely]] {
    uint64_t s[128];
    uint32_t n = 0;
    for (int h = 0; h < 2; ++h) {
      for (uint64_t b = bits[h]; b != 0; b &= b - 1)
        s[n++] = block + perf::kSectorBytes * (64 * h + std::countr_zero(b));
    }
    trace_memory(ctx, kind, s, n);
  }
  if (ctx.grid->sms == nullptr) return;
  SmState& sm = ctx.grid->sms[ctx.cta->sm];
  perf::KernelStats& st = ctx.worker->stats;
  dispatch(kind, [&](auto k) { access_block<decltype(k)::value>(sm, st, block, bits); });
}

}  // namespace strata::hw::sim
