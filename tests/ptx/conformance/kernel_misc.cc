// Kernel conformance cases: movmatrix, cache policies, prefetch, isspacep, video and
// packing instructions (see kernel_cases.h).
//
// The references below are written from the PTX ISA's text for each instruction
// (semantics pseudo-code and description), independently of the simulator.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <sstream>

#include "kernel_cases.h"

namespace strata::ptx_conformance {
namespace {

constexpr uint32_t kThreads = 256;

// ---- inputs ----

// Values where sub-word and saturation edges are: every byte drawn from the byte edges,
// whole-word edges, small shift counts, and random words.
std::vector<uint32_t> edge_inputs(size_t n, uint32_t seed) {
  static const uint32_t kWords[] = {0,          1,          2,          0x7f,       0x80,
                                    0xff,       0x100,      0x7fff,     0x8000,     0xffff,
                                    0x10000,    0x7fffffff, 0x80000000, 0x80000001, 0xfffffffe,
                                    0xffffffff, 0x80808080, 0x7f7f7f7f, 0xff00ff00, 0x00ff00ff,
                                    31,         32,         33,         40};
  static const uint8_t kBytes[] = {0, 1, 0x7e, 0x7f, 0x80, 0x81, 0xfe, 0xff};
  std::mt19937 rng(seed);
  std::vector<uint32_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    switch (rng() % 4) {
      case 0:
        v[i] = kWords[rng() % (sizeof(kWords) / sizeof(kWords[0]))];
        break;
      case 1:
        v[i] = 0;
        for (int k = 0; k < 4; ++k) v[i] |= static_cast<uint32_t>(kBytes[rng() % 8]) << (8 * k);
        break;
      case 2:
        v[i] = rng() % 48;
        break;
      default:
        v[i] = rng();
    }
  }
  return v;
}

// ---- a table of instructions on (a, b, c) per thread ----

using Ref = std::function<uint32_t(uint32_t a, uint32_t b, uint32_t c)>;
struct Op {
  std::string form;  // the PTX form checked
  std::string text;  // the instruction: %r1 = a, %r2 = b, %r3 = c, result in %r4
  Ref ref;
};

// One kernel running every op on each thread's (a, b, c): out[t * ops + k] = op k.
KernelCase table_case(const std::string& name, const std::string& family,
                      const std::vector<Op>& ops, uint32_t seed) {
  KernelCase kc;
  kc.name = name;
  kc.family = family;
  std::set<std::string> forms;
  std::ostringstream p;
  p << ".version 8.0\n.target sm_80\n.address_size 64\n\n"
    << ".visible .entry conf(.param .u64 p0, .param .u64 p1)\n{\n"
    << "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
    << "  mov.u32 %r0, %tid.x;\n"
    << "  ld.param.u64 %rd1, [p0];\n  cvta.to.global.u64 %rd1, %rd1;\n"
    << "  ld.param.u64 %rd2, [p1];\n  cvta.to.global.u64 %rd2, %rd2;\n"
    << "  mul.wide.u32 %rd3, %r0, 12;\n  add.s64 %rd3, %rd1, %rd3;\n"
    << "  mul.wide.u32 %rd4, %r0, " << 4 * ops.size() << ";\n  add.s64 %rd4, %rd2, %rd4;\n"
    << "  ld.global.u32 %r1, [%rd3];\n  ld.global.u32 %r2, [%rd3+4];\n  ld.global.u32 %r3, "
       "[%rd3+8];\n";
  for (size_t k = 0; k < ops.size(); ++k) {
    // %r4 starts as c so that merge forms (d.sel) keep c's other bits, as PTX says.
    p << "  mov.b32 %r4, %r3;\n  " << ops[k].text << "\n  st.global.u32 [%rd4+" << 4 * k
      << "], %r4;\n";
    forms.insert(ops[k].form);
  }
  p << "  ret;\n}\n";
  kc.ptx = p.str();
  kc.forms.assign(forms.begin(), forms.end());
  kc.launch.block[0] = kThreads;
  std::vector<uint32_t> in = edge_inputs(3 * kThreads, seed);
  kc.buffers = {bytes_of(in), std::vector<uint8_t>(4 * ops.size() * kThreads, 0)};
  kc.check = [in, ops](const Buffers& after) -> std::string {
    std::vector<uint32_t> got = values_of<uint32_t>(after[1]);
    for (uint32_t t = 0; t < kThreads; ++t)
      for (size_t k = 0; k < ops.size(); ++k) {
        const uint32_t a = in[3 * t], b = in[3 * t + 1], c = in[3 * t + 2];
        const uint32_t want = ops[k].ref(a, b, c), have = got[t * ops.size() + k];
        if (want != have) {
          std::ostringstream o;
          o << ops[k].text << " a=0x" << std::hex << a << " b=0x" << b << " c=0x" << c
            << ": expected 0x" << want << " got 0x" << have;
          return o.str();
        }
      }
    return "";
  };
  return kc;
}

// ---- scalar video instructions (PTX ISA "Scalar Video Instructions") ----

// partSelectSignExtend(x, type, sel): "" is the whole word.
int64_t part(uint32_t x, bool s, const std::string& sel) {
  uint32_t v = x;
  int width = 32;
  if (sel.size() == 2 && sel[0] == 'b') {
    v = (x >> (8 * (sel[1] - '0'))) & 0xff;
    width = 8;
  } else if (sel.size() == 2 && sel[0] == 'h') {
    v = (x >> (16 * (sel[1] - '0'))) & 0xffff;
    width = 16;
  }
  if (!s) return v;
  const int64_t sign = int64_t{1} << (width - 1);
  return (static_cast<int64_t>(v) ^ sign) - sign;
}
int64_t sat_to(int64_t v, int width, bool s) {
  const int64_t lo = s ? -(int64_t{1} << (width - 1)) : 0;
  const int64_t hi = s ? (int64_t{1} << (width - 1)) - 1 : (int64_t{1} << width) - 1;
  return v < lo ? lo : v > hi ? hi : v;
}
int width_of(const std::string& sel) {
  return sel.empty() ? 32 : sel[0] == 'b' ? 8 : 16;
}

// The tail every scalar video op shares: optSaturate, optSecondaryOp, optMerge.
uint32_t video_tail(int64_t tmp, bool sat, bool dsigned, const std::string& op2,
                    const std::string& dsel, uint32_t c) {
  if (sat) tmp = sat_to(tmp, width_of(dsel), dsigned);
  const int64_t cc =
      dsigned ? static_cast<int64_t>(static_cast<int32_t>(c)) : static_cast<int64_t>(c);
  if (op2 == "add") return static_cast<uint32_t>(tmp + cc);
  if (op2 == "min") return static_cast<uint32_t>(tmp < cc ? tmp : cc);
  if (op2 == "max") return static_cast<uint32_t>(tmp > cc ? tmp : cc);
  if (dsel.empty()) return static_cast<uint32_t>(tmp);
  const int w = width_of(dsel), at = w * (dsel[1] - '0');
  const uint32_t field = (w == 8 ? 0xffu : 0xffffu) << at;
  return (c & ~field) | ((static_cast<uint32_t>(tmp) << at) & field);
}

std::string sel_suffix(const std::string& s) {
  return s.empty() ? "" : "." + s;
}

Op scalar_op(const std::string& vop, bool ds, bool as, bool bs, bool sat, const std::string& op2,
             const std::string& asel, const std::string& bsel, const std::string& dsel,
             const std::string& mode = "") {
  auto ty = [](bool s) { return s ? std::string(".s32") : std::string(".u32"); };
  std::string form = vop + ty(ds) + ty(as) + ty(bs) + (sat ? ".sat" : "") +
                     (mode.empty() ? "" : "." + mode) + (op2.empty() ? "" : "." + op2);
  std::string text = form + " %r4" + sel_suffix(dsel) + ", %r1" + sel_suffix(asel) + ", %r2" +
                     sel_suffix(bsel) + (op2.empty() && dsel.empty() ? "" : ", %r3") + ";";
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    const int64_t ta = part(a, as, asel);
    int64_t tmp = 0;
    if (vop == "vshl" || vop == "vshr") {
      int64_t n = part(b, false, bsel);
      n = mode == "wrap" ? (n & 31) : std::min<int64_t>(n, 32);
      tmp = vop == "vshl" ? static_cast<int64_t>(static_cast<uint64_t>(ta) << n) : ta >> n;
    } else {
      const int64_t tb = part(b, bs, bsel);
      if (vop == "vadd") tmp = ta + tb;
      if (vop == "vsub") tmp = ta - tb;
      if (vop == "vabsdiff") tmp = ta - tb < 0 ? tb - ta : ta - tb;
      if (vop == "vmin") tmp = std::min(ta, tb);
      if (vop == "vmax") tmp = std::max(ta, tb);
    }
    return video_tail(tmp, sat, ds, op2, dsel, c);
  };
  return {form, text, ref};
}

