// The remaining sm_70-sm_89 instructions (docs/isa.md "Video instructions" and "Hints"):
//
//   prefetch{.global,.local}.{L1,L2}, prefetch.global.L2::evict_{last,normal}, prefetchu.L1,
//   pmevent{.mask}                          -> no instruction (hints; the address is checked)
//   isspacep.{global,shared{::cta},local,const,param{::entry}}
//                                           -> compares against the windows (below)
//   cvt.pack.sat.{s16,u16}.s32, cvt.pack.sat.{s8,u8,s4,u4,s2,u2}.s32.b32
//                                           -> IMIN/IMAX clamps, SHL/AND/OR
//   sad.{s,u}{16,32,64}                     -> c + (max(a, b) - min(a, b))
//   fns.b32                                 -> FNS
//   vadd/vsub/vabsdiff/vmin/vmax/vshl/vshr/vset/vmad
//                                           -> VIDEO with its descriptor (isa/video.h)
//   vadd2/4 vsub2/4 vavrg2/4 vabsdiff2/4 vmin2/4 vmax2/4 vset2/4
//                                           -> PRMT for non-default source selectors, VSIMD
//   ld/st/atom/red.L2::cache_hint ..., policy
//                                           -> the access without the hint (the policy is read)
//
// Generic addresses (docs/hw-contract.md "Shared and local windows"): an address is
// shared (local) when it lies in the 16 MiB shared (local) window, const when it lies in
// the module's constant bank data (global memory), and global otherwise. Kernel parameter
// addresses (cvta.param) are offsets in the thread's local copy of the parameter block
// (Lowerer::param_copy_): isspacep.param tests that range, and, as PTX says the param
// window lies inside the global window, isspacep.global is true and isspacep.local false
// there. A kernel that has no parameter copy when isspacep.global/local is lowered has no
// parameter addresses before it, and the range is not tested.
#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <vector>

#include "compiler/ir/lowerer.h"
#include "isa/video.h"

