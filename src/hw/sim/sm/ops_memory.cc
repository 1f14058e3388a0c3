// Memory handlers: LD, ST, LDC, ATOM, MEMBAR. Ordered accesses are host atomics
// (std::atomic_ref) with the instruction's semantics, so CTAs on different host threads
// communicate exactly as PTX's memory model allows.
#include <atomic>
#include <cmath>
#include <cstring>
#include <limits>

#include "hw/contract/page_table.h"
#include "hw/sim/sm/address.h"
#include "hw/sim/sm/float_util.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"
#include "hw/sim/sm/stats.h"

namespace strata::hw::sim {

uint8_t* resolve_address(ExecContext& c, isa::MemSpace space, uint64_t addr, uint32_t size, bool write, int lane,
                         FaultKind* fault) {
  const GridState& g = *c.grid;
  if (space == isa::MemSpace::GENERIC) {
    if (addr - g.shared_window < kWindowBytes) {
      space = isa::MemSpace::SHARED;
      addr -= g.shared_window;
    } else if (addr - g.local_window < kWindowBytes) {
      space = isa::MemSpace::LOCAL;
      addr -= g.local_window;
    } else {
      space = isa::MemSpace::GLOBAL;
    }
  }
  if ((addr & (size - 1)) != 0) {
    *fault = FaultKind::kMisaligned;
    return nullptr;
  }
  switch (space) {
    case isa::MemSpace::SHARED:
      if (addr + size > c.cta->shared.size()) break;
      return c.cta->shared.data() + addr;
    case isa::MemSpace::LOCAL: {
      const uint64_t bytes = g.packet->local_bytes_per_thread;
      if (addr + size > bytes) break;
      const uint64_t thread = static_cast<uint64_t>(c.warp->index) * 32 + lane;
      return c.cta->local.data() + thread * g.local_stride + addr;
    }
    case isa::MemSpace::CONST:
      if (write) {
        *fault = FaultKind::kWriteProtect;
        return nullptr;
      }
      return c.worker->tlb.translate(addr, size, /*write=*/false, fault);
    default:
      return c.worker->tlb.translate(addr, size, write, fault);
  }
  *fault = FaultKind::kAddressSpace;
  return nullptr;
}

namespace {

using isa::DataType;
using isa::MemSem;

uint32_t access_bytes(DataType t) {
  const int bits = isa::type_bits(t);
  return bits <= 8 ? 1 : static_cast<uint32_t>(bits / 8);
}

template <typename T>
T load_ordered(uint8_t* p, MemSem sem) {
  if (sem == MemSem::WEAK) {
    T v;
    std::memcpy(&v, p, sizeof(T));
    return v;
  }
  return std::atomic_ref<T>(*reinterpret_cast<T*>(p))
      .load(sem == MemSem::RELAXED ? std::memory_order_relaxed : std::memory_order_acquire);
}
template <typename T>
void store_ordered(uint8_t* p, T v, MemSem sem) {
  if (sem == MemSem::WEAK) {
    std::memcpy(p, &v, sizeof(T));
    return;
  }
  std::atomic_ref<T>(*reinterpret_cast<T*>(p))
      .store(v, sem == MemSem::RELEASE ? std::memory_order_release : std::memory_order_relaxed);
}

// The common case of global accesses, resolved once per warp: when every lane of `m`
// accesses global memory (GLOBAL, or GENERIC outside the shared and local windows),
// aligned, within one smallest (4 KiB) page that translates for the access, returns the
// host address of `*lo` (the lowest lane address) and fills addr[] with every lane's
// address; lane l's bytes are then at the result + (addr[l] - *lo). Otherwise returns
// nullptr and raises nothing: the per-lane path then resolves (and faults) exactly.
template <uint32_t kBytes>
uint8_t* resolve_one_page(ExecContext& c, const DecodedInst& in, uint32_t m, bool write, uint64_t* addr,
                          uint64_t* lo) {
  const isa::MemSpace space = in.inst.space;
  if (space != isa::MemSpace::GLOBAL && space != isa::MemSpace::GENERIC) return nullptr;
  uint64_t min = ~uint64_t{0}, max = 0, misaligned = 0;
  for (int l = 0; l < 32; ++l) {
    const uint64_t a = lane_address(c, in, l);
    addr[l] = a;
    const bool on = ((m >> l) & 1u) != 0;
    min = on && a < min ? a : min;
    max = on && a > max ? a : max;
    misaligned |= on ? a & (kBytes - 1) : 0;
  }
  if (misaligned != 0 || (min / kPageSize) != ((max + kBytes - 1) / kPageSize)) return nullptr;
  if (space == isa::MemSpace::GENERIC) {
    // The span is under a page and each window is larger: it lies in a window iff one
    // of its ends does.
    const GridState& g = *c.grid;
    for (const uint64_t w : {g.shared_window, g.local_window}) {
      if (min - w < kWindowBytes || max - w < kWindowBytes) return nullptr;
    }
  }
  FaultKind fault = FaultKind::kNone;
  uint8_t* p = c.worker->tlb.translate(min, kBytes, write, &fault);
  *lo = min;
  return p;
}

// Host pointer of lane l's access: from the warp's one-page translation when there is
// one, else translated alone. nullptr after raising the lane's fault.
template <uint32_t kBytes>
inline uint8_t* lane_pointer(ExecContext& c, const DecodedInst& in, int l, bool write,
                             uint8_t* page, const uint64_t* addrs, uint64_t lo) {
  if (page != nullptr) return page + (addrs[l] - lo);
  const uint64_t addr = lane_address(c, in, l);
  FaultKind fault = FaultKind::kNone;
  uint8_t* p = resolve_address(c, in.inst.space, addr, kBytes, write, l, &fault);
  if (p == nullptr) raise_fault(c, fault, addr, l);
  return p;
}

// LD: 1/2-byte loads extend by the type's signedness into the 32-bit register.
template <uint32_t kBytes>
void h_ld(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const MemSem sem = in.inst.sem;
  const bool sign = isa::type_is_signed(in.inst.type);
  uint32_t* d = c.row(in.d);
  uint64_t addrs[32];
  uint64_t lo = 0;
  uint8_t* const page = resolve_one_page<kBytes>(c, in, m, /*write=*/false, addrs, &lo);
  if (page != nullptr) {
    count_global_in_block(c, AccessKind::kLoad, m, addrs, kBytes, lo & ~uint64_t{kPageSize - 1});
  } else {
    count_memory(c, in, m, kBytes, AccessKind::kLoad);
  }
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    uint8_t* const p = lane_pointer<kBytes>(c, in, l, /*write=*/false, page, addrs, lo);
    if (p == nullptr) return;
    if constexpr (kBytes == 1) {
      const uint8_t v = load_ordered<uint8_t>(p, sem);
      d[l] = sign ? static_cast<uint32_t>(static_cast<int8_t>(v)) : v;
    } else if constexpr (kBytes == 2) {
      const uint16_t v = load_ordered<uint16_t>(p, sem);
      d[l] = sign ? static_cast<uint32_t>(static_cast<int16_t>(v)) : v;
    } else if constexpr (kBytes == 4) {
      d[l] = load_ordered<uint32_t>(p, sem);
    } else if constexpr (kBytes == 8) {
      lane_put<uint64_t>(d, l, load_ordered<uint64_t>(p, sem));
    } else {
      if (sem == MemSem::ACQUIRE) std::atomic_thread_fence(std::memory_order_acquire);
      uint32_t w[4];
      std::memcpy(w, p, 16);
      for (int i = 0; i < 4; ++i) d[i * 32 + l] = w[i];
    }
  }
}

template <uint32_t kBytes>
void h_st(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const MemSem sem = in.inst.sem;
  const uint32_t* b = c.src_b(in);
  ++c.worker->writes;
  uint64_t addrs[32];
  uint64_t lo = 0;
  uint8_t* const page = resolve_one_page<kBytes>(c, in, m, /*write=*/true, addrs, &lo);
  if (page != nullptr) {
    count_global_in_block(c, AccessKind::kStore, m, addrs, kBytes, lo & ~uint64_t{kPageSize - 1});
  } else {
    count_memory(c, in, m, kBytes, AccessKind::kStore);
  }
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    uint8_t* const p = lane_pointer<kBytes>(c, in, l, /*write=*/true, page, addrs, lo);
    if (p == nullptr) return;
    if constexpr (kBytes == 1) {
      store_ordered<uint8_t>(p, static_cast<uint8_t>(b[l]), sem);
    } else if constexpr (kBytes == 2) {
      store_ordered<uint16_t>(p, static_cast<uint16_t>(b[l]), sem);
    } else if constexpr (kBytes == 4) {
      store_ordered<uint32_t>(p, b[l], sem);
    } else if constexpr (kBytes == 8) {
      store_ordered<uint64_t>(p, lane_get<uint64_t>(b, l), sem);
    } else {
      if (sem == MemSem::RELEASE) std::atomic_thread_fence(std::memory_order_release);
      uint32_t w[4];
      for (int i = 0; i < 4; ++i) w[i] = b[i * 32 + l];
      std::memcpy(p, w, 16);
    }
  }
}

