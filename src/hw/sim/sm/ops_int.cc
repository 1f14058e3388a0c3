// Integer ALU handlers (IADD .. PLOP): PTX integer semantics on 32/64-bit values.
#include <bit>
#include <limits>
#include <type_traits>

#include "hw/sim/sm/int_types.h"
#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"

namespace strata::hw::sim {
namespace {

using isa::DataType;

template <typename T>
using U = std::make_unsigned_t<T>;

template <typename T>
constexpr int kBits = sizeof(T) * 8;

// ---- arithmetic ----
template <typename T>
void h_iadd(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<T, T, T>(c, in, m, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) + static_cast<U<T>>(b)); });
}
template <typename T>
void h_isub(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<T, T, T>(c, in, m, [](T a, T b) { return static_cast<T>(static_cast<U<T>>(a) - static_cast<U<T>>(b)); });
}
// add.sat.s32 / sub.sat.s32: clamp to the s32 range.
void h_iadd_sat(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<int32_t, int32_t, int32_t>(c, in, m, [](int32_t a, int32_t b) {
    const int64_t r = static_cast<int64_t>(a) + b;
    return static_cast<int32_t>(r > INT32_MAX ? INT32_MAX : (r < INT32_MIN ? INT32_MIN : r));
  });
}
void h_isub_sat(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<int32_t, int32_t, int32_t>(c, in, m, [](int32_t a, int32_t b) {
    const int64_t r = static_cast<int64_t>(a) - b;
    return static_cast<int32_t>(r > INT32_MAX ? INT32_MAX : (r < INT32_MIN ? INT32_MIN : r));
  });
}
template <typename T>
T mul_lo(T a, T b) { return static_cast<T>(static_cast<U<T>>(a) * static_cast<U<T>>(b)); }
template <typename T>
T mul_hi(T a, T b) {
  if constexpr (sizeof(T) == 4) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 32);
  } else {
    using W = std::conditional_t<std::is_signed_v<T>, __int128, unsigned __int128>;
    return static_cast<T>((static_cast<W>(a) * static_cast<W>(b)) >> 64);
  }
}
template <typename T>
void h_imul(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, mul_lo<T>); }
template <typename T>
void h_imulhi(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, mul_hi<T>); }
template <typename T>
void h_imad(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map3<T, T, T, T>(c, in, m, [](T a, T b, T x) { return static_cast<T>(static_cast<U<T>>(mul_lo(a, b)) + static_cast<U<T>>(x)); });
}
template <typename T>
void h_imadhi(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map3<T, T, T, T>(c, in, m, [](T a, T b, T x) { return static_cast<T>(static_cast<U<T>>(mul_hi(a, b)) + static_cast<U<T>>(x)); });
}
template <typename T>  // T: uint32_t or int32_t sources
void h_imulwide(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<uint64_t, T, T>(c, in, m, [](T a, T b) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return static_cast<uint64_t>(static_cast<W>(a) * static_cast<W>(b));
  });
}
template <typename T>
void h_imadwide(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map3<uint64_t, T, T, uint64_t>(c, in, m, [](T a, T b, uint64_t x) {
    using W = std::conditional_t<std::is_signed_v<T>, int64_t, uint64_t>;
    return static_cast<uint64_t>(static_cast<W>(a) * static_cast<W>(b)) + x;
  });
}
template <typename T>
void h_imin(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, [](T a, T b) { return a < b ? a : b; }); }
template <typename T>
void h_imax(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, [](T a, T b) { return a > b ? a : b; }); }
template <typename T>
void h_iabs(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<T, T>(c, in, m, [](T a) { return a < 0 ? static_cast<T>(U<T>(0) - static_cast<U<T>>(a)) : a; });
}
template <typename T>
void h_ineg(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<T, T>(c, in, m, [](T a) { return static_cast<T>(U<T>(0) - static_cast<U<T>>(a)); });
}
// Division by zero gives all ones (quotient) or the dividend (remainder); the signed
// overflow case MIN / -1 gives MIN and MIN % -1 gives 0, as the hardware does.
template <typename T>
T div_total(T a, T b) {
  if (b == 0) return static_cast<T>(~U<T>(0));
  if constexpr (std::is_signed_v<T>) {
    if (a == std::numeric_limits<T>::min() && b == -1) return a;
  }
  return a / b;
}
template <typename T>
T rem_total(T a, T b) {
  if (b == 0) return a;
  if constexpr (std::is_signed_v<T>) {
    if (b == -1) return 0;
  }
  return a % b;
}
template <typename T>
void h_idiv(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, div_total<T>); }
template <typename T>
void h_irem(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, rem_total<T>); }