Op vset_op(bool as, bool bs, const std::string& cmp, const std::string& op2,
           const std::string& asel, const std::string& bsel, const std::string& dsel) {
  auto ty = [](bool s) { return s ? std::string(".s32") : std::string(".u32"); };
  std::string form = "vset" + ty(as) + ty(bs) + "." + cmp + (op2.empty() ? "" : "." + op2);
  std::string text = form + " %r4" + sel_suffix(dsel) + ", %r1" + sel_suffix(asel) + ", %r2" +
                     sel_suffix(bsel) + (op2.empty() && dsel.empty() ? "" : ", %r3") + ";";
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    const int64_t ta = part(a, as, asel), tb = part(b, bs, bsel);
    bool r = cmp == "eq"   ? ta == tb
             : cmp == "ne" ? ta != tb
             : cmp == "lt" ? ta < tb
             : cmp == "le" ? ta <= tb
             : cmp == "gt" ? ta > tb
                           : ta >= tb;
    return video_tail(r ? 1 : 0, false, false, op2, dsel, c);
  };
  return {form, text, ref};
}

// vmad: (a * b) + c with the negations, .po and the scale of the PTX ISA pseudo-code.
Op vmad_op(bool as, bool bs, bool sat, bool po, bool neg_a, bool neg_b, bool neg_c,
           const std::string& scale, const std::string& asel, const std::string& bsel) {
  const bool signed_final = as || bs || (neg_a != neg_b) || neg_c;
  auto ty = [](bool s) { return s ? std::string(".s32") : std::string(".u32"); };
  std::string form = "vmad" + ty(signed_final) + ty(as) + ty(bs) + (po ? ".po" : "") +
                     (sat ? ".sat" : "") + (scale.empty() ? "" : "." + scale);
  std::string text = form + " %r4, " + (neg_a ? "-" : "") + "%r1" + sel_suffix(asel) + ", " +
                     (neg_b ? "-" : "") + "%r2" + sel_suffix(bsel) + ", " + (neg_c ? "-" : "") +
                     "%r3;";
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    const __int128 prod = static_cast<__int128>(part(a, as, asel)) * part(b, bs, bsel);
    // -(x) is ~x + 1 in two's complement: the pseudo-code's `lsb`.
    __int128 addend =
        signed_final ? static_cast<__int128>(static_cast<int32_t>(c)) : static_cast<__int128>(c);
    __int128 sum = (neg_a != neg_b ? -prod : prod) + (neg_c ? -addend : addend) + (po ? 1 : 0);
    if (scale == "shr7") sum >>= 7;
    if (scale == "shr15") sum >>= 15;
    int64_t r = static_cast<int64_t>(static_cast<uint64_t>(sum));
    if (sat) {
      if (signed_final)
        r = sat_to(r, 32, true);
      else
        r = static_cast<uint64_t>(r) > 0xffffffffull ? 0xffffffff : r;
    }
    return static_cast<uint32_t>(r);
  };
  return {form, text, ref};
}

