// record_memory_access: the L1 policy of hw/perf/cache.h applied to one warp memory
// instruction. L1 hits and misses are counted into the worker's statistics; what goes
// to L2 is appended to the SM's log for the epoch (with its L2 set), which grid.cc
// replays into the device's L2 in SM order after the epoch.
#include "hw/sim/sm/mem_model.h"

#include <bit>

#include "hw/sim/sm/trace_hook.h"

namespace strata::hw::sim {
namespace {

using perf::L2Op;
using perf::SectorCache;

constexpr uint64_t kLineMask = ~uint64_t{perf::kLineBytes - 1};

inline void count_l1(perf::KernelStats& st, uint32_t accessed, uint32_t hits) {
  const uint32_t h = static_cast<uint32_t>(std::popcount(hits));
  st.l1_hits += h;
  st.l1_misses += static_cast<uint32_t>(std::popcount(accessed)) - h;
}

inline void log_l2(SmState& sm, uint64_t line, uint32_t sectors, L2Op op) {
  if (sectors != 0)
    sm.l2_log.push_back({line, static_cast<uint8_t>(sectors), op, sm.l2->set_of(line)});
}

// One line's sectors (mask) of an access.
void access_line(SmState& sm, perf::KernelStats& st, AccessKind kind, uint64_t line,
                 uint32_t mask) {
  SectorCache::Result r;
  switch (kind) {
    case AccessKind::kLoad:
    case AccessKind::kTexture:
    case AccessKind::kLocalLoad:
      r = sm.l1.access(line, mask, SectorCache::Fill::kClean);
      count_l1(st, mask, r.hits);
      log_l2(sm, r.evicted_line, r.evicted_dirty, L2Op::kWrite);  // a dirty local line written back
      log_l2(sm, line, mask & ~r.hits, L2Op::kRead);
      return;
    case AccessKind::kStore:  // write-through, no write-allocate
      r = sm.l1.access(line, mask, SectorCache::Fill::kNone);
      count_l1(st, mask, r.hits);
      log_l2(sm, line, mask, L2Op::kWrite);
      return;
    case AccessKind::kLocalStore:  // write-back, write-allocate
      if (sm.l1.sets() == 0) {
        count_l1(st, mask, 0);
        log_l2(sm, line, mask, L2Op::kWrite);
        return;
      }
      r = sm.l1.access(line, mask, SectorCache::Fill::kDirty);
      count_l1(st, mask, r.hits);
      log_l2(sm, r.evicted_line, r.evicted_dirty, L2Op::kWrite);
      return;
    case AccessKind::kAtomic:  // performed in L2; L1's copy is stale
      sm.l1.invalidate(line, mask);
      log_l2(sm, line, mask, L2Op::kAtomic);
      return;
  }
}

}  // namespace

void record_memory_access(ExecContext& ctx, AccessKind kind, const uint64_t* sectors,
                          uint32_t count) {
  if (ctx.worker->trace != nullptr) [[unlikely]] trace_memory(ctx, kind, sectors, count);
  if (ctx.grid->sms == nullptr || count == 0) return;
  SmState& sm = ctx.grid->sms[ctx.cta->sm];
  perf::KernelStats& st = ctx.worker->stats;
  uint32_t i = 0;
  while (i < count) {
    const uint64_t line = sectors[i] & kLineMask;
    uint32_t mask = 0;
    for (; i < count && (sectors[i] & kLineMask) == line; ++i) {
      mask |= 1u << ((sectors[i] / perf::kSectorBytes) % perf::kSectorsPerLine);
    }
    access_line(sm, st, kind, line, mask);
  }
}

}  // namespace strata::hw::sim
