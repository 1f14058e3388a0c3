#include "compiler/ir/call_graph.h"

#include <functional>
#include <vector>

#include "compiler/ir/lower.h"

namespace strata::compiler::ir {
namespace {

void scan(const LinkedProgram& p, const std::string& self, const std::vector<ptx::Statement>& stmts,
          CallGraph* g) {
  auto is_func = [&](const std::string& n) {
    auto it = p.functions.find(n);
    return it != p.functions.end() && it->second->has_body && !it->second->is_entry;
  };
  for (const auto& s : stmts) {
    if (auto* b = std::get_if<std::shared_ptr<ptx::Block>>(&s)) {
      scan(p, self, (*b)->statements, g);
      continue;
    }
    if (auto* d = std::get_if<ptx::VarDecl>(&s); d && d->space == "shared") {
      if (p.vars.count(shared_var_key(self, d->name))) g->shared_vars[self].insert(shared_var_key(self, d->name));
      continue;
    }
    auto* in = std::get_if<ptx::Instruction>(&s);
    if (!in) continue;
    for (size_t k = 0; k < in->operands.size(); ++k) {
      const ptx::OperandSlot& o = in->operands[k];
      if (in->opcode == "call" && k == 1) {
        if (auto* sym = std::get_if<ptx::SymbolOperand>(&o.value)) {
          if (is_func(sym->name)) g->direct[self].insert(sym->name);
        } else {
          g->indirect_callers.insert(self);
        }
        continue;
      }
      if (in->opcode == "call" && k == 3) continue;  // prototype or target list
      std::string named;
      if (auto* sym = std::get_if<ptx::SymbolOperand>(&o.value)) named = sym->name;
      if (auto* a = std::get_if<ptx::AddressOperand>(&o.value); a && !a->base_is_reg) named = a->base;
      if (named.empty()) continue;
      if (is_func(named)) {
        g->address_taken.insert(named);
        g->addresses[self].insert(named);
      }
      auto var = p.vars.find(named);
      if (var != p.vars.end() && var->second.space == "shared") g->shared_vars[self].insert(named);
    }
  }
}

}  // namespace

CallGraph build_call_graph(const LinkedProgram& program) {
  CallGraph g;
  for (const auto& [name, fn] : program.functions)
    if (fn->has_body) scan(program, name, fn->body.statements, &g);
  // A function is recursive when it reaches itself through direct calls.
  for (const auto& [name, callees] : g.direct) {
    std::set<std::string> seen;
    std::vector<std::string> stack(callees.begin(), callees.end());
    while (!stack.empty()) {
      std::string f = std::move(stack.back());
      stack.pop_back();
      if (f == name) {
        g.recursive.insert(name);
        break;
      }
      if (!seen.insert(f).second) continue;
      auto it = g.direct.find(f);
      if (it != g.direct.end()) stack.insert(stack.end(), it->second.begin(), it->second.end());
    }
  }
  return g;
}

std::set<std::string> callee_shared_vars(const CallGraph& graph, const std::string& kernel,
                                         const std::set<std::string>& pointed) {
  std::set<std::string> seen, vars;
  std::vector<std::string> stack = {kernel};
  bool all_pointed = false;
  auto push_all = [&](const auto& map, const std::string& f) {
    auto it = map.find(f);
    if (it != map.end()) stack.insert(stack.end(), it->second.begin(), it->second.end());
  };
  while (!stack.empty()) {
    std::string f = std::move(stack.back());
    stack.pop_back();
    if (!seen.insert(f).second) continue;
    if (f != kernel) {
      auto it = graph.shared_vars.find(f);
      if (it != graph.shared_vars.end()) vars.insert(it->second.begin(), it->second.end());
    }
    push_all(graph.direct, f);
    push_all(graph.addresses, f);
    if (!all_pointed && graph.indirect_callers.count(f)) {
      all_pointed = true;
      stack.insert(stack.end(), pointed.begin(), pointed.end());
    }
  }
  return vars;
}

}  // namespace strata::compiler::ir
