// Integer forms built from sequences of the ISA's integer operations (lower_int_ext.h).
#include "compiler/ir/lower_int_ext.h"

#include "compiler/ir/lower_ftz.h"

namespace strata::compiler::ir {
namespace {

using isa::BoolOp;
using isa::CmpOp;

// The PTX condition-code carry flag CC.CF, held in a hidden per-thread variable (a U32
// that is 0 or 1) which the SSA builder tracks like a register, so the carry of an
// add.cc flows through branches to the addc that reads it. Never written: reads as 0.
constexpr const char* kCarryVar = "%%cc.cf";

int read_carry(Lowerer& l) {
  return l.ssa_.read(l.var_key(kCarryVar), l.cur_, DataType::U32);
}
void write_carry(Lowerer& l, int pred) {
  int v = l.isa_op(Opcode::SEL, DataType::U32, DataType::U32,
                   {Operand::immediate(1), Operand::immediate(0), Operand::val(pred)});
  l.ssa_.write(l.var_key(kCarryVar), l.cur_, v);
}
// x <u y (unsigned, at the width of `w`), optionally OR-ed with predicate `or_pred`.
int unsigned_less(Lowerer& l, DataType w, Operand x, Operand y, int or_pred = -1) {
  Operand c = or_pred < 0 ? Operand::immediate(1) : Operand::val(or_pred);
  uint8_t mod =
      static_cast<uint8_t>(static_cast<int>(CmpOp::LT) |
                           (static_cast<int>(or_pred < 0 ? BoolOp::AND : BoolOp::OR) << 4));
  return l.isa_op(Opcode::ISETP, w, DataType::Pred, {x, y, c}, mod);
}

// add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{.lo,.hi}.cc, madc{.lo,.hi}{.cc} on .u32/.s32/.u64/.s64
// (PTX ISA "Extended-Precision Integer Arithmetic Instructions"): add/mad write the
// carry-out, sub/subc the borrow-out (d = a - (b + CC.CF)).
Status lower_carry(Lowerer& l, const ptx::Instruction& in, bool* handled) {
  const std::string& op = in.opcode;
  const bool cc = Lowerer::has(in, "cc");
  const bool with_cin = op == "addc" || op == "subc" || op == "madc";
  *handled = with_cin || (cc && (op == "add" || op == "sub" || op == "mad"));
  if (!*handled) return ok_status();
  ASSIGN_OR_RETURN(DataType t0, Lowerer::inst_type(l, in));
  const DataType t = arith_type(t0);
  if (t != DataType::U32 && t != DataType::S32 && t != DataType::U64 && t != DataType::S64)
    return l.invalid(in.loc, op + " takes .u32, .s32, .u64 or .s64");
  const bool wide = isa::type_bits(t) == 64;
  const DataType w = wide ? DataType::U64 : DataType::U32;
  const bool mad = op == "mad" || op == "madc";
  RETURN_IF_ERROR(l.want_operands(in, mad ? 4 : 3));
  ASSIGN_OR_RETURN(int a, l.read_value(in.operands[1], t));
  ASSIGN_OR_RETURN(Operand b, l.read(in.operands[2], t));
  int x = a;      // the first addend (a, or the product half for mad)
  Operand y = b;  // the second (b, or c for mad)
  if (mad) {
    if (Lowerer::has(in, "wide")) return l.unsupported(in.loc, op + ".wide is not a PTX form");
    const bool hi = Lowerer::has(in, "hi");
    x = l.isa_op(hi ? Opcode::IMULHI : Opcode::IMUL, t, t, {Operand::val(a), b});
    ASSIGN_OR_RETURN(y, l.read(in.operands[3], t));
  }
  Operand cin = Operand::immediate(0);
  if (with_cin) {
    int c = read_carry(l);
    cin = Operand::val(wide ? l.widen(c, /*is_signed=*/false) : c);
  }
  int d;
  if (op == "sub" || op == "subc") {
    // borrow = a <u b, or (a - b) <u CC.CF.
    int diff = l.isa_op(Opcode::ISUB, w, t, {Operand::val(x), y});
    int borrow = unsigned_less(l, w, Operand::val(x), y);
    d = diff;
    if (with_cin) {
      d = l.isa_op(Opcode::ISUB, w, t, {Operand::val(diff), cin});
      borrow = unsigned_less(l, w, Operand::val(diff), cin, borrow);
    }
    if (cc) write_carry(l, borrow);
  } else {
    // carry = (x + y) <u x, or ((x + y) + CC.CF) <u (x + y).
    int sum = l.isa_op(Opcode::IADD, w, t, {Operand::val(x), y});
    int carry = unsigned_less(l, w, Operand::val(sum), Operand::val(x));
    d = sum;
    if (with_cin) {
      d = l.isa_op(Opcode::IADD, w, t, {Operand::val(sum), cin});
      carry = unsigned_less(l, w, Operand::val(d), Operand::val(sum), carry);
    }
    if (cc) write_carry(l, carry);
  }
  return l.write(in.operands[0], d);
}

// A 32-bit value known at compile time or held in a register, for building lop3.
struct Bits {
  bool is_const = false;
  uint32_t c = 0;
  int v = -1;
};
Operand as_operand(Bits x) {
  return x.is_const ? Operand::immediate(x.c) : Operand::val(x.v);
}
Bits reg(int v) {
  return Bits{false, 0, v};
}
Bits konst(uint32_t c) {
  return Bits{true, c, -1};
}
bool same(Bits x, Bits y) {
  return x.is_const == y.is_const && (x.is_const ? x.c == y.c : x.v == y.v);
}
Bits op2(Lowerer& l, Opcode o, Bits x, Bits y) {
  if (x.is_const) std::swap(x, y);
  if (x.is_const) {
    uint32_t r = o == Opcode::AND ? (x.c & y.c) : o == Opcode::OR ? (x.c | y.c) : (x.c ^ y.c);
    return konst(r);
  }
  return reg(l.isa_op(o, DataType::U32, DataType::U32, {Operand::val(x.v), as_operand(y)}));
}
Bits bnot(Lowerer& l, Bits x) {
  if (x.is_const) return konst(~x.c);
  return reg(l.isa_op(Opcode::NOT, DataType::U32, DataType::U32, {Operand::val(x.v)}));
}
// sel ? x1 : x0, bitwise.
Bits mux(Lowerer& l, Bits sel, Bits x1, Bits x0) {
  if (same(x1, x0)) return x0;
  if (x0.is_const && x0.c == 0)
    return (x1.is_const && x1.c == ~0u) ? sel : op2(l, Opcode::AND, sel, x1);
  if (x1.is_const && x1.c == 0)
    return (x0.is_const && x0.c == ~0u) ? bnot(l, sel) : op2(l, Opcode::AND, bnot(l, sel), x0);
  if (x1.is_const && x1.c == ~0u) return op2(l, Opcode::OR, sel, x0);
  if (x0.is_const && x0.c == ~0u) return op2(l, Opcode::OR, bnot(l, sel), x1);
  return op2(l, Opcode::XOR, x0, op2(l, Opcode::AND, op2(l, Opcode::XOR, x0, x1), sel));
}
// The function of `vars` (most significant selector first) whose truth table is the low
// 2^n bits of `lut` (bit i is the result for the inputs that spell i), by Shannon expansion.
Bits lut_fn(Lowerer& l, uint32_t lut, const Bits* vars, int n) {
  const uint32_t width = 1u << n, full = width == 32 ? ~0u : (1u << width) - 1;
  lut &= full;
  if (lut == 0) return konst(0);
  if (lut == full) return konst(~0u);
  const int half = 1 << (n - 1);
  Bits hi = lut_fn(l, lut >> half, vars + 1, n - 1),
       lo = lut_fn(l, lut & ((1u << half) - 1), vars + 1, n - 1);
  return mux(l, vars[0], hi, lo);
}

// Integer forms with no single ISA instruction: bmsk, shf, szext, dp4a, dp2a, lop3, slct,
// min/max on 16-bit pairs.
Status lower_int_extra(Lowerer& l, const ptx::Instruction& in, bool* handled) {
  const std::string& op = in.opcode;
  *handled = true;
  auto u32 = [](uint64_t v) { return Operand::immediate(v & 0xffffffffu); };
  if (op == "bmsk") {
    // PTX ISA bmsk: mask0 = ~0 << a, mask1 = ~0 << (a + b) (the bits above the field),
    // with .clamp limiting a and b to 32 and .wrap taking them mod 32; b == 0 gives 0.
    RETURN_IF_ERROR(l.want_operands(in, 3));
    const bool clamp = Lowerer::has(in, "clamp");
    if (!clamp && !Lowerer::has(in, "wrap")) return l.invalid(in.loc, "bmsk needs .clamp or .wrap");
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[1], DataType::U32));
    ASSIGN_OR_RETURN(Operand b, l.read(in.operands[2], DataType::U32));
    int a1 = l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {a, u32(0x1f)});
    int mask0 = l.isa_op(Opcode::SHL, DataType::U32, DataType::U32,
                         {u32(~0u), clamp ? a : Operand::val(a1)});
    int b1 = clamp ? l.isa_op(Opcode::IMIN, DataType::U32, DataType::U32, {b, u32(32)})
                   : l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {b, u32(0x1f)});
    int sum =
        l.isa_op(Opcode::IADD, DataType::U32, DataType::U32, {Operand::val(a1), Operand::val(b1)});
    int above = l.isa_op(Opcode::SHL, DataType::U32, DataType::U32, {u32(~0u), Operand::val(sum)});
    int empty = l.isa_op(Opcode::ISETP, DataType::U32, DataType::Pred,
                         {Operand::val(b1), u32(0), Operand::immediate(1)},
                         static_cast<uint8_t>(CmpOp::EQ));
    int mask1 = l.isa_op(Opcode::SEL, DataType::U32, DataType::U32,
                         {u32(~0u), Operand::val(above), Operand::val(empty)});
    int keep = l.isa_op(Opcode::NOT, DataType::U32, DataType::U32, {Operand::val(mask1)});
    return l.write(in.operands[0], l.isa_op(Opcode::AND, DataType::U32, DataType::U32,
                                            {Operand::val(mask0), Operand::val(keep)}));
  }
  if (op == "shf") {
    // Funnel shift of the 64-bit {b:a} by n = min(c, 32) (.clamp) or c & 31 (.wrap): .l
    // gives the upper 32 bits of {b:a} << n, .r the lower 32 bits of {b:a} >> n.
    RETURN_IF_ERROR(l.want_operands(in, 4));
    const bool clamp = Lowerer::has(in, "clamp"), left = Lowerer::has(in, "l");
    if (!clamp && !Lowerer::has(in, "wrap")) return l.invalid(in.loc, "shf needs .clamp or .wrap");
    if (!left && !Lowerer::has(in, "r")) return l.invalid(in.loc, "shf needs .l or .r");
    ASSIGN_OR_RETURN(int a, l.read_value(in.operands[1], DataType::U32));
    ASSIGN_OR_RETURN(int b, l.read_value(in.operands[2], DataType::U32));
    ASSIGN_OR_RETURN(Operand c, l.read(in.operands[3], DataType::U32));
    int n = clamp ? l.isa_op(Opcode::IMIN, DataType::U32, DataType::U32, {c, u32(32)})
                  : l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {c, u32(0x1f)});
    int v = l.pack(DataType::U64, {Operand::val(a), Operand::val(b)});
    int s = l.isa_op(left ? Opcode::SHL : Opcode::SHR, DataType::U64, DataType::U64,
                     {Operand::val(v), Operand::val(n)});
    return l.write(in.operands[0], l.extract(s, left ? 1 : 0));
  }
  if (op == "szext") {
    // The low N bits of a, sign- (.s32) or zero- (.u32) extended; N = min(b, 32) (.clamp)
    // or b & 31 (.wrap); N == 0 gives 0. That is BFE a, 0, N.
    RETURN_IF_ERROR(l.want_operands(in, 3));
    ASSIGN_OR_RETURN(DataType t, Lowerer::inst_type(l, in));
    if (t != DataType::U32 && t != DataType::S32)
      return l.invalid(in.loc, "szext takes .u32 or .s32");
    const bool clamp = Lowerer::has(in, "clamp");
    if (!clamp && !Lowerer::has(in, "wrap"))
      return l.invalid(in.loc, "szext needs .clamp or .wrap");
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[1], t));
    ASSIGN_OR_RETURN(Operand b, l.read(in.operands[2], DataType::U32));
    int n = clamp ? l.isa_op(Opcode::IMIN, DataType::U32, DataType::U32, {b, u32(32)})
                  : l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {b, u32(0x1f)});
    return l.write(in.operands[0], l.isa_op(Opcode::BFE, t, t, {a, u32(0), Operand::val(n)}));
  }
  if (op == "dp4a" || op == "dp2a") {
    // d = c + sum of products of a's and b's elements (bytes; dp2a: a's 16-bit halves with
    // b's bytes 0-1 (.lo) or 2-3 (.hi)), each element extended by its operand's type; the
    // sum wraps at 32 bits.
    RETURN_IF_ERROR(l.want_operands(in, 4));
    std::vector<DataType> types;
    for (const auto& m : in.modifiers) {
      DataType t;
      if (ptx_type(m, &t)) types.push_back(t);
    }
    if (types.size() != 2) return l.invalid(in.loc, op + " needs .atype and .btype");
    const bool dp2 = op == "dp2a", hi = Lowerer::has(in, "hi");
    if (dp2 && !hi && !Lowerer::has(in, "lo")) return l.invalid(in.loc, "dp2a needs .lo or .hi");
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[1], types[0]));
    ASSIGN_OR_RETURN(Operand b, l.read(in.operands[2], types[1]));
    ASSIGN_OR_RETURN(Operand c, l.read(in.operands[3], DataType::U32));
    const DataType at = types[0] == DataType::S32 ? DataType::S32 : DataType::U32;
    const DataType bt = types[1] == DataType::S32 ? DataType::S32 : DataType::U32;
    int acc = c.is_imm() ? l.constant(DataType::U32, c.imm & 0xffffffffu) : c.value;
    for (int k = 0; k < (dp2 ? 2 : 4); ++k) {
      int ae = l.isa_op(Opcode::BFE, at, at, {a, u32(dp2 ? 16 * k : 8 * k), u32(dp2 ? 16 : 8)});
      int be = l.isa_op(Opcode::BFE, bt, bt, {b, u32(8 * (k + (hi ? 2 : 0))), u32(8)});
      acc = l.isa_op(Opcode::IMAD, DataType::U32, DataType::U32,
                     {Operand::val(ae), Operand::val(be), Operand::val(acc)});
    }
    return l.write(in.operands[0], acc);
  }
  if (op == "lop3") {
    // d = F(a, b, c) bitwise, F's truth table in immLut (bit 4a + 2b + c, as the PTX ISA
    // spells it with ta = 0xF0, tb = 0xCC, tc = 0xAA).
    if (in.operands.size() != 5)
      return l.unsupported(in.loc, "lop3 with a predicate result is not supported yet");
    ASSIGN_OR_RETURN(Operand lut, l.read(in.operands[4], DataType::U32));
    if (!lut.is_imm()) return l.invalid(in.loc, "lop3 needs an immediate truth table");
    Bits vars[3];
    for (int k = 0; k < 3; ++k) {
      ASSIGN_OR_RETURN(Operand o, l.read(in.operands[1 + k], DataType::U32));
      vars[k] = o.is_imm() ? konst(static_cast<uint32_t>(o.imm)) : reg(o.value);
    }
    Bits r = lut_fn(l, static_cast<uint32_t>(lut.imm & 0xff), vars, 3);
    int v = r.is_const ? l.constant(DataType::U32, r.c) : l.copy(r.v);
    return l.write(in.operands[0], v);
  }
  if ((op == "min" || op == "max") && (Lowerer::has(in, "s16x2") || Lowerer::has(in, "u16x2"))) {
    // Per 16-bit half, each extended by the type's signedness; .relu (s16x2) clamps at 0.
    RETURN_IF_ERROR(l.want_operands(in, 3));
    const DataType t = Lowerer::has(in, "s16x2") ? DataType::S32 : DataType::U32;
    const bool relu = Lowerer::has(in, "relu");
    if (relu && t != DataType::S32) return l.invalid(in.loc, ".relu applies to min/max.s16x2");
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[1], DataType::U32));
    ASSIGN_OR_RETURN(Operand b, l.read(in.operands[2], DataType::U32));
    int half[2];
    for (int k = 0; k < 2; ++k) {
      int x = l.isa_op(Opcode::BFE, t, t, {a, u32(16 * k), u32(16)});
      int y = l.isa_op(Opcode::BFE, t, t, {b, u32(16 * k), u32(16)});
      half[k] = l.isa_op(op == "min" ? Opcode::IMIN : Opcode::IMAX, t, t,
                         {Operand::val(x), Operand::val(y)});
      if (relu) half[k] = l.isa_op(Opcode::IMAX, t, t, {Operand::val(half[k]), u32(0)});
    }
    return l.write(in.operands[0], l.pack_halves(half[0], half[1]));
  }
  if (op == "slct") {
    // d = c >= 0 ? a : b; c is .s32, or .f32 (-0 >= 0; .ftz flushes c).
    RETURN_IF_ERROR(l.want_operands(in, 4));
    std::vector<DataType> types;
    for (const auto& m : in.modifiers) {
      DataType t;
      if (ptx_type(m, &t)) types.push_back(t);
    }
    if (types.size() != 2 || (types[1] != DataType::S32 && types[1] != DataType::F32))
      return l.invalid(in.loc, "slct needs .dtype and .s32 or .f32");
    const DataType dt = arith_type(types[0]), ct = types[1];
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[1], dt));
    ASSIGN_OR_RETURN(Operand b, l.read(in.operands[2], dt));
    ASSIGN_OR_RETURN(Operand c, l.read(in.operands[3], ct));
    if (ct == DataType::F32 && Lowerer::has(in, "ftz")) c = Operand::val(flush_f32(l, c));
    if (c.is_imm()) c = Operand::val(l.constant(ct, c.imm));
    int p = l.isa_op(ct == DataType::F32 ? Opcode::FSETP : Opcode::ISETP, ct, DataType::Pred,
                     {c, Operand::immediate(0), Operand::immediate(1)},
                     static_cast<uint8_t>(CmpOp::GE));
    return l.write(in.operands[0], l.isa_op(Opcode::SEL, dt, dt, {a, b, Operand::val(p)}));
  }
  *handled = false;
  return ok_status();
}

}  // namespace

Status lower_int_extended(Lowerer& l, const ptx::Instruction& in, bool* handled) {
  RETURN_IF_ERROR(lower_carry(l, in, handled));
  if (*handled) return ok_status();
  return lower_int_extra(l, in, handled);
}

}  // namespace strata::compiler::ir
