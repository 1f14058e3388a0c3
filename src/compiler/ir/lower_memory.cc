// ld/st on every state space (scalar and .v2/.v4), ld.param/st.param, atom and red.
#include <fmt/format.h>

#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {
namespace {

using isa::MemSpace;

struct Access {
  MemSpace space = MemSpace::GENERIC;
  bool is_param = false;
  bool is_const_bank = false;  // ld.const -> LDC bank 2
};

Access access_space(const ptx::Instruction& in) {
  Access a;
  for (const auto& m : in.modifiers) {
    if (m == "global") a.space = MemSpace::GLOBAL;
    if (m == "shared") a.space = MemSpace::SHARED;
    if (m == "local") a.space = MemSpace::LOCAL;
    if (m == "const") a.is_const_bank = true;
    if (m == "param") a.is_param = true;
  }
  return a;
}

void mem_order(const ptx::Instruction& in, isa::MemSem* sem, isa::MemScope* scope, bool atomic) {
  *sem = atomic ? isa::MemSem::RELAXED : isa::MemSem::WEAK;
  *scope = atomic ? isa::MemScope::GPU : isa::MemScope::CTA;
  for (const auto& m : in.modifiers) {
    if (m == "volatile") {
      *sem = isa::MemSem::RELAXED;
      *scope = isa::MemScope::SYS;
    }
    if (m == "relaxed") *sem = isa::MemSem::RELAXED;
    if (m == "acquire") *sem = isa::MemSem::ACQUIRE;
    if (m == "release" || m == "acq_rel") *sem = isa::MemSem::RELEASE;
    if (m == "cta") *scope = isa::MemScope::CTA;
    if (m == "gpu") *scope = isa::MemScope::GPU;
    if (m == "sys") *scope = isa::MemScope::SYS;
  }
  if (*sem != isa::MemSem::WEAK && !atomic) {
    bool scoped = false;
    for (const auto& m : in.modifiers) scoped |= m == "cta" || m == "gpu" || m == "sys";
    if (!scoped && *scope == isa::MemScope::CTA) *scope = isa::MemScope::GPU;
  }
}

// The IR type of a loaded scalar of PTX type `t` (elements of `bytes` <= 8): 1/2-byte
// loads arrive extended to 32 bits by the type's signedness, so the 32-bit value
// carries that signedness and a write into a 64-bit register extends it the same way.
DataType loaded_type(DataType t, int bytes) {
  if (bytes == 8) return DataType::U64;
  return isa::type_is_signed(t) ? DataType::S32 : DataType::U32;
}

DataType mem_type(int bytes, bool is_signed) {
  switch (bytes) {
    case 1: return is_signed ? DataType::S8 : DataType::U8;
    case 2: return is_signed ? DataType::S16 : DataType::U16;
    case 4: return DataType::U32;
    case 8: return DataType::U64;
    default: return DataType::B128;
  }
}

}  // namespace