// LDC: constant bank `mod` at offset Ra + imm. Reading beyond the bank's bound size, or
// from an unbound bank, faults kAddressSpace (a compiler or loader bug shows up at once
// instead of reading zeros).
template <uint32_t kBytes>
void h_ldc(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const ConstBankBinding& bank = c.grid->packet->cbanks[in.inst.mod];
  const uint32_t* a = c.row(in.a);
  uint32_t* d = c.row(in.d);
  const bool sign = isa::type_is_signed(in.inst.type);
  uint64_t offsets[32];
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    offsets[l] = static_cast<uint32_t>(a[l] + in.imm);
  }
  count_constant(c, m, offsets);
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const uint64_t off = offsets[l];
    if (bank.va == 0 || off + kBytes > bank.size) {
      raise_fault(c, FaultKind::kAddressSpace, bank.va + off, l);
      return;
    }
    FaultKind fault = FaultKind::kNone;
    uint8_t* p = c.worker->tlb.translate(bank.va + off, kBytes, /*write=*/false, &fault);
    if (p == nullptr) {
      raise_fault(c, fault, bank.va + off, l);
      return;
    }
    if constexpr (kBytes == 1) {
      d[l] = sign ? static_cast<uint32_t>(static_cast<int8_t>(*p)) : *p;
    } else if constexpr (kBytes == 2) {
      uint16_t v;
      std::memcpy(&v, p, 2);
      d[l] = sign ? static_cast<uint32_t>(static_cast<int16_t>(v)) : v;
    } else {
      uint32_t w[kBytes / 4];
      std::memcpy(w, p, kBytes);
      for (uint32_t i = 0; i < kBytes / 4; ++i) d[i * 32 + l] = w[i];
    }
  }
}