// ---- shifts and logic: the shift amount is an unsigned 32-bit value, clamped ----
template <typename T>
void h_shl(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<T, T, uint32_t>(c, in, m, [](T a, uint32_t s) {
    return s >= kBits<T> ? T(0) : static_cast<T>(static_cast<U<T>>(a) << s);
  });
}
template <typename T>
void h_shr(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map2<T, T, uint32_t>(c, in, m, [](T a, uint32_t s) {
    if constexpr (std::is_signed_v<T>) {
      return a >> (s >= kBits<T> ? kBits<T> - 1 : s);
    } else {
      return s >= kBits<T> ? T(0) : static_cast<T>(a >> s);
    }
  });
}
template <typename T>
void h_and(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, [](T a, T b) { return static_cast<T>(a & b); }); }
template <typename T>
void h_or(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, [](T a, T b) { return static_cast<T>(a | b); }); }
template <typename T>
void h_xor(ExecContext& c, const DecodedInst& in, uint32_t m) { map2<T, T, T>(c, in, m, [](T a, T b) { return static_cast<T>(a ^ b); }); }
template <typename T>
void h_not(ExecContext& c, const DecodedInst& in, uint32_t m) { map1<T, T>(c, in, m, [](T a) { return static_cast<T>(~a); }); }

// ---- bit manipulation ----
template <typename T>
void h_popc(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<uint32_t, U<T>>(c, in, m, [](U<T> a) { return static_cast<uint32_t>(std::popcount(a)); });
}
template <typename T>
void h_clz(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<uint32_t, U<T>>(c, in, m, [](U<T> a) { return static_cast<uint32_t>(std::countl_zero(a)); });
}
template <typename T>
U<T> bit_reverse(U<T> a) {
  U<T> r = 0;
  for (int i = 0; i < kBits<T>; ++i) r |= static_cast<U<T>>((a >> i) & 1u) << (kBits<T> - 1 - i);
  return r;
}
template <typename T>
void h_brev(ExecContext& c, const DecodedInst& in, uint32_t m) { map1<U<T>, U<T>>(c, in, m, bit_reverse<T>); }
// bfind: most significant set bit (signed: most significant bit differing from the sign).
template <typename T>
void h_bfind(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map1<uint32_t, T>(c, in, m, [](T a) {
    U<T> u = static_cast<U<T>>(a);
    if constexpr (std::is_signed_v<T>) {
      if (a < 0) u = static_cast<U<T>>(~u);
    }
    return u == 0 ? 0xffffffffu : static_cast<uint32_t>(kBits<T> - 1 - std::countl_zero(u));
  });
}
// bfe: pos = b[7:0], len = c[7:0]; bits past the source's msb (and past len) take the
// sign bit for signed types, 0 otherwise.
template <typename T>
T bit_extract(T a, uint32_t b, uint32_t cc) {
  constexpr int kMsb = kBits<T> - 1;
  const uint32_t pos = b & 0xff, len = cc & 0xff;
  const U<T> ua = static_cast<U<T>>(a);
  U<T> sbit = 0;
  if (std::is_signed_v<T> && len != 0) {
    const uint32_t top = pos + len - 1 > static_cast<uint32_t>(kMsb) ? kMsb : pos + len - 1;
    sbit = (ua >> top) & 1u;
  }
  U<T> field = 0;
  if (pos <= static_cast<uint32_t>(kMsb)) {
    field = ua >> pos;
    const uint32_t avail = kBits<T> - pos;  // source bits available above pos
    const uint32_t keep = len < avail ? len : avail;
    if (keep < static_cast<uint32_t>(kBits<T>)) field &= (U<T>(1) << keep) - 1;
    if (sbit && keep < static_cast<uint32_t>(kBits<T>)) field |= ~((U<T>(1) << keep) - 1);
  } else if (sbit) {
    field = ~U<T>(0);
  }
  return static_cast<T>(field);
}
template <typename T>
void h_bfe(ExecContext& c, const DecodedInst& in, uint32_t m) { map3<T, T, uint32_t, uint32_t>(c, in, m, bit_extract<T>); }
template <typename T>
U<T> bit_insert(U<T> a, U<T> base, uint32_t pos, uint32_t len) {
  pos &= 0xff;
  len &= 0xff;
  if (len == 0 || pos >= static_cast<uint32_t>(kBits<T>)) return base;
  const uint32_t n = len < kBits<T> - pos ? len : kBits<T> - pos;
  const U<T> mask = (n >= static_cast<uint32_t>(kBits<T>) ? ~U<T>(0) : ((U<T>(1) << n) - 1)) << pos;
  return static_cast<U<T>>((base & ~mask) | ((a << pos) & mask));
}
// bfi: position/length from imm (bits 0-7 / 8-15) when b is RZ or an immediate, else
// position from b and length from imm.
template <typename T>
void h_bfi(ExecContext& c, const DecodedInst& in, uint32_t m) {
  if (in.b_is_rz || in.bimm != nullptr) {
    const uint32_t pos = in.imm & 0xff, len = (in.imm >> 8) & 0xff;
    const uint32_t* a = c.row(in.a);
    const uint32_t* base = c.row(in.c);
    U<T> out[32];
    for (int l = 0; l < 32; ++l) out[l] = bit_insert<T>(lane_get<U<T>>(a, l), lane_get<U<T>>(base, l), pos, len);
    lanes_store<U<T>>(c.row(in.d), out, m);
  } else {
    const uint32_t len = in.imm;
    map3<U<T>, U<T>, uint32_t, U<T>>(c, in, m, [len](U<T> a, uint32_t pos, U<T> base) { return bit_insert<T>(a, base, pos, len); });
  }
}
// prmt: bytes {b, a} (a is bytes 0-3) selected by c; the generic mode's selector bit 3
// replicates the chosen byte's sign.
uint32_t permute(uint32_t a, uint32_t b, uint32_t sel, isa::PrmtMode mode) {
  const uint64_t x = (static_cast<uint64_t>(b) << 32) | a;
  auto byte = [x](uint32_t i) { return static_cast<uint32_t>((x >> (8 * (i & 7))) & 0xff); };
  uint32_t idx[4];
  switch (mode) {
    case isa::PrmtMode::IDX: {
      uint32_t r = 0;
      for (int i = 0; i < 4; ++i) {
        const uint32_t s = (sel >> (4 * i)) & 0xf;
        uint32_t v = byte(s & 7);
        if (s & 8) v = (v & 0x80) ? 0xff : 0;
        r |= v << (8 * i);
      }
      return r;
    }
    case isa::PrmtMode::F4E: { const uint32_t s = sel & 3; for (uint32_t i = 0; i < 4; ++i) idx[i] = s + i; break; }
    case isa::PrmtMode::B4E: { const uint32_t s = sel & 3; for (uint32_t i = 0; i < 4; ++i) idx[i] = (8 + s - i) & 7; break; }
    case isa::PrmtMode::RC8: { const uint32_t s = sel & 3; for (auto& v : idx) v = s; break; }
    case isa::PrmtMode::ECL: { const uint32_t s = sel & 3; for (uint32_t i = 0; i < 4; ++i) idx[i] = i < s ? s : i; break; }
    case isa::PrmtMode::ECR: { const uint32_t s = sel & 3; for (uint32_t i = 0; i < 4; ++i) idx[i] = i > s ? s : i; break; }
    case isa::PrmtMode::RC16: { const uint32_t s = (sel & 1) * 2; idx[0] = s; idx[1] = s + 1; idx[2] = s; idx[3] = s + 1; break; }
    default: return 0;
  }
  return byte(idx[0]) | (byte(idx[1]) << 8) | (byte(idx[2]) << 16) | (byte(idx[3]) << 24);
}
template <isa::PrmtMode kMode>
void h_prmt(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map3<uint32_t, uint32_t, uint32_t, uint32_t>(c, in, m, [](uint32_t a, uint32_t b, uint32_t s) { return permute(a, b, s, kMode); });
}