StatusOr<MemAddr> mem_address(Lowerer& l, const ptx::Instruction& in, const ptx::OperandSlot& slot,
                                     MemSpace space, bool const_bank) {
  auto* a = std::get_if<ptx::AddressOperand>(&slot.value);
  if (!a) return l.invalid(in.loc, "expected a memory operand [address]");
  MemAddr out;
  bool wide = space == MemSpace::GLOBAL || space == MemSpace::GENERIC;
  int64_t off = a->offset;
  if (a->base_is_reg) {
    ASSIGN_OR_RETURN(DataType rt, l.reg_type(a->base, in.loc));
    if (rt == DataType::Pred) return l.invalid(in.loc, "a predicate cannot be an address");
    int v = l.ssa_.read(l.var_key(a->base), l.cur_, rt);
    bool is64 = reg_class(rt) == RegClass::k64;
    if (wide && !is64) v = l.widen(v, false);
    if (!wide && is64) v = l.low32(v);
    out.base = Operand::val(v);
  } else if (!a->base.empty()) {
    const ScopedVar* sv = l.find_scoped(a->base);
    auto gv = l.prog_.vars.find(a->base);
    std::string vspace = sv ? sv->space : gv != l.prog_.vars.end() ? gv->second.space : "";
    if (vspace.empty()) return l.invalid(in.loc, "unknown symbol '" + a->base + "'");
    bool direct = (space == MemSpace::SHARED && vspace == "shared") ||
                  (space == MemSpace::LOCAL && vspace == "local") || (const_bank && vspace == "const");
    if (direct) {
      uint64_t base_off;
      if (vspace == "const") base_off = gv->second.const_offset;
      else if (sv) base_off = sv->offset;
      else base_off = l.shared_offset_of(a->base);
      if (base_off == ~uint64_t{0}) {  // dynamic shared: patched after layout
        out.offset = (uint64_t{1} << 63) | static_cast<uint64_t>(off);
        return out;
      }
      out.offset = base_off + static_cast<uint64_t>(off);
      return out;
    }
    if (vspace == "global" && wide) {
      ASSIGN_OR_RETURN(Operand addr, l.symbol_address(ptx::SymbolOperand{a->base, 0}, DataType::U64, in.loc));
      out.base = addr;
    } else if (space == MemSpace::GENERIC) {
      ptx::SymbolOperand s{a->base, 0};
      ASSIGN_OR_RETURN(Operand addr, l.symbol_address(s, DataType::U64, in.loc));
      // A shared/local/const symbol in a generic access: convert to generic.
      int v = addr.is_imm() ? l.constant(DataType::U64, addr.imm) : addr.value;
      if (reg_class(l.f_.type_of(v)) == RegClass::k32) v = l.widen(v, false);
      Inst b;
      b.op = vspace == "shared" ? Op::kSharedBase : vspace == "local" ? Op::kLocalBase : Op::kSymAddr;
      if (vspace == "const") return l.unsupported(in.loc, "generic access to a const symbol is not supported yet");
      if (vspace != "shared" && vspace != "local") return l.invalid(in.loc, "bad generic access to '" + a->base + "'");
      b.defs = {l.f_.new_value(DataType::U64)};
      int base = l.emit(std::move(b));
      out.base = Operand::val(l.isa_op(Opcode::IADD, DataType::U64, DataType::U64, {Operand::val(v), Operand::val(base)}));
    } else {
      return l.invalid(in.loc, "'" + a->base + "' is not in the accessed state space");
    }
  } else {
    if (wide) out.base = Operand::val(l.constant(DataType::U64, static_cast<uint64_t>(off)));
    else out.offset = static_cast<uint64_t>(off) & 0xffffffffu;
    if (wide) return out;
    return out;
  }
  if (off < 0 || off >= (int64_t{1} << 31)) {
    DataType at = wide ? DataType::U64 : DataType::U32;
    int c = l.constant(at, wide ? static_cast<uint64_t>(off) : static_cast<uint64_t>(off) & 0xffffffffu);
    out.base = Operand::val(l.isa_op(Opcode::IADD, at, at, {out.base, Operand::val(c)}));
  } else {
    out.offset += static_cast<uint64_t>(off);
  }
  return out;
}

// alloca, stacksave, stackrestore. Allocations come from a per-thread arena of
// kAllocaArena bytes in local memory, reserved on the kernel's first use; the stack
// pointer is an SSA variable holding the arena's used bytes (read before any write it
// is the zero constant SsaBuilder gives undefined variables: the empty arena).
// Allocations are released by stackrestore; a function inlined into its caller keeps
// its allocations until the kernel ends (the arena is not shared with the call stack).
// An allocation that does not fit returns an address past the thread's local memory,
// so its first access faults (kAddressSpace) instead of overwriting other data.
constexpr uint64_t kAllocaArena = 4096;
constexpr char kAllocaSp[] = "%alloca.sp";  // not a PTX name, shared by every frame

