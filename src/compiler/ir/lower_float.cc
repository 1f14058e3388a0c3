// Floating-point arithmetic (f32/f64) and the special functions.
#include "compiler/ir/lower_ftz.h"
#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {

namespace {
uint8_t float_mod(const ptx::Instruction& in) {
  uint8_t m = 0;
  for (const auto& s : in.modifiers) {
    if (s == "rz") m = (m & ~3) | static_cast<uint8_t>(isa::Round::RZ);
    if (s == "rm") m = (m & ~3) | static_cast<uint8_t>(isa::Round::RM);
    if (s == "rp") m = (m & ~3) | static_cast<uint8_t>(isa::Round::RP);
    if (s == "ftz") m |= isa::kModFtz;
    if (s == "sat") m |= isa::kModSat;
    if (s == "approx") m |= isa::kModApprox;
  }
  return m;
}

constexpr uint64_t kF32Inf = 0x7f800000u;
constexpr uint64_t kF64Inf = 0x7ff0000000000000ull;
constexpr uint64_t kF32MinNormal = 0x00800000u;
constexpr uint64_t kF64MinNormal = 0x0010000000000000ull;
constexpr uint64_t kF64SignBit = 0x8000000000000000ull;

uint8_t cmp_mod(isa::CmpOp c, isa::BoolOp b = isa::BoolOp::AND) {
  return static_cast<uint8_t>(static_cast<int>(c) | (static_cast<int>(b) << 4));
}

// An operand as a register value of type t.
int as_value(Lowerer& l, Operand o, DataType t) { return o.is_imm() ? l.constant(t, o.imm) : o.value; }

// A PTX .ftz on an F64 operation: subnormal x becomes a zero of x's sign. The ISA's FTZ
// flushes F32 only, so: |x| < 2^-1022 ? (x & sign) : x (false for NaN, which passes).
int flush_f64(Lowerer& l, Operand x) {
  int v = as_value(l, x, DataType::F64);
  int mag = l.isa_op(Opcode::FABS, DataType::F64, DataType::F64, {Operand::val(v)});
  int tiny = l.isa_op(Opcode::FSETP, DataType::F64, DataType::Pred,
                      {Operand::val(mag), Operand::val(l.constant(DataType::F64, kF64MinNormal)), Operand::immediate(1)},
                      cmp_mod(isa::CmpOp::LT));
  int zero = l.isa_op(Opcode::AND, DataType::U64, DataType::U64,
                      {Operand::val(v), Operand::val(l.constant(DataType::U64, kF64SignBit))});
  return l.isa_op(Opcode::SEL, DataType::U64, DataType::F64, {Operand::val(zero), Operand::val(v), Operand::val(tiny)});
}

// sqrt with a directed rounding mode (.rz/.rm/.rp); MUFU.SQRT rounds to nearest only.
// F32: the F64 square root of the (exactly widened) input, rounded once to F32 by CVT
// with the mode. This is correct: if sqrt(x) is not an F32 value it lies more than
// 2^-48 relative from every F32 value (x - f*f is a nonzero multiple of ulp(f*f)), so the
// F64 rounding cannot cross or land on one. `ftz` flushes the input and the result.
// F64: r = RN sqrt, then the exact residual e = x - r*r (one FFMA) says on which side of
// the true root r lies; r moves one ulp (integer +-1 on its bits; r > 0 and finite
// whenever e is non-zero and not NaN) when it is on the wrong side for the mode. Inputs
// below 2^-900 are scaled by 2^200 (the root by 2^-100, exactly) so that e never
// underflows.
int sqrt_directed(Lowerer& l, Operand x, DataType t, isa::Round rnd, bool ftz) {
  if (t == DataType::F32) {
    Inst w;
    w.op = Op::kIsa;
    w.isa_op = Opcode::CVT;
    w.type = DataType::F64;
    w.type2 = DataType::F32;
    w.mod = ftz ? isa::kModFtz : 0;
    w.srcs = {x};
    w.defs = {l.f_.new_value(DataType::F64)};
    int wide = l.emit(std::move(w));
    int root = l.isa_op(Opcode::MUFU, DataType::F64, DataType::F64, {Operand::val(wide)},
                        static_cast<uint8_t>(isa::MufuOp::SQRT));
    Inst n;
    n.op = Op::kIsa;
    n.isa_op = Opcode::CVT;
    n.type = DataType::F32;
    n.type2 = DataType::F64;
    n.mod = static_cast<uint8_t>(static_cast<uint8_t>(rnd) | (ftz ? isa::kModFtz : 0));
    n.srcs = {Operand::val(root)};
    n.defs = {l.f_.new_value(DataType::F32)};
    return l.emit(std::move(n));
  }
  int v = as_value(l, x, DataType::F64);
  int small = l.isa_op(Opcode::FSETP, DataType::F64, DataType::Pred,
                       {Operand::val(v), Operand::val(l.constant(DataType::F64, 0x07b0000000000000ull /*2^-900*/)),
                        Operand::immediate(1)},
                       cmp_mod(isa::CmpOp::LT));
  int up = l.isa_op(Opcode::FMUL, DataType::F64, DataType::F64,
                    {Operand::val(v), Operand::val(l.constant(DataType::F64, 0x4c70000000000000ull /*2^200*/))});
  int xs = l.isa_op(Opcode::SEL, DataType::F64, DataType::F64, {Operand::val(up), Operand::val(v), Operand::val(small)});
  int back = l.isa_op(Opcode::SEL, DataType::F64, DataType::F64,
                      {Operand::val(l.constant(DataType::F64, 0x39b0000000000000ull /*2^-100*/)),
                       Operand::val(l.constant(DataType::F64, 0x3ff0000000000000ull)), Operand::val(small)});
  int r = l.isa_op(Opcode::MUFU, DataType::F64, DataType::F64, {Operand::val(xs)}, static_cast<uint8_t>(isa::MufuOp::SQRT));
  int nr = l.isa_op(Opcode::FNEG, DataType::F64, DataType::F64, {Operand::val(r)});
  int e = l.isa_op(Opcode::FFMA, DataType::F64, DataType::F64, {Operand::val(nr), Operand::val(r), Operand::val(xs)});
  const bool down = rnd != isa::Round::RP;  // RZ = RM for a non-negative root
  int wrong = l.isa_op(Opcode::FSETP, DataType::F64, DataType::Pred,
                       {Operand::val(e), Operand::val(l.constant(DataType::F64, 0)), Operand::immediate(1)},
                       cmp_mod(down ? isa::CmpOp::LT : isa::CmpOp::GT));
  int moved = l.isa_op(down ? Opcode::ISUB : Opcode::IADD, DataType::U64, DataType::F64,
                       {Operand::val(r), Operand::val(l.constant(DataType::U64, 1))});
  int fixed = l.isa_op(Opcode::SEL, DataType::F64, DataType::F64, {Operand::val(moved), Operand::val(r), Operand::val(wrong)});
  return l.isa_op(Opcode::FMUL, DataType::F64, DataType::F64, {Operand::val(fixed), Operand::val(back)});
}

// min/max with .xorsign.abs (the min/max of |a| and |b|, with the XOR of a's and b's
// signs) and .NaN (a NaN operand gives the canonical NaN), PTX ISA min/max; F32 or a
// 16-bit element type. The operands are already flushed when .ftz applies.
int minmax_ext(Lowerer& l, Opcode op, DataType t, Operand a, Operand b, uint8_t mod, bool xorsign, bool nan) {
  const bool half = t != DataType::F32;
  const uint64_t sign = half ? 0x8000u : 0x80000000u, canonical = half ? 0x7fffu : 0x7fffffffu;
  int va = as_value(l, a, t), vb = as_value(l, b, t);
  int x = va, y = vb;
  if (xorsign) {
    x = l.isa_op(Opcode::FABS, t, t, {Operand::val(va)});
    y = l.isa_op(Opcode::FABS, t, t, {Operand::val(vb)});
  }
  int r = l.isa_op(op, t, t, {Operand::val(x), Operand::val(y)}, mod);
  if (xorsign) {
    int x2 = l.isa_op(Opcode::XOR, DataType::U32, DataType::U32, {Operand::val(va), Operand::val(vb)});
    int s = l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(x2), Operand::immediate(sign)});
    r = l.isa_op(Opcode::OR, DataType::U32, t, {Operand::val(r), Operand::val(s)});
  }
  if (nan) {
    int p = l.isa_op(Opcode::FSETP, t, DataType::Pred, {Operand::val(va), Operand::val(vb), Operand::immediate(1)},
                     static_cast<uint8_t>(isa::CmpOp::NAN_));
    r = l.isa_op(Opcode::SEL, DataType::U32, t, {Operand::val(l.constant(DataType::U32, canonical)), Operand::val(r), Operand::val(p)});
  }
  return r;
}

