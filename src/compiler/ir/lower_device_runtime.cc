// Calls into CUDA's device runtime that Strata implements inline: vprintf (device
// printf) and __assertfail (assert). Both talk to the driver through the driver bank
// c[3]; the record layouts are the ABI in compiler/sxbin/sxbin.h. Device malloc/free
// become calls into the device runtime library (compiler/devrt/devrt.h), whose heap VA
// comes from c[3] as well.
#include <fmt/format.h>

#include <optional>
#include <string>

#include "compiler/devrt/devrt.h"
#include "compiler/ir/lower_emit.h"
#include "compiler/ir/lowerer.h"
#include "compiler/sxbin/printf_layout.h"
#include "compiler/sxbin/sxbin.h"

namespace strata::compiler::ir {
namespace {

using isa::MemSpace;

// The call's k-th argument (a param symbol written by st.param, or an immediate).
StatusOr<int> call_argument(Lowerer& l, const ptx::Instruction& in, size_t k, DataType t) {
  auto* args = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[2].value);
  if (!args || !*args || (*args)->elements.size() <= k)
    return l.invalid(in.loc, fmt::format("call passes fewer than {} arguments", k + 1));
  const ptx::Operand& a = (*args)->elements[k];
  if (auto* sym = std::get_if<ptx::SymbolOperand>(&a))
    return l.ssa_.read(l.var_key("param:" + sym->name + "@0"), l.cur_, t);
  return l.read_value(ptx::OperandSlot{a, false, in.loc}, t);
}

int atomic(Lowerer& l, isa::AtomOp op, DataType t, int base, uint64_t offset, Operand value) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::ATOM;
  i.space = MemSpace::GLOBAL;
  i.sem = isa::MemSem::RELAXED;
  i.scope = isa::MemScope::GPU;
  i.type = t;
  i.mod = static_cast<uint8_t>(op);
  i.imm = offset;
  i.srcs = {Operand::val(base), value};
  i.defs = {l.f_.new_value(t)};
  return l.emit(std::move(i));
}

// The bytes of module variable `name` from `offset` up to its first NUL, if it is an
// initialized byte array (a string literal).
std::optional<std::string> string_at(const LinkedProgram& prog, const std::string& name,
                                     int64_t offset) {
  auto it = prog.vars.find(name);
  if (it == prog.vars.end() || it->second.decl == nullptr || offset < 0) return std::nullopt;
  const ptx::VarDecl& decl = *it->second.decl;
  if (!decl.has_init || (decl.type != "b8" && decl.type != "u8" && decl.type != "s8"))
    return std::nullopt;
  std::string s;
  for (size_t k = static_cast<size_t>(offset); k < decl.init.size(); ++k) {
    auto* b = std::get_if<ptx::ImmInt>(&decl.init[k]);
    if (!b) return std::nullopt;
    if ((b->value & 0xff) == 0) return s;
    s.push_back(static_cast<char>(b->value & 0xff));
  }
  return s;  // unterminated: the rest of the variable is zero-filled
}

// Every instruction of `stmts` (nested blocks included) whose first operand is
// register `reg`, i.e. that writes it.
void definitions(const std::vector<ptx::Statement>& stmts, const std::string& reg,
                 std::vector<const ptx::Instruction*>* out) {
  for (const ptx::Statement& st : stmts) {
    if (auto* in = std::get_if<ptx::Instruction>(&st)) {
      if (in->operands.empty()) continue;
      auto* r = std::get_if<ptx::RegOperand>(&in->operands[0].value);
      if (r && r->name == reg && r->component == 0) out->push_back(in);
    } else if (auto* b = std::get_if<std::shared_ptr<ptx::Block>>(&st)) {
      definitions((*b)->statements, reg, out);
    }
  }
}

// The string literal register `reg` holds wherever it is written (every write must
// be mov/cvta.global of the same literal, possibly through other registers), found
// flow-insensitively in the function's PTX: nvcc hoists the address out of loops.
std::optional<std::string> register_string(const LinkedProgram& prog, const ptx::Function& fn,
                                           const ptx::Operand& value, int depth) {
  if (auto* sym = std::get_if<ptx::SymbolOperand>(&value)) return string_at(prog, sym->name, sym->offset);
  auto* reg = std::get_if<ptx::RegOperand>(&value);
  if (!reg || reg->component != 0 || depth > 16) return std::nullopt;
  std::vector<const ptx::Instruction*> defs;
  definitions(fn.body.statements, reg->name, &defs);
  std::optional<std::string> found;
  for (const ptx::Instruction* d : defs) {
    bool copy = d->opcode == "mov" ||
                (d->opcode == "cvta" && !Lowerer::has(*d, "to") && Lowerer::has(*d, "global"));
    if (!copy || d->operands.size() != 2 || !d->guard.empty()) return std::nullopt;
    std::optional<std::string> s = register_string(prog, fn, d->operands[1].value, depth + 1);
    if (!s || (found && *found != *s)) return std::nullopt;
    found = s;
  }
  return found;
}

