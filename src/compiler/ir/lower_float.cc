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

Status Lowerer::lower_float(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
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
