// Integer ALU semantics, checked lane by lane against reference values.
#include <gtest/gtest.h>

#include "hw/sim/sm/test_harness.h"

namespace strata::hw::sim::testing {
namespace {

std::vector<uint64_t> run32(Opcode op, DataType t, const std::vector<uint64_t>& a, const std::vector<uint64_t>& b,
                            uint8_t mod = 0, const std::vector<uint64_t>& c = {}) {
  Harness h;
  return run_map(h, {B(op).t(t).d(10).a(8).b(9).c(12).mod(mod)}, a, b, false, c);
}

TEST(Alu, AddSubMul32) {
  std::vector<uint64_t> a = {1, 0xffffffff, 7, 0x80000000}, b = {2, 1, 0xfffffff9, 0x80000000};
  EXPECT_EQ(run32(Opcode::IADD, DataType::U32, a, b), (std::vector<uint64_t>{3, 0, 0, 0}));
  EXPECT_EQ(run32(Opcode::ISUB, DataType::U32, a, b), (std::vector<uint64_t>{0xffffffff, 0xfffffffe, 14, 0}));
  EXPECT_EQ(run32(Opcode::IMUL, DataType::U32, a, b), (std::vector<uint64_t>{2, 0xffffffff, 0xffffffcf, 0}));
  EXPECT_EQ(run32(Opcode::IMULHI, DataType::S32, a, b), (std::vector<uint64_t>{0, 0xffffffff, 0xffffffff, 0x40000000}));
  EXPECT_EQ(run32(Opcode::IMULHI, DataType::U32, a, b), (std::vector<uint64_t>{0, 0, 6, 0x40000000}));
}

TEST(Alu, SaturatingAdd) {
  std::vector<uint64_t> a = {0x7fffffff, 0x80000000, 5}, b = {1, 0xffffffff, 6};
  EXPECT_EQ(run32(Opcode::IADD, DataType::S32, a, b, isa::kModSat),
            (std::vector<uint64_t>{0x7fffffff, 0x80000000, 11}));
}

TEST(Alu, DivRemEdgeCases) {
  std::vector<uint64_t> a = {7, 0xfffffff9, 5, 0x80000000, 9}, b = {2, 2, 0, 0xffffffff, 0xfffffffc};
  EXPECT_EQ(run32(Opcode::IDIV, DataType::S32, a, b),
            (std::vector<uint64_t>{3, 0xfffffffd, 0xffffffff, 0x80000000, 0xfffffffe}));
  EXPECT_EQ(run32(Opcode::IREM, DataType::S32, a, b), (std::vector<uint64_t>{1, 0xffffffff, 5, 0, 1}));
  EXPECT_EQ(run32(Opcode::IDIV, DataType::U32, a, b), (std::vector<uint64_t>{3, 0x7ffffffc, 0xffffffff, 0, 0}));
}

TEST(Alu, ShiftsClamp) {
  std::vector<uint64_t> a = {1, 0x80000000, 0x80000000, 0xf0}, b = {31, 32, 100, 4};
  EXPECT_EQ(run32(Opcode::SHL, DataType::B32, a, b), (std::vector<uint64_t>{0x80000000, 0, 0, 0xf00}));
  EXPECT_EQ(run32(Opcode::SHR, DataType::U32, a, b), (std::vector<uint64_t>{0, 0, 0, 0xf}));
  EXPECT_EQ(run32(Opcode::SHR, DataType::S32, a, b), (std::vector<uint64_t>{0, 0xffffffff, 0xffffffff, 0xf}));
}

TEST(Alu, BitOps) {
  std::vector<uint64_t> a = {0, 1, 0xf0000000, 0xffffffff}, z = {0, 0, 0, 0};
  EXPECT_EQ(run32(Opcode::POPC, DataType::B32, a, z), (std::vector<uint64_t>{0, 1, 4, 32}));
  EXPECT_EQ(run32(Opcode::CLZ, DataType::B32, a, z), (std::vector<uint64_t>{32, 31, 0, 0}));
  EXPECT_EQ(run32(Opcode::BREV, DataType::B32, a, z), (std::vector<uint64_t>{0, 0x80000000, 0xf, 0xffffffff}));
  EXPECT_EQ(run32(Opcode::BFIND, DataType::U32, a, z), (std::vector<uint64_t>{0xffffffff, 0, 31, 31}));
  EXPECT_EQ(run32(Opcode::BFIND, DataType::S32, a, z), (std::vector<uint64_t>{0xffffffff, 0, 27, 0xffffffff}));
}

TEST(Alu, BitFieldExtractInsert) {
  // bfe.s32 of 0x0000f000 at pos 12 len 4 -> -1; bfe.u32 -> 15; len 0 -> 0; pos past msb.
  std::vector<uint64_t> a = {0xf000, 0xf000, 0xf000, 0x80000000}, pos = {12, 12, 12, 40}, len = {4, 0, 8, 4};
  EXPECT_EQ(run32(Opcode::BFE, DataType::S32, a, pos, 0, len), (std::vector<uint64_t>{0xffffffff, 0, 0xf, 0xffffffff}));
  EXPECT_EQ(run32(Opcode::BFE, DataType::U32, a, pos, 0, len), (std::vector<uint64_t>{0xf, 0, 0xf, 0}));
  Harness h;
  // BFI with position 8, length 4 from imm: insert a's low bits into c.
  auto r = run_map(h, {B(Opcode::BFI).t(DataType::B32).d(10).a(8).b(isa::kRZ).c(12).imm(8 | (4 << 8))},
                   {0xab, 0x5}, {0, 0}, false, {0xffffffff, 0});
  EXPECT_EQ(r, (std::vector<uint64_t>{0xfffffbff, 0x500}));
}

TEST(Alu, Permute) {
  std::vector<uint64_t> a = {0x33221100, 0x33221100, 0x33221180}, b = {0x77665544, 0x77665544, 0x77665544};
  std::vector<uint64_t> sel = {0x3210, 0x7654, 0x0008};
  EXPECT_EQ(run32(Opcode::PRMT, DataType::B32, a, b, 0, sel),
            (std::vector<uint64_t>{0x33221100, 0x77665544, 0x808080ff}));
}

TEST(Alu, Wide64) {
  Harness h;
  std::vector<uint64_t> a = {0xffffffffffffffffull, 1ull << 40, 5}, b = {1, 3, 0xfffffffffffffffeull};
  auto add = run_map(h, {B(Opcode::IADD).t(DataType::U64).d(12).a(8).b(10)}, a, b, true);
  EXPECT_EQ(add, (std::vector<uint64_t>{0, (1ull << 40) + 3, 3}));
  auto mul = run_map(h, {B(Opcode::IMUL).t(DataType::U64).d(12).a(8).b(10)}, a, b, true);
  EXPECT_EQ(mul, (std::vector<uint64_t>{0xffffffffffffffffull, 3ull << 40, 0xfffffffffffffff6ull}));
  auto hi = run_map(h, {B(Opcode::IMULHI).t(DataType::U64).d(12).a(8).b(10)}, a, b, true);
  EXPECT_EQ(hi, (std::vector<uint64_t>{0, 0, 4}));
  auto shr = run_map(h, {B(Opcode::SHR).t(DataType::S64).d(12).a(8).b(10)}, {0x8000000000000000ull, 16, 1},
                     {63, 2, 64}, true);
  EXPECT_EQ(shr, (std::vector<uint64_t>{0xffffffffffffffffull, 4, 0}));
  // A negative immediate sign-extends for 64-bit types: add.u64 x, -1.
  auto dec = run_map(h, {B(Opcode::IADD).t(DataType::U64).d(12).a(8).bi(0xffffffffu)}, {10, 0}, {0, 0}, true);
  EXPECT_EQ(dec, (std::vector<uint64_t>{9, 0xffffffffffffffffull}));
}

TEST(Alu, CompareSelectAndPredicateLogic) {
  Harness h;
  // P0 = a < b (signed); P1 = a == b OR P0; R10 = P1 ? 100 : 200.
  std::vector<isa::Inst> body = {
      B(Opcode::ISETP).t(DataType::S32).pd(0).a(8).b(9).mod(static_cast<uint8_t>(isa::CmpOp::LT)),
      B(Opcode::ISETP).t(DataType::S32).pd(1).a(8).b(9).ps(0)
          .mod(static_cast<uint8_t>(isa::CmpOp::EQ) | (static_cast<uint8_t>(isa::BoolOp::OR) << 4)),
      B(Opcode::MOV).t(DataType::U32).d(13).bi(100),
      B(Opcode::MOV).t(DataType::U32).d(14).bi(200),
      B(Opcode::SEL).t(DataType::U32).d(10).a(13).b(14).ps(1),
  };
  auto r = run_map(h, body, {0xffffffff, 5, 7}, {1, 5, 3});
  EXPECT_EQ(r, (std::vector<uint64_t>{100, 100, 200}));
  // PLOP: P2 = P0 XOR !P1 -> select.
  body.push_back(B(Opcode::PLOP).pd(2).ps(0).b(1).mod((static_cast<uint8_t>(isa::BoolOp::XOR) << 4) | isa::kModPqNeg));
  body.push_back(B(Opcode::SEL).t(DataType::U32).d(10).a(13).b(14).ps(2));
  r = run_map(h, body, {0xffffffff, 5, 7}, {1, 5, 3});
  EXPECT_EQ(r, (std::vector<uint64_t>{100, 200, 100}));  // P0 = {T,F,F}, !P1 = {F,F,T}
}

TEST(Alu, GuardedInstructionsOnlyAffectTheirLanes) {
  Harness h;
  std::vector<isa::Inst> body = {
      B(Opcode::ISETP).t(DataType::U32).pd(0).a(8).b(9).mod(static_cast<uint8_t>(isa::CmpOp::GT)),
      B(Opcode::MOV).t(DataType::U32).d(10).bi(1),
      B(Opcode::MOV).t(DataType::U32).d(10).bi(2).guard(0),
      B(Opcode::IADD).t(DataType::U32).d(10).a(10).bi(10).guard(0, /*neg=*/true),
  };
  auto r = run_map(h, body, {1, 5}, {3, 3});
  EXPECT_EQ(r, (std::vector<uint64_t>{11, 2}));
}

}  // namespace
}  // namespace strata::hw::sim::testing