static Status lower_stack(Lowerer& l, const ptx::Instruction& in) {
  const std::string& op = in.opcode;
  if (l.is_function_)
    return l.unsupported(in.loc, "PTX instruction '" + op + "' in a separately called function is not supported yet");
  ASSIGN_OR_RETURN(DataType t, Lowerer::inst_type(l, in));
  t = arith_type(t);
  if (t != DataType::U32 && t != DataType::U64) return l.invalid(in.loc, op + " takes .u32 or .u64");
  if (l.alloca_arena_ < 0) {
    l.local_top_ = (l.local_top_ + 15) / 16 * 16;
    l.alloca_arena_ = static_cast<int64_t>(l.local_top_);
    l.local_top_ += kAllocaArena;
  }
  const uint64_t base = static_cast<uint64_t>(l.alloca_arena_);
  const int sp = l.ssa_.read(kAllocaSp, l.cur_, DataType::U32);
  auto to32 = [&](Operand o) {
    if (o.is_imm()) return Operand::immediate(o.imm & 0xffffffffu);
    return reg_class(l.f_.type_of(o.value)) == RegClass::k64 ? Operand::val(l.low32(o.value)) : o;
  };
  auto result = [&](int v32) { return t == DataType::U64 ? l.widen(v32, false) : v32; };
  const auto u32 = DataType::U32;
  if (op == "stacksave") {
    RETURN_IF_ERROR(l.want_operands(in, 1));
    int v = l.isa_op(Opcode::IADD, u32, u32, {Operand::val(sp), Operand::immediate(base)});
    return l.write(in.operands[0], result(v));
  }
  if (op == "stackrestore") {
    RETURN_IF_ERROR(l.want_operands(in, 1));
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[0], t));
    int v = l.isa_op(Opcode::IADD, u32, u32, {to32(a), Operand::immediate((0 - base) & 0xffffffffu)});
    l.ssa_.write(kAllocaSp, l.cur_, v);
    return ok_status();
  }
  if (in.operands.size() != 2) RETURN_IF_ERROR(l.want_operands(in, 3));
  uint64_t align = 8;  // the minimum guaranteed alignment
  if (in.operands.size() == 3) {
    ASSIGN_OR_RETURN(Operand a, l.read(in.operands[2], u32));
    if (!a.is_imm() || a.imm == 0 || (a.imm & (a.imm - 1)) != 0 || a.imm > (uint64_t{1} << 23))
      return l.invalid(in.loc, "alloca alignment must be a constant power of two up to 2^23");
    align = std::max<uint64_t>(align, a.imm);
  }
  ASSIGN_OR_RETURN(Operand size, l.read(in.operands[1], t));
  int at = l.isa_op(Opcode::IADD, u32, u32, {Operand::val(sp), Operand::immediate(base + align - 1)});
  int ptr = l.isa_op(Opcode::AND, u32, u32, {Operand::val(at), Operand::immediate(~(align - 1) & 0xffffffffu)});
  int end = l.isa_op(Opcode::IADD, u32, u32, {Operand::val(ptr), to32(size)});
  int used = l.isa_op(Opcode::IADD, u32, u32, {Operand::val(end), Operand::immediate((0 - base) & 0xffffffffu)});
  // Too large (or wrapped past 2^32): an address beyond local memory.
  const uint8_t gt = static_cast<uint8_t>(static_cast<int>(isa::CmpOp::GT) | (static_cast<int>(isa::BoolOp::AND) << 4));
  const uint8_t lt = static_cast<uint8_t>(static_cast<int>(isa::CmpOp::LT) | (static_cast<int>(isa::BoolOp::OR) << 4));
  int over = l.isa_op(Opcode::ISETP, u32, DataType::Pred, {Operand::val(used), Operand::immediate(kAllocaArena), Operand::immediate(1)}, gt);
  over = l.isa_op(Opcode::ISETP, u32, DataType::Pred, {Operand::val(end), Operand::val(ptr), Operand::val(over)}, lt);
  int out = l.isa_op(Opcode::SEL, u32, u32, {Operand::immediate(0xfff00000u), Operand::val(ptr), Operand::val(over)});
  l.ssa_.write(kAllocaSp, l.cur_, used);
  return l.write(in.operands[0], result(out));
}

