// cvt between integer widths, integers and floats, and float precisions; cvta.
#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {

namespace {
// cvt.f32 -> .f16/.bf16 rounded by `round`, then .relu (negative -> +0, NaN -> the
// canonical NaN 0x7fff) and .satfinite (NaN stays NaN; a result beyond the largest
// finite value, infinities included, becomes that value with its sign).
int to_half(Lowerer& l, Operand a, DataType et, uint8_t round, bool relu, bool satfinite) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::CVT;
  i.type = et;
  i.type2 = DataType::F32;
  i.mod = round;
  i.srcs = {a};
  i.defs = {l.f_.new_value(et)};
  int r = l.emit(std::move(i));
  const uint64_t inf = et == DataType::F16 ? 0x7c00 : 0x7f80, max = inf - 1;
  if (relu) {
    int pos = l.isa_op(Opcode::FMAX, et, et, {Operand::val(r), Operand::immediate(0)});
    int nan = l.isa_op(Opcode::FSETP, et, DataType::Pred, {Operand::val(r), Operand::val(r), Operand::immediate(1)},
                     static_cast<uint8_t>(isa::CmpOp::NAN_));
    r = l.isa_op(Opcode::SEL, DataType::U32, et, {Operand::val(l.constant(DataType::U32, 0x7fff)), Operand::val(pos), Operand::val(nan)});
  }
  if (satfinite) {
    int mag = l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(r), Operand::immediate(0x7fff)});
    int is_inf = l.isa_op(Opcode::ISETP, DataType::U32, DataType::Pred, {Operand::val(mag), Operand::immediate(inf), Operand::immediate(1)},
                        static_cast<uint8_t>(isa::CmpOp::EQ));
    int sign = l.isa_op(Opcode::AND, DataType::U32, DataType::U32, {Operand::val(r), Operand::immediate(0x8000)});
    int big = l.isa_op(Opcode::OR, DataType::U32, DataType::U32, {Operand::val(sign), Operand::immediate(max)});
    r = l.isa_op(Opcode::SEL, DataType::U32, et, {Operand::val(big), Operand::val(r), Operand::val(is_inf)});
  }
  return r;
}

// cvt to .tf32 (an .f32 bit pattern whose low 13 mantissa bits are zero), on the bits:
// .rna adds half an ulp to the magnitude and truncates, .rn adds just under half plus
// the lowest kept bit (ties to even), .rz truncates; NaN passes through. A carry into
// the exponent is correct (it rounds up to the next binade or to infinity).
int to_tf32(Lowerer& l, Operand a, bool rna, isa::Round round, bool relu, bool satfinite) {
  const DataType u = DataType::U32;
  int x = a.is_imm() ? l.constant(DataType::F32, a.imm) : a.value;
  if (relu) x = l.isa_op(Opcode::FMAX, DataType::F32, DataType::F32, {Operand::val(x), Operand::immediate(0)});
  int r = x;
  if (rna) {
    r = l.isa_op(Opcode::IADD, u, u, {Operand::val(x), Operand::immediate(0x1000)});
  } else if (round == isa::Round::RN) {
    int odd = l.isa_op(Opcode::BFE, u, u, {Operand::val(x), Operand::immediate(13), Operand::immediate(1)});
    int bias = l.isa_op(Opcode::IADD, u, u, {Operand::val(odd), Operand::immediate(0xfff)});
    r = l.isa_op(Opcode::IADD, u, u, {Operand::val(x), Operand::val(bias)});
  } else if (round != isa::Round::RZ) {
    // RM/RP are not PTX forms for .tf32.
    r = x;
  }
  r = l.isa_op(Opcode::AND, u, u, {Operand::val(r), Operand::immediate(0xffffe000u)});
  int nan = l.isa_op(Opcode::FSETP, DataType::F32, DataType::Pred, {Operand::val(x), Operand::val(x), Operand::immediate(1)},
                   static_cast<uint8_t>(isa::CmpOp::NAN_));
  if (relu) r = l.isa_op(Opcode::SEL, u, u, {Operand::val(l.constant(u, 0x7fffffffu)), Operand::val(r), Operand::val(nan)});
  else r = l.isa_op(Opcode::SEL, u, u, {Operand::val(x), Operand::val(r), Operand::val(nan)});
  if (satfinite) {
    int mag = l.isa_op(Opcode::AND, u, u, {Operand::val(r), Operand::immediate(0x7fffffffu)});
    int is_inf = l.isa_op(Opcode::ISETP, u, DataType::Pred, {Operand::val(mag), Operand::immediate(0x7f800000u), Operand::immediate(1)},
                        static_cast<uint8_t>(isa::CmpOp::EQ));
    int sign = l.isa_op(Opcode::AND, u, u, {Operand::val(r), Operand::immediate(0x80000000u)});
    int big = l.isa_op(Opcode::OR, u, u, {Operand::val(sign), Operand::immediate(0x7f7fe000u)});
    r = l.isa_op(Opcode::SEL, u, u, {Operand::val(big), Operand::val(r), Operand::val(is_inf)});
  }
  return r;
}