// testp.<class> on F32/F64.
int test_class(Lowerer& l, const std::string& cls, Operand x, DataType t) {
  int v = as_value(l, x, t);
  auto setp = [&](int a, isa::CmpOp c, Operand b, Operand p = Operand::immediate(1)) {
    return l.isa_op(Opcode::FSETP, t, DataType::Pred, {Operand::val(a), b, p}, cmp_mod(c));
  };
  if (cls == "number") return setp(v, isa::CmpOp::NUM, Operand::val(v));
  if (cls == "notanumber") return setp(v, isa::CmpOp::NAN_, Operand::val(v));
  int mag = l.isa_op(Opcode::FABS, t, t, {Operand::val(v)});
  // Ordered comparisons are false for NaN, which is in none of these classes.
  Operand inf = Operand::immediate(t == DataType::F64 ? kF64Inf : kF32Inf);
  Operand min_normal = t == DataType::F64 ? Operand::val(l.constant(DataType::F64, kF64MinNormal))
                                          : Operand::immediate(kF32MinNormal);
  if (cls == "finite") return setp(mag, isa::CmpOp::LT, inf);
  if (cls == "infinite") return setp(mag, isa::CmpOp::EQ, inf);
  if (cls == "normal") return setp(mag, isa::CmpOp::GE, min_normal, Operand::val(setp(mag, isa::CmpOp::LT, inf)));
  return setp(mag, isa::CmpOp::LT, min_normal, Operand::val(setp(mag, isa::CmpOp::GT, Operand::immediate(0))));
}
}  // namespace