Status Lowerer::lower_memory(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  const std::string& op = in.opcode;
  if (op == "alloca" || op == "stacksave" || op == "stackrestore") return lower_stack(*this, in);
  bool is_ld = op == "ld" || op == "ldu", is_st = op == "st";
  if (!is_ld && !is_st) {
    *handled = false;
    return ok_status();
  }
  RETURN_IF_ERROR(want_operands(in, 2));
  ASSIGN_OR_RETURN(DataType t, inst_type(*this, in));
  Access acc = access_space(in);
  int vec = has(in, "v2") ? 2 : has(in, "v4") ? 4 : has(in, "v8") ? 8 : 1;
  int elem = isa::type_bits(t) / 8;
  if (t == DataType::Pred || elem == 0) return invalid(in.loc, op + " cannot access ." + std::string(isa::type_name(t)));
  const ptx::OperandSlot& mem = is_ld ? in.operands[1] : in.operands[0];
  const ptx::OperandSlot& data = is_ld ? in.operands[0] : in.operands[1];
  std::vector<ptx::OperandSlot> elems;
  if (vec > 1) {
    auto* v = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&data.value);
    if (!v || !*v || static_cast<int>((*v)->elements.size()) != vec)
      return invalid(in.loc, fmt::format("{}.v{} needs a vector of {} registers", op, vec, vec));
    for (auto& e : (*v)->elements) elems.push_back(ptx::OperandSlot{e, false, in.loc});
  } else {
    elems.push_back(data);
  }

  // A kernel parameter element read from constant bank 0 at base + imm.
  const auto load_param_bank = [&](Operand base, uint64_t imm) {
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = Opcode::LDC;
    i.type = mem_type(elem, isa::type_is_signed(t));
    i.mod = 0;
    i.imm = imm;
    i.srcs = {base};
    i.defs = {f_.new_value(loaded_type(t, elem))};
    return emit(std::move(i));
  };
  // ld.param through a register: the register holds a kernel parameter's address, its
  // offset in constant bank 0 (lower_operands.cc), read with LDC c[0][reg + offset]. (A
  // separately called .func reads the kernel's local copy of the parameters.)
  if (acc.is_param) {
    auto* a = std::get_if<ptx::AddressOperand>(&mem.value);
    if (a && (a->base_is_reg || a->base.empty()) && is_function_) {
      if (is_st) return unsupported(in.loc, "st.param through a register address is not supported yet");
      param_copy_offset();
      acc.is_param = false;
      acc.space = MemSpace::LOCAL;
    } else if (a && (a->base_is_reg || a->base.empty())) {
      if (is_st) return unsupported(in.loc, "st.param through a register address is not supported yet");
      if (elem > 8) return unsupported(in.loc, "16-byte parameter loads are not supported yet");
      ASSIGN_OR_RETURN(MemAddr addr, mem_address(*this, in, mem, MemSpace::CONST, /*const_bank=*/false));
      for (int k = 0; k < vec; ++k)
        RETURN_IF_ERROR(write(elems[k], load_param_bank(addr.base, addr.offset + static_cast<uint64_t>(k) * elem)));
      return ok_status();
    }
  }
  // Parameters.
  if (acc.is_param) {
    auto* a = std::get_if<ptx::AddressOperand>(&mem.value);
    if (!a) return invalid(in.loc, "expected a memory operand [address]");
    const ScopedVar* sv = find_scoped(a->base);
    if (!sv) return invalid(in.loc, "unknown parameter '" + a->base + "'");
    for (int k = 0; k < vec; ++k) {
      int64_t off = a->offset + static_cast<int64_t>(k) * elem;
      if (sv->space == "fframe") {
        RETURN_IF_ERROR(frame_param_access(is_st ? Opcode::ST : Opcode::LD, mem_type(elem, isa::type_is_signed(t)),
                                           loaded_type(t, elem), static_cast<int64_t>(sv->offset) + off, elems[k]));
      } else if (sv->space == "param") {
        if (is_st) return invalid(in.loc, "kernel parameters are read-only");
        if (elem > 8) return unsupported(in.loc, "16-byte parameter loads are not supported yet");
        RETURN_IF_ERROR(write(elems[k], load_param_bank(Operand::immediate(0), sv->offset + static_cast<uint64_t>(off))));
      } else {
        // An SSA value per stored piece (write_param / read_param, lower_call.cc).
        if (elem > 8)
          return unsupported(
              in.loc, fmt::format("{}.param of {}-byte elements is not supported yet", op, elem));
        DataType vt = elem == 8 ? DataType::U64 : DataType::U32;
        if (is_st) {
          ASSIGN_OR_RETURN(int v, read_value(elems[k], t));
          if (reg_class(f_.type_of(v)) != reg_class(vt)) {
            if (reg_class(vt) == RegClass::k32) v = low32(v);
            else v = widen(v, isa::type_is_signed(t));
          }
          RETURN_IF_ERROR(write_param(a->base, off, elem, v));
        } else {
          int v = read_param(a->base, off, elem);
          if (elem < 4) {
            // The stored register may hold bits above the parameter's width.
            Inst cv;
            cv.op = Op::kIsa;
            cv.isa_op = Opcode::CVT;
            cv.type = loaded_type(t, elem);
            cv.type2 = mem_type(elem, isa::type_is_signed(t));
            cv.srcs = {Operand::val(v)};
            cv.defs = {f_.new_value(cv.type)};
            v = emit(std::move(cv));
          } else if (elem == 4 && f_.type_of(v) != loaded_type(t, elem)) {
            int c = f_.new_value(loaded_type(t, elem));
            Inst cp;
            cp.op = Op::kCopy;
            cp.defs = {c};
            cp.srcs = {Operand::val(v)};
            v = emit(std::move(cp));
          }
          RETURN_IF_ERROR(write(elems[k], v));
        }
      }
    }
    return ok_status();
  }

  isa::MemSem sem;
  isa::MemScope scope;
  mem_order(in, &sem, &scope, false);
  int total = elem * vec;
  if (total > 16) return unsupported(in.loc, "accesses wider than 16 bytes are not supported yet");
  MemSpace space = acc.is_const_bank ? MemSpace::CONST : acc.space;
  ASSIGN_OR_RETURN(MemAddr addr, mem_address(*this, in, mem, space, acc.is_const_bank));
  DataType wt = mem_type(total, isa::type_is_signed(t) && vec == 1);
  DataType vt = total == 16 ? DataType::B128 : vec == 1 ? loaded_type(t, total) : total == 8 ? DataType::U64 : DataType::U32;
  if (is_ld) {
    Inst i;
    i.op = Op::kIsa;
    if (acc.is_const_bank) {
      if (is_st) return invalid(in.loc, "constant memory is read-only");
      i.isa_op = Opcode::LDC;
      i.mod = 2;
      if (!addr.base.is_imm()) {
        int b = addr.base.value;
        if (reg_class(f_.type_of(b)) == RegClass::k64) b = low32(b);
        addr.base = Operand::val(b);
      }
    } else {
      i.isa_op = Opcode::LD;
      i.space = space;
      i.sem = sem;
      i.scope = scope;
    }
    i.type = wt;
    i.imm = addr.offset;
    i.srcs = {addr.base};
    i.defs = {f_.new_value(vt)};
    int v = emit(std::move(i));
    if (vec == 1) return write(elems[0], v);
    if (elem < 4) {
      // Narrow elements arrive packed (the access is naturally aligned to its whole
      // size): element k is bits [8 * elem * k, +8 * elem) of the loaded value,
      // extended by the element type's signedness.
      DataType et = loaded_type(t, elem);
      for (int k = 0; k < vec; ++k) {
        int bit = 8 * elem * k;
        int word = total > 4 ? extract(v, bit / 32) : v;
        int part = isa_op(Opcode::BFE, et, et,
                          {Operand::val(word), Operand::immediate(static_cast<uint64_t>(bit % 32)),
                           Operand::immediate(static_cast<uint64_t>(8 * elem))});
        RETURN_IF_ERROR(write(elems[k], part));
      }
      return ok_status();
    }
    for (int k = 0; k < vec; ++k) {
      int part;
      if (elem == 4) part = extract(v, k);
      else part = pack(DataType::U64, {Operand::val(extract(v, 2 * k)), Operand::val(extract(v, 2 * k + 1))});
      RETURN_IF_ERROR(write(elems[k], part));
    }
    return ok_status();
  }
  if (acc.is_const_bank) return invalid(in.loc, "constant memory is read-only");
  Operand value;
  if (vec == 1) {
    ASSIGN_OR_RETURN(Operand o, read(elems[0], t));
    value = o;
  } else if (elem < 4) {
    // Pack the narrow elements into 32-bit words (BFI keeps only each element's width).
    std::vector<Operand> words;
    int word = kNoValue;
    for (int k = 0; k < vec; ++k) {
      ASSIGN_OR_RETURN(Operand o, read(elems[k], t));
      if (!o.is_imm() && reg_class(f_.type_of(o.value)) == RegClass::k64) o = Operand::val(low32(o.value));
      int bit = (8 * elem * k) % 32;
      uint64_t field = static_cast<uint64_t>(bit) | (static_cast<uint64_t>(8 * elem) << 8);
      if (bit == 0) {
        uint64_t mask = elem == 1 ? 0xffu : 0xffffu;
        if (o.is_imm()) word = constant(DataType::U32, o.imm & mask);
        else word = isa_op(Opcode::AND, DataType::U32, DataType::U32, {o, Operand::immediate(mask)});
      } else {
        int src = o.is_imm() ? constant(DataType::U32, o.imm) : o.value;
        word = isa_op(Opcode::BFI, DataType::U32, DataType::U32,
                      {Operand::val(src), Operand::immediate(0), Operand::val(word)}, 0, field);
      }
      if (bit + 8 * elem == 32 || k == vec - 1) words.push_back(Operand::val(word));
    }
    value = words.size() == 1 ? words[0] : Operand::val(pack(words.size() == 2 ? DataType::U64 : DataType::B128, words));
  } else {
    std::vector<Operand> parts;
    for (int k = 0; k < vec; ++k) {
      ASSIGN_OR_RETURN(Operand o, read(elems[k], t));
      if (elem == 4) {
        parts.push_back(o);
      } else {
        int v = o.is_imm() ? constant(DataType::U64, o.imm) : o.value;
        parts.push_back(Operand::val(extract(v, 0)));
        parts.push_back(Operand::val(extract(v, 1)));
      }
    }
    value = Operand::val(pack(vt, parts));
  }
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::ST;
  i.space = space;
  i.sem = sem;
  i.scope = scope;
  i.type = wt;
  i.imm = addr.offset;
  i.srcs = {addr.base, value};
  emit(std::move(i));
  return ok_status();
}