std::vector<KernelCase> scalar_video_cases() {
  std::vector<Op> arith, shifts, sets, mads;
  const char* sels[] = {"", "b0", "b1", "b2", "b3", "h0", "h1"};
  int n = 0;
  for (const char* vop : {"vadd", "vsub", "vabsdiff", "vmin", "vmax"}) {
    for (int sign = 0; sign < 8; ++sign) {
      const bool ds = sign & 1, as = sign & 2, bs = sign & 4;
      // Plain, saturated, each secondary op, and merges, over rotating selectors.
      const std::string asel = sels[n % 7], bsel = sels[(n * 3 + 1) % 7], dsel = sels[1 + n % 6];
      ++n;
      arith.push_back(scalar_op(vop, ds, as, bs, false, "", asel, bsel, ""));
      arith.push_back(scalar_op(vop, ds, as, bs, true, "", bsel, asel, ""));
      arith.push_back(scalar_op(vop, ds, as, bs, sign % 2 == 0, "add", asel, "", ""));
      arith.push_back(scalar_op(vop, ds, as, bs, false, "min", "", bsel, ""));
      arith.push_back(scalar_op(vop, ds, as, bs, true, "max", asel, bsel, ""));
      arith.push_back(scalar_op(vop, ds, as, bs, true, "", asel, bsel, dsel));
      arith.push_back(scalar_op(vop, ds, as, bs, false, "", bsel, asel, dsel));
    }
  }
  for (const char* vop : {"vshl", "vshr"})
    for (const char* mode : {"clamp", "wrap"})
      for (int sign = 0; sign < 4; ++sign) {
        const bool ds = sign & 1, as = sign & 2;
        const std::string asel = sels[n % 7], bsel = sels[(n * 5 + 2) % 7], dsel = sels[1 + n % 6];
        ++n;
        shifts.push_back(scalar_op(vop, ds, as, false, false, "", asel, "", "", mode));
        shifts.push_back(scalar_op(vop, ds, as, false, true, "", "", bsel, "", mode));
        shifts.push_back(scalar_op(vop, ds, as, false, false, "add", asel, bsel, "", mode));
        shifts.push_back(scalar_op(vop, ds, as, false, true, "max", "", "", "", mode));
        shifts.push_back(scalar_op(vop, ds, as, false, true, "", asel, "", dsel, mode));
      }
  for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge"})
    for (int sign = 0; sign < 4; ++sign) {
      const bool as = sign & 1, bs = sign & 2;
      const std::string asel = sels[n % 7], bsel = sels[(n * 3 + 2) % 7], dsel = sels[1 + n % 6];
      ++n;
      sets.push_back(vset_op(as, bs, cmp, "", asel, bsel, ""));
      sets.push_back(vset_op(as, bs, cmp, "add", asel, "", ""));
      sets.push_back(vset_op(as, bs, cmp, "min", "", bsel, ""));
      sets.push_back(vset_op(as, bs, cmp, "max", asel, bsel, ""));
      sets.push_back(vset_op(as, bs, cmp, "", asel, bsel, dsel));
    }
  for (int sign = 0; sign < 4; ++sign) {
    const bool as = sign & 1, bs = sign & 2;
    for (const char* scale : {"", "shr7", "shr15"}) {
      const std::string asel = sels[n % 7], bsel = sels[(n * 3 + 2) % 7];
      ++n;
      mads.push_back(vmad_op(as, bs, false, false, false, false, false, scale, asel, bsel));
      mads.push_back(vmad_op(as, bs, true, false, false, false, false, scale, "", bsel));
      mads.push_back(vmad_op(as, bs, true, true, false, false, false, scale, asel, ""));
      mads.push_back(vmad_op(as, bs, false, false, true, false, false, scale, asel, bsel));
      mads.push_back(vmad_op(as, bs, true, false, false, true, false, scale, "", ""));
      mads.push_back(vmad_op(as, bs, true, false, false, false, true, scale, asel, bsel));
      mads.push_back(vmad_op(as, bs, false, false, true, true, false, scale, bsel, asel));
    }
  }
  return {table_case("video.scalar.arith", "video", arith, 101),
          table_case("video.scalar.shift", "video", shifts, 102),
          table_case("video.scalar.set", "video", sets, 103),
          table_case("video.scalar.mad", "video", mads, 104)};
}

