// On-the-fly SSA construction (Braun, Buchwald, Hack, Leißa, Mallon, Zwinkau: "Simple
// and Efficient Construction of Static Single Assignment Form", CC 2013) over named
// variables (PTX registers, .param slots). Blocks are sealed once all their
// predecessors are known; reads in unsealed blocks create incomplete phis that are
// completed at sealing. Trivial phis are replaced (resolve() maps a value to its
// replacement); finish() rewrites every operand and removes replaced phis.
#pragma once

#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "compiler/ir/ir.h"

namespace strata::compiler::ir {

class SsaBuilder {
 public:
  explicit SsaBuilder(Function* f) : f_(f) {}

  void write(const std::string& var, int block, int value) { defs_[var][block] = value; }
  // The value of `var` at the end of `block`'s current contents; `type` is used when a
  // phi or an undefined value (zero) must be created.
  int read(const std::string& var, int block, DataType type);
  // Adds a CFG edge (must be called when a terminator is emitted).
  void add_edge(int from, int to) { f_->blocks[to].preds.push_back(from); }
  void seal(int block);
  bool sealed(int block) const { return sealed_.count(block) != 0; }
  int resolve(int v) const;
  // Seals every block, rewrites operands through replacements, drops dead phis.
  void finish();

 private:
  int read_recursive(const std::string& var, int block, DataType type);
  int new_phi(int block, DataType type);
  int add_phi_operands(const std::string& var, int phi, int block, DataType type);
  int try_remove_trivial(int phi);
  Inst* find_phi(int phi);
  int undef(DataType type);

  Function* f_;
  std::unordered_map<std::string, std::unordered_map<int, int>> defs_;
  std::set<int> sealed_;
  std::map<int, std::vector<std::pair<std::string, int>>> incomplete_;  // block -> (var, phi)
  std::unordered_map<int, int> phi_block_;
  std::unordered_map<int, int> replaced_;
  std::map<DataType, int> undefs_;
};

}  // namespace strata::compiler::ir
