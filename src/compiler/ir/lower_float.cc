// Floating-point arithmetic (f32/f64) and the special functions.
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
    int v = isa_op(Opcode::MUFU, t, t, srcs, static_cast<uint8_t>(m.mop));
    return write(in.operands[0], v);
  }
  if (op == "testp" || op == "copysign") return unsupported(in.loc, "'" + op + "' is not supported yet");
  *handled = false;
  return ok_status();
}

}  // namespace strata::compiler::ir