// The statement list that directly holds `target`.
const std::vector<ptx::Statement>* enclosing(const std::vector<ptx::Statement>& stmts,
                                             const ptx::Instruction* target) {
  for (const ptx::Statement& st : stmts) {
    if (auto* in = std::get_if<ptx::Instruction>(&st)) {
      if (in == target) return &stmts;
    } else if (auto* b = std::get_if<std::shared_ptr<ptx::Block>>(&st)) {
      if (auto* found = enclosing((*b)->statements, target)) return found;
    }
  }
  return nullptr;
}

// The format string of vprintf call `call`: its first argument is a param written by
// the nearest preceding `st.param [param+0], %reg` of the call sequence.
std::optional<std::string> format_string(const Lowerer& l, const ptx::Instruction& call) {
  auto* args = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&call.operands[2].value);
  if (!args || !*args || (*args)->elements.empty()) return std::nullopt;
  const ptx::Operand& first = (*args)->elements[0];
  auto* param = std::get_if<ptx::SymbolOperand>(&first);
  if (!param) return register_string(l.prog_, *l.frame().fn, first, 0);
  const std::vector<ptx::Statement>* stmts = enclosing(l.frame().fn->body.statements, &call);
  if (!stmts) return std::nullopt;
  const ptx::Operand* stored = nullptr;
  for (const ptx::Statement& st : *stmts) {
    auto* in = std::get_if<ptx::Instruction>(&st);
    if (!in) continue;
    if (in == &call) break;
    if (in->opcode != "st" || !Lowerer::has(*in, "param") || in->operands.size() != 2) continue;
    auto* a = std::get_if<ptx::AddressOperand>(&in->operands[0].value);
    if (a && !a->base_is_reg && a->base == param->name && a->offset == 0) stored = &in->operands[1].value;
  }
  if (!stored) return std::nullopt;
  return register_string(l.prog_, *l.frame().fn, *stored, 0);
}

}  // namespace

// vprintf(format, args): reserve a record with ATOM.ADD on the FIFO's byte counter,
// write it if it fits; return, as CUDA documents, the number of arguments (or -1 when
// the FIFO is full and the output is dropped).
Status Lowerer::lower_vprintf(const ptx::Instruction& in) {
  ASSIGN_OR_RETURN(int format, call_argument(*this, in, 0, DataType::U64));
  ASSIGN_OR_RETURN(int args, call_argument(*this, in, 1, DataType::U64));
  std::optional<std::string> text = format_string(*this, in);
  if (!text)
    return unsupported(in.loc, "printf with a format string that is not a constant string "
                               "literal is not supported");
  uint64_t arg_bytes = sxbin::printf_argument_bytes(*text);
  uint32_t arg_count = sxbin::printf_argument_count(*text);
  uint64_t record = sxbin::kPrintfRecordHeaderBytes + (arg_bytes + 7) / 8 * 8;

  int fifo = emit::driver_bank_u64(*this, sxbin::kDriverBankPrintfFifoVa);
  int size = emit::driver_bank_u64(*this, sxbin::kDriverBankPrintfFifoSize);
  int at = atomic(*this, isa::AtomOp::ADD, DataType::U64, fifo, 0, Operand::immediate(record));
  int end = isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                   {Operand::val(at), Operand::immediate(sxbin::kPrintfFifoHeaderBytes + record)});
  int fits = isa_op(Opcode::ISETP, DataType::U64, DataType::Pred,
                    {Operand::val(end), Operand::val(size), Operand::immediate(1)},
                    static_cast<uint8_t>(isa::CmpOp::LE));
  int write_block = new_block(), join = new_block();
  cond_branch(fits, /*negate=*/false, write_block, join, /*uniform=*/false);
  ssa_.seal(write_block);
  start_block(write_block);
  int rec = isa_op(Opcode::IADD, DataType::U64, DataType::U64,
                   {Operand::val(fifo), Operand::val(at)});
  uint64_t h = sxbin::kPrintfFifoHeaderBytes;
  emit::store(*this, MemSpace::GLOBAL, DataType::U32, rec, h + 0, Operand::immediate(record));
  emit::store(*this, MemSpace::GLOBAL, DataType::U32, rec, h + 4, Operand::immediate(arg_bytes));
  emit::store(*this, MemSpace::GLOBAL, DataType::U64, rec, h + 8, Operand::val(format));
  for (uint64_t k = 0; k < arg_bytes; k += 4) {
    int word = emit::load(*this, MemSpace::GENERIC, DataType::U32, args, k);
    emit::store(*this, MemSpace::GLOBAL, DataType::U32, rec, h + sxbin::kPrintfRecordHeaderBytes + k,
          Operand::val(word));
  }
  branch(join);
  ssa_.seal(join);
  start_block(join);
  int result = isa_op(Opcode::SEL, DataType::U32, DataType::U32,
                      {Operand::immediate(arg_count), Operand::immediate(0xffffffffu),
                       Operand::val(fits)});

  auto* rets = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[0].value);
  if (rets && *rets && !(*rets)->elements.empty()) {
    const ptx::Operand& dst = (*rets)->elements[0];
    if (auto* sym = std::get_if<ptx::SymbolOperand>(&dst)) {
      frame().param_layout.erase(sym->name);  // the result replaces its contents
      RETURN_IF_ERROR(write_param(sym->name, 0, 4, result));
    } else {
      RETURN_IF_ERROR(write(ptx::OperandSlot{dst, false, in.loc}, result));
    }
  }
  return ok_status();
}

