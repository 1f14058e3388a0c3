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


// .f16 arithmetic uses the ISA's F16 type (a half in the low 16 bits of a register;
// computed exactly and rounded once, so add/sub/mul/fma are correctly rounded). .f16x2
// (a .b32 register, element 0 in the low half) runs the F16 operation on each half and
// packs the results with PRMT; neg/abs flip/clear both sign bits. Deviation: .ftz on
// .f16 is ignored (the ISA's FTZ flushes F32 only), so f16 subnormals are kept.
Status Lowerer::lower_half(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  bool x2 = has(in, "f16x2");
  static const std::pair<const char*, Opcode> kOps[] = {
      {"add", Opcode::FADD}, {"sub", Opcode::FSUB}, {"mul", Opcode::FMUL}, {"fma", Opcode::FFMA},
      {"min", Opcode::FMIN}, {"max", Opcode::FMAX}, {"abs", Opcode::FABS}, {"neg", Opcode::FNEG},
  };
  Opcode isa = Opcode::NOP;
  int nsrc = 0;
  for (auto& [name, o] : kOps)
    if (op == name) {
      isa = o;
      nsrc = o == Opcode::FFMA ? 3 : (o == Opcode::FABS || o == Opcode::FNEG) ? 1 : 2;
    }
  std::string form = op;
  for (const auto& m : in.modifiers) form += "." + m;
  if (nsrc == 0) return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  if (has(in, "NaN") || has(in, "xorsign") || has(in, "relu") || has(in, "oob"))
    return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  RETURN_IF_ERROR(want_operands(in, static_cast<size_t>(nsrc + 1)));
  uint8_t mod = float_mod(in) & ~isa::kModFtz;
  std::vector<int> srcs;
  for (int k = 0; k < nsrc; ++k) {
    ASSIGN_OR_RETURN(int v, read_value(in.operands[1 + k], x2 ? DataType::U32 : DataType::F16));
    srcs.push_back(v);
  }
  if (!x2) {
    std::vector<Operand> ops;
    for (int v : srcs) ops.push_back(Operand::val(v));
    return write(in.operands[0], isa_op(isa, DataType::F16, DataType::F16, ops, mod));
  }
  if (isa == Opcode::FNEG || isa == Opcode::FABS) {
    bool neg = isa == Opcode::FNEG;
    return write(in.operands[0], isa_op(neg ? Opcode::XOR : Opcode::AND, DataType::U32, DataType::U32,
                                        {Operand::val(srcs[0]), Operand::immediate(neg ? 0x80008000u : 0x7fff7fffu)}));
  }
  int half[2];
  for (int h = 0; h < 2; ++h) {
    std::vector<Operand> ops;
    for (int v : srcs)
      ops.push_back(Operand::val(h == 0 ? v : isa_op(Opcode::SHR, DataType::U32, DataType::U32, {Operand::val(v), Operand::immediate(16)})));
    half[h] = isa_op(isa, DataType::F16, DataType::F16, ops, mod);
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
  if (has(in, "bf16x2") || ((op != "cvt" && op != "mov" && op != "ld" && op != "st") && has(in, "bf16"))) {
    std::string form = op;
    for (const auto& m : in.modifiers) form += "." + m;
    return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  }
  if (has(in, "f16x2")) return lower_half(in, handled);
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
    if (has(in, "NaN") || has(in, "xorsign")) return unsupported(in.loc, op + ".NaN/.xorsign is not supported yet");
    std::vector<Operand> srcs;
    RETURN_IF_ERROR(operands(s.nsrc, &srcs));
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
