#include <gtest/gtest.h>

#include "compiler/passes/passes.h"
#include "compiler/passes/test_ir.h"

namespace strata::compiler::passes {
namespace {

using isa::DataType;
using isa::Opcode;
using testing::count_ops;
using testing::IrBuilder;

TEST(DeadCodeElimination, RemovesUnusedChainsAndKeepsSideEffects) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  int x = b.constant(DataType::U32, 5);
  int dead1 = b.isa(Opcode::IADD, DataType::U32, {ir::Operand::val(x), ir::Operand::immediate(1)});
  b.isa(Opcode::IMUL, DataType::U32, {ir::Operand::val(dead1), ir::Operand::immediate(3)});  // unused
  int live = b.isa(Opcode::ISUB, DataType::U32, {ir::Operand::val(x), ir::Operand::immediate(2)});
  b.store(addr, live);
  b.exit();
  ASSERT_EQ(ir::verify_function(f), "");
  EXPECT_TRUE(dead_code_elimination(f));
  EXPECT_EQ(ir::verify_function(f), "");
  // The IMUL and then the IADD feeding only it are gone; the store chain stays.
  EXPECT_EQ(count_ops(f, ir::Op::kIsa, Opcode::IMUL), 0);
  EXPECT_EQ(count_ops(f, ir::Op::kIsa, Opcode::IADD), 0);
  EXPECT_EQ(count_ops(f, ir::Op::kIsa, Opcode::ISUB), 1);
  EXPECT_EQ(count_ops(f, ir::Op::kIsa, Opcode::ST), 1);
  EXPECT_EQ(count_ops(f, ir::Op::kConst), 2);
  // A second run finds nothing to do.
  EXPECT_FALSE(dead_code_elimination(f));
}

TEST(DeadCodeElimination, KeepsOrderedLoadsAndWarpSync) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  int addr = b.constant(DataType::U64, 0x1000);
  ir::Inst ld;
  ld.op = ir::Op::kIsa;
  ld.isa_op = Opcode::LD;
  ld.type = DataType::U32;
  ld.space = isa::MemSpace::GLOBAL;
  ld.sem = isa::MemSem::ACQUIRE;
  ld.srcs = {ir::Operand::val(addr)};
  ld.defs = {f.new_value(DataType::U32)};
  f.blocks[0].insts.push_back(ld);
  ir::Inst ws;
  ws.op = ir::Op::kIsa;
  ws.isa_op = Opcode::WARPSYNC;
  ws.srcs = {ir::Operand::immediate(0xffffffff)};
  f.blocks[0].insts.push_back(ws);
  b.exit();
  EXPECT_FALSE(dead_code_elimination(f));
  EXPECT_EQ(count_ops(f, ir::Op::kIsa, Opcode::LD), 1);
  EXPECT_EQ(count_ops(f, ir::Op::kIsa, Opcode::WARPSYNC), 1);
}

}  // namespace
}  // namespace strata::compiler::passes