// ---- SIMD video instructions (PTX ISA "SIMD Video Instructions") ----

// Element i of the bytes/half-words chosen by selector `sel` from the 8 bytes of {b, a}
// (extractAndSignExt_4 / _2); `sel` lists elements from the highest down.
int64_t simd_elem(uint32_t a, uint32_t b, const std::string& sel, int i, bool halves, bool s) {
  const uint64_t bytes = static_cast<uint64_t>(a) | static_cast<uint64_t>(b) << 32;
  const int n = halves ? 2 : 4;
  const int pick = sel[n - i] - '0';
  const int width = halves ? 16 : 8;
  const uint64_t v = (bytes >> (width * pick)) & (halves ? 0xffff : 0xff);
  if (!s) return static_cast<int64_t>(v);
  const int64_t sign = int64_t{1} << (width - 1);
  return (static_cast<int64_t>(v) ^ sign) - sign;
}

Op simd_op(const std::string& vop, int lanes, bool ds, bool as, bool bs, bool sat, bool add,
           const std::string& mask, const std::string& asel, const std::string& bsel,
           const std::string& cmp = "") {
  const bool halves = lanes == 2;
  auto ty = [](bool s) { return s ? std::string(".s32") : std::string(".u32"); };
  const bool is_set = vop == "vset";
  std::string form = vop + std::to_string(lanes) + (is_set ? "" : ty(ds)) + ty(as) + ty(bs) +
                     (is_set ? "." + cmp : "") + (sat ? ".sat" : "") + (add ? ".add" : "");
  std::string text = form + " %r4" + sel_suffix(mask) + ", %r1" + sel_suffix(asel) + ", %r2" +
                     sel_suffix(bsel) + ", %r3;";
  const std::string as_sel = asel.empty() ? (halves ? "h10" : "b3210") : asel;
  const std::string bs_sel = bsel.empty() ? (halves ? "h32" : "b7654") : bsel;
  const std::string m = mask.empty() ? (halves ? "h10" : "b3210") : mask;
  Ref ref = [=](uint32_t a, uint32_t b, uint32_t c) {
    const int n = halves ? 2 : 4, width = halves ? 16 : 8;
    const uint32_t emask = halves ? 0xffffu : 0xffu;
    uint32_t d = add ? c : 0;
    for (int i = 0; i < n; ++i) {
      const int64_t va = simd_elem(a, b, as_sel, i, halves, as),
                    vb = simd_elem(a, b, bs_sel, i, halves, bs);
      int64_t t = 0;
      if (vop == "vadd") t = va + vb;
      if (vop == "vsub") t = va - vb;
      if (vop == "vavrg") t = (va + vb >= 0) ? (va + vb + 1) >> 1 : (va + vb) >> 1;
      if (vop == "vabsdiff") t = va > vb ? va - vb : vb - va;
      if (vop == "vmin") t = va < vb ? va : vb;
      if (vop == "vmax") t = va > vb ? va : vb;
      if (is_set)
        t = cmp == "eq"   ? va == vb
            : cmp == "ne" ? va != vb
            : cmp == "lt" ? va < vb
            : cmp == "le" ? va <= vb
            : cmp == "gt" ? va > vb
                          : va >= vb;
      if (sat) t = sat_to(t, width, ds);
      const bool on = m.find(static_cast<char>('0' + i)) != std::string::npos;
      if (add) {
        if (on) d += static_cast<uint32_t>(t);
      } else {
        const uint32_t e = on ? static_cast<uint32_t>(t) & emask : (c >> (width * i)) & emask;
        d |= e << (width * i);
      }
    }
    return d;
  };
  return {form, text, ref};
}

std::vector<KernelCase> simd_video_cases() {
  std::vector<Op> two, four;
  const char* masks2[] = {"", "h0", "h1", "h10"};
  const char* masks4[] = {"", "b0", "b31", "b210", "b3210", "b20", "b3"};
  const char* sels2[] = {"", "h10", "h32", "h01", "h23", "h12", "h30", "h22"};
  const char* sels4[] = {"",      "b3210", "b7654", "b0123", "b4567",
                         "b7531", "b6420", "b1111", "b3070"};
  int n = 0;
  for (const char* vop : {"vadd", "vsub", "vavrg", "vabsdiff", "vmin", "vmax"})
    for (int sign = 0; sign < 8; ++sign) {
      const bool ds = sign & 1, as = sign & 2, bs = sign & 4;
      ++n;
      two.push_back(simd_op(vop, 2, ds, as, bs, false, false, "", "", ""));
      two.push_back(simd_op(vop, 2, ds, as, bs, true, false, masks2[n % 4], sels2[n % 8],
                            sels2[(n * 3 + 1) % 8]));
      two.push_back(simd_op(vop, 2, ds, as, bs, false, true, masks2[(n + 1) % 4],
                            sels2[(n + 2) % 8], sels2[n % 8]));
      two.push_back(
          simd_op(vop, 2, ds, as, bs, false, false, masks2[(n + 2) % 4], sels2[(n + 5) % 8], ""));
      four.push_back(simd_op(vop, 4, ds, as, bs, false, false, "", "", ""));
      four.push_back(simd_op(vop, 4, ds, as, bs, true, false, masks4[n % 7], sels4[n % 9],
                             sels4[(n * 5 + 1) % 9]));
      four.push_back(simd_op(vop, 4, ds, as, bs, false, true, masks4[(n + 3) % 7],
                             sels4[(n + 2) % 9], sels4[n % 9]));
      four.push_back(
          simd_op(vop, 4, ds, as, bs, false, false, masks4[(n + 1) % 7], "", sels4[(n + 4) % 9]));
    }
  for (const char* cmp : {"eq", "ne", "lt", "le", "gt", "ge"})
    for (int sign = 0; sign < 4; ++sign) {
      const bool as = sign & 1, bs = sign & 2;
      ++n;
      two.push_back(simd_op("vset", 2, false, as, bs, false, false, "", "", "", cmp));
      two.push_back(simd_op("vset", 2, false, as, bs, false, true, masks2[n % 4], sels2[n % 8],
                            sels2[(n + 3) % 8], cmp));
      two.push_back(simd_op("vset", 2, false, as, bs, false, false, masks2[(n + 1) % 4], "",
                            sels2[(n + 1) % 8], cmp));
      four.push_back(simd_op("vset", 4, false, as, bs, false, false, "", "", "", cmp));
      four.push_back(simd_op("vset", 4, false, as, bs, false, true, masks4[n % 7], sels4[n % 9],
                             sels4[(n + 4) % 9], cmp));
      four.push_back(simd_op("vset", 4, false, as, bs, false, false, masks4[(n + 2) % 7],
                             sels4[(n + 1) % 9], "", cmp));
    }
  return {table_case("video.simd2", "video", two, 201),
          table_case("video.simd4", "video", four, 202)};
}

