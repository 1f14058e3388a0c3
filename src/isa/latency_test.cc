// The latency table and the register-use rules the scheduler and the hazard checker
// share, against docs/isa.md.
#include "isa/latency.h"

#include <gtest/gtest.h>

#include "isa/reg_uses.h"

namespace strata::isa {
namespace {

Inst make(Opcode op, DataType t = DataType::U32) {
  Inst i;
  i.op = op;
  i.type = t;
  return i;
}

TEST(Latency, EveryOpcodeHasAClassThatFitsTheStallField) {
  for (int o = 0; o < kNumOpcodes; ++o) {
    for (bool f64 : {false, true}) {
      const LatencyInfo& l = latency_class_info(latency_class(static_cast<Opcode>(o), f64));
      if (l.kind == LatencyKind::kFixed) {
        EXPECT_GE(l.cycles, 1) << op_info(static_cast<Opcode>(o)).name;
        EXPECT_LE(l.cycles, kMaxFixedLatency) << op_info(static_cast<Opcode>(o)).name;
      }
    }
  }
}

TEST(Latency, ClassesFollowTheUnits) {
  EXPECT_EQ(latency(make(Opcode::IADD)).kind, LatencyKind::kFixed);
  EXPECT_EQ(latency(make(Opcode::FFMA, DataType::F32)).kind, LatencyKind::kFixed);
  // F64 arithmetic is slower than F32 (docs/isa.md "Latencies").
  EXPECT_GT(latency(make(Opcode::FFMA, DataType::F64)).cycles,
            latency(make(Opcode::FFMA, DataType::F32)).cycles);
  Inst cvt = make(Opcode::CVT, DataType::F32);
  cvt.type2 = DataType::F64;
  EXPECT_EQ(latency_class(cvt), latency_class(Opcode::FADD, /*f64=*/true));
  for (Opcode op : {Opcode::LD, Opcode::ST, Opcode::LDC, Opcode::ATOM, Opcode::MUFU, Opcode::S2R,
                    Opcode::SHFL}) {
    EXPECT_EQ(latency(make(op)).kind, LatencyKind::kVariable) << op_info(op).name;
  }
  EXPECT_EQ(latency(make(Opcode::ST)).reads, SourceReads::kLate);
  EXPECT_EQ(latency(make(Opcode::IADD)).reads, SourceReads::kAtIssue);
  EXPECT_EQ(latency(make(Opcode::BRA)).kind, LatencyKind::kNone);
}

TEST(RegisterUses, OperandWidths) {
  Inst i = make(Opcode::IMADWIDE);
  i.rd = 4, i.ra = 1, i.rb = 2, i.rc = 6;
  RegisterUses u = register_uses(i);
  EXPECT_EQ(u.write.first, 4);
  EXPECT_EQ(u.write.count, 2);
  EXPECT_EQ(u.reads[0].count, 1);
  EXPECT_EQ(u.reads[1].count, 1);
  EXPECT_EQ(u.reads[2].first, 6);
  EXPECT_EQ(u.reads[2].count, 2);

  Inst st = make(Opcode::ST, DataType::B128);
  st.space = MemSpace::GLOBAL;
  st.ra = 2, st.rb = 8;
  u = register_uses(st);
  EXPECT_EQ(u.write.count, 0);
  EXPECT_EQ(u.reads[0].first, 2);
  EXPECT_EQ(u.reads[0].count, 2);  // a 64-bit address pair
  EXPECT_EQ(u.reads[1].first, 8);
  EXPECT_EQ(u.reads[1].count, 4);  // a quad

  Inst ld = make(Opcode::LD, DataType::U8);
  ld.space = MemSpace::SHARED;
  ld.rd = 3, ld.ra = 5;
  u = register_uses(ld);
  EXPECT_EQ(u.write.count, 1);
  EXPECT_EQ(u.reads[0].count, 1);  // a 32-bit shared offset

  Inst shl = make(Opcode::SHL, DataType::U64);
  shl.rd = 2, shl.ra = 4, shl.rb = 7;
  u = register_uses(shl);
  EXPECT_EQ(u.reads[1].first, 7);
  EXPECT_EQ(u.reads[1].count, 1);  // the shift amount is 32-bit

  Inst imm = make(Opcode::IADD);
  imm.rd = 1, imm.ra = kRZ, imm.b_imm = true, imm.imm = 5;
  u = register_uses(imm);
  EXPECT_EQ(u.reads[0].count, 0);  // RZ and immediates are not reads
  EXPECT_EQ(u.reads[1].count, 0);
}

TEST(RegisterUses, Predicates) {
  Inst p = make(Opcode::PLOP);
  p.pd = 1, p.ps = 2, p.rb = 3, p.guard = 4;
  RegisterUses u = register_uses(p);
  EXPECT_EQ(u.pred_writes, 1u << 1);
  EXPECT_EQ(u.pred_reads, (1u << 2) | (1u << 3));
  EXPECT_EQ(u.guard, 4);
  EXPECT_EQ(u.reads[0].count, 0);  // pq lives in rb but is a predicate

  Inst s = make(Opcode::ISETP);
  s.pd = kPT, s.ps = kPT, s.ra = 1, s.rb = 2;
  u = register_uses(s);
  EXPECT_EQ(u.pred_writes, 0);  // PT is discarded
  EXPECT_EQ(u.pred_reads, 0);
}

}  // namespace
}  // namespace strata::isa
