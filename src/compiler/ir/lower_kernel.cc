// Lowering driver: kernel parameters, variables, blocks/labels, guards and calls.
#include <fmt/format.h>

#include <algorithm>

#include "compiler/devrt/devrt.h"
#include "compiler/ir/lowerer.h"

namespace strata::compiler::ir {
namespace {

uint64_t align_up(uint64_t v, uint64_t a) { return (v + a - 1) / a * a; }

}  // namespace

Status Lowerer::invalid(const ptx::SourceLoc& loc, const std::string& msg) const {
  return error(Code::kInvalidPtx, loc_string(frame().module, loc) + ": " + msg);
}
Status Lowerer::unsupported(const ptx::SourceLoc& loc, const std::string& msg) const {
  return error(Code::kNotSupported, loc_string(frame().module, loc) + ": " + msg);
}

int Lowerer::emit(Inst inst) {
  if (inst_) inst.ptx_line = inst_->loc.line;
  inst.loc_file = loc_file_;
  inst.loc_line = loc_line_;
  inst.loc_col = loc_col_;
  int d = inst.defs.empty() ? kNoValue : inst.defs[0];
  f_.blocks[cur_].insts.push_back(std::move(inst));
  return d;
}

int Lowerer::isa_op(Opcode op, DataType type, DataType result, std::vector<Operand> srcs, uint8_t mod,
                    uint64_t imm) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = op;
  i.type = type;
  i.mod = mod;
  i.imm = imm;
  i.srcs = std::move(srcs);
  if (result != DataType::kNone) i.defs = {f_.new_value(result)};
  return emit(std::move(i));
}

int Lowerer::constant(DataType t, uint64_t bits) {
  Inst i;
  i.op = Op::kConst;
  i.imm = bits;
  i.defs = {f_.new_value(t)};
  return emit(std::move(i));
}

int Lowerer::copy(int v) {
  Inst i;
  i.op = Op::kCopy;
  i.srcs = {Operand::val(v)};
  i.defs = {f_.new_value(f_.type_of(v))};
  return emit(std::move(i));
}

int Lowerer::extract(int v, int part) {
  Inst i;
  i.op = Op::kExtract;
  i.imm = static_cast<uint64_t>(part);
  i.srcs = {Operand::val(v)};
  i.defs = {f_.new_value(DataType::U32)};
  return emit(std::move(i));
}

int Lowerer::pack(DataType t, std::vector<Operand> parts) {
  Inst i;
  i.op = Op::kPack;
  i.srcs = std::move(parts);
  i.defs = {f_.new_value(t)};
  return emit(std::move(i));
}

int Lowerer::special(isa::SpecialReg r) {
  return isa_op(Opcode::S2R, DataType::U32, DataType::U32, {}, static_cast<uint8_t>(r));
}

int Lowerer::widen(int v32, bool is_signed) {
  Inst i;
  i.op = Op::kIsa;
  i.isa_op = Opcode::CVT;
  i.type = is_signed ? DataType::S64 : DataType::U64;
  i.type2 = is_signed ? DataType::S32 : DataType::U32;
  i.srcs = {Operand::val(v32)};
  i.defs = {f_.new_value(i.type)};
  return emit(std::move(i));
}

int Lowerer::low32(int v64) { return extract(v64, 0); }

bool Lowerer::has(const ptx::Instruction& in, const char* m) {
  return std::find(in.modifiers.begin(), in.modifiers.end(), m) != in.modifiers.end();
}

StatusOr<DataType> Lowerer::inst_type(const Lowerer& l, const ptx::Instruction& in) {
  for (auto it = in.modifiers.rbegin(); it != in.modifiers.rend(); ++it) {
    DataType t;
    if (ptx_type(*it, &t)) return t;
  }
  return l.invalid(in.loc, "'" + in.opcode + "' needs a type");
}

Status Lowerer::want_operands(const ptx::Instruction& in, size_t n) const {
  if (in.operands.size() != n)
    return invalid(in.loc, fmt::format("'{}' takes {} operands, {} given", in.opcode, n, in.operands.size()));
  return ok_status();
}

