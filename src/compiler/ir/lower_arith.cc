// Integer and bitwise arithmetic, mov, selp, setp and predicate logic.
#include <fmt/format.h>

#include "compiler/ir/lower_ftz.h"
#include "compiler/ir/lower_int_ext.h"
#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {
namespace {

using isa::BoolOp;
using isa::CmpOp;

bool cmp_op(const std::string& m, bool is_float, CmpOp* out) {
  static const std::pair<const char*, CmpOp> kOps[] = {
      {"eq", CmpOp::EQ},   {"ne", CmpOp::NE},   {"lt", CmpOp::LT},   {"le", CmpOp::LE},
      {"gt", CmpOp::GT},   {"ge", CmpOp::GE},   {"lo", CmpOp::LT},   {"ls", CmpOp::LE},
      {"hi", CmpOp::GT},   {"hs", CmpOp::GE},   {"equ", CmpOp::EQU}, {"neu", CmpOp::NEU},
      {"ltu", CmpOp::LTU}, {"leu", CmpOp::LEU}, {"gtu", CmpOp::GTU}, {"geu", CmpOp::GEU},
      {"num", CmpOp::NUM}, {"nan", CmpOp::NAN_},
  };
  for (auto& [n, op] : kOps)
    if (m == n) {
      if (!is_float && static_cast<int>(op) >= static_cast<int>(CmpOp::EQU)) return false;
      *out = op;
      return true;
    }
  return false;
}

CmpOp invert(CmpOp c, bool is_float) {
  switch (c) {
    case CmpOp::EQ: return is_float ? CmpOp::NEU : CmpOp::NE;
    case CmpOp::NE: return is_float ? CmpOp::EQU : CmpOp::EQ;
    case CmpOp::LT: return is_float ? CmpOp::GEU : CmpOp::GE;
    case CmpOp::LE: return is_float ? CmpOp::GTU : CmpOp::GT;
    case CmpOp::GT: return is_float ? CmpOp::LEU : CmpOp::LE;
    case CmpOp::GE: return is_float ? CmpOp::LTU : CmpOp::LT;
    case CmpOp::EQU: return CmpOp::NE;
    case CmpOp::NEU: return CmpOp::EQ;
    case CmpOp::LTU: return CmpOp::GE;
    case CmpOp::LEU: return CmpOp::GT;
    case CmpOp::GTU: return CmpOp::LE;
    case CmpOp::GEU: return CmpOp::LT;
    case CmpOp::NUM: return CmpOp::NAN_;
    default: return CmpOp::NUM;
  }
}

bool bool_op(const std::string& m, BoolOp* out) {
  if (m == "and") *out = BoolOp::AND;
  else if (m == "or") *out = BoolOp::OR;
  else if (m == "xor") *out = BoolOp::XOR;
  else return false;
  return true;
}

// CVT d(dst) = a(src); isa_op cannot set type2.
int convert(Lowerer& l, DataType dst, DataType src, Operand a, uint8_t mod = 0) {
  Inst cv;
  cv.op = Op::kIsa;
  cv.isa_op = Opcode::CVT;
  cv.type = dst;
  cv.type2 = src;
  cv.mod = mod;
  cv.srcs = {a};
  cv.defs = {l.f_.new_value(dst)};
  return l.emit(std::move(cv));
}

// A 16-bit operand extended to 32 bits (sign- or zero- per `t`, S16 or U16). An
// immediate is extended at compile time.
Operand extend16(Lowerer& l, Operand o, DataType t) {
  bool s = isa::type_is_signed(t);
  if (o.is_imm()) {
    uint64_t v = o.imm & 0xffffu;
    if (s && (v & 0x8000u)) v |= 0xffff0000u;
    return Operand::immediate(v);
  }
  return Operand::val(convert(l, s ? DataType::S32 : DataType::U32, t, o));
}

// 16-bit integer arithmetic. The ISA's integer ALU takes 32- and 64-bit types only
// (docs/isa.md), so each source is extended to 32 bits by the signedness of `t`, the
// operation runs on the 32-bit type of that signedness, and the low 16 bits of the result
// are the PTX result: every reader of a 16-bit register (st, cvt, setp, pack) uses only its
// low half. The extension makes the low half exact for every operation below: mul.hi is
// bits 16-31 of the (exact) 32-bit product; shr of the extended value shifts in the sign
// (or zero) fill; min/max/div/rem compare and divide the extended values. *handled is
// false for anything else.
Status lower_int16(Lowerer& l, const ptx::Instruction& in, DataType t, bool* handled) {
  const std::string& op = in.opcode;
  static const std::pair<const char*, Opcode> kOps[] = {
      {"add", Opcode::IADD}, {"sub", Opcode::ISUB}, {"div", Opcode::IDIV}, {"rem", Opcode::IREM},
      {"min", Opcode::IMIN}, {"max", Opcode::IMAX}, {"abs", Opcode::IABS}, {"neg", Opcode::INEG},
      {"and", Opcode::AND},  {"or", Opcode::OR},    {"xor", Opcode::XOR},  {"not", Opcode::NOT},
      {"shl", Opcode::SHL},  {"shr", Opcode::SHR},  {"mul", Opcode::IMUL}, {"mad", Opcode::IMAD},
  };
  Opcode isa = Opcode::NOP;
  for (auto& [name, o] : kOps)
    if (op == name) isa = o;
  *handled = isa != Opcode::NOP;
  if (!*handled) return ok_status();
  if (Lowerer::has(in, "sat") || Lowerer::has(in, "cc"))
    return l.unsupported(in.loc, op + " with ." + (Lowerer::has(in, "sat") ? "sat" : "cc") + " on 16-bit types is not supported yet");
  const bool s = isa::type_is_signed(t);
  const DataType w = s ? DataType::S32 : DataType::U32;
  const bool unary = isa == Opcode::IABS || isa == Opcode::INEG || isa == Opcode::NOT;
  const bool mad = isa == Opcode::IMAD;
  RETURN_IF_ERROR(l.want_operands(in, unary ? 2 : mad ? 4 : 3));
  ASSIGN_OR_RETURN(Operand a0, l.read(in.operands[1], t));
  Operand a = extend16(l, a0, t);
  if (unary) return l.write(in.operands[0], l.isa_op(isa, w, w, {a}));
  if (isa == Opcode::SHL || isa == Opcode::SHR) {
    ASSIGN_OR_RETURN(Operand n, l.read(in.operands[2], DataType::U32));
    return l.write(in.operands[0], l.isa_op(isa, w, w, {a, n}));
  }
  ASSIGN_OR_RETURN(Operand b0, l.read(in.operands[2], t));
  Operand b = extend16(l, b0, t);
  if (isa != Opcode::IMUL && isa != Opcode::IMAD) return l.write(in.operands[0], l.isa_op(isa, w, w, {a, b}));

  // mul/mad: the 32-bit product of the extended sources is exact.
  const bool wide = Lowerer::has(in, "wide"), hi = Lowerer::has(in, "hi");
  int r = l.isa_op(Opcode::IMUL, w, w, {a, b});
  if (hi) r = l.isa_op(Opcode::SHR, w, w, {Operand::val(r), Operand::immediate(16)});
  if (mad) {
    // .wide: c is the 32-bit addend; .lo/.hi: a 16-bit c (its upper bits do not reach
    // the low half of the sum).
    ASSIGN_OR_RETURN(Operand c, l.read(in.operands[3], wide ? w : t));
    r = l.isa_op(Opcode::IADD, w, w, {Operand::val(r), c});
  }
  return l.write(in.operands[0], r);
}

}  // namespace

