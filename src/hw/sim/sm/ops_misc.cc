// Handlers of the "misc" instructions: VIDEO and VSIMD (the PTX video instructions; the
// descriptor is isa/video.h, the semantics the PTX ISA's "Video Instructions" pseudo-code)
// and FNS (fns.b32).
#include <algorithm>
#include <cstdint>

#include "hw/sim/sm/lanes.h"
#include "hw/sim/sm/ops.h"
#include "isa/video.h"

namespace strata::hw::sim {
namespace {

// partSelectSignExtend: the selected byte/half-word/word, sign- or zero-extended.
constexpr int64_t part_select(uint32_t x, bool is_signed, isa::VideoSel sel) {
  switch (sel) {
    case isa::VideoSel::B0:
    case isa::VideoSel::B1:
    case isa::VideoSel::B2:
    case isa::VideoSel::B3: {
      const uint32_t v = (x >> (8 * (static_cast<int>(sel) - 1))) & 0xff;
      return is_signed ? static_cast<int64_t>(static_cast<int8_t>(v)) : static_cast<int64_t>(v);
    }
    case isa::VideoSel::H0:
    case isa::VideoSel::H1: {
      const uint32_t v = (x >> (sel == isa::VideoSel::H1 ? 16 : 0)) & 0xffff;
      return is_signed ? static_cast<int64_t>(static_cast<int16_t>(v)) : static_cast<int64_t>(v);
    }
    default:
      return is_signed ? static_cast<int64_t>(static_cast<int32_t>(x)) : static_cast<int64_t>(x);
  }
}

constexpr bool compare(isa::VideoCmp cmp, int64_t a, int64_t b) {
  switch (cmp) {
    case isa::VideoCmp::EQ:
      return a == b;
    case isa::VideoCmp::NE:
      return a != b;
    case isa::VideoCmp::LT:
      return a < b;
    case isa::VideoCmp::LE:
      return a <= b;
    case isa::VideoCmp::GT:
      return a > b;
    case isa::VideoCmp::GE:
      return a >= b;
  }
  return false;
}

constexpr int64_t clamp_bits(int64_t v, int bits, bool is_signed) {
  const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  return std::clamp(v, lo, hi);
}

constexpr int sel_bits(isa::VideoSel s) {
  return s == isa::VideoSel::NONE                             ? 32
         : (s == isa::VideoSel::H0 || s == isa::VideoSel::H1) ? 16
                                                              : 8;
}

// optMerge: the result's low bits placed at dsel's position over c.
constexpr uint32_t merge(isa::VideoSel dsel, int64_t tmp, uint32_t c) {
  const auto t = static_cast<uint32_t>(tmp);
  switch (dsel) {
    case isa::VideoSel::B0:
    case isa::VideoSel::B1:
    case isa::VideoSel::B2:
    case isa::VideoSel::B3: {
      const int sh = 8 * (static_cast<int>(dsel) - 1);
      return ((t & 0xffu) << sh) | (c & ~(0xffu << sh));
    }
    case isa::VideoSel::H0:
      return (t & 0xffffu) | (c & 0xffff0000u);
    case isa::VideoSel::H1:
      return ((t & 0xffffu) << 16) | (c & 0xffffu);
    default:
      return t;
  }
}

// The scalar video instructions (VIDEO): d for sources a, b, c.
uint32_t video_scalar(const isa::VideoDesc& v, uint32_t a, uint32_t b, uint32_t c) {
  const int64_t ta = part_select(a, v.a_signed, v.asel);
  if (v.op == isa::VideoOp::MAD) {
    const int64_t tb = part_select(b, v.b_signed, v.bsel);
    const bool signed_final = v.a_signed || v.b_signed || v.neg_product || v.neg_c;
    __int128 tmp = static_cast<__int128>(ta) * tb;
    uint32_t cc = c;
    int lsb = 0;
    if (v.po) {
      lsb = 1;
    } else if (v.neg_product) {
      tmp = ~tmp;
      lsb = 1;
    } else if (v.neg_c) {
      cc = ~cc;
      lsb = 1;
    }
    const __int128 c128 =
        signed_final ? static_cast<__int128>(static_cast<int32_t>(cc)) : static_cast<__int128>(cc);
    tmp = tmp + c128 + lsb;
    if (v.scale == 1) tmp >>= 7;
    if (v.scale == 2) tmp >>= 15;
    const auto bits = static_cast<uint64_t>(tmp);
    if (!v.sat) return static_cast<uint32_t>(bits);
    if (signed_final)
      return static_cast<uint32_t>(clamp_bits(static_cast<int64_t>(bits), 32, true));
    return static_cast<uint32_t>(std::min<uint64_t>(bits, 0xffffffffu));
  }
  int64_t tmp = 0;
  bool d_signed = v.d_signed;
  if (v.op == isa::VideoOp::SHL || v.op == isa::VideoOp::SHR) {
    int64_t tb = part_select(b, false, v.bsel);
    if (!v.wrap && tb > 32) tb = 32;
    if (v.wrap) tb &= 0x1f;
    tmp = v.op == isa::VideoOp::SHL ? static_cast<int64_t>(static_cast<uint64_t>(ta) << tb)
                                    : (ta >> tb);
  } else {
    const int64_t tb = part_select(b, v.b_signed, v.bsel);
    switch (v.op) {
      case isa::VideoOp::ADD:
        tmp = ta + tb;
        break;
      case isa::VideoOp::SUB:
        tmp = ta - tb;
        break;
      case isa::VideoOp::ABSDIFF:
        tmp = ta > tb ? ta - tb : tb - ta;
        break;
      case isa::VideoOp::MIN:
        tmp = std::min(ta, tb);
        break;
      case isa::VideoOp::MAX:
        tmp = std::max(ta, tb);
        break;
      case isa::VideoOp::SET:
        tmp = compare(v.cmp, ta, tb) ? 1 : 0;
        d_signed = false;
        break;
      default:
        break;
    }
  }
  if (v.sat && v.op != isa::VideoOp::SET) tmp = clamp_bits(tmp, sel_bits(v.dsel), d_signed);
  const int64_t tc =
      d_signed ? static_cast<int64_t>(static_cast<int32_t>(c)) : static_cast<int64_t>(c);
  switch (v.op2) {
    case isa::VideoOp2::ADD:
      return static_cast<uint32_t>(tmp + tc);
    case isa::VideoOp2::MIN:
      return static_cast<uint32_t>(std::min(tmp, tc));
    case isa::VideoOp2::MAX:
      return static_cast<uint32_t>(std::max(tmp, tc));
    default:
      break;
  }
  return merge(v.dsel, tmp, c);
}

// The SIMD video instructions (VSIMD) on sources already selected: d for a, b, c.
uint32_t video_simd(const isa::VideoDesc& v, uint32_t a, uint32_t b, uint32_t c) {
  const int n = v.halves ? 2 : 4, bits = v.halves ? 16 : 8;
  const uint32_t emask = v.halves ? 0xffffu : 0xffu;
  auto element = [&](uint32_t x, int i, bool s) -> int64_t {
    const uint32_t e = (x >> (bits * i)) & emask;
    if (!s) return e;
    return v.halves ? static_cast<int64_t>(static_cast<int16_t>(e))
                    : static_cast<int64_t>(static_cast<int8_t>(e));
  };
  uint32_t merged = 0;
  int64_t sum = static_cast<int64_t>(c);  // accumulate: d = c + the selected results (mod 2^32)
  for (int i = 0; i < n; ++i) {
    const int64_t va = element(a, i, v.a_signed), vb = element(b, i, v.b_signed);
    int64_t t = 0;
    switch (v.op) {
      case isa::VideoOp::ADD:
        t = va + vb;
        break;
      case isa::VideoOp::SUB:
        t = va - vb;
        break;
      case isa::VideoOp::AVRG:
        t = va + vb >= 0 ? (va + vb + 1) >> 1 : (va + vb) >> 1;
        break;
      case isa::VideoOp::ABSDIFF:
        t = va > vb ? va - vb : vb - va;
        break;
      case isa::VideoOp::MIN:
        t = std::min(va, vb);
        break;
      case isa::VideoOp::MAX:
        t = std::max(va, vb);
        break;
      case isa::VideoOp::SET:
        t = compare(v.cmp, va, vb) ? 1 : 0;
        break;
      default:
        break;
    }
    if (v.sat && v.op != isa::VideoOp::SET) t = clamp_bits(t, bits, v.d_signed);
    const bool on = (v.mask >> i) & 1;
    if (v.accumulate) {
      if (on) sum += t;
    } else {
      const uint32_t e = on ? static_cast<uint32_t>(t) & emask : (c >> (bits * i)) & emask;
      merged |= e << (bits * i);
    }
  }
  return v.accumulate ? static_cast<uint32_t>(sum) : merged;
}

// fns.b32: the position of the n-th set bit of `mask` counted from `base` upwards
// (offset > 0) or downwards (offset < 0); offset 0 tests bit `base`. 0xffffffff when
// there is none (PTX leaves base > 31 undefined: none).
uint32_t find_nth_set(uint32_t mask, uint32_t base, int32_t offset) {
  if (base > 31) return 0xffffffffu;
  if (offset == 0) return ((mask >> base) & 1) ? base : 0xffffffffu;
  const int inc = offset > 0 ? 1 : -1;
  int64_t count = (offset > 0 ? static_cast<int64_t>(offset) : -static_cast<int64_t>(offset)) - 1;
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += inc) {
    if (((mask >> pos) & 1) == 0) continue;
    if (count == 0) return static_cast<uint32_t>(pos);
    --count;
  }
  return 0xffffffffu;
}

void h_video(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const isa::VideoDesc v = isa::VideoDesc::decode(in.imm);
  map3<uint32_t, uint32_t, uint32_t, uint32_t>(
      c, in, m, [&v](uint32_t a, uint32_t b, uint32_t cc) { return video_scalar(v, a, b, cc); });
}
void h_vsimd(ExecContext& c, const DecodedInst& in, uint32_t m) {
  const isa::VideoDesc v = isa::VideoDesc::decode_simd(in.imm);
  map3<uint32_t, uint32_t, uint32_t, uint32_t>(
      c, in, m, [&v](uint32_t a, uint32_t b, uint32_t cc) { return video_simd(v, a, b, cc); });
}
void h_fns(ExecContext& c, const DecodedInst& in, uint32_t m) {
  map3<uint32_t, uint32_t, uint32_t, uint32_t>(
      c, in, m, [](uint32_t mask, uint32_t base, uint32_t off) {
        return find_nth_set(mask, base, static_cast<int32_t>(off));
      });
}

}  // namespace

Handler select_VIDEO(const isa::Inst& i) {
  const isa::VideoDesc v = isa::VideoDesc::decode(i.imm);
  if (static_cast<int>(v.op) > static_cast<int>(isa::VideoOp::MAD) || static_cast<int>(v.cmp) > 5 ||
      static_cast<int>(v.dsel) > 6 || static_cast<int>(v.asel) > 6 ||
      static_cast<int>(v.bsel) > 6 || v.scale > 2)
    return nullptr;
  return &h_video;
}
Handler select_VSIMD(const isa::Inst& i) {
  const isa::VideoDesc v = isa::VideoDesc::decode_simd(i.imm);
  switch (v.op) {
    case isa::VideoOp::ADD:
    case isa::VideoOp::SUB:
    case isa::VideoOp::AVRG:
    case isa::VideoOp::ABSDIFF:
    case isa::VideoOp::MIN:
    case isa::VideoOp::MAX:
    case isa::VideoOp::SET:
      break;
    default:
      return nullptr;
  }
  if (static_cast<int>(v.cmp) > 5) return nullptr;
  return &h_vsimd;
}
Handler select_FNS(const isa::Inst&) {
  return &h_fns;
}

}  // namespace strata::hw::sim