StatusOr<DataType> Lowerer::reg_type(const std::string& name, const ptx::SourceLoc& loc) const {
  const Frame& fr = frame();
  auto it = fr.regs.find(name);
  if (it != fr.regs.end()) return it->second;
  size_t end = name.size();
  while (end > 0 && isdigit(static_cast<unsigned char>(name[end - 1]))) --end;
  if (end < name.size()) {
    auto jt = fr.reg_ranges.find(name.substr(0, end));
    std::string digits = name.substr(end);
    if (jt != fr.reg_ranges.end() && digits.size() < 10 &&
        (digits.size() == 1 || digits[0] != '0') &&
        std::stoll(digits) < fr.reg_range_size.at(jt->first))
      return jt->second;
  }
  return invalid(loc, "use of undeclared register '" + name + "'");
}

const ScopedVar* Lowerer::find_scoped(const std::string& name) const {
  auto it = frame().vars.find(name);
  return it == frame().vars.end() ? nullptr : &it->second;
}

uint32_t Lowerer::symbol_index(const std::string& name) {
  auto it = std::find(symbols_->begin(), symbols_->end(), name);
  if (it != symbols_->end()) return static_cast<uint32_t>(it - symbols_->begin());
  symbols_->push_back(name);
  return static_cast<uint32_t>(symbols_->size() - 1);
}

uint64_t Lowerer::shared_offset_of(const std::string& name) {
  auto it = module_shared_.find(name);
  if (it != module_shared_.end()) return it->second;
  const ModuleVar& v = prog_.vars.at(name);
  if (kernel_layout_ != nullptr) {  // a called function: the kernel placed it
    auto k = kernel_layout_->shared_layout.find(name);
    if (k == kernel_layout_->shared_layout.end()) {
      missing_shared_ = name;
      return 0;
    }
    if (v.is_extern_shared) uses_dynamic_shared_ = true;
    module_shared_[name] = k->second;
    return k->second;
  }
  uint64_t off;
  if (v.is_extern_shared) {
    uses_dynamic_shared_ = true;
    off = ~uint64_t{0};  // patched once the static size is known: see run()
  } else {
    shared_top_ = align_up(shared_top_, v.align);
    off = shared_top_;
    shared_top_ += v.size;
  }
  module_shared_[name] = off;
  return off;
}

uint64_t Lowerer::param_copy_offset() {
  if (param_copy_ < 0) {
    local_top_ = align_up(local_top_, 16);
    param_copy_ = static_cast<int64_t>(local_top_);
    local_top_ += info_.param_bytes;
  }
  return static_cast<uint64_t>(param_copy_);
}

void Lowerer::branch(int target) {
  Inst i;
  i.op = Op::kBranch;
  i.succs = {target};
  emit(std::move(i));
  ssa_.add_edge(cur_, target);
}

void Lowerer::cond_branch(int pred, bool negate, int t, int f, bool uniform) {
  Inst i;
  i.op = Op::kCondBranch;
  i.srcs = {Operand::val(pred)};
  i.negate = negate;
  i.uniform = uniform;
  i.succs = {t, f};
  emit(std::move(i));
  ssa_.add_edge(cur_, t);
  ssa_.add_edge(cur_, f);
}

Status Lowerer::declare(const ptx::VarDecl& d) {
  Frame& fr = frame();
  if (d.space == "reg") {
    DataType t;
    if (!ptx_type(d.type, &t)) return invalid(d.loc, "bad register type '." + d.type + "'");
    if (d.vector_width != 1) return unsupported(d.loc, "vector registers are not supported yet");
    if (d.reg_range >= 0) {
      fr.reg_ranges[d.name] = t;
      fr.reg_range_size[d.name] = std::max(fr.reg_range_size[d.name], d.reg_range);
    }
    else
      fr.regs[d.name] = t;
    return ok_status();
  }
  uint64_t size = var_size(d), align = var_align(d);
  if ((align & (align - 1)) != 0) return invalid(d.loc, "alignment of '" + d.name + "' is not a power of two");
  if (size > (uint64_t{1} << 32)) return invalid(d.loc, "variable '" + d.name + "' is too large");
  if (d.space == "shared" && fr.fn != nullptr && !fr.fn->is_entry) {
    // Declared in a .func (nvcc demotes a function's __shared__ there): one instance per
    // CTA whether the function is inlined, called, or both — the variable link_modules
    // hoisted as "function::name" (shared_var_key).
    auto hoisted = prog_.vars.find(shared_var_key(fr.fn->name, d.name));
    if (hoisted == prog_.vars.end()) return unsupported(d.loc, "a .shared variable in a nested block of a function");
    fr.vars[d.name] = {"shared", shared_offset_of(hoisted->first)};
    return ok_status();
  }
  if (d.space == "shared") {
    if (d.is_extern || (!d.dims.empty() && d.dims[0] == 0)) {
      uses_dynamic_shared_ = true;
      module_shared_[fr.prefix + d.name] = ~uint64_t{0};
      fr.vars[d.name] = {"shared", ~uint64_t{0}};
      return ok_status();
    }
    shared_top_ = align_up(shared_top_, align);
    fr.vars[d.name] = {"shared", shared_top_};
    shared_top_ += size;
    return ok_status();
  }
  if (d.space == "local") {
    local_top_ = align_up(local_top_, align);
    fr.vars[d.name] = {"local", local_top_};
    local_top_ += size;
    return ok_status();
  }
  if (d.space == "param") {
    fr.vars[d.name] = {"fparam", 0};
    fr.param_layout.erase(d.name);  // a new variable: nothing stored in it yet
    return ok_status();
  }
  return unsupported(d.loc, "function-scope ." + d.space + " variables are not supported yet");
}

