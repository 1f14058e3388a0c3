// Asynchronous-copy and mbarrier handlers: CPASYNC, CPCOMMIT, CPWAIT, CPARRIVE, MBINIT,
// MBINVAL, MBARRIVE, MBDROP, MBTEST. async.h describes the deferred-copy model,
// isa/mbarrier.h the mbarrier word. A CTA runs on one worker at a time, so its shared
// memory (and the mbarriers in it) is accessed with plain loads and stores.
#include <algorithm>
#include <bit>
#include <cstring>

#include "hw/sim/sm/async.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"
#include "hw/sim/sm/stats.h"
#include "isa/mbarrier.h"

namespace strata::hw::sim {
namespace {

// A warp's queue is bounded like the hardware's: past this many queued operations the
// oldest half is performed (issue order kept, so each thread's order is too).
constexpr size_t kMaxQueuedOps = 4096;

// One arrive-on of `count` (arrive_drop also lowers the expected count first). Returns
// the word before the arrival. A count at or above the pending count completes the
// phase (PTX leaves a count above it undefined).
uint64_t mbar_arrive(uint8_t* p, uint64_t count, bool drop) {
  uint64_t old;
  std::memcpy(&old, p, 8);
  uint64_t pending = isa::mbar_pending(old);
  uint64_t expected = isa::mbar_expected(old);
  uint32_t phase = isa::mbar_phase(old);
  if (drop) expected = expected > count ? expected - count : 0;
  if (pending > count) {
    pending -= count;
  } else {
    phase ^= 1;
    pending = expected;
  }
  const uint64_t now = isa::mbar_word(pending, expected, phase);
  std::memcpy(p, &now, 8);
  return old;
}

void perform(const AsyncOp& op) {
  if (op.bytes == 0) {
    mbar_arrive(op.dst, 1, /*drop=*/false);
    return;
  }
  if (op.src_bytes != 0) std::memcpy(op.dst, op.src, op.src_bytes);
  std::memset(op.dst + op.src_bytes, 0, op.bytes - op.src_bytes);
}

// Performs, in issue order, the queued operations of `w` that `pick` selects and keeps
// the others in order.
template <typename Pick>
void perform_ops(Warp& w, Pick pick) {
  std::vector<AsyncOp>& ops = w.async_ops;
  size_t kept = 0;
  for (size_t i = 0; i < ops.size(); ++i) {
    if (pick(ops[i])) {
      perform(ops[i]);
    } else {
      ops[kept++] = ops[i];
    }
  }
  ops.resize(kept);
}

void bound_queue(Warp& w) {
  if (w.async_ops.size() <= kMaxQueuedOps) return;
  const size_t half = w.async_ops.size() / 2;
  for (size_t i = 0; i < half; ++i) perform(w.async_ops[i]);
  w.async_ops.erase(w.async_ops.begin(), w.async_ops.begin() + static_cast<long>(half));
}

// The mbarrier word lane `l` addresses (SHARED: a 32-bit offset; GENERIC: a 64-bit
// address that must lie in the shared window), or nullptr after raising the fault.
uint8_t* mbar_pointer(ExecContext& c, const DecodedInst& in, int l) {
  const uint32_t* a = c.row(in.a);
  uint64_t addr = a[l];
  if (in.inst.space == isa::MemSpace::GENERIC) {
    const uint64_t generic = lane_get<uint64_t>(a, l);
    if (generic - c.grid->shared_window >= kWindowBytes) {
      raise_fault(c, FaultKind::kAddressSpace, generic, l);
      return nullptr;
    }
    addr = generic - c.grid->shared_window;
  }
  if ((addr & 7) != 0) {
    raise_fault(c, FaultKind::kMisaligned, addr, l);
    return nullptr;
  }
  if (addr + 8 > c.cta->shared.size()) {
    raise_fault(c, FaultKind::kAddressSpace, addr, l);
    return nullptr;
  }
  return c.cta->shared.data() + addr;
}

// CPASYNC: validated now (faults name this instruction), performed later.
template <uint32_t kBytes>
void h_cpasync(ExecContext& c, const DecodedInst& in, uint32_t m) {
  Warp& w = *c.warp;
  const uint32_t* a = c.row(in.a);
  const uint32_t* b = c.src_b(in);
  const uint32_t* cs = c.row(in.c);
  ++c.worker->writes;
  {  // statistics: a global load of the sources that are read, a shared store
    uint64_t src[32];
    uint32_t dst[32];
    uint32_t reads = 0;
    for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
      const int l = std::countr_zero(mm);
      src[l] = lane_get<uint64_t>(b, l);
      dst[l] = a[l];
      reads |= cs[l] != 0 ? 1u << l : 0u;
    }
    if (reads != 0)
      count_global(
          c, (in.inst.mod & isa::kModCacheGlobal) != 0 ? AccessKind::kLoadL2 : AccessKind::kLoad,
          reads, src, kBytes);
    count_shared(c, m, dst, kBytes, /*atomic=*/false);
  }
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const uint64_t dst = a[l];
    const uint64_t src = lane_get<uint64_t>(b, l);
    const uint32_t src_bytes = std::min(cs[l], kBytes);
    if ((dst & (kBytes - 1)) != 0) return raise_fault(c, FaultKind::kMisaligned, dst, l);
    if (dst + kBytes > c.cta->shared.size())
      return raise_fault(c, FaultKind::kAddressSpace, dst, l);
    const uint8_t* from = nullptr;
    if (src_bytes != 0) {
      if ((src & (kBytes - 1)) != 0) return raise_fault(c, FaultKind::kMisaligned, src, l);
      FaultKind fault = FaultKind::kNone;
      from = c.worker->tlb.translate(src, kBytes, /*write=*/false, &fault);
      if (from == nullptr) return raise_fault(c, fault, src, l);
    }
    AsyncOp op;
    op.dst = c.cta->shared.data() + dst;
    op.src = from;
    op.group = w.async_committed[l];
    op.lane = static_cast<uint8_t>(l);
    op.bytes = static_cast<uint8_t>(kBytes);
    op.src_bytes = static_cast<uint8_t>(src_bytes);
    w.async_ops.push_back(op);
  }
  bound_queue(w);
}

