// Lowering of linked PTX (compiler/ptx/ast.h) to the SSA IR, one Function per kernel.
//
// Semantic errors in the PTX -> Code::kInvalidPtx "source:line:col: message"; valid
// PTX that Strata cannot compile yet -> Code::kNotSupported naming the instruction or
// form. .func calls are inlined, except calls to recursive functions and indirect calls,
// which become real calls to separately lowered functions (lower_function; docs/abi.md). Calls to __assertfail
// become TRAP 1. PTX registers become SSA values (Braun et al.'s on-the-fly SSA
// construction, ssa_builder.h).
#pragma once

#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/ir/call_graph.h"
#include "compiler/ir/ir.h"
#include "compiler/ptx/ast.h"

namespace strata::compiler::ir {

// A PTX module-scope variable after linking, with its place in the binary's layout.
struct ModuleVar {
  const ptx::VarDecl* decl = nullptr;
  std::string module;         // source name of the defining PTX module
  std::string space;          // "global", "const", "shared"
  uint64_t size = 0, align = 1;
  uint64_t const_offset = 0;  // "const": offset in bank 2
  bool is_extern_shared = false;  // dynamic shared array
};

// The linked program: every module's functions and variables, resolved by name.
struct LinkedProgram {
  std::vector<const ptx::Module*> modules;
  std::map<std::string, const ptx::Function*> functions;  // definitions and declarations
  std::map<std::string, std::string> function_module;     // name -> source name
  std::map<std::string, ModuleVar> vars;
  uint64_t const_bank_size = 0;
  std::vector<uint8_t> const_init;
  CallGraph calls;  // filled by link_modules
  // Function pointers (docs/abi.md "Code addresses"): every .func whose address is taken
  // in code or in an initializer, with its pointer value, the same in every kernel.
  std::map<std::string, uint64_t> function_pointers;
};

// The name under which link_modules lists a .shared variable declared in the body of
// .func `function` (nvcc "demotes" a device function's __shared__ variable there).
inline std::string shared_var_key(const std::string& function, const std::string& var) {
  return function + "::" + var;
}

// Resolves .extern/.weak/.visible functions and variables across modules and lays out
// the const bank. Errors: undefined or duplicate symbols (kInvalidPtx).
StatusOr<LinkedProgram> link_modules(const std::vector<const ptx::Module*>& modules);

// What the lowering of one kernel produces besides the IR.
struct KernelInfo {
  std::string name;
  std::string module;
  std::vector<std::pair<uint32_t, uint32_t>> params;  // (offset, size) in c[0]
  std::vector<uint32_t> param_aligns;
  uint32_t param_bytes = 0;
  uint32_t shared_bytes = 0;   // static shared, rounded so dynamic shared starts there
  uint32_t local_bytes = 0;
  uint32_t max_threads = 0;
  uint32_t reqntid[3] = {0, 0, 0};
  // Registers per thread the kernel should fit in, 0: no limit. .maxnreg N gives N;
  // .minnctapersm B with .maxntid / .reqntid T gives what lets B CTAs of T threads share
  // CUDA's 64K-register file (65536 / (B x warps(T) x 32), a multiple of 8), as ptxas
  // derives it from __launch_bounds__; the smaller of the two when both are present.
  uint32_t max_registers = 0;
  uint32_t num_barriers = 0;
  // Real calls (docs/abi.md): the .func bodies this code needs compiled beside it
  // (direct non-inlined callees and functions whose address it takes), whether it makes
  // indirect calls, and whether it calls at all.
  std::set<std::string> callees;
  std::set<std::string> address_taken;
  bool indirect_calls = false;
  bool makes_calls = false;
  // Kernels: where the module-scope .shared variables the kernel or its called functions
  // use live (~0 for dynamic ones, which start at dynamic_shared_base). Functions compiled
  // for the kernel use the same offsets.
  std::map<std::string, uint64_t> shared_layout;
  uint64_t dynamic_shared_base = 0;
  bool uses_device_heap = false;  // reads the device heap's VA (calls malloc/free)
};

struct LoweredKernel {
  Function function;
  KernelInfo info;
};

// `symbols` collects the names whose GPU VA the code reads from c[1] (in first-use
// order); its index is the c[1] entry.
StatusOr<LoweredKernel> lower_kernel(const LinkedProgram& program, const ptx::Function& kernel,
                                     std::vector<std::string>* symbols);
// Lowers a .func body as separately called code (docs/abi.md): parameters and return
// values live in its frame, `ret` ends in the one kExit with imm 1 (return), and
// info.local_bytes is the frame's size before register spills and saves.
// `kernel` is the info of the kernel it is compiled for: the function's module-scope
// .shared variables take the kernel's offsets (KernelInfo::shared_layout).
StatusOr<LoweredKernel> lower_function(const LinkedProgram& program, const ptx::Function& fn,
                                       std::vector<std::string>* symbols, const KernelInfo& kernel);

}  // namespace strata::compiler::ir

namespace strata::compiler::ir {
// An address in an initializer: at byte `offset` of the variable, the 64-bit address of
// variable `symbol` (global or const; its generic address is the same) plus `addend`.
struct InitReloc {
  uint64_t offset = 0;
  std::string symbol;
  int64_t addend = 0;
};
// The initial contents of a module-scope global variable (little endian, full size),
// with the bytes of address elements left zero and described in `relocs` instead.
// kNotSupported for addresses of other state spaces or partial (masked) addresses.
Status global_init(const LinkedProgram& program, const ModuleVar& var, std::vector<uint8_t>* out,
                   std::vector<InitReloc>* relocs);
}  // namespace strata::compiler::ir
