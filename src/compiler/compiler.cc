// compile_ptx: parse -> link -> lower -> optimise -> generate -> sxbin.
#include "compiler/compiler.h"

#include <fmt/format.h>

#include "compiler/build_id.h"
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
    changed |= passes::dead_code_elimination(f);
    if (check) RETURN_IF_ERROR(verify(f, "dead_code_elimination"));
    if (!changed) break;
  }
  return ok_status();
}

}  // namespace

StatusOr<std::vector<uint8_t>> compile_ptx(const std::vector<PtxSource>& sources, const CompileOptions& options) {
  if (sources.empty()) return error(Code::kInvalidValue, "compile_ptx: no PTX sources");
  std::vector<ptx::Module> modules;
  modules.reserve(sources.size());
  for (const PtxSource& s : sources) {
    ASSIGN_OR_RETURN(ptx::Module m, ptx::parse_ptx(s.text, s.name));
    m.source_name = s.name;
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
      ASSIGN_OR_RETURN(ir::LoweredKernel k, ir::lower_kernel(program, fn, &symbols));
      RETURN_IF_ERROR(optimise(k.function, options));
      ASSIGN_OR_RETURN(sx::CodegenResult cg, sx::generate(std::move(k.function), symbols, k.info.local_bytes));
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