Status Lowerer::collect_labels(const std::vector<ptx::Statement>& stmts) {
  for (const auto& s : stmts) {
    if (auto* l = std::get_if<ptx::Label>(&s)) {
      if (frame().labels.count(l->name)) return invalid(l->loc, "duplicate label '" + l->name + "'");
      frame().labels[l->name] = new_block();
    } else if (auto* b = std::get_if<std::shared_ptr<ptx::Block>>(&s)) {
      RETURN_IF_ERROR(collect_labels((*b)->statements));
    }
  }
  return ok_status();
}

Status Lowerer::lower_statements(const std::vector<ptx::Statement>& stmts) {
  for (const auto& s : stmts) {
    if (auto* in = std::get_if<ptx::Instruction>(&s)) {
      inst_ = in;
      if (!in->guard.empty() && in->opcode != "bra" && in->opcode != "ret" && in->opcode != "exit" &&
          in->opcode != "call") {
        // A guarded instruction runs in its own block: if (guard) { inst }.
        ASSIGN_OR_RETURN(DataType gt, reg_type(in->guard, in->loc));
        if (gt != DataType::Pred) return invalid(in->loc, "guard '" + in->guard + "' is not a predicate");
        int g = ssa_.read(var_key(in->guard), cur_, DataType::Pred);
        int then_b = new_block(), join = new_block();
        cond_branch(g, in->guard_negated, then_b, join, false);
        ssa_.seal(then_b);
        start_block(then_b);
        RETURN_IF_ERROR(lower_instruction(*in));
        branch(join);
        ssa_.seal(join);
        start_block(join);
      } else {
        RETURN_IF_ERROR(lower_instruction(*in));
      }
      inst_ = nullptr;
    } else if (auto* l = std::get_if<ptx::Label>(&s)) {
      int b = frame().labels.at(l->name);
      branch(b);
      start_block(b);
    } else if (auto* d = std::get_if<ptx::VarDecl>(&s)) {
      RETURN_IF_ERROR(declare(*d));
    } else if (auto* loc = std::get_if<ptx::LocDirective>(&s)) {
      loc_file_ = loc->file;
      loc_line_ = loc->line;
      loc_col_ = loc->col;
    } else if (auto* b = std::get_if<std::shared_ptr<ptx::Block>>(&s)) {
      RETURN_IF_ERROR(lower_statements((*b)->statements));
    }
  }
  return ok_status();
}

Status Lowerer::lower_body(const ptx::Function& fn) {
  RETURN_IF_ERROR(collect_labels(fn.body.statements));
  RETURN_IF_ERROR(lower_statements(fn.body.statements));
  return ok_status();
}