// ---- cvt.pack, sad, fns ----

std::vector<KernelCase> int_misc_cases() {
  std::vector<Op> pack;
  struct T {
    const char* name;
    int bits;
    bool s;
  };
  for (T t : {T{"s16", 16, true}, T{"u16", 16, false}, T{"s8", 8, true}, T{"u8", 8, false},
              T{"s4", 4, true}, T{"u4", 4, false}, T{"s2", 2, true}, T{"u2", 2, false}}) {
    const bool has_c = t.bits < 16;
    std::string form = std::string("cvt.pack.sat.") + t.name + ".s32" + (has_c ? ".b32" : "");
    std::string text = form + " %r4, %r1, %r2" + (has_c ? ", %r3;" : ";");
    // PTX ISA cvt.pack: a and b saturated to the type, b in d's low bits, a above it,
    // then (narrow types) c's low bits above both.
    pack.push_back(
        {form, text, [t, has_c](uint32_t a, uint32_t b, uint32_t c) {
           const int64_t lo = t.s ? -(int64_t{1} << (t.bits - 1)) : 0;
           const int64_t hi = t.s ? (int64_t{1} << (t.bits - 1)) - 1 : (int64_t{1} << t.bits) - 1;
           auto satv = [&](uint32_t x) {
             const int64_t v = static_cast<int32_t>(x);
             return static_cast<uint32_t>(v < lo ? lo : v > hi ? hi : v) & ((1u << t.bits) - 1);
           };
           uint32_t d = satv(b) | satv(a) << t.bits;
           if (has_c) d |= c << (2 * t.bits);
           return d;
         }});
  }
  std::vector<Op> sad = {
      {"sad.u32", "sad.u32 %r4, %r1, %r2, %r3;",
       [](uint32_t a, uint32_t b, uint32_t c) { return c + (a > b ? a - b : b - a); }},
      {"sad.s32", "sad.s32 %r4, %r1, %r2, %r3;",
       [](uint32_t a, uint32_t b, uint32_t c) {
         const int64_t x = static_cast<int32_t>(a), y = static_cast<int32_t>(b);
         return c + static_cast<uint32_t>(x > y ? x - y : y - x);
       }},
      {"sad.u16",
       "{ .reg .u16 %ha, %hb, %hc, %hd; cvt.u16.u32 %ha, %r1; cvt.u16.u32 %hb, %r2; cvt.u16.u32 "
       "%hc, %r3;"
       " sad.u16 %hd, %ha, %hb, %hc; cvt.u32.u16 %r4, %hd; }",
       [](uint32_t a, uint32_t b, uint32_t c) {
         const uint32_t x = a & 0xffff, y = b & 0xffff;
         return (c + (x > y ? x - y : y - x)) & 0xffff;
       }},
      {"sad.s16",
       "{ .reg .s16 %ha, %hb, %hc, %hd; cvt.u16.u32 %ha, %r1; cvt.u16.u32 %hb, %r2; cvt.u16.u32 "
       "%hc, %r3;"
       " sad.s16 %hd, %ha, %hb, %hc; cvt.u32.u16 %r4, %hd; }",
       [](uint32_t a, uint32_t b, uint32_t c) {
         const int32_t x = static_cast<int16_t>(a), y = static_cast<int16_t>(b);
         return (c + static_cast<uint32_t>(x > y ? x - y : y - x)) & 0xffff;
       }},
      {"sad.u64",
       "{ .reg .u64 %da, %db, %dc, %dd; mul.wide.u32 %da, %r1, %r3; mul.wide.u32 %db, %r2, %r2;"
       " cvt.u64.u32 %dc, %r3; sad.u64 %dd, %da, %db, %dc; xor.b64 %dd, %dd, %da; shr.u64 %da, "
       "%dd, 32;"
       " cvt.u32.u64 %r4, %dd; cvt.u32.u64 %r5, %da; xor.b32 %r4, %r4, %r5; }",
       [](uint32_t a, uint32_t b, uint32_t c) {
         const uint64_t x = uint64_t{a} * c, y = uint64_t{b} * b,
                        r = (uint64_t{c} + (x > y ? x - y : y - x)) ^ x;
         return static_cast<uint32_t>(r) ^ static_cast<uint32_t>(r >> 32);
       }},
      {"sad.s64",
       "{ .reg .s64 %da, %db, %dc, %dd; mul.wide.s32 %da, %r1, %r3; mul.wide.s32 %db, %r2, %r2;"
       " cvt.s64.s32 %dc, %r3; sad.s64 %dd, %da, %db, %dc; xor.b64 %dd, %dd, %da; shr.u64 %da, "
       "%dd, 32;"
       " cvt.u32.u64 %r4, %dd; cvt.u32.u64 %r5, %da; xor.b32 %r4, %r4, %r5; }",
       [](uint32_t a, uint32_t b, uint32_t c) {
         const int64_t x = int64_t{static_cast<int32_t>(a)} * static_cast<int32_t>(c);
         const int64_t y = int64_t{static_cast<int32_t>(b)} * static_cast<int32_t>(b);
         const uint64_t diff = x > y ? static_cast<uint64_t>(x) - static_cast<uint64_t>(y)
                                     : static_cast<uint64_t>(y) - static_cast<uint64_t>(x);
         const uint64_t r = (static_cast<uint64_t>(int64_t{static_cast<int32_t>(c)}) + diff) ^
                            static_cast<uint64_t>(x);
         return static_cast<uint32_t>(r) ^ static_cast<uint32_t>(r >> 32);
       }},
  };
  // fns.b32 d, mask, base, offset (PTX ISA "fns"): base in 0-31, offset signed; both from
  // the inputs, plus the ISA's examples on 0xaaaaaaaa.
  auto fns_ref = [](uint32_t mask, uint32_t base, int32_t offset) -> uint32_t {
    if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
    int remaining = offset > 0 ? offset : -offset;
    for (int pos = static_cast<int>(base); pos >= 0 && pos <= 31; pos += offset > 0 ? 1 : -1)
      if ((mask >> pos) & 1 && --remaining == 0) return static_cast<uint32_t>(pos);
    return 0xffffffffu;
  };
  std::vector<Op> fns = {
      {"fns.b32",
       "and.b32 %r5, %r2, 31; sub.s32 %r6, %r3, 24; rem.s32 %r6, %r6, 40; fns.b32 %r4, %r1, %r5, "
       "%r6;",
       [fns_ref](uint32_t a, uint32_t b, uint32_t c) {
         return fns_ref(a, b & 31, (static_cast<int32_t>(c) - 24) % 40);
       }},
      {"fns.b32", "and.b32 %r5, %r2, 31; fns.b32 %r4, %r1, %r5, 1;",
       [fns_ref](uint32_t a, uint32_t b, uint32_t) { return fns_ref(a, b & 31, 1); }},
      {"fns.b32", "and.b32 %r5, %r2, 31; fns.b32 %r4, %r1, %r5, -1;",
       [fns_ref](uint32_t a, uint32_t b, uint32_t) { return fns_ref(a, b & 31, -1); }},
      {"fns.b32", "and.b32 %r5, %r2, 31; fns.b32 %r4, %r1, %r5, 0;",
       [fns_ref](uint32_t a, uint32_t b, uint32_t) { return fns_ref(a, b & 31, 0); }},
      {"fns.b32", "fns.b32 %r4, 0xaaaaaaaa, 3, 1;",
       [](uint32_t, uint32_t, uint32_t) { return 3u; }},
      {"fns.b32", "fns.b32 %r4, 0xaaaaaaaa, 3, -1;",
       [](uint32_t, uint32_t, uint32_t) { return 3u; }},
      {"fns.b32", "fns.b32 %r4, 0xaaaaaaaa, 2, 1;",
       [](uint32_t, uint32_t, uint32_t) { return 3u; }},
      {"fns.b32", "fns.b32 %r4, 0xaaaaaaaa, 2, -1;",
       [](uint32_t, uint32_t, uint32_t) { return 1u; }},
  };
  return {table_case("cvt.pack", "cvt", pack, 301), table_case("sad", "sad", sad, 302),
          table_case("fns", "fns", fns, 303)};
}