// The OCP FP8 formats of PTX .e4m3x2/.e5m2x2 (sm_89): e4m3 has bias 7, 3 mantissa bits,
// no infinities and NaN = S.1111.111 (largest finite 448); e5m2 has bias 15, 2 mantissa
// bits and is the upper byte of an f16.
struct Fp8 {
  int mant;
  uint32_t rebias;      // (127 - bias) << mant: f32 exponent field -> fp8 exponent field
  uint32_t min_normal;  // f32 bits of the smallest normal fp8 value
  uint32_t sub_magic;   // f32 bits of 2^23 * (the fp8 subnormal quantum)
  uint32_t max_finite, nan;
};
constexpr Fp8 kE4M3{3, 120u << 3, 0x3c800000u /*2^-6*/, 0x46800000u /*2^14*/, 0x7e, 0x7f};
constexpr Fp8 kE5M2{2, 112u << 2, 0x38800000u /*2^-14*/, 0x43000000u /*2^7*/, 0x7b, 0x7e};

// f32 -> fp8 (in the low byte), .rn.satfinite{.relu}, on the bits. Normal results: the
// f32 magnitude rounded to nearest-even at the fp8 mantissa width (a carry moves into
// the exponent), rebiased. Subnormal results: |x| + 2^23 * quantum rounds |x| to a
// multiple of the quantum in the FADD, and the difference of the bit patterns is the
// fp8 encoding (reaching the smallest normal exactly). Then the clamp to the largest
// finite value (.satfinite: also for infinities), the sign, and NaN.
int to_fp8(Lowerer& l, int x, const Fp8& f, bool relu) {
  const DataType u = DataType::U32;
  auto imm = [](uint64_t v) { return Operand::immediate(v); };
  auto op = [&](Opcode o, std::vector<Operand> s) { return l.isa_op(o, u, u, std::move(s)); };
  int nan = l.isa_op(Opcode::FSETP, DataType::F32, DataType::Pred, {Operand::val(x), Operand::val(x), imm(1)},
                     static_cast<uint8_t>(isa::CmpOp::NAN_));
  if (relu) x = l.isa_op(Opcode::FMAX, DataType::F32, DataType::F32, {Operand::val(x), imm(0)});
  const int shift = 23 - f.mant;
  int mag = op(Opcode::AND, {Operand::val(x), imm(0x7fffffffu)});
  int odd = l.isa_op(Opcode::BFE, u, u, {Operand::val(mag), imm(static_cast<uint64_t>(shift)), imm(1)});
  int bias = op(Opcode::IADD, {Operand::val(odd), imm((1u << (shift - 1)) - 1)});
  int rounded = op(Opcode::IADD, {Operand::val(mag), Operand::val(bias)});
  int top = op(Opcode::SHR, {Operand::val(rounded), imm(static_cast<uint64_t>(shift))});
  int normal = op(Opcode::ISUB, {Operand::val(top), imm(f.rebias)});
  int sum = l.isa_op(Opcode::FADD, DataType::F32, DataType::F32, {Operand::val(mag), imm(f.sub_magic)});
  int sub = op(Opcode::ISUB, {Operand::val(sum), imm(f.sub_magic)});
  int tiny = l.isa_op(Opcode::ISETP, u, DataType::Pred, {Operand::val(mag), imm(f.min_normal), imm(1)},
                      static_cast<uint8_t>(isa::CmpOp::LT));
  int bits = l.isa_op(Opcode::SEL, u, u, {Operand::val(sub), Operand::val(normal), Operand::val(tiny)});
  bits = op(Opcode::IMIN, {Operand::val(bits), imm(f.max_finite)});
  int sign = op(Opcode::SHR, {Operand::val(x), imm(31)});
  sign = op(Opcode::SHL, {Operand::val(sign), imm(7)});
  bits = op(Opcode::OR, {Operand::val(bits), Operand::val(sign)});
  return l.isa_op(Opcode::SEL, u, u, {imm(f.nan), Operand::val(bits), Operand::val(nan)});
}