namespace strata::compiler::ir {
namespace {

using isa::CmpOp;
using isa::VideoCmp;
using isa::VideoDesc;
using isa::VideoOp;
using isa::VideoOp2;
using isa::VideoSel;

// The shared and local windows' size (docs/hw-contract.md: 16 MiB, 16 MiB aligned).
constexpr uint64_t kWindowBytes = 16ull << 20;

std::string form_of(const ptx::Instruction& in) {
  std::string f = in.opcode;
  for (const auto& m : in.modifiers) f += "." + m;
  return f;
}

Status check_modifiers(const Lowerer& l, const ptx::Instruction& in,
                       const std::vector<std::string>& allowed) {
  for (const auto& m : in.modifiers) {
    bool ok = false;
    for (const auto& a : allowed) ok = ok || m == a;
    if (!ok)
      return l.unsupported(
          in.loc, "PTX instruction '" + form_of(in) + "' is not supported (modifier ." + m + ")");
  }
  return ok_status();
}

// ---- hints: prefetch, prefetchu, pmevent ----

Status lower_hint(Lowerer& l, const ptx::Instruction& in) {
  if (in.opcode == "pmevent") {
    RETURN_IF_ERROR(check_modifiers(l, in, {"mask"}));
    RETURN_IF_ERROR(l.want_operands(in, 1));
    if (!std::get_if<ptx::ImmInt>(&in.operands[0].value))
      return l.invalid(in.loc, "pmevent takes an immediate event number or mask");
    return ok_status();
  }
  if (in.opcode == "prefetchu") {
    RETURN_IF_ERROR(check_modifiers(l, in, {"L1"}));
    if (!Lowerer::has(in, "L1")) return l.invalid(in.loc, "prefetchu needs .L1");
  } else {
    if (Lowerer::has(in, "tensormap"))
      return l.unsupported(
          in.loc, "PTX instruction '" + form_of(in) + "' is not supported (sm_90 tensor maps)");
    RETURN_IF_ERROR(check_modifiers(
        l, in, {"global", "local", "L1", "L2", "L2::evict_last", "L2::evict_normal"}));
    const int levels = Lowerer::has(in, "L1") + Lowerer::has(in, "L2") +
                       Lowerer::has(in, "L2::evict_last") + Lowerer::has(in, "L2::evict_normal");
    if (levels != 1)
      return l.invalid(in.loc, "'" + form_of(in) +
                                   "' needs one of .L1, .L2, .L2::evict_last, .L2::evict_normal");
    if ((Lowerer::has(in, "L2::evict_last") || Lowerer::has(in, "L2::evict_normal")) &&
        !Lowerer::has(in, "global"))
      return l.invalid(in.loc, "'" + form_of(in) + "': the eviction priorities need .global");
  }
  RETURN_IF_ERROR(l.want_operands(in, 1));
  if (!std::get_if<ptx::AddressOperand>(&in.operands[0].value))
    return l.invalid(in.loc, "expected a memory operand [address]");
  // The address is checked by reading its register, but nothing is fetched: a prefetch
  // never faults.
  const auto& addr = std::get<ptx::AddressOperand>(in.operands[0].value);
  if (addr.base_is_reg) {
    ptx::OperandSlot base{ptx::RegOperand{addr.base, 0}, false, in.loc};
    ASSIGN_OR_RETURN(Operand ignored, l.read(base, DataType::U64));
    (void)ignored;
  }
  return ok_status();
}

// ---- isspacep ----

int window_test(Lowerer& l, int addr, int base, uint64_t bytes, CmpOp cmp) {
  const int off = l.isa_op(Opcode::ISUB, DataType::U64, DataType::U64,
                           {Operand::val(addr), Operand::val(base)});
  return l.isa_op(Opcode::ISETP, DataType::U64, DataType::Pred,
                  {Operand::val(off), Operand::immediate(bytes), Operand::immediate(1)},
                  static_cast<uint8_t>(cmp));
}

int window_base(Lowerer& l, Op op) {
  Inst i;
  i.op = op;
  i.defs = {l.f_.new_value(DataType::U64)};
  return l.emit(std::move(i));
}

int pred_or(Lowerer& l, int a, int b) {
  return l.isa_op(Opcode::PLOP, DataType::Pred, DataType::Pred, {Operand::val(a), Operand::val(b)},
                  static_cast<uint8_t>(static_cast<int>(isa::BoolOp::OR) << 4));
}
int pred_and(Lowerer& l, int a, int b) {
  return l.isa_op(Opcode::PLOP, DataType::Pred, DataType::Pred, {Operand::val(a), Operand::val(b)},
                  static_cast<uint8_t>(static_cast<int>(isa::BoolOp::AND) << 4));
}

Status lower_isspacep(Lowerer& l, const ptx::Instruction& in) {
  RETURN_IF_ERROR(check_modifiers(l, in,
                                  {"global", "shared", "shared::cta", "local", "const", "param",
                                   "param::entry", "shared::cluster"}));
  if (in.modifiers.size() != 1) return l.invalid(in.loc, "isspacep needs one state space");
  const std::string& space = in.modifiers[0];
  if (space == "shared::cluster")
    return l.unsupported(
        in.loc, "PTX instruction '" + form_of(in) + "' is not supported (Strata has no clusters)");
  RETURN_IF_ERROR(l.want_operands(in, 2));
  ASSIGN_OR_RETURN(int a, l.read_value(in.operands[1], DataType::U64));
  if (isa::type_bits(l.f_.type_of(a)) < 64) a = l.widen(a, false);
  int p;
  if (space == "shared" || space == "shared::cta") {
    p = window_test(l, a, window_base(l, Op::kSharedBase), kWindowBytes, CmpOp::LT);
  } else if (space == "const") {
    const std::string* cname = nullptr;
    uint64_t coff = 0;
    for (auto& [n, v] : l.prog_.vars)
      if (v.space == "const") {
        cname = &n;
        coff = v.const_offset;
        break;
      }
    if (!cname || l.prog_.const_bank_size == 0) {
      p = l.constant(DataType::Pred, 0);
    } else {
      // The bank's base: the VA of a const variable less its offset (as cvta.const).
      Inst i;
      i.op = Op::kSymAddr;
      i.symbol = *cname;
      i.imm = static_cast<uint64_t>(-static_cast<int64_t>(coff));
      l.symbol_index(*cname);
      i.defs = {l.f_.new_value(DataType::U64)};
      const int base = l.emit(std::move(i));
      p = window_test(l, a, base, l.prog_.const_bank_size, CmpOp::LT);
    }
  } else {
    const bool is_param = space == "param" || space == "param::entry";
    // The kernel's parameter copy, if any (see the file comment).
    int in_param = -1;
    const int local_base = window_base(l, Op::kLocalBase);
    if (!l.is_function_ && (is_param || l.param_copy_ >= 0) && l.info_.param_bytes > 0) {
      const uint64_t off = l.param_copy_offset();
      const int pbase = l.isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                                 {Operand::val(local_base), Operand::immediate(off)});
      in_param = window_test(l, a, pbase, l.info_.param_bytes, CmpOp::LT);
    }
    if (is_param) {
      p = in_param >= 0 ? in_param : l.constant(DataType::Pred, 0);
    } else if (space == "local") {
      p = window_test(l, a, local_base, kWindowBytes, CmpOp::LT);
      if (in_param >= 0) {
        const int not_param = l.isa_op(Opcode::PLOP, DataType::Pred, DataType::Pred,
                                       {Operand::val(in_param), Operand::immediate(1)}, 0);
        l.f_.blocks[l.cur_].insts.back().negate = true;
        p = pred_and(l, p, not_param);
      }
    } else {  // global: outside both windows, or a parameter address
      const int not_local = window_test(l, a, local_base, kWindowBytes, CmpOp::GE);
      const int not_shared =
          window_test(l, a, window_base(l, Op::kSharedBase), kWindowBytes, CmpOp::GE);
      p = pred_and(l, in_param >= 0 ? pred_or(l, not_local, in_param) : not_local, not_shared);
    }
  }
  return l.write(in.operands[0], p);
}

// ---- cvt.pack ----

// cvt.pack.sat.T.s32{.b32} d, a, b{, c}: a and b clamped to T, b in the low bits, a above
// it; the 8/4/2-bit forms fill the rest of d with c's low bits.
Status lower_cvt_pack(Lowerer& l, const ptx::Instruction& in) {
  static const struct {
    const char* name;
    int bits;
    bool is_signed;
  } kTypes[] = {{"s16", 16, true}, {"u16", 16, false}, {"s8", 8, true}, {"u8", 8, false},
                {"s4", 4, true},   {"u4", 4, false},   {"s2", 2, true}, {"u2", 2, false}};
  int bits = 0;
  bool is_signed = false;
  for (const auto& t : kTypes)
    if (!in.modifiers.empty() && in.modifiers.size() >= 3 && in.modifiers[2] == t.name) {
      bits = t.bits;
      is_signed = t.is_signed;
    }
  const bool has_c = bits > 0 && bits < 16;
  const std::vector<std::string> want =
      has_c ? std::vector<std::string>{"pack", "sat", in.modifiers[2], "s32", "b32"}
            : std::vector<std::string>{"pack", "sat", bits ? in.modifiers[2] : "", "s32"};
  if (bits == 0 || in.modifiers != want)
    return l.unsupported(in.loc, "PTX instruction '" + form_of(in) +
                                     "' is not supported (cvt.pack.sat.{s16,u16}.s32 and "
                                     "cvt.pack.sat.{s8,u8,s4,u4,s2,u2}.s32.b32)");
  RETURN_IF_ERROR(l.want_operands(in, has_c ? 4 : 3));
  const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  const uint32_t mask = (1u << bits) - 1;
  auto clamp = [&](const ptx::OperandSlot& s) -> StatusOr<int> {
    ASSIGN_OR_RETURN(Operand v, l.read(s, DataType::S32));
    const int m = l.isa_op(Opcode::IMAX, DataType::S32, DataType::S32,
                           {v, Operand::immediate(static_cast<uint32_t>(lo))});
    const int c = l.isa_op(Opcode::IMIN, DataType::S32, DataType::S32,
                           {Operand::val(m), Operand::immediate(static_cast<uint32_t>(hi))});
    return l.isa_op(Opcode::AND, DataType::B32, DataType::U32,
                    {Operand::val(c), Operand::immediate(mask)});
  };
  ASSIGN_OR_RETURN(int ta, clamp(in.operands[1]));
  ASSIGN_OR_RETURN(int tb, clamp(in.operands[2]));
  const int up = l.isa_op(Opcode::SHL, DataType::U32, DataType::U32,
                          {Operand::val(ta), Operand::immediate(bits)});
  int d = l.isa_op(Opcode::OR, DataType::B32, DataType::U32, {Operand::val(up), Operand::val(tb)});
  if (has_c) {
    ASSIGN_OR_RETURN(Operand c, l.read(in.operands[3], DataType::U32));
    const int cs =
        l.isa_op(Opcode::SHL, DataType::U32, DataType::U32, {c, Operand::immediate(2 * bits)});
    d = l.isa_op(Opcode::OR, DataType::B32, DataType::U32, {Operand::val(d), Operand::val(cs)});
  }
  return l.write(in.operands[0], d);
}

// ---- sad ----

Status lower_sad(Lowerer& l, const ptx::Instruction& in) {
  ASSIGN_OR_RETURN(DataType t, Lowerer::inst_type(l, in));
  if (in.modifiers.size() != 1 || isa::type_is_float(t) ||
      (isa::type_bits(t) != 16 && isa::type_bits(t) != 32 && isa::type_bits(t) != 64) ||
      t == DataType::B16 || t == DataType::B32 || t == DataType::B64)
    return l.invalid(in.loc, "sad takes one integer type");
  RETURN_IF_ERROR(l.want_operands(in, 4));
  const bool s = isa::type_is_signed(t);
  const int bits = isa::type_bits(t);
  // 16-bit types run on 32-bit values extended by the type's signedness; the low half of
  // the result is the PTX result.
  const DataType w = bits == 64 ? t : (s ? DataType::S32 : DataType::U32);
  auto src = [&](const ptx::OperandSlot& slot) -> StatusOr<Operand> {
    ASSIGN_OR_RETURN(Operand v, l.read(slot, t));
    if (bits != 16) return v;
    if (v.is_imm())
      return Operand::immediate(s ? static_cast<uint32_t>(static_cast<int16_t>(v.imm))
                                  : (v.imm & 0xffff));
    Inst cv;
    cv.op = Op::kIsa;
    cv.isa_op = Opcode::CVT;
    cv.type = w;
    cv.type2 = t;
    cv.srcs = {v};
    cv.defs = {l.f_.new_value(w)};
    return Operand::val(l.emit(std::move(cv)));
  };
  ASSIGN_OR_RETURN(Operand a, src(in.operands[1]));
  ASSIGN_OR_RETURN(Operand b, src(in.operands[2]));
  ASSIGN_OR_RETURN(Operand c,
                   l.read(in.operands[3], bits == 16 ? (s ? DataType::S16 : DataType::U16) : t));
  const int mx = l.isa_op(Opcode::IMAX, w, w, {a, b});
  const int mn = l.isa_op(Opcode::IMIN, w, w, {a, b});
  const int diff = l.isa_op(Opcode::ISUB, w, w, {Operand::val(mx), Operand::val(mn)});
  return l.write(in.operands[0], l.isa_op(Opcode::IADD, w, w, {Operand::val(diff), c}));
}

// ---- video instructions ----

const std::string* selector_of(const ptx::OperandSlot& s) {
  auto* r = std::get_if<ptx::RegOperand>(&s.value);
  return r && !r->selector.empty() ? &r->selector : nullptr;
}

bool scalar_sel(const std::string* text, VideoSel* out) {
  if (!text) {
    *out = VideoSel::NONE;
    return true;
  }
  static const std::pair<const char*, VideoSel> kSels[] = {
      {"b0", VideoSel::B0}, {"b1", VideoSel::B1}, {"b2", VideoSel::B2},
      {"b3", VideoSel::B3}, {"h0", VideoSel::H0}, {"h1", VideoSel::H1}};
  for (auto& [n, v] : kSels)
    if (*text == n) {
      *out = v;
      return true;
    }
  return false;
}

bool video_cmp(const std::string& m, VideoCmp* out) {
  static const std::pair<const char*, VideoCmp> kCmps[] = {
      {"eq", VideoCmp::EQ}, {"ne", VideoCmp::NE}, {"lt", VideoCmp::LT},
      {"le", VideoCmp::LE}, {"gt", VideoCmp::GT}, {"ge", VideoCmp::GE}};
  for (auto& [n, v] : kCmps)
    if (m == n) {
      *out = v;
      return true;
    }
  return false;
}

// The .u32/.s32 type modifiers in order; every other modifier must be in `allowed`.
Status video_modifiers(const Lowerer& l, const ptx::Instruction& in, size_t ntypes,
                       const std::vector<std::string>& allowed, std::vector<bool>* signs) {
  for (const auto& m : in.modifiers) {
    if (m == "u32" || m == "s32") {
      signs->push_back(m == "s32");
      continue;
    }
    bool ok = false;
    for (const auto& a : allowed) ok = ok || m == a;
    if (!ok)
      return l.unsupported(
          in.loc, "PTX instruction '" + form_of(in) + "' is not supported (modifier ." + m + ")");
  }
  if (signs->size() != ntypes)
    return l.invalid(in.loc, fmt::format("'{}' needs {} .u32/.s32 types", form_of(in), ntypes));
  return ok_status();
}

Status lower_video_scalar(Lowerer& l, const ptx::Instruction& in) {
  static const std::pair<const char*, VideoOp> kOps[] = {
      {"vadd", VideoOp::ADD}, {"vsub", VideoOp::SUB}, {"vabsdiff", VideoOp::ABSDIFF},
      {"vmin", VideoOp::MIN}, {"vmax", VideoOp::MAX}, {"vshl", VideoOp::SHL},
      {"vshr", VideoOp::SHR}, {"vset", VideoOp::SET}, {"vmad", VideoOp::MAD}};
  VideoDesc v;
  for (auto& [n, o] : kOps)
    if (in.opcode == n) v.op = o;
  std::vector<bool> signs;
  const bool is_set = v.op == VideoOp::SET, is_mad = v.op == VideoOp::MAD;
  const bool is_shift = v.op == VideoOp::SHL || v.op == VideoOp::SHR;
  std::vector<std::string> allowed = {"add", "min", "max"};
  if (!is_set) allowed.push_back("sat");
  if (is_set) allowed.insert(allowed.end(), {"eq", "ne", "lt", "le", "gt", "ge"});
  if (is_shift) allowed.insert(allowed.end(), {"clamp", "wrap"});
  if (is_mad) allowed = {"sat", "po", "shr7", "shr15"};
  RETURN_IF_ERROR(video_modifiers(l, in, is_set ? 2 : 3, allowed, &signs));
  if (is_set) {
    v.a_signed = signs[0];
    v.b_signed = signs[1];
    bool found = false;
    for (const auto& m : in.modifiers) found = found || video_cmp(m, &v.cmp);
    if (!found) return l.invalid(in.loc, "vset needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)");
  } else {
    v.d_signed = signs[0];
    v.a_signed = signs[1];
    v.b_signed = signs[2];
  }
  if (is_shift) {
    if (v.b_signed) return l.invalid(in.loc, "'" + form_of(in) + "': the shift amount is .u32");
    if (Lowerer::has(in, "clamp") == Lowerer::has(in, "wrap"))
      return l.invalid(in.loc, "'" + form_of(in) + "' needs .clamp or .wrap");
    v.wrap = Lowerer::has(in, "wrap");
  }
  v.sat = Lowerer::has(in, "sat");
  int op2s = 0;
  if (!is_mad) {
    if (Lowerer::has(in, "add")) v.op2 = VideoOp2::ADD, ++op2s;
    if (Lowerer::has(in, "min")) v.op2 = VideoOp2::MIN, ++op2s;
    if (Lowerer::has(in, "max")) v.op2 = VideoOp2::MAX, ++op2s;
    if (op2s > 1)
      return l.invalid(in.loc, "'" + form_of(in) + "' has more than one secondary operation");
  }
  if (!scalar_sel(selector_of(in.operands.empty() ? ptx::OperandSlot{} : in.operands[0]), &v.dsel))
    return l.invalid(in.loc, "bad destination selector");
  if (in.operands.size() >= 3 && (!scalar_sel(selector_of(in.operands[1]), &v.asel) ||
                                  !scalar_sel(selector_of(in.operands[2]), &v.bsel)))
    return l.invalid(in.loc, "bad source selector (.b0-.b3, .h0, .h1)");
  if (v.dsel != VideoSel::NONE && op2s)
    return l.invalid(in.loc,
                     "a video instruction merges (d.sel) or has a secondary operation, not both");
  const bool needs_c = is_mad || op2s || v.dsel != VideoSel::NONE;
  RETURN_IF_ERROR(l.want_operands(in, needs_c ? 4 : 3));
  if (is_mad) {
    v.po = Lowerer::has(in, "po");
    v.scale = Lowerer::has(in, "shr7") ? 1 : Lowerer::has(in, "shr15") ? 2 : 0;
    if (Lowerer::has(in, "shr7") && Lowerer::has(in, "shr15"))
      return l.invalid(in.loc, "vmad takes one scale");
    const bool na = in.operands[1].minus, nb = in.operands[2].minus, nc = in.operands[3].minus;
    if (v.po && (na || nb || nc)) return l.invalid(in.loc, "vmad.po takes no negated operands");
    v.neg_product = na != nb;
    v.neg_c = nc;
    if (v.neg_product && v.neg_c)
      return l.invalid(in.loc, "vmad negates the product or c, not both");
    const bool signed_final = v.a_signed || v.b_signed || v.neg_product || v.neg_c;
    if (signs[0] != signed_final)
      return l.invalid(in.loc, fmt::format("'{}': the result is {}", form_of(in),
                                           signed_final ? ".s32" : ".u32"));
  } else {
    for (const auto& o : in.operands)
      if (o.minus) return l.invalid(in.loc, "'" + in.opcode + "' takes no negated operands");
  }
  std::vector<Operand> srcs;
  for (size_t k = 1; k <= 3; ++k) {
    if (k < in.operands.size()) {
      ASSIGN_OR_RETURN(int r, l.read_value(in.operands[k], DataType::U32));
      srcs.push_back(Operand::val(r));
    } else {
      srcs.push_back(Operand::immediate(0));
    }
  }
  return l.write(in.operands[0],
                 l.isa_op(Opcode::VIDEO, DataType::U32, DataType::U32, srcs, 0, v.encode()));
}

// A SIMD source selector as a PRMT selector over {b, a}: .bxyzw (element 3 from byte x ...
// element 0 from byte w) or .hxy (element 1 from half-word x, element 0 from y).
bool simd_source_sel(const std::string& text, bool halves, uint32_t* prmt) {
  const size_t n = halves ? 2 : 4;
  if (text.size() != n + 1 || text[0] != (halves ? 'h' : 'b')) return false;
  uint32_t sel = 0;
  for (size_t k = 0; k < n; ++k) {
    const int digit = text[1 + k] - '0';
    if (digit < 0 || digit > (halves ? 3 : 7)) return false;
    if (halves)
      sel = (sel << 8) | static_cast<uint32_t>((2 * digit + 1) << 4 | (2 * digit));
    else
      sel = (sel << 4) | static_cast<uint32_t>(digit);
  }
  *prmt = sel;
  return true;
}

// A SIMD destination mask: the elements named (.b3210, .b20, .h10, .h1 ...), in
// descending order.
bool simd_mask(const std::string& text, bool halves, uint8_t* mask) {
  if (text.size() < 2 || text[0] != (halves ? 'h' : 'b')) return false;
  int prev = 8;
  uint8_t m = 0;
  for (size_t k = 1; k < text.size(); ++k) {
    const int digit = text[k] - '0';
    if (digit < 0 || digit >= (halves ? 2 : 4) || digit >= prev) return false;
    m = static_cast<uint8_t>(m | (1u << digit));
    prev = digit;
  }
  *mask = m;
  return true;
}

Status lower_video_simd(Lowerer& l, const ptx::Instruction& in) {
  const std::string& op = in.opcode;
  const bool halves = op.back() == '2';
  const std::string base = op.substr(0, op.size() - 1);
  static const std::pair<const char*, VideoOp> kOps[] = {
      {"vadd", VideoOp::ADD},         {"vsub", VideoOp::SUB}, {"vavrg", VideoOp::AVRG},
      {"vabsdiff", VideoOp::ABSDIFF}, {"vmin", VideoOp::MIN}, {"vmax", VideoOp::MAX},
      {"vset", VideoOp::SET}};
  VideoDesc v;
  v.halves = halves;
  for (auto& [n, o] : kOps)
    if (base == n) v.op = o;
  const bool is_set = v.op == VideoOp::SET;
  std::vector<bool> signs;
  std::vector<std::string> allowed = {"add"};
  if (is_set)
    allowed.insert(allowed.end(), {"eq", "ne", "lt", "le", "gt", "ge"});
  else
    allowed.push_back("sat");
  RETURN_IF_ERROR(video_modifiers(l, in, is_set ? 2 : 3, allowed, &signs));
  if (is_set) {
    v.a_signed = signs[0];
    v.b_signed = signs[1];
    bool found = false;
    for (const auto& m : in.modifiers) found = found || video_cmp(m, &v.cmp);
    if (!found)
      return l.invalid(in.loc, "'" + op + "' needs a comparison (.eq, .ne, .lt, .le, .gt, .ge)");
  } else {
    v.d_signed = signs[0];
    v.a_signed = signs[1];
    v.b_signed = signs[2];
  }
  v.sat = Lowerer::has(in, "sat");
  v.accumulate = Lowerer::has(in, "add");
  if (v.sat && v.accumulate)
    return l.invalid(in.loc, "'" + form_of(in) + "': .sat cannot be used with .add");
  RETURN_IF_ERROR(l.want_operands(in, 4));
  v.mask = halves ? 0x3 : 0xf;
  if (const std::string* m = selector_of(in.operands[0]); m && !simd_mask(*m, halves, &v.mask))
    return l.invalid(in.loc, "bad destination mask ." + *m);
  for (size_t k = 3; k < 4; ++k)
    if (in.operands[k].minus || selector_of(in.operands[k]))
      return l.invalid(in.loc, "operand c takes no selector");
  ASSIGN_OR_RETURN(int a, l.read_value(in.operands[1], DataType::U32));
  ASSIGN_OR_RETURN(int b, l.read_value(in.operands[2], DataType::U32));
  ASSIGN_OR_RETURN(int c, l.read_value(in.operands[3], DataType::U32));
  // Non-default selectors pick elements from the 8 bytes of {b, a}: a PRMT.
  const uint32_t kDefault[2] = {0x3210, 0x7654};
  int srcs[2] = {a, b};
  for (int k = 0; k < 2; ++k) {
    const std::string* s = selector_of(in.operands[1 + k]);
    if (in.operands[1 + k].minus)
      return l.invalid(in.loc, "'" + op + "' takes no negated operands");
    if (!s) continue;
    uint32_t sel = 0;
    if (!simd_source_sel(*s, halves, &sel)) return l.invalid(in.loc, "bad source selector ." + *s);
    if (sel == kDefault[k]) continue;
    srcs[k] = l.isa_op(Opcode::PRMT, DataType::U32, DataType::U32,
                       {Operand::val(a), Operand::val(b), Operand::immediate(sel)},
                       static_cast<uint8_t>(isa::PrmtMode::IDX));
  }
  return l.write(in.operands[0],
                 l.isa_op(Opcode::VSIMD, DataType::U32, DataType::U32,
                          {Operand::val(srcs[0]), Operand::val(srcs[1]), Operand::val(c)}, 0,
                          v.encode_simd()));
}

bool is_video_scalar(const std::string& op) {
  return op == "vadd" || op == "vsub" || op == "vabsdiff" || op == "vmin" || op == "vmax" ||
         op == "vshl" || op == "vshr" || op == "vset" || op == "vmad";
}
bool is_video_simd(const std::string& op) {
  if (op.size() < 2 || (op.back() != '2' && op.back() != '4')) return false;
  const std::string base = op.substr(0, op.size() - 1);
  return base == "vadd" || base == "vsub" || base == "vavrg" || base == "vabsdiff" ||
         base == "vmin" || base == "vmax" || base == "vset";
}

}  // namespace

