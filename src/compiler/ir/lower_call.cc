// Real calls (docs/abi.md): the call site of a function that is not inlined, the body of
// such a function lowered on its own, and its parameters in the frame.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {
namespace {

// Callees with more PTX instructions than this are called rather than inlined.
constexpr size_t kInlineLimit = 2000;

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

size_t count_instructions(const std::vector<ptx::Statement>& stmts) {
  size_t n = 0;
  for (const auto& s : stmts) {
    if (std::holds_alternative<ptx::Instruction>(s)) ++n;
    if (auto* b = std::get_if<std::shared_ptr<ptx::Block>>(&s)) n += count_instructions((*b)->statements);
  }
  return n;
}

// A parameter's slot in a callee's frame.
struct Slot {
  uint32_t offset = 0, size = 0;
};

// The frame slots of a call's parameters then its return values (docs/abi.md): from byte
// 4 (after the return address), each at its alignment but at least 4.
std::vector<Slot> frame_slots(const std::vector<ptx::VarDecl>& params, const std::vector<ptx::VarDecl>& rets,
                              uint64_t* end) {
  std::vector<Slot> out;
  uint64_t off = 4;
  for (const auto* list : {&params, &rets})
    for (const ptx::VarDecl& d : *list) {
      off = align_up(off, std::max<uint64_t>(var_align(d), 4));
      out.push_back({static_cast<uint32_t>(off), static_cast<uint32_t>(var_size(d))});
      off += var_size(d);
    }
  *end = off;
  return out;
}

DataType width_type(uint64_t bytes) {
  switch (bytes) {
    case 1: return DataType::U8;
    case 2: return DataType::U16;
    case 8: return DataType::U64;
    default: return DataType::U32;
  }
}

}  // namespace

// ---- .param variables as SSA values ----

namespace {

bool overlaps(int64_t a, int64_t a_bytes, int64_t b, int64_t b_bytes) {
  return a < b + b_bytes && b < a + a_bytes;
}

}  // namespace

Status Lowerer::write_param(const std::string& name, int64_t offset, int bytes, int value) {
  std::map<int64_t, int>& layout = frame().param_layout[name];
  for (const auto& [o, w] : layout)
    if (overlaps(o, w, offset, bytes) && (o != offset || w != bytes))
      return unsupported(
          inst_ ? inst_->loc : ptx::SourceLoc{},
          fmt::format(
              "'{}': a {}-byte .param access at offset {} of '{}' overlaps one of {} bytes at "
              "offset {} (mixed-width .param layouts are not supported)",
              inst_ ? inst_->opcode : std::string("call"), bytes, offset, name, w, o));
  layout[offset] = bytes;
  ssa_.write(var_key("param:" + name + "@" + std::to_string(offset)), cur_, value);
  return ok_status();
}

int Lowerer::read_param(const std::string& name, int64_t offset, int bytes) {
  std::map<int64_t, int>& layout = frame().param_layout[name];
  bool known = false;
  for (const auto& [o, w] : layout) known = known || overlaps(o, w, offset, bytes);
  // Bytes nobody stored yet: the access becomes the layout there, so that a store of
  // them later (around a loop) meets the same SSA variable.
  if (!known) layout[offset] = bytes;
  return read_param_in(frame().prefix, layout, name, offset, bytes);
}