Status Lowerer::lower_atomic(const ptx::Instruction& in, bool* handled) {
  *handled = true;
  bool red = in.opcode == "red";
  if (in.opcode != "atom" && !red) {
    *handled = false;
    return ok_status();
  }
  ASSIGN_OR_RETURN(DataType t0, inst_type(*this, in));
  DataType t = arith_type(t0);
  static const std::pair<const char*, isa::AtomOp> kOps[] = {
      {"add", isa::AtomOp::ADD}, {"min", isa::AtomOp::MIN}, {"max", isa::AtomOp::MAX},
      {"inc", isa::AtomOp::INC}, {"dec", isa::AtomOp::DEC}, {"and", isa::AtomOp::AND},
      {"or", isa::AtomOp::OR},   {"xor", isa::AtomOp::XOR}, {"exch", isa::AtomOp::EXCH},
      {"cas", isa::AtomOp::CAS},
  };
  bool found = false;
  isa::AtomOp aop = isa::AtomOp::ADD;
  for (auto& [n, o] : kOps)
    if (has(in, n)) {
      aop = o;
      found = true;
    }
  if (!found) return invalid(in.loc, in.opcode + " needs an operation");
  std::string form = in.opcode;
  for (const auto& m : in.modifiers) form += "." + m;
  if (t0 == DataType::B128 || has(in, "v2") || has(in, "v4") || has(in, "v8"))
    return unsupported(in.loc, "PTX instruction '" + form + "' (128-bit or vector atomics) is not supported yet");
  // .f16x2/.bf16x2 (parsed as .b32): both halves added in one atomic (ADD2).
  const bool pair = has(in, "f16x2") || has(in, "bf16x2");
  if (pair) {
    if (aop != isa::AtomOp::ADD) return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
    aop = isa::AtomOp::ADD2;
    t = has(in, "bf16x2") ? DataType::BF16 : DataType::F16;
  }
  if (!pair && (t == DataType::F16 || t == DataType::BF16) && aop != isa::AtomOp::ADD)
    return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  if (t == DataType::U16 && aop != isa::AtomOp::CAS)
    return unsupported(in.loc, "PTX instruction '" + form + "' is not supported yet");
  if (isa::type_bits(t) == 8) return invalid(in.loc, in.opcode + " cannot access 8-bit data");
  if (isa::type_is_float(t) && aop != isa::AtomOp::ADD && aop != isa::AtomOp::ADD2 && aop != isa::AtomOp::EXCH &&
      aop != isa::AtomOp::MIN && aop != isa::AtomOp::MAX)
    return invalid(in.loc, "bad floating-point atomic operation");
  size_t nsrc = aop == isa::AtomOp::CAS ? 2 : 1;
  RETURN_IF_ERROR(want_operands(in, (red ? 1 : 2) + nsrc));
  Access acc = access_space(in);
  if (acc.is_const_bank || acc.is_param || acc.space == MemSpace::LOCAL)
    return invalid(in.loc, in.opcode + " works on global, shared or generic memory only");
  isa::MemSem sem;
  isa::MemScope scope;
  mem_order(in, &sem, &scope, true);
  size_t m = red ? 0 : 1;
  ASSIGN_OR_RETURN(MemAddr addr, mem_address(*this, in, in.operands[m], acc.space, false));
  std::vector<Operand> srcs = {addr.base};
  const DataType vt = pair ? DataType::U32 : t;  // the register's type
  for (size_t k = 0; k < nsrc; ++k) {
    ASSIGN_OR_RETURN(Operand o, read(in.operands[m + 1 + k], vt));
    srcs.push_back(o);
  }
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::ATOM;
  i.space = acc.space;
  i.sem = sem;
  i.scope = scope;
  i.type = t;
  i.mod = static_cast<uint8_t>(aop);
  i.imm = addr.offset;
  i.srcs = srcs;
  i.defs = {red ? kNoValue : f_.new_value(vt)};
  int v = emit(std::move(i));
  if (!red) return write(in.operands[0], v);
  return ok_status();
}

}  // namespace strata::compiler::ir