Status Lowerer::lower_arith(const ptx::Instruction& in, bool* handled) {
  const std::string& op = in.opcode;
  *handled = true;
  auto ops = [&](size_t n) { return want_operands(in, n); };
  // Packed-half arithmetic (the .f16x2 type reads as .b32) belongs to lower_float.
  if (((has(in, "f16x2") || has(in, "bf16x2")) && op != "mov" && op != "selp") ||
      (op == "setp" && (has(in, "f16") || has(in, "bf16")))) {
    *handled = false;
    return ok_status();
  }

  {
    bool extended = false;
    RETURN_IF_ERROR(lower_int_extended(*this, in, &extended));
    if (extended) return ok_status();
  }

  if (op == "mov") {
    RETURN_IF_ERROR(ops(2));
    ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
    // mov.b64 %rd, {%r1, %r2} / mov.b64 {%r1, %r2}, %rd: pack and unpack.
    if (auto* vec = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[1].value)) {
      int bits = isa::type_bits(t);
      size_t n = (*vec)->elements.size();
      if (bits == 32 && n == 2) {  // mov.b32 %r, {%h0, %h1}: element 0 in the low half
        int h[2];
        for (size_t k = 0; k < 2; ++k) {
          ASSIGN_OR_RETURN(h[k], read_value(ptx::OperandSlot{(*vec)->elements[k], false, in.loc}, DataType::U16));
        }
        return write(in.operands[0], pack_halves(h[0], h[1]));
      }
      if (n == 0 || bits / static_cast<int>(n) != 32) return unsupported(in.loc, "mov packing of sub-32-bit elements is not supported yet");
      std::vector<Operand> parts;
      for (auto& e : (*vec)->elements) {
        ASSIGN_OR_RETURN(Operand o, read(ptx::OperandSlot{e, false, in.loc}, DataType::U32));
        parts.push_back(o);
      }
      return write(in.operands[0], pack(bits == 64 ? DataType::U64 : DataType::B128, parts));
    }
    if (auto* vec = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[0].value)) {
      int bits = isa::type_bits(t);
      size_t n = (*vec)->elements.size();
      if (bits == 32 && n == 2) {  // mov.b32 {%h0, %h1}, %r
        ASSIGN_OR_RETURN(int v, read_value(in.operands[1], DataType::U32));
        for (int k = 0; k < 2; ++k) {
          int h = isa_op(Opcode::BFE, DataType::U32, DataType::U32,
                         {Operand::val(v), Operand::immediate(16u * k), Operand::immediate(16)});
          RETURN_IF_ERROR(write(ptx::OperandSlot{(*vec)->elements[k], false, in.loc}, h));
        }
        return ok_status();
      }
      if (n == 0 || bits / static_cast<int>(n) != 32) return unsupported(in.loc, "mov unpacking into sub-32-bit elements is not supported yet");
      ASSIGN_OR_RETURN(int v, read_value(in.operands[1], t));
      for (size_t k = 0; k < n; ++k)
        RETURN_IF_ERROR(write(ptx::OperandSlot{(*vec)->elements[k], false, in.loc}, extract(v, static_cast<int>(k))));
      return ok_status();
    }
    if (t == DataType::Pred) {
      ASSIGN_OR_RETURN(int p, read_pred(in.operands[1]));
      return write(in.operands[0], copy(p));
    }
    ASSIGN_OR_RETURN(Operand o, read(in.operands[1], t));
    int v = o.is_imm() ? constant(isa::type_bits(t) > 32 ? DataType::U64 : DataType::U32, o.imm) : copy(o.value);
    return write(in.operands[0], v);
  }

  if (op == "selp") {
    RETURN_IF_ERROR(ops(4));
    ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[2], t));
    ASSIGN_OR_RETURN(int p, read_pred(in.operands[3]));
    return write(in.operands[0], isa_op(Opcode::SEL, arith_type(t), arith_type(t), {a, b, Operand::val(p)}));
  }

  if (op == "setp" || op == "set") {
    ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
    bool is_float = isa::type_is_float(t);
    if (in.modifiers.empty()) return invalid(in.loc, "setp needs a comparison");
    CmpOp cmp;
    if (!cmp_op(in.modifiers[0], is_float, &cmp)) return invalid(in.loc, "bad comparison '." + in.modifiers[0] + "' for setp");
    BoolOp bop = BoolOp::AND;
    bool combine = in.modifiers.size() > 1 && bool_op(in.modifiers[1], &bop);
    size_t ndst = in.has_pred_pair ? 2 : 1;
    RETURN_IF_ERROR(ops(ndst + 2 + (combine ? 1 : 0)));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[ndst], t));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[ndst + 1], t));
    Operand c = Operand::immediate(1);
    if (combine) {
      ASSIGN_OR_RETURN(int cv, read_pred(in.operands[ndst + 2]));
      c = Operand::val(cv);
    } else {
      bop = BoolOp::AND;
    }
    if (has(in, "ftz") && t == DataType::F32) {  // FSETP has no FTZ bit
      a = Operand::val(flush_f32(*this, a));
      b = Operand::val(flush_f32(*this, b));
    }
    Opcode sop = is_float ? Opcode::FSETP : Opcode::ISETP;
    DataType ct = arith_type(t);
    if (ct == DataType::U16 || ct == DataType::S16 || ct == DataType::U8 || ct == DataType::S8) {
      // compare as 32-bit after extension
      bool s = isa::type_is_signed(ct);
      auto ext = [&](Operand o) -> Operand {
        if (o.is_imm()) {
          int bits = isa::type_bits(ct);
          uint64_t v = o.imm;
          if (s && (v >> (bits - 1)) & 1) v |= ~((uint64_t{1} << bits) - 1);
          return Operand::immediate(v & 0xffffffffu);
        }
        Inst cv;
        cv.op = Op::kIsa;
        cv.isa_op = Opcode::CVT;
        cv.type = s ? DataType::S32 : DataType::U32;
        cv.type2 = ct;
        cv.srcs = {o};
        cv.defs = {f_.new_value(cv.type)};
        return Operand::val(emit(std::move(cv)));
      };
      a = ext(a);
      b = ext(b);
      ct = s ? DataType::S32 : DataType::U32;
    }
    if (ct == DataType::BF16) return unsupported(in.loc, "setp on bf16 is not supported yet");
    auto mod = [&](CmpOp c2) {
      return static_cast<uint8_t>(static_cast<int>(c2) | (static_cast<int>(bop) << 4));
    };
    int p = isa_op(sop, ct, DataType::Pred, {a, b, c}, mod(cmp));
    if (op == "set") {
      // set: d = 1.0f (.f32 destination) or 0xffffffff when the test holds, else 0.
      if (ndst != 1) return invalid(in.loc, "set has one destination");
      std::vector<DataType> types;
      for (const auto& m : in.modifiers) {
        DataType x;
        if (ptx_type(m, &x)) types.push_back(x);
      }
      if (types.size() != 2) return invalid(in.loc, "set needs a destination and a source type");
      const DataType dt = types[0];
      const uint64_t one = dt == DataType::F32 ? 0x3f800000u : 0xffffffffu;
      if (dt != DataType::F32 && dt != DataType::U32 && dt != DataType::S32 && dt != DataType::B32)
        return unsupported(in.loc, "set with destination ." + std::string(isa::type_name(dt)) + " is not supported yet");
      return write(in.operands[0], isa_op(Opcode::SEL, DataType::U32, DataType::U32,
                                          {Operand::val(constant(DataType::U32, one)), Operand::immediate(0), Operand::val(p)}));
    }
    RETURN_IF_ERROR(write(in.operands[0], p));
    if (ndst == 2) RETURN_IF_ERROR(write(in.operands[1], isa_op(sop, ct, DataType::Pred, {a, b, c}, mod(invert(cmp, is_float)))));
    return ok_status();
  }

  static const char* kKnown[] = {"add", "sub", "mul", "mad", "div", "rem", "min", "max", "abs",
                                 "neg", "and", "or", "xor", "not", "shl", "shr", "popc", "clz",
                                 "bfind", "brev", "bfe", "bfi", "prmt", "cnot", "fma", "rcp",
                                 "sqrt", "rsqrt", "sin", "cos", "ex2", "lg2", "tanh", "testp",
                                 "copysign", "mul24", "mad24"};
  bool known = false;
  for (const char* k : kKnown) known |= op == k;
  if (!known) {
    *handled = false;
    return ok_status();
  }
  ASSIGN_OR_RETURN(DataType t0, inst_type(*this, in));
  DataType t = arith_type(t0);
  if (isa::type_is_float(t)) {
    *handled = false;
    return ok_status();
  }

  // Predicate logic.
  if (t == DataType::Pred && (op == "and" || op == "or" || op == "xor" || op == "not")) {
    if (op == "not") {
      RETURN_IF_ERROR(ops(2));
      ASSIGN_OR_RETURN(int a, read_pred(in.operands[1]));
      int v = isa_op(Opcode::PLOP, DataType::Pred, DataType::Pred, {Operand::val(a), Operand::immediate(1)}, 0);
      f_.blocks[cur_].insts.back().negate = true;
      return write(in.operands[0], v);
    }
    RETURN_IF_ERROR(ops(3));
    ASSIGN_OR_RETURN(int a, read_pred(in.operands[1]));
    ASSIGN_OR_RETURN(int b, read_pred(in.operands[2]));
    BoolOp bop;
    bool_op(op, &bop);
    return write(in.operands[0], isa_op(Opcode::PLOP, DataType::Pred, DataType::Pred,
                                        {Operand::val(a), Operand::val(b)}, static_cast<uint8_t>(static_cast<int>(bop) << 4)));
  }

  if (t == DataType::S16 || t == DataType::U16) {
    bool narrow = false;
    RETURN_IF_ERROR(lower_int16(*this, in, t, &narrow));
    if (narrow) return ok_status();
  }

  if ((op == "add" || op == "sub") && has(in, "sat") && !has(in, "cc") && t == DataType::S32) {
    // add/sub.sat.s32: the exact 64-bit sum, clamped to the s32 range by CVT.SAT.
    RETURN_IF_ERROR(ops(3));
    ASSIGN_OR_RETURN(int a, read_value(in.operands[1], t));
    ASSIGN_OR_RETURN(int b, read_value(in.operands[2], t));
    int r = isa_op(op == "add" ? Opcode::IADD : Opcode::ISUB, DataType::S64, DataType::S64,
                   {Operand::val(widen(a, /*is_signed=*/true)), Operand::val(widen(b, /*is_signed=*/true))});
    return write(in.operands[0], convert(*this, DataType::S32, DataType::S64, Operand::val(r), isa::kModSat));
  }
  struct Simple {
    const char* name;
    Opcode isa;
    int nsrc;
  };
  static const Simple kSimple[] = {
      {"add", Opcode::IADD, 2}, {"sub", Opcode::ISUB, 2}, {"div", Opcode::IDIV, 2},
      {"rem", Opcode::IREM, 2}, {"min", Opcode::IMIN, 2}, {"max", Opcode::IMAX, 2},
      {"abs", Opcode::IABS, 1}, {"neg", Opcode::INEG, 1}, {"and", Opcode::AND, 2},
      {"or", Opcode::OR, 2},    {"xor", Opcode::XOR, 2},  {"not", Opcode::NOT, 1},
      {"brev", Opcode::BREV, 1},
  };
  for (const Simple& s : kSimple) {
    if (op != s.name) continue;
    if (has(in, "sat") || has(in, "cc")) return unsupported(in.loc, op + " with ." + (has(in, "sat") ? "sat" : "cc") + " is not supported yet");
    if (has(in, "relu")) {
      // min/max.relu.s32: max(result, 0).
      if ((op != "min" && op != "max") || t != DataType::S32) return invalid(in.loc, ".relu applies to min/max.s32");
      RETURN_IF_ERROR(ops(3));
      ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
      ASSIGN_OR_RETURN(Operand b, read(in.operands[2], t));
      int r = isa_op(s.isa, t, t, {a, b});
      return write(in.operands[0], isa_op(Opcode::IMAX, t, t, {Operand::val(r), Operand::immediate(0)}));
    }
    RETURN_IF_ERROR(ops(1 + s.nsrc));
    std::vector<Operand> srcs;
    for (int k = 0; k < s.nsrc; ++k) {
      ASSIGN_OR_RETURN(Operand o, read(in.operands[1 + k], t));
      srcs.push_back(o);
    }
    return write(in.operands[0], isa_op(s.isa, t, t, srcs));
  }
  if (op == "shl" || op == "shr") {
    RETURN_IF_ERROR(ops(3));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[2], DataType::U32));
    return write(in.operands[0], isa_op(op == "shl" ? Opcode::SHL : Opcode::SHR, t, t, {a, b}));
  }
  if (op == "popc" || op == "clz" || op == "bfind") {
    RETURN_IF_ERROR(ops(2));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    Opcode o = op == "popc" ? Opcode::POPC : op == "clz" ? Opcode::CLZ : Opcode::BFIND;
    int v = isa_op(o, t, DataType::U32, {a});
    if (op == "bfind" && has(in, "shiftamt")) {
      // .shiftamt: the left-shift amount that brings the found bit to the top.
      int flipped = isa_op(Opcode::ISUB, DataType::U32, DataType::U32,
                           {Operand::immediate(static_cast<uint64_t>(isa::type_bits(t) - 1)), Operand::val(v)});
      int none = isa_op(Opcode::ISETP, DataType::U32, DataType::Pred,
                        {Operand::val(v), Operand::immediate(0xffffffffu), Operand::immediate(1)},
                        static_cast<uint8_t>(CmpOp::EQ));
      v = isa_op(Opcode::SEL, DataType::U32, DataType::U32, {Operand::val(v), Operand::val(flipped), Operand::val(none)});
    }
    return write(in.operands[0], v);
  }
  if (op == "mul24" || op == "mad24") {
    // d = bits [31:0] (.lo) or [47:16] (.hi) of the 48-bit product of a[23:0] and b[23:0]
    // (sign-extended for .s32), plus c for mad24.
    bool mad = op == "mad24";
    RETURN_IF_ERROR(ops(mad ? 4 : 3));
    if (t != DataType::U32 && t != DataType::S32) return invalid(in.loc, op + " takes .u32 or .s32");
    if (has(in, "sat")) return unsupported(in.loc, op + ".sat is not supported yet");
    bool hi = has(in, "hi");
    if (!hi && !has(in, "lo")) return invalid(in.loc, op + " needs .lo or .hi");
    int parts[2];
    for (int k = 0; k < 2; ++k) {
      ASSIGN_OR_RETURN(Operand x, read(in.operands[1 + k], t));
      parts[k] = isa_op(Opcode::BFE, t, t, {x, Operand::immediate(0), Operand::immediate(24)});
    }
    int r;
    if (hi) {
      DataType wt = t == DataType::S32 ? DataType::S64 : DataType::U64;
      int prod = isa_op(Opcode::IMULWIDE, t, wt, {Operand::val(parts[0]), Operand::val(parts[1])});
      r = low32(isa_op(Opcode::SHR, DataType::U64, DataType::U64, {Operand::val(prod), Operand::immediate(16)}));
    } else {
      r = isa_op(Opcode::IMUL, DataType::U32, t, {Operand::val(parts[0]), Operand::val(parts[1])});
    }
    if (mad) {
      ASSIGN_OR_RETURN(Operand c, read(in.operands[3], t));
      r = isa_op(Opcode::IADD, DataType::U32, t, {Operand::val(r), c});
    }
    return write(in.operands[0], r);
  }
  if (op == "mul" || op == "mad") {
    bool mad = op == "mad";
    RETURN_IF_ERROR(ops(mad ? 4 : 3));
    bool wide = has(in, "wide"), hi = has(in, "hi");
    if (has(in, "sat") && mad && hi && t == DataType::S32) {
      // mad.hi.sat.s32: the high half of the product plus c, clamped to the s32 range.
      ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
      ASSIGN_OR_RETURN(Operand b, read(in.operands[2], t));
      ASSIGN_OR_RETURN(int c, read_value(in.operands[3], t));
      int h = isa_op(Opcode::IMULHI, t, t, {a, b});
      int sum = isa_op(Opcode::IADD, DataType::S64, DataType::S64,
                       {Operand::val(widen(h, /*is_signed=*/true)), Operand::val(widen(c, /*is_signed=*/true))});
      return write(in.operands[0], convert(*this, DataType::S32, DataType::S64, Operand::val(sum), isa::kModSat));
    }
    if (has(in, "sat") || has(in, "cc")) return unsupported(in.loc, op + ".sat/.cc is not supported yet");
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[2], t));
    if (wide) {
      if (isa::type_bits(t) != 32) return unsupported(in.loc, op + ".wide is supported for 32-bit sources only");
      DataType rt = isa::type_is_signed(t) ? DataType::S64 : DataType::U64;
      std::vector<Operand> srcs = {a, b};
      if (mad) {
        ASSIGN_OR_RETURN(Operand c, read(in.operands[3], rt));
        srcs.push_back(c);
      }
      return write(in.operands[0], isa_op(mad ? Opcode::IMADWIDE : Opcode::IMULWIDE, t, rt, srcs));
    }
    std::vector<Operand> srcs = {a, b};
    if (mad) {
      ASSIGN_OR_RETURN(Operand c, read(in.operands[3], t));
      srcs.push_back(c);
    }
    Opcode o = mad ? (hi ? Opcode::IMADHI : Opcode::IMAD) : (hi ? Opcode::IMULHI : Opcode::IMUL);
    return write(in.operands[0], isa_op(o, t, t, srcs));
  }
  if (op == "bfe") {
    RETURN_IF_ERROR(ops(4));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[2], DataType::U32));
    ASSIGN_OR_RETURN(Operand c, read(in.operands[3], DataType::U32));
    return write(in.operands[0], isa_op(Opcode::BFE, t, t, {a, b, c}));
  }
  if (op == "bfi") {
    RETURN_IF_ERROR(ops(5));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    ASSIGN_OR_RETURN(Operand base, read(in.operands[2], t));
    ASSIGN_OR_RETURN(Operand pos, read(in.operands[3], DataType::U32));
    ASSIGN_OR_RETURN(Operand len, read(in.operands[4], DataType::U32));
    if (!len.is_imm()) {
      // mask = ((1 << len) - 1) << pos (SHL by >= width gives 0, so len >= width gives
      // all ones and pos >= width an empty mask); d = base ^ ((base ^ (a << pos)) & mask).
      Operand p8 = pos.is_imm() ? Operand::immediate(pos.imm & 0xff)
                                : Operand::val(isa_op(Opcode::AND, DataType::U32, DataType::U32, {pos, Operand::immediate(0xff)}));
      int l8 = isa_op(Opcode::AND, DataType::U32, DataType::U32, {len, Operand::immediate(0xff)});
      int ones = isa_op(Opcode::SHL, t, t, {Operand::immediate(1), Operand::val(l8)});
      int low = isa_op(Opcode::ISUB, t, t, {Operand::val(ones), Operand::immediate(1)});
      int mask = isa_op(Opcode::SHL, t, t, {Operand::val(low), p8});
      int shifted = isa_op(Opcode::SHL, t, t, {a, p8});
      int diff = isa_op(Opcode::XOR, t, t, {base, Operand::val(shifted)});
      int sel = isa_op(Opcode::AND, t, t, {Operand::val(diff), Operand::val(mask)});
      return write(in.operands[0], isa_op(Opcode::XOR, t, t, {base, Operand::val(sel)}));
    }
    uint64_t imm = len.imm & 0xff;
    Operand posop = pos;
    if (pos.is_imm()) {
      imm = (pos.imm & 0xff) | ((len.imm & 0xff) << 8);
      posop = Operand::immediate(0);  // RZ: position and length both in imm
    }
    return write(in.operands[0], isa_op(Opcode::BFI, t, t, {a, posop, base}, 0, imm));
  }
  if (op == "prmt") {
    RETURN_IF_ERROR(ops(4));
    uint8_t mode = 0;
    static const char* kModes[] = {"f4e", "b4e", "rc8", "ecl", "ecr", "rc16"};
    for (int k = 0; k < 6; ++k)
      if (has(in, kModes[k])) mode = static_cast<uint8_t>(k + 1);
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], DataType::U32));
    ASSIGN_OR_RETURN(Operand b, read(in.operands[2], DataType::U32));
    ASSIGN_OR_RETURN(Operand c, read(in.operands[3], DataType::U32));
    return write(in.operands[0], isa_op(Opcode::PRMT, DataType::U32, DataType::U32, {a, b, c}, mode));
  }
  if (op == "cnot") {
    RETURN_IF_ERROR(ops(2));
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], t));
    int p = isa_op(Opcode::ISETP, t, DataType::Pred, {a, Operand::immediate(0), Operand::immediate(1)},
                   static_cast<uint8_t>(CmpOp::EQ));
    return write(in.operands[0], isa_op(Opcode::SEL, t, t, {Operand::immediate(1), Operand::immediate(0), Operand::val(p)}));
  }
  *handled = false;
  return ok_status();
}

}  // namespace strata::compiler::ir
