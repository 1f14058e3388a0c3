#include <gtest/gtest.h>

#include "compiler/passes/passes.h"
#include "compiler/passes/test_ir.h"

namespace strata::compiler::passes {
namespace {

using isa::DataType;
using isa::Opcode;
using testing::count_ops;
using testing::IrBuilder;

const ir::Inst* def_of(const ir::Function& f, int v) {
  for (const auto& b : f.blocks)
    for (const auto& i : b.insts)
      for (int d : i.defs)
        if (d == v) return &i;
  return nullptr;
}

TEST(ConstantFold, FoldsIntegerOpsWithWidthWrap) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  int a = b.constant(DataType::U32, 0xfffffff0);
  int sum = b.isa(Opcode::IADD, DataType::U32, {ir::Operand::val(a), ir::Operand::immediate(0x20)});
  int shl = b.isa(Opcode::SHL, DataType::U32, {ir::Operand::val(sum), ir::Operand::immediate(40)});
  int w = b.constant(DataType::U64, 0xfffffffff0ull);
  int wide = b.isa(Opcode::IADD, DataType::U64, {ir::Operand::val(w), ir::Operand::immediate(0x20)});
  b.store(addr, sum);
  b.store(addr, shl);
  b.store(addr, wide);
  b.exit();
  EXPECT_TRUE(constant_fold_copy_prop(f));
  ASSERT_EQ(ir::verify_function(f), "");
  ASSERT_EQ(def_of(f, sum)->op, ir::Op::kConst);
  EXPECT_EQ(def_of(f, sum)->imm, 0x10u);  // wraps at 32 bits
  ASSERT_EQ(def_of(f, shl)->op, ir::Op::kConst);
  EXPECT_EQ(def_of(f, shl)->imm, 0u);  // shift >= width
  ASSERT_EQ(def_of(f, wide)->op, ir::Op::kConst);
  EXPECT_EQ(def_of(f, wide)->imm, 0x10000000010ull);
  EXPECT_FALSE(constant_fold_copy_prop(f));
}

TEST(ConstantFold, LeavesNonFoldableOpsAlone) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  int a = b.constant(DataType::F32, 0x3f800000);
  int fsum = b.isa(Opcode::FADD, DataType::F32, {ir::Operand::val(a), ir::Operand::val(a)});
  int k = b.constant(DataType::U32, 41);
  int x = b.isa(Opcode::IADD, DataType::U32, {ir::Operand::val(k), ir::Operand::immediate(1)});
  b.store(addr, fsum);
  b.store(addr, x);
  b.exit();
  // The integer IADD of constants folds; the FADD does not.
  EXPECT_TRUE(constant_fold_copy_prop(f));
  EXPECT_EQ(def_of(f, fsum)->op, ir::Op::kIsa);
  ASSERT_EQ(def_of(f, x)->op, ir::Op::kConst);
  EXPECT_EQ(def_of(f, x)->imm, 42u);
}

TEST(ConstantFold, PropagatesCopiesOfTheSameClassOnly) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  ir::Inst ld;
  ld.op = ir::Op::kIsa;
  ld.isa_op = Opcode::LD;
  ld.type = DataType::U32;
  ld.space = isa::MemSpace::GLOBAL;
  ld.srcs = {ir::Operand::val(addr)};
  ld.defs = {f.new_value(DataType::U32)};
  int v = ld.defs[0];
  f.blocks[0].insts.push_back(ld);
  int c = b.copy(v);
  int user = b.isa(Opcode::IADD, DataType::U32, {ir::Operand::val(c), ir::Operand::immediate(1)});
  b.store(addr, user);
  b.exit();
  EXPECT_TRUE(constant_fold_copy_prop(f));
  EXPECT_EQ(def_of(f, user)->srcs[0].value, v);  // the copy is bypassed
  EXPECT_FALSE(constant_fold_copy_prop(f));
}

TEST(ConstantFold, RemovesTrivialPhis) {
  // 0 -> {1, 2} -> 3; the phi in 3 merges the same value from both sides.
  ir::Function f;
  for (int k = 0; k < 4; ++k) f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  int p = b.constant(DataType::Pred, 1);
  ir::Inst ld;
  ld.op = ir::Op::kIsa;
  ld.isa_op = Opcode::LD;
  ld.type = DataType::U32;
  ld.space = isa::MemSpace::GLOBAL;
  ld.srcs = {ir::Operand::val(addr)};
  ld.defs = {f.new_value(DataType::U32)};
  int v = ld.defs[0];
  f.blocks[0].insts.push_back(ld);
  b.cond_branch(p, 1, 2);
  b.set_block(1);
  b.branch(3);
  b.set_block(2);
  b.branch(3);
  b.set_block(3);
  ir::Inst phi;
  phi.op = ir::Op::kPhi;
  phi.srcs = {ir::Operand::val(v), ir::Operand::val(v)};
  phi.defs = {f.new_value(DataType::U32)};
  int merged = phi.defs[0];
  f.blocks[3].insts.push_back(phi);
  b.store(addr, merged);
  b.exit();
  f.recompute_preds();
  ASSERT_EQ(ir::verify_function(f), "");
  EXPECT_TRUE(constant_fold_copy_prop(f));
  EXPECT_EQ(ir::verify_function(f), "");
  EXPECT_EQ(count_ops(f, ir::Op::kPhi), 0);
  EXPECT_EQ(f.blocks[3].insts[0].srcs[1].value, v);
}

TEST(RemoveUnreachableBlocks, DropsBlocksAndRemapsBranches) {
  // 0 -> 2; 1 is unreachable and branches to 2 (a phi source in 2 goes away with it).
  ir::Function f;
  for (int k = 0; k < 3; ++k) f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  int x = b.constant(DataType::U32, 1);
  b.branch(2);
  b.set_block(1);
  int y = b.constant(DataType::U32, 2);
  b.branch(2);
  b.set_block(2);
  ir::Inst phi;
  phi.op = ir::Op::kPhi;
  phi.srcs = {ir::Operand::val(x), ir::Operand::val(y)};
  phi.defs = {f.new_value(DataType::U32)};
  f.blocks[2].insts.push_back(phi);
  b.store(addr, phi.defs[0]);
  b.exit();
  f.recompute_preds();
  ASSERT_EQ(ir::verify_function(f), "");
  EXPECT_TRUE(remove_unreachable_blocks(f));
  ASSERT_EQ(f.blocks.size(), 2u);
  EXPECT_EQ(ir::verify_function(f), "");
  EXPECT_EQ(f.blocks[0].insts.back().succs, std::vector<int>{1});
  ASSERT_EQ(f.blocks[1].insts[0].op, ir::Op::kPhi);
  ASSERT_EQ(f.blocks[1].insts[0].srcs.size(), 1u);
  EXPECT_EQ(f.blocks[1].insts[0].srcs[0].value, x);
  EXPECT_FALSE(remove_unreachable_blocks(f));
}

}  // namespace
}  // namespace strata::compiler::passes