void h_cpcommit(ExecContext& c, const DecodedInst&, uint32_t m) {
  Warp& w = *c.warp;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) ++w.async_committed[std::countr_zero(mm)];
}

// CPWAIT n: each thread's committed groups except its n most recent are completed.
void h_cpwait(ExecContext& c, const DecodedInst& in, uint32_t m) {
  Warp& w = *c.warp;
  if (w.async_ops.empty()) return;
  const uint64_t keep = in.imm;
  perform_ops(w, [&](const AsyncOp& op) {
    return ((m >> op.lane) & 1u) != 0 && op.group + keep < w.async_committed[op.lane];
  });
}

void h_cparrive(ExecContext& c, const DecodedInst& in, uint32_t m) {
  Warp& w = *c.warp;
  const uint32_t* b = c.src_b(in);
  ++c.worker->writes;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    uint8_t* p = mbar_pointer(c, in, l);
    if (p == nullptr) return;
    if (b[l] != 0) {  // without .noinc: the pending count rises now, the queued arrival lowers it
      uint64_t word;
      std::memcpy(&word, p, 8);
      const uint64_t pending = std::min(isa::mbar_pending(word) + b[l], isa::kMbarCountMax);
      word = isa::mbar_word(pending, isa::mbar_expected(word), isa::mbar_phase(word));
      std::memcpy(p, &word, 8);
    }
    AsyncOp op;
    op.dst = p;
    op.group = w.async_committed[l];
    op.lane = static_cast<uint8_t>(l);
    w.async_ops.push_back(op);
  }
  bound_queue(w);
}

