// Round trips between the three forms of an instruction (Inst, word, text) for every
// opcode, and the exact text of the syntax.
#include "isa/disasm.h"

#include <gtest/gtest.h>

#include <random>

#include "isa/asm.h"
#include "isa/encode.h"
#include "isa/fields.h"
#include "isa/modifiers.h"

namespace strata::isa {
namespace {

// A random legal Inst of opcode `op`: every field random within its width, then enum
// fields folded into their defined range. Half of the time the register/predicate
// fields use the canonical defaults so that the common syntax is exercised too.
Inst random_inst(std::mt19937_64& rng, Opcode op) {
  Inst inst;
  const bool noisy = rng() % 2;
  for (int i = 0; i < kNumFields; ++i) {
    const auto f = static_cast<Field>(i);
    if (!noisy && (f == Field::space || f == Field::sem || f == Field::scope ||
                   f == Field::mod || f == Field::imm || f == Field::b_imm)) {
      if (rng() % 2) continue;
    }
    set_field(inst, f, rng() & field_info(f).max_value());
  }
  inst.op = op;
  inst.type = static_cast<DataType>(static_cast<int>(inst.type) % static_cast<int>(DataType::kCount));
  inst.type2 = static_cast<DataType>(static_cast<int>(inst.type2) % static_cast<int>(DataType::kCount));
  if (rng() % 2) inst.type2 = DataType::kNone;
  inst.space = static_cast<MemSpace>(static_cast<int>(inst.space) % static_cast<int>(MemSpace::kCount));
  inst.scope = static_cast<MemScope>(static_cast<int>(inst.scope) % 3);
  while (!mod_is_legal(op, inst.mod)) inst.mod = static_cast<uint8_t>(rng());
  if (!noisy) {
    inst.rc = rng() % 4 ? inst.rc : kRZ;
    if (!(op_info(op).flags & kMemory)) {
      inst.space = MemSpace::GENERIC;
      inst.sem = MemSem::WEAK;
      inst.scope = MemScope::CTA;
    }
  }
  return inst;
}

void expect_round_trip(const Inst& inst) {
  ASSERT_TRUE(validate(inst).ok()) << validate(inst).to_string();
  auto decoded = decode(encode(inst));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, inst);
  for (bool with_control : {true, false}) {
    const std::string text = disassemble(inst, with_control);
    auto parsed = assemble_instruction(text);
    ASSERT_TRUE(parsed.ok()) << text << "\n" << parsed.status().to_string();
    Inst expected = inst;
    if (!with_control) expected.ctrl = Control();
    EXPECT_EQ(*parsed, expected) << text;
    EXPECT_EQ(disassemble(*parsed, with_control), text);
  }
}

TEST(RoundTrip, EveryOpcodeWithRandomFields) {
  std::mt19937_64 rng(42);
  for (int op = 0; op < kNumOpcodes; ++op) {
    SCOPED_TRACE(op_info(static_cast<Opcode>(op)).name);
    Inst plain;
    plain.op = static_cast<Opcode>(op);
    while (!mod_is_legal(plain.op, plain.mod)) ++plain.mod;
    expect_round_trip(plain);
    for (int n = 0; n < 400; ++n) expect_round_trip(random_inst(rng, static_cast<Opcode>(op)));
  }
}

TEST(RoundTrip, EveryModValueOfEveryOpcode) {
  for (int op = 0; op < kNumOpcodes; ++op) {
    for (int mod = 0; mod < 256; ++mod) {
      Inst inst;
      inst.op = static_cast<Opcode>(op);
      inst.mod = static_cast<uint8_t>(mod);
      inst.type = DataType::F32;
      inst.space = MemSpace::SHARED;
      if (validate(inst).ok()) expect_round_trip(inst);
    }
  }
}

TEST(RoundTrip, RandomDecodableWords) {
  std::mt19937_64 rng(7);
  int checked = 0;
  for (int n = 0; n < 100000; ++n) {
    Word w{rng(), rng()};
    w.lo = (w.lo & ~uint64_t{0x3ff}) | (rng() % kNumOpcodes);
    auto inst = decode(w);
    if (!inst.ok()) continue;
    ++checked;
    const std::string text = disassemble(*inst, true);
    auto parsed = assemble_instruction(text);
    ASSERT_TRUE(parsed.ok()) << text << "\n" << parsed.status().to_string();
    EXPECT_EQ(encode(*parsed), w) << text;
  }
  EXPECT_GT(checked, 1000);
}

Inst make(Opcode op) {
  Inst i;
  i.op = op;
  return i;
}

TEST(Syntax, ExactText) {
  Inst iadd = make(Opcode::IADD);
  iadd.guard = 0;
  iadd.guard_neg = true;
  iadd.type = DataType::S32;
  iadd.rd = 2;
  iadd.ra = 4;
  iadd.b_imm = true;
  iadd.imm = 0x10;
  EXPECT_EQ(disassemble(iadd), "@!P0 IADD.S32 R2, R4, 0x10;");
  iadd.ctrl = {.stall = 1, .yield = true, .wbar = 0, .rbar = kNoDepBarrier, .wait = 3};
  EXPECT_EQ(disassemble(iadd, true),
            "@!P0 IADD.S32 R2, R4, 0x10 {stall=1, yield, wbar=0, rbar=-, wait=0x3};");

  Inst setp = make(Opcode::ISETP);
  setp.mod = static_cast<uint8_t>(CmpOp::LT) | (static_cast<uint8_t>(BoolOp::AND) << 4);
  setp.type = DataType::S32;
  setp.pd = 1;
  setp.ra = 2;
  setp.rb = 3;
  setp.ps_neg = true;
  EXPECT_EQ(disassemble(setp), "ISETP.LT.AND.S32 P1, R2, R3, !PT;");

  Inst ld = make(Opcode::LD);
  ld.space = MemSpace::GLOBAL;
  ld.sem = MemSem::ACQUIRE;
  ld.scope = MemScope::GPU;
  ld.type = DataType::U64;
  ld.rd = 6;
  ld.ra = 2;
  ld.imm = static_cast<uint32_t>(-8);
  EXPECT_EQ(disassemble(ld), "LD.GLOBAL.ACQUIRE.GPU.U64 R6, [R2-0x8];");

  Inst ldc = make(Opcode::LDC);
  ldc.mod = 2;
  ldc.rd = 1;
  ldc.ra = 4;
  ldc.imm = 0x10;
  ldc.type = DataType::B32;
  EXPECT_EQ(disassemble(ldc), "LDC.B32 R1, c[2][R4+0x10];");

  Inst s2r = make(Opcode::S2R);
  s2r.rd = 0;
  s2r.mod = static_cast<uint8_t>(SpecialReg::TID_X);
  EXPECT_EQ(disassemble(s2r), "S2R R0, SR_TID.X;");

  Inst bssy = make(Opcode::BSSY);
  bssy.mod = 3;
  bssy.imm = 12;
  EXPECT_EQ(disassemble(bssy), "BSSY B3, 12;");

  Inst atom = make(Opcode::ATOM);
  atom.mod = static_cast<uint8_t>(AtomOp::CAS);
  atom.space = MemSpace::GLOBAL;
  atom.sem = MemSem::RELEASE;
  atom.scope = MemScope::SYS;
  atom.type = DataType::B32;
  atom.rd = 1;
  atom.ra = 2;
  atom.rb = 4;
  atom.rc = 5;
  EXPECT_EQ(disassemble(atom), "ATOM.CAS.GLOBAL.ACQ_REL.SYS.B32 R1, [R2], R4, R5;");

  Inst cvt = make(Opcode::CVT);
  cvt.mod = static_cast<uint8_t>(Round::RZ) | kModSat;
  cvt.type = DataType::S32;
  cvt.type2 = DataType::F32;
  cvt.rd = 1;
  cvt.ra = 2;
  EXPECT_EQ(disassemble(cvt), "CVT.RZ.SAT.S32.F32 R1, R2;");

  Inst plop = make(Opcode::PLOP);
  plop.mod = kModPqNeg | (static_cast<uint8_t>(BoolOp::XOR) << 4);
  plop.pd = 0;
  plop.ps = 1;
  plop.rb = 2;
  EXPECT_EQ(disassemble(plop), "PLOP.XOR P0, P1, !P2;");

  Inst bar = make(Opcode::BAR);
  EXPECT_EQ(disassemble(bar), "BAR.SYNC RZ, PT, 0x0, RZ, PT;");

  Inst bfi = make(Opcode::BFI);
  bfi.type = DataType::B32;
  bfi.rd = 0;
  bfi.ra = 1;
  bfi.rb = 3;
  bfi.rc = 2;
  bfi.imm = 8;
  EXPECT_EQ(disassemble(bfi), "BFI.B32 R0, R1, R3, R2, 0x8;");

  Inst odd = make(Opcode::NOP);
  odd.rc = 9;
  odd.mod = 0x40;
  EXPECT_EQ(disassemble(odd), "NOP {rc=9, mod=0x40};");

  EXPECT_EQ(disassemble(make(Opcode::EXIT)), "EXIT;");
  EXPECT_EQ(disassemble(make(Opcode::MEMBAR)), "MEMBAR.CTA;");

  Inst bad = make(Opcode::MUFU);
  bad.mod = 200;
  EXPECT_EQ(disassemble(bad).rfind("<illegal instruction:", 0), 0u);
}

TEST(Program, LabelsForTargets) {
  std::vector<Inst> prog(4);
  prog[0].op = Opcode::BSSY;
  prog[0].mod = 0;
  prog[0].imm = 3;
  prog[1].op = Opcode::BRA;
  prog[1].guard = 0;
  prog[1].imm = 3;
  prog[2].op = Opcode::BRA;
  prog[2].imm = 100;  // outside the program: stays numeric
  prog[3].op = Opcode::BSYNC;
  const std::string text = disassemble_program(prog);
  EXPECT_NE(text.find("L3:\n/*0003*/ BSYNC B0"), std::string::npos) << text;
  EXPECT_NE(text.find("@P0 BRA L3"), std::string::npos) << text;
  EXPECT_NE(text.find("BRA 100"), std::string::npos) << text;
  auto back = assemble(text, "prog.sasm");
  ASSERT_TRUE(back.ok()) << back.status().to_string();
  EXPECT_EQ(*back, prog);
  EXPECT_EQ(disassemble_program(*back), text);
}

}  // namespace
}  // namespace strata::isa