Status Lowerer::lower_call(const ptx::Instruction& in) {
  if (in.operands.size() < 3) return invalid(in.loc, "malformed call");
  auto* callee_sym = std::get_if<ptx::SymbolOperand>(&in.operands[1].value);
  std::string name;  // empty: an indirect call
  if (callee_sym) {
    ASSIGN_OR_RETURN(name, device_runtime_callee(in, callee_sym->name));
  }
  int guard_join = -1;
  if (!in.guard.empty()) {
    int g = ssa_.read(var_key(in.guard), cur_, DataType::Pred);
    int then_b = new_block();
    guard_join = new_block();
    cond_branch(g, in.guard_negated, then_b, guard_join, false);
    ssa_.seal(then_b);
    start_block(then_b);
  }
  auto builtin = prog_.functions.find(name);
  bool declared_only = builtin != prog_.functions.end() && !builtin->second->has_body;
  bool real_call = !callee_sym || (builtin != prog_.functions.end() && builtin->second->has_body &&
                                   !builtin->second->is_entry && !inline_call(name));
  if (real_call) {
    RETURN_IF_ERROR(lower_real_call(in, callee_sym ? builtin->second : nullptr));
  } else if (name == "__assertfail" && (builtin == prog_.functions.end() || declared_only)) {
    RETURN_IF_ERROR(lower_assertfail(in));
  } else if (name == "vprintf" && declared_only) {
    RETURN_IF_ERROR(lower_vprintf(in));
  } else if (is_device_launch_call(name) && (builtin == prog_.functions.end() || declared_only)) {
    RETURN_IF_ERROR(lower_device_launch_call(in, name));
  } else if (name == devrt::kDeviceHeapIntrinsic && declared_only) {
    RETURN_IF_ERROR(lower_device_heap(in));
  } else {
    auto it = prog_.functions.find(name);
    if (it == prog_.functions.end()) return invalid(in.loc, "call to undeclared function '" + name + "'");
    const ptx::Function* callee = it->second;
    if (!callee->has_body) return invalid(in.loc, "call to undefined function '" + name + "'");
    if (callee->is_entry) return invalid(in.loc, "call to kernel '" + name + "'");
    if (frames_.size() > 64) return unsupported(in.loc, "call nesting deeper than 64");
    auto* rets = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[0].value);
    auto* args = std::get_if<std::shared_ptr<ptx::VectorOperand>>(&in.operands[2].value);
    if (!rets || !args || !*rets || !*args) return invalid(in.loc, "malformed call operands");
    if ((*args)->elements.size() != callee->params.size())
      return invalid(in.loc, fmt::format("call to '{}' passes {} arguments, it takes {}", name,
                                         (*args)->elements.size(), callee->params.size()));
    if ((*rets)->elements.size() > callee->return_params.size())
      return invalid(in.loc, "call to '" + name + "' expects more results than it returns");
    Frame callee_frame;
    callee_frame.fn = callee;
    callee_frame.module = prog_.function_module.at(name);
    callee_frame.prefix = fmt::format("f{}:", ++frame_counter_);
    callee_frame.ret_block = new_block();
    // Bind arguments: each callee param slot takes the caller's value.
    for (size_t k = 0; k < callee->params.size(); ++k) {
      const ptx::VarDecl& p = callee->params[k];
      callee_frame.vars[p.name] = {"fparam", 0};
      const ptx::Operand& a = (*args)->elements[k];
      DataType pt;
      if (!ptx_type(p.type, &pt)) pt = DataType::U32;
      // The callee's parameter starts as the caller's argument: the same pieces, each
      // with the width it was stored with (the callee's ld.param composes other widths).
      auto bind = [&](int64_t off, int bytes, int v) {
        ssa_.write(callee_frame.prefix + "param:" + p.name + "@" + std::to_string(off), cur_, v);
        callee_frame.param_layout[p.name][off] = bytes;
      };
      const uint64_t size = var_size(p);
      if (auto* sym = std::get_if<ptx::SymbolOperand>(&a)) {
        const ScopedVar* sv = find_scoped(sym->name);
        if (!sv) return invalid(in.loc, "unknown .param '" + sym->name + "'");
        if (sv->space == "fframe") {
          // A parameter or result of this separately called function, in its frame.
          for (uint64_t o = 0; o < size; o += 4) {
            Inst ld;
            ld.op = Op::kIsa;
            ld.isa_op = Opcode::LD;
            ld.type = DataType::U32;
            ld.space = isa::MemSpace::LOCAL;
            ld.imm = sv->offset + o;
            ld.srcs = {Operand::immediate(0)};
            ld.defs = {f_.new_value(DataType::U32)};
            bind(static_cast<int64_t>(o), 4, emit(std::move(ld)));
          }
          continue;
        }
        if (sv->space != "fparam")
          return unsupported(in.loc, "passing the ." + sv->space + " variable '" + sym->name +
                                         "' itself as a call argument is not supported");
        const std::map<int64_t, int> layout = frame().param_layout[sym->name];
        for (const auto& [off, bytes] : layout) {
          if (size > 0 && (off < 0 || static_cast<uint64_t>(off) >= size)) continue;
          bind(off, bytes, read_param(sym->name, off, bytes));
        }
      } else {
        ptx::OperandSlot slot{a, false, in.loc};
        ASSIGN_OR_RETURN(int v, read_value(slot, pt));
        bind(0, reg_class(f_.type_of(v)) == RegClass::k64 ? 8 : 4, v);
      }
    }
    for (const ptx::VarDecl& r : callee->return_params) callee_frame.vars[r.name] = {"fparam", 0};
    int ret_block = callee_frame.ret_block;
    frames_.push_back(std::move(callee_frame));
    const ptx::Instruction* saved = inst_;
    RETURN_IF_ERROR(lower_body(*callee));
    inst_ = saved;
    branch(ret_block);  // falling off the end returns
    ssa_.seal(ret_block);
    start_block(ret_block);
    Frame done = std::move(frames_.back());
    frames_.pop_back();
    // Copy results into the caller's return slots: each piece the callee stored, with its
    // width (read here, after the return's join, in that width's register class).
    for (size_t k = 0; k < (*rets)->elements.size(); ++k) {
      const ptx::VarDecl& r = callee->return_params[k];
      const ptx::Operand& dst = (*rets)->elements[k];
      const std::map<int64_t, int>& layout = done.param_layout[r.name];
      auto* sym = std::get_if<ptx::SymbolOperand>(&dst);
      if (sym) frame().param_layout.erase(sym->name);
      for (const auto& [off, bytes] : layout) {
        int v = read_param_in(done.prefix, layout, r.name, off, bytes);
        if (sym) {
          RETURN_IF_ERROR(write_param(sym->name, off, bytes, v));
        } else if (off == 0) {
          RETURN_IF_ERROR(write(ptx::OperandSlot{dst, false, in.loc}, v));
        }
      }
    }
  }
  if (guard_join >= 0) {
    branch(guard_join);
    ssa_.seal(guard_join);
    start_block(guard_join);
  }
  return ok_status();
}