// ---- compare, select, move, predicate logic ----
template <typename T>
bool int_compare(isa::CmpOp op, T a, T b) {
  switch (op) {
    case isa::CmpOp::EQ: case isa::CmpOp::EQU: return a == b;
    case isa::CmpOp::NE: case isa::CmpOp::NEU: return a != b;
    case isa::CmpOp::LT: case isa::CmpOp::LTU: return a < b;
    case isa::CmpOp::LE: case isa::CmpOp::LEU: return a <= b;
    case isa::CmpOp::GT: case isa::CmpOp::GTU: return a > b;
    case isa::CmpOp::GE: case isa::CmpOp::GEU: return a >= b;
    case isa::CmpOp::NUM: return true;
    default: return false;  // NAN_: integers are never NaN
  }
}
template <typename T, isa::CmpOp kCmp>
void h_isetp(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* a = c.row(in.a);
  const uint32_t* b = c.src_b(in);
  const uint32_t r = lanes_ballot([&](int l) { return int_compare<T>(kCmp, lane_get<T>(a, l), lane_get<T>(b, l)); });
  const auto bop = static_cast<isa::BoolOp>((in.inst.mod >> 4) & 3);
  pred_write(c, in.pd, bool_combine(bop, r, pred_src(c, in.ps, in.ps_xor)), m);
}
template <typename T>
Handler select_isetp_cmp(isa::CmpOp op) {
  switch (op) {
#define CASE(X) case isa::CmpOp::X: return &h_isetp<T, isa::CmpOp::X>;
    CASE(EQ) CASE(NE) CASE(LT) CASE(LE) CASE(GT) CASE(GE)
    CASE(EQU) CASE(NEU) CASE(LTU) CASE(LEU) CASE(GTU) CASE(GEU) CASE(NUM) CASE(NAN_)
#undef CASE
    default: return nullptr;
  }
}
template <typename T>
void h_sel(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t p = pred_src(c, in.ps, in.ps_xor);
  const uint32_t* a = c.row(in.a);
  const uint32_t* b = c.src_b(in);
  T out[32];
  for (int l = 0; l < 32; ++l) out[l] = ((p >> l) & 1u) ? lane_get<T>(a, l) : lane_get<T>(b, l);
  lanes_store<T>(c.row(in.d), out, m);
}
template <typename T>
void h_mov(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const uint32_t* b = c.src_b(in);
  T out[32];
  for (int l = 0; l < 32; ++l) out[l] = lane_get<T>(b, l);
  lanes_store<T>(c.row(in.d), out, m);
}
void h_mov128(ExecContext& c, const DecodedInst& in, uint32_t m) {
  for (int w = 0; w < 4; ++w) {
    const uint32_t* b = c.row(static_cast<uint16_t>(in.b + w));
    uint32_t* d = c.row(static_cast<uint16_t>(in.d + w));
    for (int l = 0; l < 32; ++l) {
      if ((m >> l) & 1u) d[l] = b[l];
    }
  }
}
void h_plop(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const auto bop = static_cast<isa::BoolOp>((in.inst.mod >> 4) & 3);
  pred_write(c, in.pd, bool_combine(bop, pred_src(c, in.ps, in.ps_xor), pred_src(c, in.pq, in.pq_xor)), m);
}
void h_nop(ExecContext&, const DecodedInst&, uint32_t) {}

