// Lane-parallel helpers for handlers: typed access to the structure-of-arrays register
// file and masked 32-lane loops written so the compiler vectorises the common case.
//
// A value of type T occupies rows r (low word) and r+1 (high word, 64-bit types): lane l
// of a 64-bit value is row[l] | row[32 + l] << 32. Handlers compute every lane (results
// of inactive lanes are discarded), so lane functions must be total: no UB on any input.
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

inline constexpr uint32_t kAllLanes = 0xffffffffu;

template <typename T>
inline T lane_get(const uint32_t* r, int l) {
  if constexpr (sizeof(T) == 8) {
    return std::bit_cast<T>(static_cast<uint64_t>(r[l]) | (static_cast<uint64_t>(r[32 + l]) << 32));
  } else if constexpr (sizeof(T) == 4) {
    return std::bit_cast<T>(r[l]);
  } else {
    static_assert(sizeof(T) == 2);
    return std::bit_cast<T>(static_cast<uint16_t>(r[l]));
  }
}

template <typename T>
inline void lane_put(uint32_t* r, int l, T v) {
  if constexpr (sizeof(T) == 8) {
    const uint64_t u = std::bit_cast<uint64_t>(v);
    r[l] = static_cast<uint32_t>(u);
    r[32 + l] = static_cast<uint32_t>(u >> 32);
  } else if constexpr (sizeof(T) == 4) {
    r[l] = std::bit_cast<uint32_t>(v);
  } else {
    r[l] = std::bit_cast<uint16_t>(v);  // 16-bit values are zero-extended in a register
  }
}

// Writes out[l] to lanes of `mask`.
template <typename T>
inline void lanes_store(uint32_t* d, const T* out, uint32_t mask) {
  if (mask == kAllLanes) {
    for (int l = 0; l < 32; ++l) lane_put<T>(d, l, out[l]);
  } else {
    for (int l = 0; l < 32; ++l) {
      if ((mask >> l) & 1u) lane_put<T>(d, l, out[l]);
    }
  }
}

// d = f(a) / f(a, b) / f(a, b, c) over all lanes, stored to `mask`.
template <typename TD, typename TA, typename F>
inline void map1(ExecContext& ctx, const DecodedInst& in, uint32_t mask, F f) {
  const uint32_t* a = ctx.row(in.a);
  TD out[32];
  for (int l = 0; l < 32; ++l) out[l] = f(lane_get<TA>(a, l));
  lanes_store<TD>(ctx.row(in.d), out, mask);
}

template <typename TD, typename TA, typename TB, typename F>
inline void map2(ExecContext& ctx, const DecodedInst& in, uint32_t mask, F f) {
  const uint32_t* a = ctx.row(in.a);
  const uint32_t* b = ctx.src_b(in);
  TD out[32];
  for (int l = 0; l < 32; ++l) out[l] = f(lane_get<TA>(a, l), lane_get<TB>(b, l));
  lanes_store<TD>(ctx.row(in.d), out, mask);
}

template <typename TD, typename TA, typename TB, typename TC, typename F>
inline void map3(ExecContext& ctx, const DecodedInst& in, uint32_t mask, F f) {
  const uint32_t* a = ctx.row(in.a);
  const uint32_t* b = ctx.src_b(in);
  const uint32_t* c = ctx.row(in.c);
  TD out[32];
  for (int l = 0; l < 32; ++l) out[l] = f(lane_get<TA>(a, l), lane_get<TB>(b, l), lane_get<TC>(c, l));
  lanes_store<TD>(ctx.row(in.d), out, mask);
}

// Predicate helpers: a predicate register is a 32-bit lane mask.
inline uint32_t pred_src(const ExecContext& ctx, uint8_t slot, uint32_t xor_mask) {
  return ctx.warp->preds[slot] ^ xor_mask;
}
inline void pred_write(ExecContext& ctx, uint8_t slot, uint32_t value, uint32_t mask) {
  uint32_t& p = ctx.warp->preds[slot];
  p = (p & ~mask) | (value & mask);
}
inline uint32_t bool_combine(isa::BoolOp op, uint32_t x, uint32_t y) {
  switch (op) {
    case isa::BoolOp::AND: return x & y;
    case isa::BoolOp::OR: return x | y;
    default: return x ^ y;
  }
}

// Mask of lanes whose bool result is set.
template <typename F>
inline uint32_t lanes_ballot(F f) {
  uint32_t m = 0;
  for (int l = 0; l < 32; ++l) m |= static_cast<uint32_t>(f(l) ? 1u : 0u) << l;
  return m;
}

inline int first_lane(uint32_t mask) { return std::countr_zero(mask); }

}  // namespace strata::hw::sim
