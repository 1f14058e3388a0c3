// Reading and writing PTX operands: registers, special registers, immediates, symbols.
#include <fmt/format.h>

#include <cstring>

#include "compiler/ir/lowerer.h"
#include "compiler/sxbin/sxbin.h"

namespace strata::compiler::ir {
namespace {

using isa::SpecialReg;

int comp_index(char c) { return c == 'x' ? 0 : c == 'y' ? 1 : c == 'z' ? 2 : -1; }

uint64_t float_bits_for(const ptx::ImmFloat& f, DataType t) {
  if (t == DataType::F64) {
    if (!f.is_f32) return f.bits;
    float v;
    uint32_t b = static_cast<uint32_t>(f.bits);
    std::memcpy(&v, &b, 4);
    double d = v;
    uint64_t out;
    std::memcpy(&out, &d, 8);
    return out;
  }
  if (f.is_f32) return f.bits & 0xffffffffu;
  double d;
  std::memcpy(&d, &f.bits, 8);
  float v = static_cast<float>(d);
  uint32_t out;
  std::memcpy(&out, &v, 4);
  return out;
}

}  // namespace

StatusOr<Operand> Lowerer::symbol_address(const ptx::SymbolOperand& s, DataType t, const ptx::SourceLoc& loc) {
  uint64_t add = static_cast<uint64_t>(s.offset);
  if (const ScopedVar* v = find_scoped(s.name)) {
    if (v->space == "shared") {
      if (v->offset == ~uint64_t{0}) {
        Inst c;
        c.op = Op::kConst;
        c.symbol = "dynshared";
        c.imm = (uint64_t{3} << 62) | (add & 0xffffffffu);
        c.defs = {f_.new_value(t)};
        return Operand::val(emit(std::move(c)));
      }
      return Operand::immediate(v->offset + add);
    }
    if (v->space == "local") {
      if (!is_function_) return Operand::immediate(v->offset + add);
      // A frame's locals move with the stack pointer (docs/abi.md).
      Inst sp;
      sp.op = Op::kStackPointer;
      sp.defs = {f_.new_value(DataType::U32)};
      int base = emit(std::move(sp));
      int a = isa_op(Opcode::IADD, DataType::U32, DataType::U32, {Operand::val(base), Operand::immediate(v->offset + add)});
      return Operand::val(reg_class(t) == RegClass::k64 ? widen(a, false) : a);
    }
    // A kernel parameter's param-space address is its offset in c[0] (ld.param through
    // a register reads the bank; cvta.param maps it into the local copy).
    if (v->space == "param") return Operand::immediate(v->offset + add);
    return unsupported(loc, "taking the address of parameter '" + s.name + "' is not supported yet");
  }
  auto it = prog_.vars.find(s.name);
  if (it != prog_.vars.end()) {
    const ModuleVar& v = it->second;
    if (v.space == "const") return Operand::immediate(v.const_offset + add);
    if (v.space == "shared") {
      uint64_t off = shared_offset_of(s.name);
      if (off == ~uint64_t{0}) {
        Inst c;
        c.op = Op::kConst;
        c.symbol = "dynshared";
        c.imm = (uint64_t{3} << 62) | (add & 0xffffffffu);
        c.defs = {f_.new_value(t)};
        return Operand::val(emit(std::move(c)));
      }
      return Operand::immediate(off + add);
    }
    Inst i;
    i.op = Op::kSymAddr;
    i.symbol = s.name;
    i.imm = add;
    symbol_index(s.name);
    i.defs = {f_.new_value(DataType::U64)};
    return Operand::val(emit(std::move(i)));
  }
  if (auto fn = prog_.functions.find(s.name); fn != prog_.functions.end()) {
    if (fn->second->is_entry && fn->second->has_body && s.offset == 0) {
      // A kernel's address is its kernel descriptor's VA (sxbin.h "DEVICE LAUNCH"),
      // through the symbol table: what device-side launches take.
      Inst i;
      i.op = Op::kSymAddr;
      i.symbol = s.name;
      symbol_index(s.name);
      i.defs = {f_.new_value(DataType::U64)};
      return Operand::val(emit(std::move(i)));
    }
    if (!fn->second->has_body || fn->second->is_entry || s.offset != 0)
      return unsupported(loc, "taking the address of '" + s.name + "' (only defined .func bodies have code addresses)");
    // A function pointer is a module-wide constant (docs/abi.md "Code addresses"); an
    // indirect call maps it to the function's code in the calling kernel.
    info_.callees.insert(s.name);
    info_.address_taken.insert(s.name);
    return Operand::val(constant(t, prog_.function_pointers.at(s.name)));
  }
  return invalid(loc, "unknown symbol '" + s.name + "'");
}

StatusOr<Operand> Lowerer::read(const ptx::OperandSlot& s, DataType t) {
  const auto& loc = s.loc.line ? s.loc : (inst_ ? inst_->loc : s.loc);
  int bits = isa::type_bits(t);
  if (auto* r = std::get_if<ptx::RegOperand>(&s.value)) {
    const std::string& n = r->name;
    int c = comp_index(r->component);
    auto sr3 = [&](SpecialReg x) -> StatusOr<Operand> {
      if (c < 0) return invalid(loc, n + " needs a .x/.y/.z component");
      return Operand::val(special(static_cast<SpecialReg>(static_cast<int>(x) + c)));
    };
    auto pair = [&](SpecialReg lo, SpecialReg hi) -> Operand {
      int l = special(lo), h = special(hi);
      return Operand::val(pack(DataType::U64, {Operand::val(l), Operand::val(h)}));
    };
    if (n == "%tid") return sr3(SpecialReg::TID_X);
    if (n == "%ntid") return sr3(SpecialReg::NTID_X);
    if (n == "%ctaid") return sr3(SpecialReg::CTAID_X);
    if (n == "%nctaid") return sr3(SpecialReg::NCTAID_X);
    static const std::pair<const char*, SpecialReg> kScalars[] = {
        {"%laneid", SpecialReg::LANEID},         {"%warpid", SpecialReg::WARPID},
        {"%nwarpid", SpecialReg::NWARPID},       {"%smid", SpecialReg::SMID},
        {"%nsmid", SpecialReg::NSMID},           {"%lanemask_eq", SpecialReg::LANEMASK_EQ},
        {"%lanemask_lt", SpecialReg::LANEMASK_LT}, {"%lanemask_le", SpecialReg::LANEMASK_LE},
        {"%lanemask_gt", SpecialReg::LANEMASK_GT}, {"%lanemask_ge", SpecialReg::LANEMASK_GE},
        {"%clock", SpecialReg::CLOCK_LO},        {"%dynamic_smem_size", SpecialReg::DYNAMIC_SMEM_SIZE},
        {"%clock_hi", SpecialReg::CLOCK_HI},
        {"%total_smem_size", SpecialReg::TOTAL_SMEM_SIZE},
    };
    for (auto& [name, sr] : kScalars)
      if (n == name) return Operand::val(special(sr));
    if (n == "%clock64") return pair(SpecialReg::CLOCK_LO, SpecialReg::CLOCK_HI);
    if (n == "%globaltimer") return pair(SpecialReg::GLOBALTIMER_LO, SpecialReg::GLOBALTIMER_HI);
    if (n == "%gridid") return pair(SpecialReg::GRIDID_LO, SpecialReg::GRIDID_HI);
    if (n == "%globaltimer_lo") return Operand::val(special(SpecialReg::GLOBALTIMER_LO));
    if (n == "%globaltimer_hi") return Operand::val(special(SpecialReg::GLOBALTIMER_HI));
    if (!n.empty() && n[0] == '%' && frame().regs.count(n) == 0 && n.rfind("%envreg", 0) == 0) {
      // %envreg0..31 are driver-defined: the launch environment bank c[4] (sxbin.h),
      // which the driver binds at every launch (cooperative launches: the grid workspace).
      const std::string idx = n.substr(7);
      const bool valid = !idx.empty() && idx.size() <= 2 &&
                         idx.find_first_not_of("0123456789") == std::string::npos &&
                         (idx.size() == 1 || idx[0] != '0') &&
                         std::stoi(idx) < static_cast<int>(sxbin::kEnvRegCount);
      if (!valid) return invalid(loc, "unknown special register " + n);
      Inst ldc;
      ldc.op = Op::kIsa;
      ldc.isa_op = Opcode::LDC;
      ldc.type = DataType::U32;
      ldc.mod = static_cast<uint8_t>(sxbin::kEnvBank);
      ldc.imm = 4 * static_cast<uint64_t>(std::stoi(idx));
      ldc.srcs = {Operand::immediate(0)};
      ldc.defs = {f_.new_value(DataType::U32)};
      return Operand::val(emit(std::move(ldc)));
    }
    // Special registers of PTX that Strata does not model: a clear kNotSupported rather
    // than "unknown register".
    static const char* kUnmodeled[] = {"%pm",          "%cluster",       "%nclusterid",        "%is_explicit_cluster",
                                       "%aggr_smem_size", "%reserved_smem_offset", "%current_graph_exec"};
    if (!n.empty() && !reg_type(n, loc).ok())
      for (const char* prefix : kUnmodeled)
        if (n.rfind(prefix, 0) == 0) return unsupported(loc, "special register " + n + " is not supported yet");
    if (r->component) return unsupported(loc, "vector register components are not supported yet");
    ASSIGN_OR_RETURN(DataType rt, reg_type(n, loc));
    int v = ssa_.read(var_key(n), cur_, rt);
    if (s.negated) {
      if (rt != DataType::Pred) return invalid(loc, "'!' applies only to predicates");
      v = isa_op(Opcode::PLOP, DataType::Pred, DataType::Pred, {Operand::val(v), Operand::immediate(1)},
                 static_cast<uint8_t>(static_cast<int>(isa::BoolOp::AND) << 4));
      // negate the first source: handled by the ps_neg flag
      f_.blocks[cur_].insts.back().negate = true;
    }
    return Operand::val(v);
  }
  if (auto* i = std::get_if<ptx::ImmInt>(&s.value)) {
    uint64_t b = static_cast<uint64_t>(i->value);
    if (t == DataType::F16 || t == DataType::BF16) {
      // A half has no PTX literal form: an integer literal gives its bits (0x3c00 = 1.0).
      b &= 0xffffu;
    } else if (isa::type_is_float(t)) {
      // An integer literal used as a float operand means its value.
      if (t == DataType::F64) {
        double d = static_cast<double>(i->value);
        std::memcpy(&b, &d, 8);
      } else {
        float f = static_cast<float>(i->value);
        uint32_t u;
        std::memcpy(&u, &f, 4);
        b = u;
      }
    } else if (bits < 64 && bits > 0) {
      b &= (uint64_t{1} << bits) - 1;
    }
    if (t == DataType::Pred) b = b != 0;
    return Operand::immediate(b);
  }
  if (auto* f = std::get_if<ptx::ImmFloat>(&s.value)) {
    if (t == DataType::F16 || t == DataType::BF16)
      return unsupported(loc, "floating-point literals for ." + std::string(isa::type_name(t)) + " are not supported yet");
    if (!isa::type_is_float(t)) {
      if (bits == 32) return Operand::immediate(float_bits_for(*f, DataType::F32));
      if (bits == 64) return Operand::immediate(float_bits_for(*f, DataType::F64));
      return invalid(loc, "floating-point literal where an integer is expected");
    }
    return Operand::immediate(float_bits_for(*f, t));
  }
  if (auto* sym = std::get_if<ptx::SymbolOperand>(&s.value)) return symbol_address(*sym, t, loc);
  return invalid(loc, "unexpected operand");
}

StatusOr<int> Lowerer::read_value(const ptx::OperandSlot& s, DataType t) {
  ASSIGN_OR_RETURN(Operand o, read(s, t));
  if (!o.is_imm()) return o.value;
  DataType ct = t;
  if (isa::type_bits(t) <= 32 && t != DataType::Pred) ct = isa::type_is_float(t) ? t : DataType::U32;
  return constant(ct, o.imm);
}

StatusOr<int> Lowerer::read_pred(const ptx::OperandSlot& s) {
  ASSIGN_OR_RETURN(Operand o, read(s, DataType::Pred));
  if (o.is_imm()) return constant(DataType::Pred, o.imm != 0);
  if (f_.type_of(o.value) != DataType::Pred) return invalid(s.loc.line ? s.loc : inst_->loc, "operand is not a predicate");
  return o.value;
}

Status Lowerer::write(const ptx::OperandSlot& s, int value) {
  if (std::holds_alternative<ptx::SinkOperand>(s.value)) return ok_status();
  const auto& loc = s.loc.line ? s.loc : inst_->loc;
  auto* r = std::get_if<ptx::RegOperand>(&s.value);
  if (!r) return invalid(loc, "destination must be a register");
  if (r->component) return unsupported(loc, "vector register components are not supported yet");
  ASSIGN_OR_RETURN(DataType rt, reg_type(r->name, loc));
  DataType vt = f_.type_of(value);
  ir::RegClass want = reg_class(rt), have = reg_class(vt);
  if ((want == RegClass::kPred) != (have == RegClass::kPred))
    return invalid(loc, "predicate/register mismatch writing '" + r->name + "'");
  if (want != have) {
    if (want == RegClass::k32 && have == RegClass::k64) {
      value = low32(value);
    } else if (want == RegClass::k64 && have == RegClass::k32) {
      value = widen(value, isa::type_is_signed(vt));
    } else {
      return invalid(loc, "size mismatch writing '" + r->name + "'");
    }
  }
  ssa_.write(var_key(r->name), cur_, value);
  return ok_status();
}

}  // namespace strata::compiler::ir