// ---- isspacep ----

// Each thread classifies generic addresses of every state space with every isspacep form.
// PTX ISA isspacep: true when the address is in the space's window; the parameter window
// lies inside the global window. (Module-scope .global/.const variables need the loader's
// symbol table, which this harness lacks: tests/cuda/misc_intrinsics.cu covers them.)
KernelCase isspacep_case() {
  KernelCase kc;
  kc.name = "isspacep.windows";
  kc.family = "isspacep";
  const std::vector<std::string> spaces = {"global", "shared", "shared::cta", "local",
                                           "const",  "param",  "param::entry"};
  for (const auto& s : spaces) kc.forms.push_back("isspacep." + s);
  // Pointers: 0 buffer (global), 1 .shared element, 2 .local element, 3 kernel parameter,
  // 4 the buffer's last word.
  const int kPtrs = 5;
  std::ostringstream p;
  p << ".version 8.3\n.target sm_80\n.address_size 64\n\n"
    << ".visible .entry conf(.param .u64 p0, .param .u64 p1)\n{\n"
    << "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<32>;\n"
    << "  .shared .align 4 .u32 svar[64];\n  .local .align 4 .u32 lvar[8];\n"
    << "  mov.u32 %r0, %tid.x;\n  and.b32 %r1, %r0, 3;\n  mul.wide.u32 %rd1, %r1, 4;\n"
    << "  ld.param.u64 %rd10, [p0];\n"  // generic global
    << "  mov.u64 %rd11, svar;\n  cvta.shared.u64 %rd11, %rd11;\n  mul.wide.u32 %rd2, %r0, 4;\n  "
       "add.s64 %rd11, %rd11, %rd2;\n"
    << "  mov.u64 %rd12, lvar;\n  cvta.local.u64 %rd12, %rd12;\n  add.s64 %rd12, %rd12, %rd1;\n"
    << "  mov.u64 %rd13, p1;\n  cvta.param.u64 %rd13, %rd13;\n"
    << "  add.s64 %rd14, %rd10, " << 4 * kThreads * spaces.size() * kPtrs - 4 << ";\n"
    << "  st.local.u32 [lvar], %r0;\n  st.shared.u32 [svar], %r0;\n"
    << "  cvta.to.global.u64 %rd20, %rd10;\n  mul.wide.u32 %rd21, %r0, "
    << 4 * spaces.size() * kPtrs << ";\n"
    << "  add.s64 %rd20, %rd20, %rd21;\n";
  int k = 0;
  for (int ptr = 0; ptr < kPtrs; ++ptr)
    for (const auto& s : spaces) {
      p << "  isspacep." << s << " %p1, %rd" << 10 + ptr << ";\n  selp.u32 %r2, 1, 0, %p1;\n"
        << "  st.global.u32 [%rd20+" << 4 * k++ << "], %r2;\n";
    }
  p << "  ret;\n}\n";
  kc.ptx = p.str();
  kc.launch.block[0] = 64;
  kc.buffers = {std::vector<uint8_t>(4 * kThreads * spaces.size() * kPtrs, 0xee),
                std::vector<uint8_t>(4, 0)};
  // expected[ptr][space]
  const int kWant[kPtrs][7] = {
      {1, 0, 0, 0, 0, 0, 0},  // buffer
      {0, 1, 1, 0, 0, 0, 0},  // .shared
      {0, 0, 0, 1, 0, 0, 0},  // .local
      {1, 0, 0, 0, 0, 1, 1},  // kernel parameter
      {1, 0, 0, 0, 0, 0, 0},  // buffer end
  };
  kc.check = [kWant, n = spaces.size()](const Buffers& after) {
    std::vector<uint32_t> want;
    for (uint32_t t = 0; t < 64; ++t)
      for (int ptr = 0; ptr < kPtrs; ++ptr)
        for (size_t s = 0; s < n; ++s) want.push_back(static_cast<uint32_t>(kWant[ptr][s]));
    std::vector<uint32_t> got = values_of<uint32_t>(after[0]);
    got.resize(want.size());
    return compare_u32("isspacep (thread * 35 + pointer * 7 + space)", want, got);
  };
  return kc;
}

