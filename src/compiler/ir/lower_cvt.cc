// cvt between integer widths, integers and floats, and float precisions; cvta.
#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {

Status Lowerer::lower_cvt(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  if (in.opcode == "cvta") {
    RETURN_IF_ERROR(want_operands(in, 2));
    bool to = has(in, "to");
    isa::MemSpace space = isa::MemSpace::GLOBAL;
    if (has(in, "shared")) space = isa::MemSpace::SHARED;
    else if (has(in, "local")) space = isa::MemSpace::LOCAL;
    else if (has(in, "const")) space = isa::MemSpace::CONST;
    // Kernel parameter addresses are offsets of their local copy (Lowerer::param_copy_).
    else if (has(in, "param")) space = isa::MemSpace::LOCAL;
    else if (!has(in, "global")) return invalid(in.loc, "cvta needs a state space");
    ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    if (space == isa::MemSpace::GLOBAL) {
      int v = a.is_imm() ? constant(isa::type_bits(t) > 32 ? DataType::U64 : DataType::U32, a.imm) : copy(a.value);
      return write(in.operands[0], v);
    }
    int base;
    if (space == isa::MemSpace::CONST) {
      // Bank-2 base = VA(any const variable) - its offset.
      const ModuleVar* cv = nullptr;
      std::string cname;
      for (auto& [n, v] : prog_.vars)
        if (v.space == "const") {
          cv = &v;
          cname = n;
          break;
        }
      if (!cv) return invalid(in.loc, "cvta.const in a program without constant variables");
      Inst i;
      i.op = Op::kSymAddr;
      i.symbol = cname;
      i.imm = static_cast<uint64_t>(-static_cast<int64_t>(cv->const_offset));
      symbol_index(cname);
      i.defs = {f_.new_value(DataType::U64)};
      base = emit(std::move(i));
    } else {
      Inst i;
      i.op = space == isa::MemSpace::SHARED ? Op::kSharedBase : Op::kLocalBase;
      i.defs = {f_.new_value(DataType::U64)};
      base = emit(std::move(i));
    }
    int av;
    if (a.is_imm()) av = constant(DataType::U64, a.imm);
    else av = f_.type_of(a.value) == DataType::Pred ? a.value : a.value;
    if (reg_class(f_.type_of(av)) == RegClass::k32) av = widen(av, false);
    int r = isa_op(to ? Opcode::ISUB : Opcode::IADD, DataType::U64, DataType::U64, {Operand::val(av), Operand::val(base)});
    return write(in.operands[0], r);
  }
  if (in.opcode != "cvt") {
    *handled = false;
    return ok_status();
  }
  if (has(in, "relu") || has(in, "satfinite") || has(in, "rna") || has(in, "bf16x2") || has(in, "e4m3x2") ||
      has(in, "e5m2x2") || has(in, "tf32")) {
    std::string form = in.opcode;
    for (const auto& m : in.modifiers) form += "." + m;
    return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  }
  uint8_t round = 0;
  for (const auto& m : in.modifiers) {
    if (m == "rz" || m == "rzi") round = static_cast<uint8_t>(isa::Round::RZ);
    if (m == "rm" || m == "rmi") round = static_cast<uint8_t>(isa::Round::RM);
    if (m == "rp" || m == "rpi") round = static_cast<uint8_t>(isa::Round::RP);
  }
  if (has(in, "f16x2")) {
    // cvt.rnd.f16x2.f32 d, a, b: d = {a converted in the upper half, b in the lower}.
    RETURN_IF_ERROR(want_operands(in, 3));
    if (!has(in, "f32")) return invalid(in.loc, "cvt to .f16x2 takes two .f32 sources");
    int half[2];
    for (int k = 0; k < 2; ++k) {
      ASSIGN_OR_RETURN(Operand a, read(in.operands[2 - k], DataType::F32));
      Inst i;
      i.op = Op::kIsa;
      i.isa_op = Opcode::CVT;
      i.type = DataType::F16;
      i.type2 = DataType::F32;
      i.mod = round;
      i.srcs = {a};
      i.defs = {f_.new_value(DataType::F16)};
      half[k] = emit(std::move(i));
    }
    return write(in.operands[0], pack_halves(half[0], half[1]));
  }
  RETURN_IF_ERROR(want_operands(in, 2));
  std::vector<DataType> types;
  for (const auto& m : in.modifiers) {
    DataType t;
    if (ptx_type(m, &t)) types.push_back(t);
  }
  if (types.size() != 2) return invalid(in.loc, "cvt needs a destination and a source type");
  DataType dt = arith_type(types[0]), st = arith_type(types[1]);
  if (dt == DataType::Pred || st == DataType::Pred) return invalid(in.loc, "cvt does not take predicates");
  uint8_t mod = 0;
  for (const auto& m : in.modifiers) {
    if (m == "rz" || m == "rzi") mod = (mod & ~3) | static_cast<uint8_t>(isa::Round::RZ);
    if (m == "rm" || m == "rmi") mod = (mod & ~3) | static_cast<uint8_t>(isa::Round::RM);
    if (m == "rp" || m == "rpi") mod = (mod & ~3) | static_cast<uint8_t>(isa::Round::RP);
    if (m == "rni" || m == "rzi" || m == "rmi" || m == "rpi")
      if (isa::type_is_float(dt) && isa::type_is_float(st)) mod |= isa::kModRoundInt;
    if (m == "ftz") mod |= isa::kModFtz;
    if (m == "sat") mod |= isa::kModSat;
  }
  ASSIGN_OR_RETURN(Operand a, read(in.operands[1], st));
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::CVT;
  i.type = dt;
  i.type2 = st;
  i.mod = mod;
  i.srcs = {a};
  i.defs = {f_.new_value(dt)};
  return write(in.operands[0], emit(std::move(i)));
}

}  // namespace strata::compiler::ir