// .f16/.bf16 arithmetic uses the ISA's F16/BF16 types (a half in the low 16 bits of a
// register; computed exactly and rounded once, so add/sub/mul/fma are correctly
// rounded). .f16x2/.bf16x2 (a .b32 register, element 0 in the low half) runs the scalar
// operation on each half and packs the results with PRMT. The ISA's FTZ flag flushes F16
// inputs and results; .relu (negative -> +0, NaN -> canonical NaN) and .NaN (min/max:
// NaN if either input is NaN) are an FMAX/FSETP/SEL sequence after the operation. setp
// on .f16x2/.bf16x2 writes p from the low halves and q from the high halves.
namespace {
constexpr uint64_t kHalfCanonicalNaN = 0x7fff;  // PTX ISA: the canonical NaN of .f16 and .bf16

struct HalfOp {
  const char* name;
  Opcode isa;
  int nsrc;
  isa::MufuOp mufu = isa::MufuOp::kCount;
};
constexpr HalfOp kHalfOps[] = {
    {"add", Opcode::FADD, 2}, {"sub", Opcode::FSUB, 2},  {"mul", Opcode::FMUL, 2},
    {"fma", Opcode::FFMA, 3}, {"min", Opcode::FMIN, 2},  {"max", Opcode::FMAX, 2},
    {"abs", Opcode::FABS, 1}, {"neg", Opcode::FNEG, 1},  {"setp", Opcode::FSETP, 2},
    {"ex2", Opcode::MUFU, 1, isa::MufuOp::EX2},           {"tanh", Opcode::MUFU, 1, isa::MufuOp::TANH},
};

bool half_cmp(const std::string& m, isa::CmpOp* out) {
  static const std::pair<const char*, isa::CmpOp> kOps[] = {
      {"eq", isa::CmpOp::EQ},   {"ne", isa::CmpOp::NE},   {"lt", isa::CmpOp::LT},   {"le", isa::CmpOp::LE},
      {"gt", isa::CmpOp::GT},   {"ge", isa::CmpOp::GE},   {"equ", isa::CmpOp::EQU}, {"neu", isa::CmpOp::NEU},
      {"ltu", isa::CmpOp::LTU}, {"leu", isa::CmpOp::LEU}, {"gtu", isa::CmpOp::GTU}, {"geu", isa::CmpOp::GEU},
      {"num", isa::CmpOp::NUM}, {"nan", isa::CmpOp::NAN_},
  };
  for (auto& [n, c] : kOps)
    if (m == n) {
      *out = c;
      return true;
    }
  return false;
}
}  // namespace