// ---- hints: prefetch, prefetchu, pmevent; .L2::cache_hint operands ----

// The hints change no data and never fault (a prefetch of an unmapped address neither):
// the kernel around them must compute exactly what it computes without them.
KernelCase hints_case() {
  KernelCase kc;
  kc.name = "prefetch.pmevent";
  kc.family = "prefetch";
  kc.forms = {"prefetch.global.L1",
              "prefetch.global.L2",
              "prefetch.local.L1",
              "prefetch.local.L2",
              "prefetch.L1",
              "prefetch.L2",
              "prefetch.global.L2::evict_last",
              "prefetch.global.L2::evict_normal",
              "prefetchu.L1",
              "pmevent",
              "pmevent.mask"};
  std::ostringstream p;
  p << ".version 8.0\n.target sm_80\n.address_size 64\n\n"
    << ".visible .entry conf(.param .u64 p0, .param .u64 p1)\n{\n"
    << "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<32>;\n  .local .align 4 .u32 "
       "lvar[4];\n"
    << "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd1, %r0, 4;\n"
    << "  ld.param.u64 %rd2, [p0];\n  add.s64 %rd2, %rd2, %rd1;\n"
    << "  ld.param.u64 %rd3, [p1];\n  add.s64 %rd3, %rd3, %rd1;\n"
    << "  cvta.to.global.u64 %rd4, %rd2;\n  mov.u64 %rd5, lvar;\n  cvta.local.u64 %rd6, %rd5;\n"
    << "  prefetch.global.L1 [%rd4];\n  prefetch.global.L2 [%rd4+4];\n"
    << "  prefetch.local.L1 [lvar];\n  prefetch.local.L2 [%rd5+4];\n"
    << "  prefetch.L1 [%rd2];\n  prefetch.L2 [%rd6];\n"
    << "  prefetch.global.L2::evict_last [%rd4];\n  prefetch.global.L2::evict_normal [%rd4+64];\n"
    << "  prefetchu.L1 [%rd2];\n  pmevent 1;\n  pmevent.mask 0x3;\n"
    << "  mov.u64 %rd7, 16;\n  prefetch.global.L2 [%rd7];\n  prefetch.L1 [%rd7+8];\n  prefetchu.L1 "
       "[%rd7];\n"  // unmapped: no fault
    << "  ld.global.u32 %r1, [%rd2];\n  mad.lo.u32 %r2, %r1, 3, %r0;\n  st.global.u32 [%rd3], "
       "%r2;\n"
    << "  ret;\n}\n";
  kc.ptx = p.str();
  kc.launch.block[0] = 64;
  std::vector<uint32_t> in = edge_inputs(64, 401);
  kc.buffers = {bytes_of(in), std::vector<uint8_t>(4 * 64, 0)};
  kc.check = [in](const Buffers& after) {
    std::vector<uint32_t> want;
    for (uint32_t t = 0; t < 64; ++t) want.push_back(in[t] * 3 + t);
    return compare_u32("out", want, values_of<uint32_t>(after[1]));
  };
  return kc;
}