// fp8 (the low byte of `b`) -> F16, exact. e5m2 is the upper byte of an f16. e4m3: its
// magnitude bits shifted into an f16's exponent and mantissa fields read as 2^-8 times
// the value (normal and subnormal alike, the exponent biases differing by 8), so one
// exact FMUL by 2^8 scales it; then the sign, and NaN.
int fp8_to_f16(Lowerer& l, int b, bool e4m3, bool relu) {
  const DataType u = DataType::U32;
  auto imm = [](uint64_t v) { return Operand::immediate(v); };
  int r;
  if (!e4m3) {
    int byte = l.isa_op(Opcode::AND, u, u, {Operand::val(b), imm(0xff)});
    r = l.isa_op(Opcode::SHL, u, DataType::F16, {Operand::val(byte), imm(8)});
  } else {
    int mag = l.isa_op(Opcode::AND, u, u, {Operand::val(b), imm(0x7f)});
    int field = l.isa_op(Opcode::SHL, u, DataType::F16, {Operand::val(mag), imm(7)});
    int scaled = l.isa_op(Opcode::FMUL, DataType::F16, DataType::F16, {Operand::val(field), imm(0x5c00 /*256*/)});
    int sign = l.isa_op(Opcode::AND, u, u, {Operand::val(b), imm(0x80)});
    sign = l.isa_op(Opcode::SHL, u, u, {Operand::val(sign), imm(8)});
    int v = l.isa_op(Opcode::OR, u, DataType::F16, {Operand::val(scaled), Operand::val(sign)});
    int nan = l.isa_op(Opcode::ISETP, u, DataType::Pred, {Operand::val(mag), imm(0x7f), imm(1)}, static_cast<uint8_t>(isa::CmpOp::EQ));
    r = l.isa_op(Opcode::SEL, u, DataType::F16, {imm(0x7fff), Operand::val(v), Operand::val(nan)});
  }
  if (relu) {
    int pos = l.isa_op(Opcode::FMAX, DataType::F16, DataType::F16, {Operand::val(r), imm(0)});
    int nan = l.isa_op(Opcode::FSETP, DataType::F16, DataType::Pred, {Operand::val(r), Operand::val(r), imm(1)},
                       static_cast<uint8_t>(isa::CmpOp::NAN_));
    r = l.isa_op(Opcode::SEL, u, DataType::F16, {imm(0x7fff), Operand::val(pos), Operand::val(nan)});
  }
  return r;
}

// cvt to and from .e4m3x2/.e5m2x2 (PTX ISA cvt, sm_89): f32 pairs (a to the upper byte)
// and f16x2 -> fp8x2 with .rn.satfinite{.relu}; fp8x2 -> f16x2 with .rn{.relu}.
Status lower_fp8(Lowerer& l, const ptx::Instruction& in) {
  const bool to_f16 = Lowerer::has(in, "f16x2") && in.operands.size() == 2 &&
                      (in.modifiers.back() == "e4m3x2" || in.modifiers.back() == "e5m2x2");
  const bool e4m3 = Lowerer::has(in, "e4m3x2"), relu = Lowerer::has(in, "relu");
  if (!Lowerer::has(in, "rn")) return l.invalid(in.loc, "cvt with an fp8 type needs .rn");
  if (to_f16) {
    ASSIGN_OR_RETURN(int a, l.read_value(in.operands[1], DataType::U32));
    int hi = l.isa_op(Opcode::SHR, DataType::U32, DataType::U32, {Operand::val(a), Operand::immediate(8)});
    return l.write(in.operands[0], l.pack_halves(fp8_to_f16(l, a, e4m3, relu), fp8_to_f16(l, hi, e4m3, relu)));
  }
  if (!Lowerer::has(in, "satfinite")) return l.invalid(in.loc, "cvt to an fp8 type needs .satfinite");
  const Fp8& f = e4m3 ? kE4M3 : kE5M2;
  int lanes[2];  // low byte, high byte
  if (in.modifiers.back() == "f16x2") {
    RETURN_IF_ERROR(l.want_operands(in, 2));
    ASSIGN_OR_RETURN(int a, l.read_value(in.operands[1], DataType::U32));
    for (int k = 0; k < 2; ++k) {
      int h = k ? l.isa_op(Opcode::SHR, DataType::U32, DataType::U32, {Operand::val(a), Operand::immediate(16)}) : a;
      Inst c;
      c.op = Op::kIsa;
      c.isa_op = Opcode::CVT;
      c.type = DataType::F32;
      c.type2 = DataType::F16;
      c.srcs = {Operand::val(h)};
      c.defs = {l.f_.new_value(DataType::F32)};
      lanes[k] = to_fp8(l, l.emit(std::move(c)), f, relu);
    }
  } else {
    RETURN_IF_ERROR(l.want_operands(in, 3));
    if (in.modifiers.back() != "f32") return l.invalid(in.loc, "cvt to an fp8 pair takes two .f32 sources or an .f16x2");
    for (int k = 0; k < 2; ++k) {
      ASSIGN_OR_RETURN(int a, l.read_value(in.operands[2 - k], DataType::F32));
      lanes[k] = to_fp8(l, a, f, relu);
    }
  }
  int hi = l.isa_op(Opcode::SHL, DataType::U32, DataType::U32, {Operand::val(lanes[1]), Operand::immediate(8)});
  return l.write(in.operands[0], l.isa_op(Opcode::OR, DataType::U32, DataType::U32, {Operand::val(hi), Operand::val(lanes[0])}));
}
}  // namespace