std::memory_order atom_order(MemSem sem) {
  switch (sem) {
    case MemSem::ACQUIRE: return std::memory_order_acquire;
    case MemSem::RELEASE: return std::memory_order_acq_rel;  // ACQ_REL for atomics
    default: return std::memory_order_relaxed;
  }
}

// Applies `f(old) -> new` atomically with a CAS loop; returns old.
template <typename T, typename F>
T atomic_update(std::atomic_ref<T> ref, std::memory_order order, F f) {
  T old = ref.load(std::memory_order_relaxed);
  while (!ref.compare_exchange_weak(old, f(old), order, std::memory_order_relaxed)) {
  }
  return old;
}

template <typename C>
C float_min(C a, C b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? a : b;
  return a < b ? a : b;
}
template <typename C>
C float_max(C a, C b) {
  if (std::isnan(a)) return b;
  if (std::isnan(b)) return a;
  if (a == b) return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

// One atomic on integer storage T (uint32_t/uint64_t) whose value type is V (signed,
// unsigned or float). Returns the old raw value.
template <typename T, typename V>
T atom_apply(uint8_t* p, isa::AtomOp op, T b, T cv, std::memory_order order) {
  std::atomic_ref<T> ref(*reinterpret_cast<T*>(p));
  auto as_v = [](T x) { return std::bit_cast<V>(x); };
  auto as_t = [](V x) { return std::bit_cast<T>(x); };
  switch (op) {
    case isa::AtomOp::ADD:
      if constexpr (std::is_floating_point_v<V>) {
        return atomic_update(ref, order, [&](T o) { return as_t(as_v(o) + as_v(b)); });
      } else {
        return ref.fetch_add(b, order);
      }
    case isa::AtomOp::MIN:
      if constexpr (std::is_floating_point_v<V>) {
        return atomic_update(ref, order, [&](T o) { return as_t(float_min(as_v(o), as_v(b))); });
      } else {
        return atomic_update(ref, order, [&](T o) { return as_v(b) < as_v(o) ? b : o; });
      }
    case isa::AtomOp::MAX:
      if constexpr (std::is_floating_point_v<V>) {
        return atomic_update(ref, order, [&](T o) { return as_t(float_max(as_v(o), as_v(b))); });
      } else {
        return atomic_update(ref, order, [&](T o) { return as_v(b) > as_v(o) ? b : o; });
      }
    case isa::AtomOp::INC:  // ((old >= b) ? 0 : old + 1), unsigned
      return atomic_update(ref, order, [&](T o) { return o >= b ? T(0) : T(o + 1); });
    case isa::AtomOp::DEC:  // ((old == 0 || old > b) ? b : old - 1), unsigned
      return atomic_update(ref, order, [&](T o) { return (o == 0 || o > b) ? b : T(o - 1); });
    case isa::AtomOp::AND: return ref.fetch_and(b, order);
    case isa::AtomOp::OR: return ref.fetch_or(b, order);
    case isa::AtomOp::XOR: return ref.fetch_xor(b, order);
    case isa::AtomOp::EXCH: return ref.exchange(b, order);
    case isa::AtomOp::CAS: {
      T expected = b;
      ref.compare_exchange_strong(expected, cv, order, std::memory_order_relaxed);
      return expected;
    }
    default: return 0;
  }
}

// 16-bit atomics: ADD of an F16/BF16 (round to nearest, subnormals kept: .noftz) and
// CAS of a B16/U16. Returns the old value.
uint16_t atom_apply16(uint8_t* p, isa::AtomOp op, DataType t, uint16_t b, uint16_t cv, std::memory_order order) {
  std::atomic_ref<uint16_t> ref(*reinterpret_cast<uint16_t*>(p));
  if (op == isa::AtomOp::CAS) {
    uint16_t expected = b;
    ref.compare_exchange_strong(expected, cv, order, std::memory_order_relaxed);
    return expected;
  }
  if (t == DataType::BF16) {
    return atomic_update(ref, order, [&](uint16_t o) {
      return to_bf16(static_cast<double>(bf16_to_f32(o)) + bf16_to_f32(b), isa::Round::RN);
    });
  }
  return atomic_update(ref, order, [&](uint16_t o) {
    return to_f16(static_cast<double>(f16_to_f32(o)) + f16_to_f32(b), isa::Round::RN);
  });
}

// ADD2: both 16-bit float halves of a 32-bit location in one atomic update.
uint32_t atom_add_pair(uint8_t* p, DataType t, uint32_t b, std::memory_order order) {
  std::atomic_ref<uint32_t> ref(*reinterpret_cast<uint32_t*>(p));
  const bool bf = t == DataType::BF16;
  auto add = [bf](uint16_t x, uint16_t y) -> uint32_t {
    return bf ? to_bf16(static_cast<double>(bf16_to_f32(x)) + bf16_to_f32(y), isa::Round::RN)
              : to_f16(static_cast<double>(f16_to_f32(x)) + f16_to_f32(y), isa::Round::RN);
  };
  return atomic_update(ref, order, [&](uint32_t o) {
    return add(static_cast<uint16_t>(o), static_cast<uint16_t>(b)) |
           add(static_cast<uint16_t>(o >> 16), static_cast<uint16_t>(b >> 16)) << 16;
  });
}

template <typename T, typename V>
void h_atom(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const auto op = static_cast<isa::AtomOp>(in.inst.mod);
  const std::memory_order order = atom_order(in.inst.sem);
  const uint32_t* b = c.src_b(in);
  const uint32_t* cr = c.row(in.c);
  uint32_t* d = c.row(in.d);
  ++c.worker->writes;
  count_memory(c, in, m, sizeof(T), AccessKind::kAtomic);
  // Lanes apply in lane order, each atomically.
  for (uint32_t mm = m; mm != 0; mm &= mm - 1) {
    const int l = std::countr_zero(mm);
    const uint64_t addr = lane_address(c, in, l);
    FaultKind fault = FaultKind::kNone;
    uint8_t* p = resolve_address(c, in.inst.space, addr, sizeof(T), /*write=*/true, l, &fault);
    if (p == nullptr) {
      raise_fault(c, fault, addr, l);
      return;
    }
    if constexpr (sizeof(T) == 2) {
      d[l] = atom_apply16(p, op, in.inst.type, static_cast<uint16_t>(b[l]), static_cast<uint16_t>(cr[l]), order);
    } else if (sizeof(T) == 4 && op == isa::AtomOp::ADD2) {
      d[l] = atom_add_pair(p, in.inst.type, b[l], order);
    } else {
      const T old = atom_apply<T, V>(p, op, lane_get<T>(b, l), lane_get<T>(cr, l), order);
      lane_put<T>(d, l, old);
    }
  }
}

void h_membar(ExecContext&, const DecodedInst& in, uint32_t) {
  std::atomic_thread_fence((in.inst.mod & isa::kModFenceSc) ? std::memory_order_seq_cst : std::memory_order_acq_rel);
}

bool memory_type_ok(DataType t) { return isa::type_bits(t) > 0 && t != DataType::Pred; }

}  // namespace

