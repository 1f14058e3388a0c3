// Small helpers for building IR by hand in the pass tests.
#pragma once

#include <vector>

#include "compiler/ir/ir.h"

namespace strata::compiler::passes::testing {

// Appends instructions to one block of a function under construction.
class IrBuilder {
 public:
  explicit IrBuilder(ir::Function* f, int block = 0) : f_(f), block_(block) {}
  void set_block(int b) { block_ = b; }

  int constant(isa::DataType t, uint64_t bits) {
    ir::Inst i;
    i.op = ir::Op::kConst;
    i.imm = bits;
    i.defs = {f_->new_value(t)};
    return add(i);
  }
  int isa(isa::Opcode op, isa::DataType t, std::vector<ir::Operand> srcs) {
    ir::Inst i;
    i.op = ir::Op::kIsa;
    i.isa_op = op;
    i.type = t;
    i.srcs = std::move(srcs);
    i.defs = {f_->new_value(t)};
    return add(i);
  }
  int copy(int v) {
    ir::Inst i;
    i.op = ir::Op::kCopy;
    i.srcs = {ir::Operand::val(v)};
    i.defs = {f_->new_value(f_->type_of(v))};
    return add(i);
  }
  // ST.GLOBAL [addr], v (a side effect that keeps v alive).
  void store(int addr, int v) {
    ir::Inst i;
    i.op = ir::Op::kIsa;
    i.isa_op = isa::Opcode::ST;
    i.space = isa::MemSpace::GLOBAL;
    i.type = f_->type_of(v);
    i.srcs = {ir::Operand::val(addr), ir::Operand::val(v)};
    add(i);
  }
  void branch(int target) {
    ir::Inst i;
    i.op = ir::Op::kBranch;
    i.succs = {target};
    add(i);
  }
  void cond_branch(int pred, int t, int f) {
    ir::Inst i;
    i.op = ir::Op::kCondBranch;
    i.srcs = {ir::Operand::val(pred)};
    i.succs = {t, f};
    add(i);
  }
  void exit() {
    ir::Inst i;
    i.op = ir::Op::kExit;
    add(i);
  }

 private:
  int add(ir::Inst i) {
    int d = i.defs.empty() ? ir::kNoValue : i.defs[0];
    f_->blocks[block_].insts.push_back(std::move(i));
    return d;
  }
  ir::Function* f_;
  int block_;
};

// Counts instructions with op `op` (and, for kIsa, opcode `isa_op`) in the function.
inline int count_ops(const ir::Function& f, ir::Op op, isa::Opcode isa_op = isa::Opcode::NOP) {
  int n = 0;
  for (const auto& b : f.blocks)
    for (const auto& i : b.insts) n += i.op == op && (op != ir::Op::kIsa || i.isa_op == isa_op);
  return n;
}

}  // namespace strata::compiler::passes::testing