void h_mbinit(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* b = c.src_b(in);
  ++c.worker->writes;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    uint8_t* p = mbar_pointer(c, in, l);
    if (p == nullptr) return;
    const uint64_t count = std::min<uint64_t>(b[l], isa::kMbarCountMax);
    const uint64_t word = isa::mbar_word(count, count, 0);
    std::memcpy(p, &word, 8);
  }
}

void h_mbinval(ExecContext& c, const DecodedInst& in, uint32_t m) {
  ++c.worker->writes;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    uint8_t* p = mbar_pointer(c, in, l);
    if (p == nullptr) return;
    std::memset(p, 0, 8);
  }
}

template <bool kDrop>
void h_mbarrive(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* b = c.src_b(in);
  uint32_t* d = c.row(in.d);
  ++c.worker->writes;
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    uint8_t* p = mbar_pointer(c, in, l);
    if (p == nullptr) return;
    lane_put<uint64_t>(d, l, mbar_arrive(p, b[l], kDrop));
  }
}

// MBTEST pd, a, b: pd = the phase of parity b & 1 has completed (the current parity
// differs). Before answering "no", every queued operation of the CTA is performed, so
// a phase that only waits for copies and their arrivals completes; if it still has not,
// the group yields so that the threads it waits for run.
void h_mbtest(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* b = c.src_b(in);
  uint8_t* ptr[32];
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    ptr[l] = mbar_pointer(c, in, l);
    if (ptr[l] == nullptr) return;
  }
  auto test = [&] {
    uint32_t done = 0;
    for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
      const int l = std::countr_zero(mm);
      uint64_t word;
      std::memcpy(&word, ptr[l], 8);
      if (isa::mbar_phase(word) != (b[l] & 1u)) done |= 1u << l;
    }
    return done;
  };
  uint32_t done = test();
  if (done != m) {
    complete_all_async_ops(*c.cta);
    done = test();
  }
  pred_write(c, in.pd, done, m);
  if (done != m) yield_group(c);
}

bool mbar_space_ok(const isa::Inst& i) {
  return i.space == isa::MemSpace::SHARED || i.space == isa::MemSpace::GENERIC;
}

}  // namespace

void complete_async_ops(Warp& w, uint32_t lanes) {
  if (w.async_ops.empty()) return;
  perform_ops(w, [&](const AsyncOp& op) { return ((lanes >> op.lane) & 1u) != 0; });
}

void complete_all_async_ops(Cta& cta) {
  for (Warp& w : cta.warps) {
    for (const AsyncOp& op : w.async_ops) perform(op);
    w.async_ops.clear();
  }
}

Handler select_CPASYNC(const isa::Inst& i) {
  if (i.space != isa::MemSpace::SHARED) return nullptr;
  switch (i.type) {
    case isa::DataType::B32:
      return &h_cpasync<4>;
    case isa::DataType::B64:
      return &h_cpasync<8>;
    case isa::DataType::B128:
      return &h_cpasync<16>;
    default:
      return nullptr;
  }
}
Handler select_CPCOMMIT(const isa::Inst&) {
  return &h_cpcommit;
}
Handler select_CPWAIT(const isa::Inst&) {
  return &h_cpwait;
}
Handler select_CPARRIVE(const isa::Inst& i) {
  return mbar_space_ok(i) ? &h_cparrive : nullptr;
}
Handler select_MBINIT(const isa::Inst& i) {
  return mbar_space_ok(i) ? &h_mbinit : nullptr;
}
Handler select_MBINVAL(const isa::Inst& i) {
  return mbar_space_ok(i) ? &h_mbinval : nullptr;
}
Handler select_MBARRIVE(const isa::Inst& i) {
  return mbar_space_ok(i) ? &h_mbarrive<false> : nullptr;
}
Handler select_MBDROP(const isa::Inst& i) {
  return mbar_space_ok(i) ? &h_mbarrive<true> : nullptr;
}
Handler select_MBTEST(const isa::Inst& i) {
  return mbar_space_ok(i) ? &h_mbtest : nullptr;
}

}  // namespace strata::hw::sim