// __assertfail(message, file, line, function, char_size): the first asserting thread
// fills the assert record for the driver's message; every asserting thread traps.
Status Lowerer::lower_assertfail(const ptx::Instruction& in) {
  ASSIGN_OR_RETURN(int message, call_argument(*this, in, 0, DataType::U64));
  ASSIGN_OR_RETURN(int file, call_argument(*this, in, 1, DataType::U64));
  ASSIGN_OR_RETURN(int line, call_argument(*this, in, 2, DataType::U32));
  ASSIGN_OR_RETURN(int function, call_argument(*this, in, 3, DataType::U64));
  int rec = emit::driver_bank_u64(*this, sxbin::kDriverBankAssertRecordVa);
  int old = atomic(*this, isa::AtomOp::EXCH, DataType::U32, rec, sxbin::kAssertRecordState,
                   Operand::immediate(1));
  int first = isa_op(Opcode::ISETP, DataType::U32, DataType::Pred,
                     {Operand::val(old), Operand::immediate(0), Operand::immediate(1)},
                     static_cast<uint8_t>(isa::CmpOp::EQ));
  int fill = new_block(), join = new_block();
  cond_branch(first, /*negate=*/false, fill, join, /*uniform=*/false);
  ssa_.seal(fill);
  start_block(fill);
  emit::store(*this, MemSpace::GLOBAL, DataType::U32, rec, sxbin::kAssertRecordLine, Operand::val(line));
  emit::store(*this, MemSpace::GLOBAL, DataType::U64, rec, sxbin::kAssertRecordMessage, Operand::val(message));
  emit::store(*this, MemSpace::GLOBAL, DataType::U64, rec, sxbin::kAssertRecordFile, Operand::val(file));
  emit::store(*this, MemSpace::GLOBAL, DataType::U64, rec, sxbin::kAssertRecordFunction, Operand::val(function));
  atomic(*this, isa::AtomOp::EXCH, DataType::U32, rec, sxbin::kAssertRecordState, Operand::immediate(2));
  branch(join);
  ssa_.seal(join);
  start_block(join);
  isa_op(Opcode::TRAP, DataType::kNone, DataType::kNone, {}, 0, /*imm=*/1);
  Inst exit;
  exit.op = Op::kExit;
  emit(exit);
  start_block(new_block());
  ssa_.seal(cur_);
  return ok_status();
}

// ---- Device heap (compiler/devrt) ----

StatusOr<std::string> Lowerer::device_runtime_callee(const ptx::Instruction& in,
                                                     const std::string& name) {
  std::string_view library = devrt::library_function(name);
  if (library.empty()) return name;
  auto own = prog_.functions.find(name);
  if (own != prog_.functions.end() && own->second->has_body) return name;  // the program's own
  auto impl = prog_.functions.find(std::string(library));
  if (impl == prog_.functions.end() || !impl->second->has_body)
    return unsupported(in.loc, fmt::format("call to device-side '{}': this build of Strata has no "
                                           "device runtime library (it was built without nvcc)",
                                           name));
  return std::string(library);
}

// __strata_device_heap(): the heap's VA from c[3]; marks the kernel as a heap user so the
// driver allocates the heap before launching it.
Status Lowerer::lower_device_heap(const ptx::Instruction& in) {
  info_.uses_device_heap = true;
  int heap = emit::driver_bank_u64(*this, sxbin::kDriverBankDeviceHeapVa);
  auto* rets = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[0].value);
  if (!rets || !*rets || (*rets)->elements.size() != 1)
    return invalid(in.loc, fmt::format("call to '{}' must take one result", devrt::kDeviceHeapIntrinsic));
  const ptx::Operand& dst = (*rets)->elements[0];
  if (auto* sym = std::get_if<ptx::SymbolOperand>(&dst)) {
    frame().param_layout.erase(sym->name);  // the result replaces its contents
    RETURN_IF_ERROR(write_param(sym->name, 0, 8, heap));
    return ok_status();
  }
  return write(ptx::OperandSlot{dst, false, in.loc}, heap);
}

}  // namespace strata::compiler::ir