Status Lowerer::lower_cvt(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  if (in.opcode == "cvta") {
    RETURN_IF_ERROR(want_operands(in, 2));
    bool to = has(in, "to");
    isa::MemSpace space = isa::MemSpace::GLOBAL;
    if (has(in, "shared")) space = isa::MemSpace::SHARED;
    else if (has(in, "local")) space = isa::MemSpace::LOCAL;
    else if (has(in, "const")) space = isa::MemSpace::CONST;
    // A kernel parameter's address is its c[0] offset; as a generic address it lies in
    // the thread's local copy of the parameter block (Lowerer::param_copy_).
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
    if (has(in, "param") && !is_function_) {
      const uint64_t copy = param_copy_offset();
      base = isa_op(Opcode::IADD, DataType::U64, DataType::U64, {Operand::val(base), Operand::immediate(copy)});
    }
    int r = isa_op(to ? Opcode::ISUB : Opcode::IADD, DataType::U64, DataType::U64, {Operand::val(av), Operand::val(base)});
    return write(in.operands[0], r);
  }
  if (in.opcode != "cvt") {
    *handled = false;
    return ok_status();
  }
  if (has(in, "e4m3x2") || has(in, "e5m2x2")) return lower_fp8(*this, in);
  if (has(in, "rs") || has(in, "ue8m0x2") || has(in, "e2m1x2") || has(in, "e3m2x2") || has(in, "e2m3x2")) {
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
  const bool relu = has(in, "relu"), satfinite = has(in, "satfinite");
  if (has(in, "tf32")) {
    RETURN_IF_ERROR(want_operands(in, 2));
    if (!has(in, "f32")) return invalid(in.loc, "cvt to .tf32 takes an .f32 source");
    ASSIGN_OR_RETURN(Operand a, read(in.operands[1], DataType::F32));
    return write(in.operands[0], to_tf32(*this, a, has(in, "rna"), static_cast<isa::Round>(round), relu, satfinite));
  }
  if (has(in, "rna")) return unsupported(in.loc, "cvt.rna is a PTX form for .tf32 destinations only");
  if (has(in, "f16x2") || has(in, "bf16x2")) {
    // cvt.rnd{.relu}{.satfinite}.{f16x2,bf16x2}.f32 d, a, b: a converted in the upper
    // half, b in the lower.
    RETURN_IF_ERROR(want_operands(in, 3));
    if (!has(in, "f32")) return invalid(in.loc, "cvt to .f16x2/.bf16x2 takes two .f32 sources");
    const DataType et = has(in, "bf16x2") ? DataType::BF16 : DataType::F16;
    int half[2];
    for (int k = 0; k < 2; ++k) {
      ASSIGN_OR_RETURN(Operand a, read(in.operands[2 - k], DataType::F32));
      half[k] = to_half(*this, a, et, round, relu, satfinite);
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
  if (relu || satfinite) {
    if ((dt != DataType::F16 && dt != DataType::BF16) || st != DataType::F32)
      return invalid(in.loc, ".relu/.satfinite take an .f16 or .bf16 destination and an .f32 source");
    return write(in.operands[0], to_half(*this, a, dt, mod & 3, relu, satfinite));
  }
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