int Lowerer::read_param_in(const std::string& prefix, const std::map<int64_t, int>& layout,
                           const std::string& name, int64_t offset, int bytes) {
  // The SSA variable of the entry at `o`, `w` bytes wide, in that width's register class.
  auto entry_value = [&](int64_t o, int w) {
    int v = ssa_.read(prefix + "param:" + name + "@" + std::to_string(o), cur_,
                      w == 8 ? DataType::U64 : DataType::U32);
    bool wide = reg_class(f_.type_of(v)) == RegClass::k64;
    if (w == 8 && !wide) v = widen(v, /*is_signed=*/false);
    if (w != 8 && wide) v = low32(v);
    return v;
  };
  auto it = layout.find(offset);
  if (it != layout.end() && it->second == bytes) return entry_value(offset, bytes);
  if (it != layout.end() && it->second > bytes && bytes <= 4) {
    int v = entry_value(offset, it->second);
    return it->second == 8 ? low32(v) : v;
  }
  if (bytes == 8) {
    int lo = read_param_in(prefix, layout, name, offset, 4);
    int hi = read_param_in(prefix, layout, name, offset + 4, 4);
    return pack(DataType::U64, {Operand::val(lo), Operand::val(hi)});
  }
  // Up to 4 bytes from several entries, or from the middle of one: each piece shifted
  // into place; bytes in no entry are zero.
  const DataType u32 = DataType::U32;
  int acc = kNoValue;
  for (int64_t p = offset; p < offset + bytes;) {
    auto next = layout.upper_bound(p);
    if (next == layout.begin() || std::prev(next)->first + std::prev(next)->second <= p) {
      p = next == layout.end() ? offset + bytes : std::min<int64_t>(next->first, offset + bytes);
      continue;
    }
    const auto [eo, ew] = *std::prev(next);
    const int64_t in = p - eo;
    int word = entry_value(eo, ew);
    if (ew == 8) word = extract(word, static_cast<int>(in / 4));
    const int64_t end = std::min({eo + ew, eo + (in / 4 + 1) * 4, offset + bytes});
    const int64_t len = end - p;
    int piece = word;
    if (in % 4)
      piece =
          isa_op(Opcode::SHR, u32, u32, {Operand::val(piece), Operand::immediate(8 * (in % 4))});
    if (len < 4)
      piece = isa_op(Opcode::AND, u32, u32,
                     {Operand::val(piece), Operand::immediate((uint64_t{1} << (8 * len)) - 1)});
    if (p > offset)
      piece = isa_op(Opcode::SHL, u32, u32,
                     {Operand::val(piece), Operand::immediate(8 * (p - offset))});
    acc = acc == kNoValue ? piece
                          : isa_op(Opcode::OR, u32, u32, {Operand::val(acc), Operand::val(piece)});
    p = end;
  }
  return acc == kNoValue ? constant(u32, 0) : acc;
}

bool Lowerer::inline_call(const std::string& callee) const {
  if (prog_.calls.recursive.count(callee)) return false;
  auto it = prog_.functions.find(callee);
  return it == prog_.functions.end() || count_instructions(it->second->body.statements) <= kInlineLimit;
}

Status Lowerer::frame_param_access(Opcode op, DataType mem, DataType value, int64_t offset,
                                   const ptx::OperandSlot& data) {
  if (offset < 0 || offset > 0x7fffffff) return invalid(inst_->loc, "parameter offset out of range");
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = op;
  i.type = mem;
  i.space = isa::MemSpace::LOCAL;
  i.imm = static_cast<uint64_t>(offset);
  if (op == Opcode::LD) {
    i.srcs = {Operand::immediate(0)};
    i.defs = {f_.new_value(value)};
    return write(data, emit(std::move(i)));
  }
  ASSIGN_OR_RETURN(int v, read_value(data, value));
  if (reg_class(f_.type_of(v)) == RegClass::k64 && reg_class(value) != RegClass::k64) v = low32(v);
  i.srcs = {Operand::immediate(0), Operand::val(v)};
  emit(std::move(i));
  return ok_status();
}