StatusOr<LoweredKernel> Lowerer::run(const ptx::Function& kernel) {
  Frame top;
  top.fn = &kernel;
  top.module = prog_.function_module.at(kernel.name);
  frames_.push_back(top);
  // Variables that called functions use come first, so every function compiled for this
  // kernel sees them at the kernel's offsets (their layout travels in info_.shared_layout).
  std::set<std::string> pointed;
  for (const auto& [name, value] : prog_.function_pointers) pointed.insert(name);
  for (const std::string& v : callee_shared_vars(prog_.calls, kernel.name, pointed)) shared_offset_of(v);
  f_.name = kernel.name;
  info_.name = kernel.name;
  info_.module = top.module;
  // Parameters: declaration order, each at its alignment.
  uint64_t off = 0;
  for (const ptx::VarDecl& p : kernel.params) {
    uint64_t size = var_size(p), align = p.ptr_align > 0 && false ? 1 : var_align(p);
    if (size == 0) return invalid(p.loc, "parameter '" + p.name + "' has no size");
    if ((align & (align - 1)) != 0) return invalid(p.loc, "bad alignment of parameter '" + p.name + "'");
    off = align_up(off, align);
    frame().vars[p.name] = {"param", off};
    info_.params.push_back({static_cast<uint32_t>(off), static_cast<uint32_t>(size)});
    info_.param_aligns.push_back(static_cast<uint32_t>(align));
    off += size;
  }
  if (off > 32764) return invalid(kernel.loc, fmt::format("kernel parameters need {} bytes (limit 32764)", off));
  info_.param_bytes = static_cast<uint32_t>(off);
  for (const ptx::Directive& d : kernel.directives) {
    auto product = [&]() {
      uint64_t p = 1;
      for (int64_t v : d.values) p *= static_cast<uint64_t>(std::clamp<int64_t>(v, 1, 1024));
      return static_cast<uint32_t>(std::min<uint64_t>(p, 1u << 30));
    };
    if (d.name == "maxntid") info_.max_threads = product();
    if (d.name == "reqntid") {
      for (size_t k = 0; k < 3; ++k)
        info_.reqntid[k] = k < d.values.size() ? static_cast<uint32_t>(std::clamp<int64_t>(d.values[k], 1, 1024)) : 1;
      info_.max_threads = product();
    }
  }
  // The register budget of KernelInfo::max_registers.
  for (const ptx::Directive& d : kernel.directives) {
    if (d.values.empty()) continue;
    uint32_t limit = 0;
    if (d.name == "maxnreg") limit = static_cast<uint32_t>(std::clamp<int64_t>(d.values[0], 1, 255));
    if (d.name == "minnctapersm" && info_.max_threads > 0) {
      const uint64_t ctas = static_cast<uint64_t>(std::clamp<int64_t>(d.values[0], 1, 64));
      const uint64_t threads = (info_.max_threads + 31) / 32 * 32;
      limit = static_cast<uint32_t>(std::min<uint64_t>(65536 / (ctas * threads) / 8 * 8, 255));
    }
    if (limit > 0) info_.max_registers = info_.max_registers == 0 ? limit : std::min(info_.max_registers, limit);
  }
  int entry = new_block();
  ssa_.seal(entry);
  start_block(entry);
  int body = new_block();
  branch(body);
  ssa_.seal(body);
  start_block(body);
  RETURN_IF_ERROR(lower_body(kernel));
  Inst exit;
  exit.op = Op::kExit;
  emit(exit);
  if (param_copy_ >= 0) {
    // Some parameter's address escapes: copy c[0] to the thread's local copy at entry
    // (words, then bytes for a tail that is not a whole word).
    Inst to_body = std::move(f_.blocks[entry].insts.back());
    f_.blocks[entry].insts.pop_back();
    start_block(entry);
    for (uint32_t off = 0; off < info_.param_bytes;) {
      uint32_t n = info_.param_bytes - off >= 4 ? 4 : 1;
      DataType t = n == 4 ? DataType::U32 : DataType::U8;
      Inst ld;
      ld.op = Op::kIsa;
      ld.isa_op = Opcode::LDC;
      ld.type = t;
      ld.imm = off;
      ld.srcs = {Operand::immediate(0)};
      ld.defs = {f_.new_value(DataType::U32)};
      int v = emit(std::move(ld));
      Inst st;
      st.op = Op::kIsa;
      st.isa_op = Opcode::ST;
      st.space = isa::MemSpace::LOCAL;
      st.type = t;
      st.imm = static_cast<uint64_t>(param_copy_) + off;
      st.srcs = {Operand::immediate(0), Operand::val(v)};
      emit(std::move(st));
      off += n;
    }
    f_.blocks[entry].insts.push_back(std::move(to_body));
  }
  ssa_.finish();
  // Dynamic shared memory starts after the static variables, aligned to 16 (or more).
  uint64_t dyn_align = 16;
  for (auto& [name, v] : prog_.vars)
    if (v.is_extern_shared && module_shared_.count(name)) dyn_align = std::max(dyn_align, v.align);
  uint64_t dyn_base = align_up(shared_top_, dyn_align);
  place_dynamic_shared(dyn_base);
  if (dyn_base > 0xffffffffull || local_top_ > 0xffffffffull) return invalid(kernel.loc, "shared or local memory too large");
  info_.shared_bytes = static_cast<uint32_t>(uses_dynamic_shared_ ? dyn_base : shared_top_);
  info_.shared_layout = module_shared_;
  info_.dynamic_shared_base = dyn_base;
  info_.local_bytes = static_cast<uint32_t>(align_up(local_top_, 8));
  return finish();
}

void Lowerer::place_dynamic_shared(uint64_t base) {
  for (auto& b : f_.blocks)
    for (Inst& i : b.insts) {
      if (i.op == Op::kIsa && (i.isa_op == Opcode::LD || i.isa_op == Opcode::ST || i.isa_op == Opcode::ATOM) &&
          i.space == isa::MemSpace::SHARED && (i.imm >> 63)) {
        i.imm = base + (i.imm & 0x7fffffffffffffffull);
      }
      if (i.op == Op::kConst && (i.imm >> 62) == 3 && i.symbol == "dynshared") {
        i.imm = base + (i.imm & 0x3fffffffffffffffull);
        i.symbol.clear();
      }
    }
}

LoweredKernel Lowerer::finish() {
  info_.num_barriers = max_barrier_;
  f_.recompute_preds();
  LoweredKernel out;
  out.function = std::move(f_);
  out.info = info_;
  return out;
}

StatusOr<LoweredKernel> lower_kernel(const LinkedProgram& program, const ptx::Function& kernel,
                                     std::vector<std::string>* symbols) {
  Lowerer l(program, symbols);
  return l.run(kernel);
}

}  // namespace strata::compiler::ir