Handler select_LD(const isa::Inst& i) {
  if (!memory_type_ok(i.type) || i.space >= isa::MemSpace::kCount) return nullptr;
  switch (access_bytes(i.type)) {
    case 1: return &h_ld<1>;
    case 2: return &h_ld<2>;
    case 4: return &h_ld<4>;
    case 8: return &h_ld<8>;
    case 16: return &h_ld<16>;
    default: return nullptr;
  }
}
Handler select_ST(const isa::Inst& i) {
  if (!memory_type_ok(i.type) || i.space >= isa::MemSpace::kCount) return nullptr;
  if (i.sem == MemSem::ACQUIRE) return nullptr;
  if (i.b_imm) return nullptr;  // imm is the address offset; the stored value is a register
  switch (access_bytes(i.type)) {
    case 1: return &h_st<1>;
    case 2: return &h_st<2>;
    case 4: return &h_st<4>;
    case 8: return &h_st<8>;
    case 16: return &h_st<16>;
    default: return nullptr;
  }
}
Handler select_LDC(const isa::Inst& i) {
  if (!memory_type_ok(i.type) || i.mod >= kMaxConstBanks) return nullptr;
  switch (access_bytes(i.type)) {
    case 1: return &h_ldc<1>;
    case 2: return &h_ldc<2>;
    case 4: return &h_ldc<4>;
    case 8: return &h_ldc<8>;
    case 16: return &h_ldc<16>;
    default: return nullptr;
  }
}
Handler select_ATOM(const isa::Inst& i) {
  if (i.space != isa::MemSpace::GENERIC && i.space != isa::MemSpace::GLOBAL && i.space != isa::MemSpace::SHARED) {
    return nullptr;
  }
  const auto op = static_cast<isa::AtomOp>(i.mod);
  if (op >= isa::AtomOp::kCount || i.b_imm) return nullptr;  // imm is the address offset
  const bool bitwise = op == isa::AtomOp::AND || op == isa::AtomOp::OR || op == isa::AtomOp::XOR;
  const bool wrap = op == isa::AtomOp::INC || op == isa::AtomOp::DEC;
  if (op == isa::AtomOp::ADD2 && i.type != DataType::F16 && i.type != DataType::BF16) return nullptr;
  switch (i.type) {
    case DataType::U32: case DataType::B32: return &h_atom<uint32_t, uint32_t>;
    case DataType::S32: return bitwise ? &h_atom<uint32_t, uint32_t> : &h_atom<uint32_t, int32_t>;
    case DataType::U64: case DataType::B64: return &h_atom<uint64_t, uint64_t>;
    case DataType::S64: return bitwise ? &h_atom<uint64_t, uint64_t> : &h_atom<uint64_t, int64_t>;
    case DataType::F32:
      if (bitwise || wrap) return nullptr;
      return &h_atom<uint32_t, float>;
    case DataType::F64:
      if (bitwise || wrap) return nullptr;
      return &h_atom<uint64_t, double>;
    case DataType::F16: case DataType::BF16:
      if (op == isa::AtomOp::ADD) return &h_atom<uint16_t, uint16_t>;
      return op == isa::AtomOp::ADD2 ? &h_atom<uint32_t, uint32_t> : nullptr;
    case DataType::U16: case DataType::B16: return op == isa::AtomOp::CAS ? &h_atom<uint16_t, uint16_t> : nullptr;
    default: return nullptr;
  }
}
Handler select_MEMBAR(const isa::Inst&) { return &h_membar; }

}  // namespace strata::hw::sim