Status Lowerer::lower_real_call(const ptx::Instruction& in, const ptx::Function* callee) {
  auto* rets = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[0].value);
  auto* args = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[2].value);
  if (!rets || !args || !*rets || !*args) return invalid(in.loc, "malformed call operands");
  const std::vector<ptx::VarDecl>* params = nullptr;
  const std::vector<ptx::VarDecl>* results = nullptr;
  if (callee) {
    params = &callee->params;
    results = &callee->return_params;
  } else {
    const auto* proto_sym = in.operands.size() > 3 ? std::get_if<ptx::SymbolOperand>(&in.operands[3].value) : nullptr;
    if (!proto_sym) return unsupported(in.loc, "indirect call without a .callprototype");
    for (const ptx::CallPrototype& p : frame().fn->prototypes)
      if (p.name == proto_sym->name) {
        params = &p.params;
        results = &p.return_params;
      }
    if (!params) return invalid(in.loc, "unknown call prototype '" + proto_sym->name + "'");
  }
  const std::string what = callee ? "'" + callee->name + "'" : std::string("the indirect call");
  if ((*args)->elements.size() != params->size())
    return invalid(in.loc, fmt::format("call to {} passes {} arguments, it takes {}", what, (*args)->elements.size(),
                                       params->size()));
  if ((*rets)->elements.size() > results->size())
    return invalid(in.loc, "call to " + what + " expects more results than it returns");
  uint64_t end = 0;
  std::vector<Slot> slots = frame_slots(*params, *results, &end);
  auto frame_access = [&](Opcode op, DataType t, uint64_t imm, std::vector<Operand> srcs, bool outgoing) {
    Inst i;
    i.op = Op::kIsa;
    i.isa_op = op;
    i.type = t;
    i.space = isa::MemSpace::LOCAL;
    i.imm = imm;
    if (outgoing) i.symbol = "@out";
    i.srcs = std::move(srcs);
    if (op == Opcode::LD) i.defs = {f_.new_value(t == DataType::U64 ? DataType::U64 : DataType::U32)};
    return emit(std::move(i));
  };
  // Arguments: stored into the callee's frame, just past the caller's.
  for (size_t k = 0; k < params->size(); ++k) {
    const ptx::Operand& a = (*args)->elements[k];
    const Slot& slot = slots[k];
    if (auto* sym = std::get_if<ptx::SymbolOperand>(&a)) {
      const ScopedVar* sv = find_scoped(sym->name);
      if (sv && sv->space == "fframe") {
        for (uint32_t o = 0; o < slot.size; o += 4) {
          int v = frame_access(Opcode::LD, DataType::U32, sv->offset + o, {Operand::immediate(0)}, false);
          frame_access(Opcode::ST, DataType::U32, slot.offset + o, {Operand::immediate(0), Operand::val(v)}, true);
        }
        continue;
      }
      if (!sv) return invalid(in.loc, "unknown .param '" + sym->name + "'");
      if (sv->space != "fparam")
        return unsupported(in.loc, "passing the ." + sv->space + " variable '" + sym->name +
                                       "' itself as a call argument is not supported");
      // Each store the caller made into the argument, with its width (the callee may
      // read it with other widths: its ld.param reads the frame's bytes).
      const std::map<int64_t, int> layout = frame().param_layout[sym->name];
      for (const auto& [off, bytes] : layout) {
        if (off < 0 || off >= slot.size) continue;
        int64_t w = bytes;
        while (off + w > slot.size) w /= 2;
        int v = read_param(sym->name, off, static_cast<int>(w));
        frame_access(Opcode::ST, width_type(static_cast<uint64_t>(w)),
                     slot.offset + static_cast<uint64_t>(off),
                     {Operand::immediate(0), Operand::val(v)}, true);
      }
    } else {
      DataType pt;
      if (!ptx_type((*params)[k].type, &pt)) pt = DataType::U32;
      ASSIGN_OR_RETURN(int v, read_value(ptx::OperandSlot{a, false, in.loc}, pt));
      uint64_t w = std::min<uint64_t>(slot.size, reg_class(f_.type_of(v)) == RegClass::k64 ? 8 : 4);
      if (w < 8 && reg_class(f_.type_of(v)) == RegClass::k64) v = low32(v);
      frame_access(Opcode::ST, width_type(w), slot.offset, {Operand::immediate(0), Operand::val(v)}, true);
    }
  }
  Inst call;
  call.op = Op::kIsa;
  call.isa_op = Opcode::CALL;
  if (callee) {
    call.symbol = "@func:" + callee->name;
    info_.callees.insert(callee->name);
  } else {
    ASSIGN_OR_RETURN(DataType rt, reg_type(std::get<ptx::RegOperand>(in.operands[1].value).name, in.loc));
    ASSIGN_OR_RETURN(int pointer, read_value(in.operands[1], rt));
    // The pointer is a module-wide value (docs/abi.md): map it to the code of its function
    // in this kernel, compiled beside it. Any other value calls an invalid address.
    DataType pt = reg_class(f_.type_of(pointer)) == RegClass::k64 ? DataType::U64 : DataType::U32;
    int target = constant(DataType::U32, 0xffffffffu);
    for (const auto& [name, value] : prog_.function_pointers) {
      info_.callees.insert(name);
      info_.address_taken.insert(name);
      int is = isa_op(Opcode::ISETP, pt, DataType::Pred,
                      {Operand::val(pointer), Operand::immediate(value), Operand::immediate(1)},
                      static_cast<uint8_t>(isa::CmpOp::EQ));
      Inst code;
      code.op = Op::kConst;
      code.symbol = "@func:" + name;
      code.defs = {f_.new_value(DataType::U32)};
      int start = emit(std::move(code));
      target = isa_op(Opcode::SEL, DataType::U32, DataType::U32,
                      {Operand::val(start), Operand::val(target), Operand::val(is)});
    }
    call.srcs = {Operand::val(target)};
    info_.indirect_calls = true;
  }
  info_.makes_calls = true;
  emit(std::move(call));
  // Results: copied out of the callee's frame into this frame, where ld.param reads them.
  for (size_t k = 0; k < (*rets)->elements.size(); ++k) {
    const Slot& slot = slots[params->size() + k];
    const ptx::Operand& dst = (*rets)->elements[k];
    if (auto* sym = std::get_if<ptx::SymbolOperand>(&dst)) {
      local_top_ = align_up(local_top_, 8);
      uint64_t home = local_top_;
      local_top_ += align_up(slot.size, 4);
      for (uint32_t o = 0; o < slot.size; o += 4) {
        int v = frame_access(Opcode::LD, DataType::U32, slot.offset + o, {Operand::immediate(0)}, true);
        frame_access(Opcode::ST, DataType::U32, home + o, {Operand::immediate(0), Operand::val(v)}, false);
      }
      frame().vars[sym->name] = {"fframe", home};
    } else {
      DataType rt;
      if (!ptx_type((*results)[k].type, &rt)) rt = DataType::U32;
      uint64_t w = std::min<uint64_t>(slot.size, 8);
      int v = frame_access(Opcode::LD, width_type(w >= 8 ? 8 : w >= 4 ? 4 : w), slot.offset, {Operand::immediate(0)},
                           true);
      RETURN_IF_ERROR(write(ptx::OperandSlot{dst, false, in.loc}, v));
    }
  }
  return ok_status();
}

