// The PTX video instructions as Strata executes them (docs/isa.md "Video instructions"):
// the 32-bit descriptor in the imm field of VIDEO (scalar vadd/vsub/vabsdiff/vmin/vmax/
// vshl/vshr/vset/vmad) and VSIMD (vadd2/4, vsub2/4, vavrg2/4, vabsdiff2/4, vmin2/4,
// vmax2/4, vset2/4), and the reference semantics both the simulator and the compiler's
// tests rely on: the pseudo-code of the PTX ISA's "Video Instructions" section.
//
// VIDEO d, a, b, c, imm (scalar):
//   bits  0-3   VideoOp              bits 16-18  asel (VideoSel)
//   bits  4-6   VideoCmp (SET)       bits 19-21  bsel (VideoSel)
//   bit   7     a signed             bit  22     shift mode: 1 = .wrap, 0 = .clamp
//   bit   8     b signed             bit  23     MAD .po
//   bit   9     d signed             bit  24     MAD: the product is negated
//   bit   10    .sat                 bit  25     MAD: c is negated
//   bits 11-12  VideoOp2             bits 26-27  MAD scale: 0, 1 = .shr7, 2 = .shr15
//   bits 13-15  dsel (VideoSel): merge the result into c
//
// VSIMD d, a, b, c, imm (SIMD; the compiler applies non-default asel/bsel with PRMT, so
// a and b hold the selected elements in place):
//   bits  0-3   VideoOp (ADD, SUB, AVRG, ABSDIFF, MIN, MAX, SET)
//   bits  4-6   VideoCmp (SET)
//   bits  7-9   a, b, d signed       bit  10     .sat
//   bit   11    .add (accumulate into c; else merge with c)
//   bit   12    1 = two 16-bit elements (vop2), 0 = four 8-bit elements (vop4)
//   bits 13-16  mask: element i is computed when bit i is set (else c's element is kept,
//               or nothing is added)
#pragma once

#include <cstdint>

namespace strata::isa {

enum class VideoOp : uint8_t { ADD, SUB, ABSDIFF, MIN, MAX, SHL, SHR, SET, MAD, AVRG };
enum class VideoCmp : uint8_t { EQ, NE, LT, LE, GT, GE };
enum class VideoOp2 : uint8_t { NONE, ADD, MIN, MAX };
// Sub-word selectors of scalar operands: NONE is the whole word.
enum class VideoSel : uint8_t { NONE, B0, B1, B2, B3, H0, H1 };

struct VideoDesc {
  VideoOp op = VideoOp::ADD;
  VideoCmp cmp = VideoCmp::EQ;
  bool a_signed = false, b_signed = false, d_signed = false, sat = false;
  VideoOp2 op2 = VideoOp2::NONE;
  VideoSel dsel = VideoSel::NONE, asel = VideoSel::NONE, bsel = VideoSel::NONE;
  bool wrap = false, po = false, neg_product = false, neg_c = false;
  uint8_t scale = 0;  // MAD: 0, 1 = .shr7, 2 = .shr15
  // VSIMD only.
  bool accumulate = false, halves = false;
  uint8_t mask = 0xf;

  constexpr uint32_t encode() const {
    return static_cast<uint32_t>(op) | static_cast<uint32_t>(cmp) << 4 | uint32_t{a_signed} << 7 |
           uint32_t{b_signed} << 8 | uint32_t{d_signed} << 9 | uint32_t{sat} << 10 |
           static_cast<uint32_t>(op2) << 11 | static_cast<uint32_t>(dsel) << 13 |
           static_cast<uint32_t>(asel) << 16 | static_cast<uint32_t>(bsel) << 19 |
           uint32_t{wrap} << 22 | uint32_t{po} << 23 | uint32_t{neg_product} << 24 |
           uint32_t{neg_c} << 25 | static_cast<uint32_t>(scale & 3) << 26;
  }
  constexpr uint32_t encode_simd() const {
    return static_cast<uint32_t>(op) | static_cast<uint32_t>(cmp) << 4 | uint32_t{a_signed} << 7 |
           uint32_t{b_signed} << 8 | uint32_t{d_signed} << 9 | uint32_t{sat} << 10 |
           uint32_t{accumulate} << 11 | uint32_t{halves} << 12 |
           static_cast<uint32_t>(mask & 0xf) << 13;
  }
  static constexpr VideoDesc decode(uint32_t w) {
    VideoDesc d;
    d.op = static_cast<VideoOp>(w & 0xf);
    d.cmp = static_cast<VideoCmp>((w >> 4) & 7);
    d.a_signed = (w >> 7) & 1;
    d.b_signed = (w >> 8) & 1;
    d.d_signed = (w >> 9) & 1;
    d.sat = (w >> 10) & 1;
    d.op2 = static_cast<VideoOp2>((w >> 11) & 3);
    d.dsel = static_cast<VideoSel>((w >> 13) & 7);
    d.asel = static_cast<VideoSel>((w >> 16) & 7);
    d.bsel = static_cast<VideoSel>((w >> 19) & 7);
    d.wrap = (w >> 22) & 1;
    d.po = (w >> 23) & 1;
    d.neg_product = (w >> 24) & 1;
    d.neg_c = (w >> 25) & 1;
    d.scale = static_cast<uint8_t>((w >> 26) & 3);
    return d;
  }
  static constexpr VideoDesc decode_simd(uint32_t w) {
    VideoDesc d;
    d.op = static_cast<VideoOp>(w & 0xf);
    d.cmp = static_cast<VideoCmp>((w >> 4) & 7);
    d.a_signed = (w >> 7) & 1;
    d.b_signed = (w >> 8) & 1;
    d.d_signed = (w >> 9) & 1;
    d.sat = (w >> 10) & 1;
    d.accumulate = (w >> 11) & 1;
    d.halves = (w >> 12) & 1;
    d.mask = static_cast<uint8_t>((w >> 13) & 0xf);
    return d;
  }
};

}  // namespace strata::isa