bool is_u32_or_s32(DataType t) { return t == DataType::U32 || t == DataType::S32; }

}  // namespace

Handler select_IADD(const isa::Inst& i) {
  if (i.mod & isa::kModSat) return i.type == DataType::S32 ? &h_iadd_sat : nullptr;
  STRATA_SELECT_BITS(h_iadd, i.type);
}
Handler select_ISUB(const isa::Inst& i) {
  if (i.mod & isa::kModSat) return i.type == DataType::S32 ? &h_isub_sat : nullptr;
  STRATA_SELECT_BITS(h_isub, i.type);
}
Handler select_IMUL(const isa::Inst& i) { STRATA_SELECT_BITS(h_imul, i.type); }
Handler select_IMULHI(const isa::Inst& i) { STRATA_SELECT_INT(h_imulhi, i.type); }
Handler select_IMULWIDE(const isa::Inst& i) {
  if (!is_u32_or_s32(i.type)) return nullptr;
  return i.type == DataType::S32 ? &h_imulwide<int32_t> : &h_imulwide<uint32_t>;
}
Handler select_IMAD(const isa::Inst& i) { STRATA_SELECT_BITS(h_imad, i.type); }
Handler select_IMADHI(const isa::Inst& i) { STRATA_SELECT_INT(h_imadhi, i.type); }
Handler select_IMADWIDE(const isa::Inst& i) {
  if (!is_u32_or_s32(i.type)) return nullptr;
  return i.type == DataType::S32 ? &h_imadwide<int32_t> : &h_imadwide<uint32_t>;
}
Handler select_IMIN(const isa::Inst& i) { STRATA_SELECT_INT(h_imin, i.type); }
Handler select_IMAX(const isa::Inst& i) { STRATA_SELECT_INT(h_imax, i.type); }
Handler select_IABS(const isa::Inst& i) { STRATA_SELECT_INT(h_iabs, i.type); }
Handler select_INEG(const isa::Inst& i) { STRATA_SELECT_BITS(h_ineg, i.type); }
Handler select_IDIV(const isa::Inst& i) { STRATA_SELECT_INT(h_idiv, i.type); }
Handler select_IREM(const isa::Inst& i) { STRATA_SELECT_INT(h_irem, i.type); }
Handler select_SHL(const isa::Inst& i) { STRATA_SELECT_BITS(h_shl, i.type); }
Handler select_SHR(const isa::Inst& i) { STRATA_SELECT_INT(h_shr, i.type); }
Handler select_AND(const isa::Inst& i) { STRATA_SELECT_BITS(h_and, i.type); }
Handler select_OR(const isa::Inst& i) { STRATA_SELECT_BITS(h_or, i.type); }
Handler select_XOR(const isa::Inst& i) { STRATA_SELECT_BITS(h_xor, i.type); }
Handler select_NOT(const isa::Inst& i) { STRATA_SELECT_BITS(h_not, i.type); }
Handler select_POPC(const isa::Inst& i) { STRATA_SELECT_BITS(h_popc, i.type); }
Handler select_CLZ(const isa::Inst& i) { STRATA_SELECT_BITS(h_clz, i.type); }
Handler select_BREV(const isa::Inst& i) { STRATA_SELECT_BITS(h_brev, i.type); }
Handler select_BFIND(const isa::Inst& i) { STRATA_SELECT_INT(h_bfind, i.type); }
Handler select_BFE(const isa::Inst& i) { STRATA_SELECT_INT(h_bfe, i.type); }
Handler select_BFI(const isa::Inst& i) { STRATA_SELECT_BITS(h_bfi, i.type); }
Handler select_PRMT(const isa::Inst& i) {
  switch (static_cast<isa::PrmtMode>(i.mod)) {
#define CASE(X) case isa::PrmtMode::X: return &h_prmt<isa::PrmtMode::X>;
    CASE(IDX) CASE(F4E) CASE(B4E) CASE(RC8) CASE(ECL) CASE(ECR) CASE(RC16)
#undef CASE
    default: return nullptr;
  }
}
Handler select_ISETP(const isa::Inst& i) {
  const auto cmp = static_cast<isa::CmpOp>(i.mod & 0xf);
  if (((i.mod >> 4) & 3) >= static_cast<int>(isa::BoolOp::kCount)) return nullptr;
  switch (int_kind(i.type)) {
    case IntKind::kU32: return select_isetp_cmp<uint32_t>(cmp);
    case IntKind::kS32: return select_isetp_cmp<int32_t>(cmp);
    case IntKind::kU64: return select_isetp_cmp<uint64_t>(cmp);
    case IntKind::kS64: return select_isetp_cmp<int64_t>(cmp);
    case IntKind::kNone: return nullptr;
  }
  return nullptr;
}
Handler select_SEL(const isa::Inst& i) {
  const int bits = isa::type_bits(i.type);
  if (bits == 64) return &h_sel<uint64_t>;
  if (bits > 0 && bits <= 32) return &h_sel<uint32_t>;
  return nullptr;
}
Handler select_MOV(const isa::Inst& i) {
  const int bits = isa::type_bits(i.type);
  if (bits == 128) return i.b_imm ? nullptr : &h_mov128;
  if (bits == 64) return &h_mov<uint64_t>;
  if (bits > 0 && bits <= 32) return &h_mov<uint32_t>;
  if (i.type == DataType::kNone) return &h_mov<uint32_t>;
  return nullptr;
}
Handler select_PLOP(const isa::Inst& i) {
  if (((i.mod >> 4) & 3) >= static_cast<int>(isa::BoolOp::kCount)) return nullptr;
  return &h_plop;
}
Handler select_NOP(const isa::Inst&) { return &h_nop; }

}  // namespace strata::hw::sim