StatusOr<LoweredKernel> Lowerer::run_function(const ptx::Function& fn, const KernelInfo& kernel) {
  is_function_ = true;
  kernel_layout_ = &kernel;
  Frame top;
  top.fn = &fn;
  top.module = prog_.function_module.at(fn.name);
  f_.name = fn.name;
  info_.name = fn.name;
  info_.module = top.module;
  uint64_t end = 0;
  std::vector<Slot> slots = frame_slots(fn.params, fn.return_params, &end);
  size_t k = 0;
  for (const auto* list : {&fn.params, &fn.return_params})
    for (const ptx::VarDecl& d : *list) top.vars[d.name] = {"fframe", slots[k++].offset};
  local_top_ = end;
  frames_.push_back(top);
  int entry = new_block();
  ssa_.seal(entry);
  start_block(entry);
  int body = new_block();
  branch(body);
  ssa_.seal(body);
  start_block(body);
  frame().ret_block = new_block();
  int ret = frame().ret_block;
  RETURN_IF_ERROR(lower_body(fn));
  branch(ret);  // falling off the end returns
  ssa_.seal(ret);
  start_block(ret);
  Inst exit;
  exit.op = Op::kExit;
  exit.imm = 1;
  emit(exit);
  ssa_.finish();
  if (!missing_shared_.empty())
    return error(Code::kUnknown, "internal compiler error: '" + fn.name + "' uses .shared '" + missing_shared_ +
                                     "', which the kernel's layout lacks");
  if (uses_dynamic_shared_) place_dynamic_shared(kernel_layout_->dynamic_shared_base);
  if (local_top_ > 0xffffffull) return invalid(fn.loc, "frame of '" + fn.name + "' too large");
  info_.local_bytes = static_cast<uint32_t>(align_up(local_top_, 4));
  return finish();
}

StatusOr<LoweredKernel> lower_function(const LinkedProgram& program, const ptx::Function& fn,
                                       std::vector<std::string>* symbols, const KernelInfo& kernel) {
  Lowerer l(program, symbols);
  return l.run_function(fn, kernel);
}

}  // namespace strata::compiler::ir