// .L2::cache_hint on ld/st/atom/red with policies from createpolicy: hints change no data.
KernelCase cache_hint_case() {
  KernelCase kc;
  kc.name = "cache_hint.ld.st.atom.red";
  kc.family = "cachehint";
  kc.forms = {"createpolicy.fractional.L2::evict_last.b64",
              "createpolicy.fractional.L2::evict_first.b64",
              "createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64",
              "ld.global.L2::cache_hint.u32",
              "ld.global.nc.L2::cache_hint.u32",
              "st.global.L2::cache_hint.u32",
              "atom.global.add.L2::cache_hint.u32",
              "red.global.add.L2::cache_hint.u32",
              "ld.global.L2::cache_hint.v2.u32",
              "st.global.L2::cache_hint.v2.u32"};
  std::ostringstream p;
  p << ".version 8.0\n.target sm_80\n.address_size 64\n\n"
    << ".visible .entry conf(.param .u64 p0, .param .u64 p1, .param .u64 p2)\n{\n"
    << "  .reg .pred %p<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<32>;\n"
    << "  mov.u32 %r0, %tid.x;\n  mul.wide.u32 %rd1, %r0, 8;\n"
    << "  ld.param.u64 %rd2, [p0];\n  cvta.to.global.u64 %rd2, %rd2;\n  add.s64 %rd2, %rd2, %rd1;\n"
    << "  ld.param.u64 %rd3, [p1];\n  cvta.to.global.u64 %rd3, %rd3;\n  add.s64 %rd3, %rd3, %rd1;\n"
    << "  ld.param.u64 %rd4, [p2];\n  cvta.to.global.u64 %rd4, %rd4;\n"
    << "  createpolicy.fractional.L2::evict_last.b64 %rd10, 1.0;\n"
    << "  createpolicy.fractional.L2::evict_first.b64 %rd11, 0.25;\n"
    << "  createpolicy.fractional.L2::evict_last.L2::evict_unchanged.b64 %rd12, 0.5;\n"
    << "  ld.global.L2::cache_hint.u32 %r1, [%rd2], %rd10;\n"
    << "  ld.global.nc.L2::cache_hint.u32 %r2, [%rd2+4], %rd11;\n"
    << "  ld.global.L2::cache_hint.v2.u32 {%r3, %r4}, [%rd2], %rd12;\n"
    << "  add.u32 %r5, %r1, %r2;\n  xor.b32 %r6, %r3, %r4;\n"
    << "  st.global.L2::cache_hint.u32 [%rd3], %r5, %rd10;\n"
    << "  st.global.L2::cache_hint.v2.u32 [%rd3+" << 8 * 64 << "], {%r6, %r5}, %rd12;\n"
    << "  atom.global.add.L2::cache_hint.u32 %r7, [%rd4], %r1, %rd11;\n"
    << "  red.global.add.L2::cache_hint.u32 [%rd4+4], %r2, %rd12;\n"
    << "  st.global.u32 [%rd3+4], %r0;\n"
    << "  ret;\n}\n";
  kc.ptx = p.str();
  kc.launch.block[0] = 64;
  std::vector<uint32_t> in = edge_inputs(2 * 64, 402);
  kc.buffers = {bytes_of(in), std::vector<uint8_t>(16 * 64, 0), std::vector<uint8_t>(8, 0)};
  kc.check = [in](const Buffers& after) {
    std::vector<uint32_t> out(4 * 64, 0);
    uint32_t sum_a = 0, sum_b = 0;
    for (uint32_t t = 0; t < 64; ++t) {
      const uint32_t a = in[2 * t], b = in[2 * t + 1];
      out[2 * t] = a + b;
      out[2 * t + 1] = t;
      out[128 + 2 * t] = a ^ b;
      out[128 + 2 * t + 1] = a + b;
      sum_a += a;
      sum_b += b;
    }
    std::string why = compare_u32("out", out, values_of<uint32_t>(after[1]));
    if (!why.empty()) return why;
    return compare_u32("totals", {sum_a, sum_b}, values_of<uint32_t>(after[2]));
  };
  return kc;
}

}  // namespace

std::vector<KernelCase> misc_cases() {
  std::vector<KernelCase> out;
  for (auto* group : {&scalar_video_cases, &simd_video_cases, &int_misc_cases})
    for (KernelCase& c : (*group)()) out.push_back(std::move(c));
  out.push_back(isspacep_case());
  out.push_back(hints_case());
  out.push_back(cache_hint_case());
  return out;
}

}  // namespace strata::ptx_conformance
