// compile_ptx: parse -> link -> lower -> optimise -> generate -> sxbin.
#include "compiler/compiler.h"
#include "compiler/target/sx/compact_registers.h"

#include <fmt/format.h>

#include <algorithm>
#include <functional>
#include <map>
#include <set>

#include "compiler/build_id.h"
#include "compiler/devrt/devrt.h"
#include "compiler/ir/lower.h"
#include "compiler/passes/passes.h"
#include "compiler/ptx/parser.h"
#include "compiler/sxbin/sxbin.h"
#include "compiler/target/sx/codegen.h"
#include "isa/encode.h"

namespace strata::compiler {
namespace {

Status verify(const ir::Function& f, const char* after) {
  std::string problem = ir::verify_function(f);
  if (problem.empty()) return ok_status();
  return error(Code::kUnknown, fmt::format("internal compiler error: IR invalid after {}: {}", after, problem));
}

Status optimise(ir::Function& f, const CompileOptions& options) {
#ifndef NDEBUG
  const bool check = true;
#else
  const bool check = options.verify_each_pass;
#endif
  if (check) RETURN_IF_ERROR(verify(f, "lowering"));
  passes::remove_unreachable_blocks(f);
  if (check) RETURN_IF_ERROR(verify(f, "remove_unreachable_blocks"));
  if (options.opt_level <= 0) return ok_status();
  for (int round = 0; round < 4; ++round) {
    bool changed = passes::constant_fold_copy_prop(f);
    if (check) RETURN_IF_ERROR(verify(f, "constant_fold_copy_prop"));
    changed |= passes::fold_register_tuples(f);
    if (check) RETURN_IF_ERROR(verify(f, "fold_register_tuples"));
    changed |= passes::fold_address_offsets(f);
    if (check) RETURN_IF_ERROR(verify(f, "fold_address_offsets"));
    changed |= passes::dead_code_elimination(f);
    if (check) RETURN_IF_ERROR(verify(f, "dead_code_elimination"));
    if (!changed) break;
  }
  passes::remove_redundant_warpsyncs(f);
  if (check) RETURN_IF_ERROR(verify(f, "remove_redundant_warpsyncs"));
  return ok_status();
}

// Whether the program declares, without defining, a device-runtime function that the
// device runtime library implements (malloc, free, ...: devrt.h).
bool needs_device_runtime(const std::vector<ptx::Module>& modules) {
  std::set<std::string> declared, defined;
  for (const ptx::Module& m : modules)
    for (const ptx::Function& f : m.functions)
      if (!devrt::library_function(f.name).empty()) (f.has_body ? defined : declared).insert(f.name);
  for (const std::string& name : declared)
    if (!defined.count(name)) return true;
  return false;
}

// One separately compiled piece of code: a kernel or a called function.
struct Unit {
  std::string name;
  ir::KernelInfo info;
  sx::CodegenResult cg;
  uint32_t stack_bytes = 0;  // kernels: the call stack's part of cg.local_bytes
  bool recursion = false;    // kernels: stack_bytes is the recursion stack
};

// `kernel`: null for a kernel, else the info of the kernel a function is compiled for.
StatusOr<Unit> compile_unit(const ir::LinkedProgram& program, const ptx::Function& fn, const ir::KernelInfo* kernel,
                            std::vector<std::string>* symbols, const CompileOptions& options) {
  const bool is_function = kernel != nullptr;
  ASSIGN_OR_RETURN(ir::LoweredKernel k, is_function ? ir::lower_function(program, fn, symbols, *kernel)
                                                    : ir::lower_kernel(program, fn, symbols));
  RETURN_IF_ERROR(optimise(k.function, options));
  ASSIGN_OR_RETURN(sx::CodegenResult cg, sx::generate(std::move(k.function), *symbols, k.info.local_bytes, is_function,
                                                      k.info.max_registers));
  return Unit{fn.name, std::move(k.info), std::move(cg), 0, false};
}

// Per-thread stack reserved for frames when the call graph has a cycle (recursion), for
// CUDA's default cudaLimitStackSize; the driver resizes it by the context's limit
// (sxbin.h, CALL STACK).
constexpr uint64_t kRecursionStackBytes =
    uint64_t{sxbin::kStackBytesPerLimitByte} * sxbin::kDefaultStackLimit;

// The stack the called frames of unit 0 (the kernel) need at most: the deepest chain of
// frames, or kRecursionStackBytes when a chain can repeat (*recursion). An indirect call
// may reach any function whose address the kernel's code takes.
uint64_t call_stack_bytes(const std::vector<Unit>& units, bool* recursion) {
  std::map<std::string, size_t> index;
  std::set<std::string> address_taken;
  for (size_t u = 0; u < units.size(); ++u) {
    index[units[u].name] = u;
    address_taken.insert(units[u].info.address_taken.begin(), units[u].info.address_taken.end());
  }
  auto edges = [&](size_t u) {
    std::set<size_t> out;
    for (const auto& [pc, name] : units[u].cg.relocs)
      if (units[u].cg.code[pc].op == isa::Opcode::CALL) out.insert(index.at(name));
    if (units[u].info.indirect_calls)
      for (const std::string& n : address_taken) out.insert(index.at(n));
    return out;
  };
  // Depth-first: 0 unvisited, 1 on the path, 2 done (depth known).
  std::vector<int> state(units.size(), 0);
  std::vector<uint64_t> depth(units.size(), 0);
  bool cycle = false;
  std::function<void(size_t)> visit = [&](size_t u) {
    state[u] = 1;
    uint64_t deepest = 0;
    for (size_t v : edges(u)) {
      if (state[v] == 1) cycle = true;
      if (state[v] == 0) visit(v);
      deepest = std::max(deepest, depth[v]);
    }
    depth[u] = deepest + (u == 0 ? 0 : units[u].cg.frame_bytes);
    state[u] = 2;
  };
  visit(0);
  *recursion = cycle;
  return cycle ? kRecursionStackBytes : depth[0];
}

// Compiles kernel `fn` and every function its code calls or points to, lays the
// functions' code after the kernel's (function addresses are instruction indices in the
// kernel's code: docs/abi.md) and sizes the local memory for the frames.
StatusOr<Unit> compile_kernel(const ir::LinkedProgram& program, const ptx::Function& fn,
                              std::vector<std::string>* symbols, const CompileOptions& options) {
  std::vector<Unit> units;
  ASSIGN_OR_RETURN(Unit kernel, compile_unit(program, fn, nullptr, symbols, options));
  units.push_back(std::move(kernel));
  std::set<std::string> queued;
  for (size_t u = 0; u < units.size(); ++u) {
    std::set<std::string> callees = units[u].info.callees;
    for (const std::string& name : callees) {
      if (!queued.insert(name).second) continue;
      ASSIGN_OR_RETURN(Unit f, compile_unit(program, *program.functions.at(name), &units[0].info, symbols, options));
      units.push_back(std::move(f));
    }
  }
  if (units.size() == 1) return std::move(units[0]);
  Unit& out = units[0];
  std::map<std::string, uint32_t> start;
  std::vector<size_t> base(units.size());
  size_t size = out.cg.code.size();
  for (size_t u = 1; u < units.size(); ++u) {
    base[u] = size;
    start[units[u].name] = static_cast<uint32_t>(size);
    size += units[u].cg.code.size();
  }
  bool recursion = false;
  uint64_t stack = call_stack_bytes(units, &recursion);
  for (size_t u = 0; u < units.size(); ++u) {
    sx::CodegenResult& cg = units[u].cg;
    for (const auto& [pc, name] : cg.relocs) cg.code[pc].imm = start.at(name);
    if (u == 0) continue;
    for (isa::Inst& i : cg.code)
      if (i.op == isa::Opcode::BRA || i.op == isa::Opcode::BSSY) i.imm += static_cast<uint32_t>(base[u]);
    for (sxbin::LineEntry& l : cg.lines) l.inst_index += static_cast<uint32_t>(base[u]);
    out.cg.code.insert(out.cg.code.end(), cg.code.begin(), cg.code.end());
    out.cg.lines.insert(out.cg.lines.end(), cg.lines.begin(), cg.lines.end());
    out.cg.regs_used = std::max(out.cg.regs_used, cg.regs_used);
    out.cg.regs_allocated = std::max(out.cg.regs_allocated, cg.regs_allocated);
    out.info.num_barriers = std::max(out.info.num_barriers, units[u].info.num_barriers);
    out.info.uses_device_heap |= units[u].info.uses_device_heap;
  }
  const uint64_t local = uint64_t{out.cg.frame_bytes} + stack;
  if (local > 0xffffffull) return error(Code::kNotSupported, fmt::format("kernel '{}': call stack too large", fn.name));
  out.cg.local_bytes = static_cast<uint32_t>(local);
  out.stack_bytes = static_cast<uint32_t>(stack);
  out.recursion = recursion;
  return std::move(out);
}

}  // namespace

StatusOr<std::vector<uint8_t>> compile_ptx(const std::vector<PtxSource>& sources, const CompileOptions& options) {
  if (sources.empty()) return error(Code::kInvalidValue, "compile_ptx: no PTX sources");
  std::vector<ptx::Module> modules;
  modules.reserve(sources.size() + 1);
  for (const PtxSource& s : sources) {
    ASSIGN_OR_RETURN(ptx::Module m, ptx::parse_ptx(s.text, s.name));
    m.source_name = s.name;
    modules.push_back(std::move(m));
  }
  if (needs_device_runtime(modules) && !devrt::library_ptx().empty()) {
    const std::string name(devrt::kLibrarySourceName);
    ASSIGN_OR_RETURN(ptx::Module m, ptx::parse_ptx(std::string(devrt::library_ptx()), name));
    m.source_name = name;
    modules.push_back(std::move(m));
  }
  std::vector<const ptx::Module*> ptrs;
  for (auto& m : modules) ptrs.push_back(&m);
  ASSIGN_OR_RETURN(ir::LinkedProgram program, ir::link_modules(ptrs));

  sxbin::Binary bin;
  std::vector<std::string> symbols;
  for (const ptx::Module* m : ptrs)
    for (const ptx::Function& fn : m->functions) {
      if (!fn.is_entry || !fn.has_body) continue;
      if (program.functions.at(fn.name) != &fn) continue;
      ASSIGN_OR_RETURN(Unit k, compile_kernel(program, fn, &symbols, options));
      sx::CodegenResult& cg = k.cg;
      cg.regs_used = sx::compact_registers(&cg.code, cg.regs_allocated);
      for (const isa::Inst& inst : cg.code) {
        Status v = isa::validate(inst);
        if (!v.ok())
          return error(Code::kUnknown, fmt::format("internal compiler error in kernel '{}': {}", fn.name, v.message()));
      }
      std::vector<uint8_t> bytes = isa::encode_program(cg.code);
      sxbin::KernelDesc d;
      d.name = fn.name;
      d.code_offset = bin.code.size();
      d.code_size = static_cast<uint32_t>(bytes.size());
      d.regs_per_thread = cg.regs_used;
      d.shared_bytes = k.info.shared_bytes;
      d.local_bytes = cg.local_bytes;
      d.param_bytes = k.info.param_bytes;
      for (size_t i = 0; i < k.info.params.size(); ++i)
        d.params.push_back({k.info.params[i].first, k.info.params[i].second, k.info.param_aligns[i]});
      d.max_threads_per_block = k.info.max_threads;
      for (int i = 0; i < 3; ++i) d.reqntid[i] = k.info.reqntid[i];
      d.num_barriers = std::max<uint32_t>(k.info.num_barriers, 0);
      d.stack_bytes = k.stack_bytes;
      d.recursion = k.recursion;
      d.uses_device_heap = k.info.uses_device_heap;
      d.ptx_source = k.info.module;
      d.lines = std::move(cg.lines);
      bin.code.insert(bin.code.end(), bytes.begin(), bytes.end());
      bin.kernels.push_back(std::move(d));
    }
  for (auto& [name, v] : program.vars) {
    if (v.space == "shared") continue;
    sxbin::GlobalVar g;
    g.name = name;
    g.space = v.space == "const" ? sxbin::VarSpace::kConst : sxbin::VarSpace::kGlobal;
    const auto& attributes = v.decl->attributes;
    if (g.space == sxbin::VarSpace::kGlobal &&
        std::find(attributes.begin(), attributes.end(), "managed") != attributes.end()) {
      g.space = sxbin::VarSpace::kManaged;  // .attribute(.managed): lives in managed memory
    }
    g.size = v.size;
    g.align = v.align;
    g.const_offset = v.const_offset;
    if (v.decl->has_init) {
      std::vector<ir::InitReloc> relocs;
      RETURN_IF_ERROR(ir::global_init(program, v, &g.init, &relocs));
      for (auto& r : relocs) g.init_relocs.push_back({r.offset, std::move(r.symbol), r.addend});
    }
    while (!g.init.empty() && g.init.back() == 0) g.init.pop_back();
    bin.globals.push_back(std::move(g));
  }
  bin.const_bank_size = program.const_bank_size;
  bin.const_init = program.const_init;
  bin.symbol_table = symbols;
  for (const ptx::Module* m : ptrs)
    for (const auto& fd : m->files) bin.source_files.push_back({static_cast<uint32_t>(fd.index), fd.path});
  RETURN_IF_ERROR(sxbin::validate_binary(bin));
  return sxbin::write_sxbin(bin);
}

std::string compiler_build_id() { return STRATA_COMPILER_BUILD_ID; }

}  // namespace strata::compiler
