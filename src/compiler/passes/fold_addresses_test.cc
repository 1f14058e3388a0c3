#include <gtest/gtest.h>

#include "compiler/passes/passes.h"
#include "compiler/passes/test_ir.h"

namespace strata::compiler::passes {
namespace {

using isa::DataType;
using isa::Opcode;
using testing::IrBuilder;

// The store of `f` (the only ST).
const ir::Inst& the_store(const ir::Function& f) {
  for (const auto& b : f.blocks)
    for (const ir::Inst& i : b.insts)
      if (i.op == ir::Op::kIsa && i.isa_op == Opcode::ST) return i;
  ADD_FAILURE() << "no store";
  return f.blocks[0].insts[0];
}

// A store to [x + a + b] in 64-bit addresses: both adds fold into the offset.
TEST(FoldAddressOffsets, ChainsOfAddsFoldIntoTheOffset) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  const int x = b.isa(Opcode::S2R, DataType::U64, {});
  const int a1 =
      b.isa(Opcode::IADD, DataType::S64, {ir::Operand::val(x), ir::Operand::immediate(16)});
  const int a2 =
      b.isa(Opcode::IADD, DataType::S64, {ir::Operand::immediate(8), ir::Operand::val(a1)});
  const int v = b.constant(DataType::U32, 7);
  b.store(a2, v);
  b.exit();
  ASSERT_EQ(ir::verify_function(f), "");
  EXPECT_TRUE(fold_address_offsets(f));
  EXPECT_EQ(ir::verify_function(f), "");
  EXPECT_EQ(the_store(f).srcs[0].value, x);
  EXPECT_EQ(the_store(f).imm, 24u);
  EXPECT_FALSE(fold_address_offsets(f));
}

// A 64-bit offset must stay within the signed 32-bit field; a negative one folds.
TEST(FoldAddressOffsets, SixtyFourBitOffsetsStayInRange) {
  for (const auto& [add, folds] :
       {std::pair<uint64_t, bool>{uint64_t{1} << 32, false}, {static_cast<uint64_t>(-64), true}}) {
    ir::Function f;
    f.new_block();
    IrBuilder b(&f);
    const int x = b.isa(Opcode::S2R, DataType::U64, {});
    const int a =
        b.isa(Opcode::IADD, DataType::S64, {ir::Operand::val(x), ir::Operand::immediate(add)});
    b.store(a, b.constant(DataType::U32, 1));
    b.exit();
    EXPECT_EQ(fold_address_offsets(f), folds) << add;
    EXPECT_EQ(the_store(f).srcs[0].value, folds ? x : a);
    if (folds) EXPECT_EQ(static_cast<int64_t>(the_store(f).imm), -64);
  }
}

// 32-bit (shared) addresses wrap modulo 2^32, as the instruction's offset does.
TEST(FoldAddressOffsets, ThirtyTwoBitOffsetsWrap) {
  ir::Function f;
  f.new_block();
  IrBuilder b(&f);
  const int x = b.isa(Opcode::S2R, DataType::U32, {});
  const int a = b.isa(Opcode::IADD, DataType::U32,
                      {ir::Operand::val(x), ir::Operand::immediate(0xfffffff0u)});
  ir::Inst st;
  st.op = ir::Op::kIsa;
  st.isa_op = Opcode::ST;
  st.space = isa::MemSpace::SHARED;
  st.type = DataType::U32;
  st.imm = 0x20;
  st.srcs = {ir::Operand::val(a), ir::Operand::val(b.constant(DataType::U32, 3))};
  f.blocks[0].insts.push_back(st);
  b.exit();
  ASSERT_EQ(ir::verify_function(f), "");
  EXPECT_TRUE(fold_address_offsets(f));
  EXPECT_EQ(the_store(f).srcs[0].value, x);
  EXPECT_EQ(the_store(f).imm, 0x10u);
}

}  // namespace
}  // namespace strata::compiler::passes