Status Lowerer::lower_misc(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  // ld/st/atom/red.L2::cache_hint ..., cache-policy: the policy (createpolicy's opaque
  // 64-bit value) only steers the L2 cache; it is read, then the access is lowered
  // without it.
  if ((op == "ld" || op == "st" || op == "atom" || op == "red") && has(in, "L2::cache_hint")) {
    if (in.operands.size() < 2)
      return invalid(in.loc, "'" + form_of(in) + "' needs a cache-policy operand");
    ASSIGN_OR_RETURN(Operand policy, read(in.operands.back(), DataType::B64));
    (void)policy;
    ptx::Instruction plain = in;
    plain.operands.pop_back();
    plain.modifiers.erase(
        std::find(plain.modifiers.begin(), plain.modifiers.end(), "L2::cache_hint"));
    return op == "ld" || op == "st" ? lower_memory(plain, handled) : lower_atomic(plain, handled);
  }
  if (op == "prefetch" || op == "prefetchu" || op == "pmevent") return lower_hint(*this, in);
  if (op == "isspacep") return lower_isspacep(*this, in);
  if (op == "cvt" && has(in, "pack")) return lower_cvt_pack(*this, in);
  if (op == "sad") return lower_sad(*this, in);
  if (op == "fns") {
    if (in.modifiers != std::vector<std::string>{"b32"}) return invalid(in.loc, "fns takes .b32");
    RETURN_IF_ERROR(want_operands(in, 4));
    ASSIGN_OR_RETURN(int mask, read_value(in.operands[1], DataType::U32));
    ASSIGN_OR_RETURN(int base, read_value(in.operands[2], DataType::U32));
    ASSIGN_OR_RETURN(int offset, read_value(in.operands[3], DataType::S32));
    return write(in.operands[0],
                 isa_op(Opcode::FNS, DataType::U32, DataType::U32,
                        {Operand::val(mask), Operand::val(base), Operand::val(offset)}));
  }
  if (is_video_scalar(op)) return lower_video_scalar(*this, in);
  if (is_video_simd(op)) return lower_video_simd(*this, in);
  *handled = false;
  return ok_status();
}

}  // namespace strata::compiler::ir