Status Lowerer::lower_half(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  const bool bf = has(in, "bf16") || has(in, "bf16x2");
  const bool x2 = has(in, "f16x2") || has(in, "bf16x2");
  const DataType et = bf ? DataType::BF16 : DataType::F16;
  std::string form = op;
  for (const auto& m : in.modifiers) form += "." + m;
  const HalfOp* h = nullptr;
  for (const HalfOp& k : kHalfOps)
    if (op == k.name) h = &k;
  const bool xorsign = has(in, "xorsign");
  if (!h || (xorsign && h->isa != Opcode::FMIN && h->isa != Opcode::FMAX) || has(in, "oob") ||
      (has(in, "approx") != (h->isa == Opcode::MUFU)))
    return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  const bool relu = has(in, "relu"), nan = has(in, "NaN"), ftz = has(in, "ftz");
  uint8_t mod = float_mod(in) & ~isa::kModApprox;
  if (h->isa == Opcode::MUFU) mod = static_cast<uint8_t>(h->mufu);

  // setp: the comparison and an optional BoolOp with a third predicate.
  isa::CmpOp cmp = isa::CmpOp::EQ;
  isa::BoolOp bop = isa::BoolOp::AND;
  bool combine = false;
  size_t ndst = 1;
  if (h->isa == Opcode::FSETP) {
    if (in.modifiers.empty() || !half_cmp(in.modifiers[0], &cmp)) return invalid(in.loc, "bad comparison for setp");
    if (in.modifiers.size() > 1) {
      const std::string& b = in.modifiers[1];
      combine = b == "and" || b == "or" || b == "xor";
      bop = b == "or" ? isa::BoolOp::OR : b == "xor" ? isa::BoolOp::XOR : isa::BoolOp::AND;
    }
    ndst = in.has_pred_pair ? 2 : 1;
    if (x2 && ndst != 2) return invalid(in.loc, "setp on .f16x2/.bf16x2 writes a predicate pair p|q");
    RETURN_IF_ERROR(want_operands(in, ndst + 2 + (combine ? 1 : 0)));
  } else {
    RETURN_IF_ERROR(want_operands(in, static_cast<size_t>(h->nsrc + 1)));
  }
  std::vector<int> srcs;
  for (int k = 0; k < h->nsrc; ++k) {
    ASSIGN_OR_RETURN(int v, read_value(in.operands[ndst + k], x2 ? DataType::U32 : et));
    srcs.push_back(v);
  }
  int cpred = -1;
  if (combine) {
    ASSIGN_OR_RETURN(cpred, read_pred(in.operands[ndst + 2]));
  }
  if (x2 && !ftz && (h->isa == Opcode::FNEG || h->isa == Opcode::FABS)) {
    bool neg = h->isa == Opcode::FNEG;
    return write(in.operands[0], isa_op(neg ? Opcode::XOR : Opcode::AND, DataType::U32, DataType::U32,
                                        {Operand::val(srcs[0]), Operand::immediate(neg ? 0x80008000u : 0x7fff7fffu)}));
  }
  // One element: the ISA operation with its post-processing.
  auto element = [&](const std::vector<Operand>& ops) -> int {
    std::vector<Operand> o = ops;
    if (ftz && (h->isa == Opcode::FNEG || h->isa == Opcode::FABS || h->isa == Opcode::FSETP || h->isa == Opcode::MUFU))
      for (Operand& x : o)  // no FTZ on these: flush the operands by an FMUL.FTZ by 1.0
        x = Operand::val(isa_op(Opcode::FMUL, et, et, {x, Operand::immediate(bf ? 0x3f80 : 0x3c00)}, isa::kModFtz));
    if (h->isa == Opcode::FSETP) {
      Operand c = cpred < 0 ? Operand::immediate(1) : Operand::val(cpred);
      return isa_op(Opcode::FSETP, et, DataType::Pred, {o[0], o[1], c},
                    static_cast<uint8_t>(static_cast<int>(cmp) | (static_cast<int>(combine ? bop : isa::BoolOp::AND) << 4)));
    }
    if (xorsign || (nan && (h->isa == Opcode::FMIN || h->isa == Opcode::FMAX))) {
      if (ftz)  // flush before the sign-bit operations
        for (Operand& x : o) x = Operand::val(isa_op(Opcode::FMUL, et, et, {x, Operand::immediate(bf ? 0x3f80 : 0x3c00)}, isa::kModFtz));
      int r = minmax_ext(*this, h->isa, et, o[0], o[1], 0, xorsign, nan);
      return relu ? isa_op(Opcode::FMAX, et, et, {Operand::val(r), Operand::immediate(0)}) : r;
    }
    int r = isa_op(h->isa, et, et, o, h->isa == Opcode::FABS || h->isa == Opcode::FNEG ? 0 : mod);
    if (ftz && h->isa == Opcode::MUFU) r = isa_op(Opcode::FMUL, et, et, {Operand::val(r), Operand::immediate(bf ? 0x3f80 : 0x3c00)}, isa::kModFtz);
    if (relu || nan) {
      // .relu: max(r, +0) except NaN; .NaN: NaN when either source is.
      int v = relu ? isa_op(Opcode::FMAX, et, et, {Operand::val(r), Operand::immediate(0)}) : r;
      int is_nan = isa_op(Opcode::FSETP, et, DataType::Pred, {relu ? Operand::val(r) : o[0], relu ? Operand::val(r) : o[1], Operand::immediate(1)},
                          static_cast<uint8_t>(isa::CmpOp::NAN_));
      r = isa_op(Opcode::SEL, DataType::U32, et, {Operand::val(constant(DataType::U32, kHalfCanonicalNaN)), Operand::val(v), Operand::val(is_nan)});
    }
    return r;
  };
  if (!x2) {
    std::vector<Operand> ops;
    for (int v : srcs) ops.push_back(Operand::val(v));
    RETURN_IF_ERROR(write(in.operands[0], element(ops)));
    if (ndst == 2) {  // setp p|q on a scalar: q = !(a cmp b) BoolOp c
      static constexpr isa::CmpOp kNot[] = {isa::CmpOp::NEU, isa::CmpOp::EQU, isa::CmpOp::GEU, isa::CmpOp::GTU,
                                            isa::CmpOp::LEU, isa::CmpOp::LTU, isa::CmpOp::NE,  isa::CmpOp::EQ,
                                            isa::CmpOp::GE,  isa::CmpOp::GT,  isa::CmpOp::LE,  isa::CmpOp::LT,
                                            isa::CmpOp::NAN_, isa::CmpOp::NUM};
      cmp = kNot[static_cast<int>(cmp)];
      RETURN_IF_ERROR(write(in.operands[1], element(ops)));
    }
    return ok_status();
  }
  int half[2];
  for (int k = 0; k < 2; ++k) {
    std::vector<Operand> ops;
    for (int v : srcs)
      ops.push_back(Operand::val(k == 0 ? v : isa_op(Opcode::SHR, DataType::U32, DataType::U32, {Operand::val(v), Operand::immediate(16)})));
    half[k] = element(ops);
  }
  if (h->isa == Opcode::FSETP) {
    RETURN_IF_ERROR(write(in.operands[0], half[0]));
    return write(in.operands[1], half[1]);
  }
  return write(in.operands[0], pack_halves(half[0], half[1]));
}

