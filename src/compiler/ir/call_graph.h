// The call graph of a linked PTX program: which .func bodies call which, which make
// indirect calls, whose address is taken, and which are recursive. Lowering uses it to
// decide between inlining a call and a real CALL (see docs/abi.md).
#pragma once

#include <map>
#include <set>
#include <string>

namespace strata::compiler::ir {

struct LinkedProgram;

struct CallGraph {
  std::map<std::string, std::set<std::string>> direct;  // caller -> callees with bodies
  std::set<std::string> indirect_callers;               // functions with `call %r, ...`
  std::set<std::string> address_taken;                  // .func named outside a call
  std::set<std::string> recursive;                      // on a cycle of direct calls
  // Module-scope .shared variables each body names (directly or in an address).
  std::map<std::string, std::set<std::string>> shared_vars;
  // Functions each body names outside a call (takes the address of).
  std::map<std::string, std::set<std::string>> addresses;
};

// The module-scope .shared variables that code called from `kernel` may use: those named
// by every function its body reaches through direct calls and taken addresses, and, once
// anything reached makes an indirect call, through every function in `pointed` (any
// function pointer may arrive through memory). The kernel's own are not included. Sorted
// by name; used to give such variables one offset in the kernel and in every function
// compiled for it (docs/abi.md).
std::set<std::string> callee_shared_vars(const CallGraph& graph, const std::string& kernel,
                                         const std::set<std::string>& pointed);

// Scans every function body (entries too). Never fails: calls to unknown names are
// left to lowering to report.
CallGraph build_call_graph(const LinkedProgram& program);

}  // namespace strata::compiler::ir