int Lowerer::pack_halves(int lo, int hi) {
  // Bytes 0-1 from lo, bytes 2-3 from hi's bytes 0-1 (PRMT bytes 4-5).
  int sel = constant(DataType::U32, 0x5410);
  return isa_op(Opcode::PRMT, DataType::U32, DataType::U32, {Operand::val(lo), Operand::val(hi), Operand::val(sel)});
}

Status Lowerer::lower_float(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  {
    // Mixed precision (.f32 with .f16/.bf16 sources, sm_100): fma.rnd{.sat}.f32.abtype
    // d, a, b, c multiplies the exactly widened a and b (their product is exact in f32)
    // and adds c with the one rounding of an F32 FFMA. Other mixed forms: not yet.
    std::vector<std::string> types;
    for (const auto& m : in.modifiers) {
      DataType x;
      if (ptx_type(m, &x)) types.push_back(m);
    }
    if (types.size() == 2 && types[0] == "f32" && (types[1] == "f16" || types[1] == "bf16") && op != "cvt") {
      std::string form = op;
      for (const auto& m : in.modifiers) form += "." + m;
      if (op != "fma") return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
      RETURN_IF_ERROR(want_operands(in, 4));
      const DataType ht = types[1] == "f16" ? DataType::F16 : DataType::BF16;
      std::vector<Operand> srcs;
      for (int k = 0; k < 2; ++k) {
        ASSIGN_OR_RETURN(Operand h, read(in.operands[1 + k], ht));
        Inst w;
        w.op = Op::kIsa;
        w.isa_op = Opcode::CVT;
        w.type = DataType::F32;
        w.type2 = ht;
        w.srcs = {h};
        w.defs = {f_.new_value(DataType::F32)};
        srcs.push_back(Operand::val(emit(std::move(w))));
      }
      ASSIGN_OR_RETURN(Operand c, read(in.operands[3], DataType::F32));
      srcs.push_back(c);
      return write(in.operands[0], isa_op(Opcode::FFMA, DataType::F32, DataType::F32, srcs, float_mod(in) & ~isa::kModApprox));
    }
  }
  if (has(in, "f16x2") || has(in, "bf16x2") || has(in, "bf16")) return lower_half(in, handled);
  ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
  if (t == DataType::F16) return lower_half(in, handled);
  if (t != DataType::F32 && t != DataType::F64) {
    *handled = false;
    return ok_status();
  }
  uint8_t mod = float_mod(in);
  auto operands = [&](int n, std::vector<Operand>* out) -> Status {
    RETURN_IF_ERROR(want_operands(in, static_cast<size_t>(n + 1)));
    for (int k = 0; k < n; ++k) {
      ASSIGN_OR_RETURN(Operand o, read(in.operands[1 + k], t));
      out->push_back(o);
    }
    return ok_status();
  };
  struct Simple {
    const char* name;
    Opcode isa;
    int nsrc;
  };
  static const Simple kSimple[] = {
      {"add", Opcode::FADD, 2}, {"sub", Opcode::FSUB, 2}, {"mul", Opcode::FMUL, 2},
      {"fma", Opcode::FFMA, 3}, {"mad", Opcode::FFMA, 3}, {"min", Opcode::FMIN, 2},
      {"max", Opcode::FMAX, 2}, {"abs", Opcode::FABS, 1}, {"neg", Opcode::FNEG, 1},
      {"div", Opcode::FDIV, 2},
  };
  for (const Simple& s : kSimple) {
    if (op != s.name) continue;
    const bool minmax = s.isa == Opcode::FMIN || s.isa == Opcode::FMAX;
    if ((has(in, "NaN") || has(in, "xorsign")) && (!minmax || t != DataType::F32))
      return unsupported(in.loc, op + ".NaN/.xorsign is not supported yet on ." + std::string(isa::type_name(t)));
    if (minmax && in.operands.size() == 4)
      return unsupported(in.loc, "three-input " + op + " (sm_100) is not supported yet");
    std::vector<Operand> srcs;
    RETURN_IF_ERROR(operands(s.nsrc, &srcs));
    if (minmax && (has(in, "NaN") || has(in, "xorsign"))) {
      if (mod & isa::kModFtz)
        for (Operand& o : srcs) o = Operand::val(flush_f32(*this, o));
      return write(in.operands[0], minmax_ext(*this, s.isa, t, srcs[0], srcs[1], 0, has(in, "xorsign"), has(in, "NaN")));
    }
    uint8_t m = mod;
    if (op == "div" && has(in, "full")) m |= isa::kModApprox;  // full-range approximate
    // FABS/FNEG are sign-bit operations with no FTZ: flush the operand first.
    if ((s.isa == Opcode::FABS || s.isa == Opcode::FNEG) && (mod & isa::kModFtz) && t == DataType::F32)
      srcs[0] = Operand::val(flush_f32(*this, srcs[0]));
    return write(in.operands[0], isa_op(s.isa, t, t, srcs, m));
  }
  struct Mufu {
    const char* name;
    isa::MufuOp mop;
  };
  static const Mufu kMufu[] = {
      {"rcp", isa::MufuOp::RCP}, {"sqrt", isa::MufuOp::SQRT}, {"rsqrt", isa::MufuOp::RSQ},
      {"sin", isa::MufuOp::SIN}, {"cos", isa::MufuOp::COS},   {"ex2", isa::MufuOp::EX2},
      {"lg2", isa::MufuOp::LG2}, {"tanh", isa::MufuOp::TANH},
  };
  for (const Mufu& m : kMufu) {
    if (op != m.name) continue;
    std::vector<Operand> srcs;
    RETURN_IF_ERROR(operands(1, &srcs));
    // Exact rcp.rn / sqrt.rn: the ISA's MUFU is correctly rounded for RCP and SQRT when
    // the approx bit is clear, so the rounding mode carries over.
    if (m.mop == isa::MufuOp::RCP && !(mod & isa::kModApprox)) {
      int one = constant(t, t == DataType::F64 ? 0x3ff0000000000000ull : 0x3f800000u);
      return write(in.operands[0], isa_op(Opcode::FDIV, t, t, {Operand::val(one), srcs[0]}, mod));
    }
    const bool ftz = (mod & isa::kModFtz) != 0;
    const auto rnd = static_cast<isa::Round>(mod & 3);
    if (m.mop == isa::MufuOp::SQRT && !(mod & isa::kModApprox) && rnd != isa::Round::RN)
      return write(in.operands[0], sqrt_directed(*this, srcs[0], t, rnd, ftz));
    // MUFU has no FTZ bit: .ftz flushes the operand and the result around it (F32), or the
    // operand (rcp.approx.ftz.f64, whose result is never flushed by the PTX ISA's tests).
    Operand a = srcs[0];
    if (ftz) a = Operand::val(t == DataType::F32 ? flush_f32(*this, a) : flush_f64(*this, a));
    int v = isa_op(Opcode::MUFU, t, t, {a}, static_cast<uint8_t>(m.mop));
    if (ftz && t == DataType::F32) v = flush_f32(*this, Operand::val(v));
    return write(in.operands[0], v);
  }
  if (op == "copysign") {
    // copysign d, a, b: b's magnitude with a's sign (NaN payloads kept).
    std::vector<Operand> srcs;
    RETURN_IF_ERROR(operands(2, &srcs));
    const DataType it = t == DataType::F64 ? DataType::U64 : DataType::U32;
    const uint64_t sign = t == DataType::F64 ? kF64SignBit : 0x80000000u;
    int mag = isa_op(Opcode::FABS, t, t, {Operand::val(as_value(*this, srcs[1], t))});
    int sgn = isa_op(Opcode::AND, it, it, {Operand::val(as_value(*this, srcs[0], t)), Operand::immediate(sign)});
    return write(in.operands[0], isa_op(Opcode::OR, it, t, {Operand::val(mag), Operand::val(sgn)}));
  }
  if (op == "testp") {
    static const char* kClasses[] = {"finite", "infinite", "number", "notanumber", "normal", "subnormal"};
    const char* cls = nullptr;
    for (const char* c : kClasses)
      if (has(in, c)) cls = c;
    if (!cls) return invalid(in.loc, "testp needs a class (.finite, .infinite, .number, .notanumber, .normal, .subnormal)");
    RETURN_IF_ERROR(want_operands(in, 2));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    return write(in.operands[0], test_class(*this, cls, a, t));
  }
  *handled = false;
  return ok_status();
}

}  // namespace strata::compiler::ir
