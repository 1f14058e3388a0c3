#include "isa/asm.h"

#include <gtest/gtest.h>

#include <random>

#include "isa/disasm.h"
#include "isa/encode.h"

namespace strata::isa {
namespace {

std::string error_of(std::string_view text) {
  auto r = assemble(text, "k.sasm");
  if (r.ok()) return "<ok>";
  EXPECT_EQ(r.status().code(), Code::kInvalidSource);
  return r.status().message();
}

TEST(Assemble, LabelsCommentsAndNumericTargets) {
  auto prog = assemble(R"(
    // a loop
    top:  S2R R0, SR_TID.X;        # thread index
          isetp.ge.and.u32 p0, r0, 0x20, pt;
          @P0 BRA done;  /* skip */ IADD.U32 R0, R0, 1;
          BRA top;
    done: EXIT; BRA 0x1;
  )", "loop.sasm");
  ASSERT_TRUE(prog.ok()) << prog.status().to_string();
  ASSERT_EQ(prog->size(), 7u);
  EXPECT_EQ((*prog)[2].op, Opcode::BRA);
  EXPECT_EQ((*prog)[2].imm, 5u);
  EXPECT_EQ((*prog)[2].guard, 0);
  EXPECT_EQ((*prog)[4].imm, 0u);
  EXPECT_EQ((*prog)[6].imm, 1u);
  EXPECT_EQ((*prog)[1].type, DataType::U32);
  EXPECT_TRUE((*prog)[3].b_imm);
  EXPECT_EQ((*prog)[3].imm, 1u);
}

TEST(Assemble, ImmediatesAndAddresses) {
  auto i = assemble_instruction("MOV.S32 R1, -1;");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->imm, 0xffffffffu);
  i = assemble_instruction("ST.SHARED.U32 [R2-0x10], R3;");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->imm, static_cast<uint32_t>(-16));
  EXPECT_EQ(i->space, MemSpace::SHARED);
  i = assemble_instruction("LD.U32 R1, [0x40];");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->ra, kRZ);
  EXPECT_EQ(i->imm, 0x40u);
  i = assemble_instruction("ST.U32 [R2+0x4], 0x4;");  // both claim imm: equal is fine
  ASSERT_TRUE(i.ok());
  i = assemble_instruction("LD.U32 R1, [R2] {stall=15, yield, wbar=2, rbar=-, wait=0x3f};");
  ASSERT_TRUE(i.ok());
  EXPECT_EQ(i->ctrl, (Control{.stall = 15, .yield = true, .wbar = 2, .rbar = 7, .wait = 0x3f}));
}

TEST(Assemble, ErrorsNameTheLocation) {
  EXPECT_EQ(error_of("EXIT;\n  FOO R1;"), "k.sasm:2:3: unknown instruction 'FOO'");
  EXPECT_EQ(error_of("IADD.U32 R1, R2;"),
            "k.sasm:1:16: expected ',' between operands, found ';'");
  EXPECT_EQ(error_of("IADD.U32 R1, R2, R255;"),
            "k.sasm:1:18: register R255 out of range (R0-R254, RZ)");
  EXPECT_EQ(error_of("IADD.U32 R1, R2, 0x100000000;"),
            "k.sasm:1:18: invalid or out-of-range 32-bit immediate '0x100000000'");
  EXPECT_EQ(error_of("BRA nowhere;"), "k.sasm:1:5: undefined label 'nowhere'");
  EXPECT_EQ(error_of("a: EXIT; a: EXIT;"), "k.sasm:1:10: label 'a' is defined twice");
  EXPECT_EQ(error_of("IADD.XYZ R1, R2, R3;"), "k.sasm:1:6: unknown modifier '.XYZ' for IADD");
  EXPECT_EQ(error_of("ISETP.S32 P0, R1, R2, PT;"),
            "k.sasm:1:1: ISETP needs a comparison (.EQ, .LT, ...)");
  EXPECT_EQ(error_of("EXIT"), "k.sasm:1:5: expected ';' at the end of the instruction, found end of input");
  EXPECT_EQ(error_of("EXIT; /* open"), "k.sasm:1:7: unterminated /* comment");
  EXPECT_EQ(error_of("EXIT $;"), "k.sasm:1:6: unexpected character '$'");
  EXPECT_EQ(error_of("ST.U32 [R2+0x4], 0x8;"),
            "k.sasm:1:18: immediate 0x8 conflicts with the earlier immediate 0x4 (both are held "
            "in the one imm field)");
  EXPECT_EQ(error_of("NOP {stall=16};"), "k.sasm:1:12: value 16 does not fit field 'stall' (4 bits)");
  EXPECT_EQ(error_of("NOP {bogus=1};"),
            "k.sasm:1:6: expected an instruction field name, found 'bogus'");
  EXPECT_EQ(error_of("MUFU.RCP.F32 R0, R1 {mod=0x20};"),
            "k.sasm:1:1: MUFU: mod 0x20 is not a legal kMufu modifier");
  EXPECT_EQ(error_of("IADD.U32.S32.F32 R1, R2, R3;"),
            "k.sasm:1:14: at most two types are allowed ('.F32')");
}

// Valid programs, mutated at random, must assemble or fail cleanly.
TEST(Assemble, FuzzedTextNeverCrashes) {
  const std::string seed = R"(L0:
/*0000*/ @!P0 IADD.S32 R2, R4, 0x10 {stall=1, yield, wbar=0, rbar=-, wait=0x3};
/*0001*/ LD.GLOBAL.ACQUIRE.GPU.U64 R6, [R2-0x8];
/*0002*/ LDC.B32 R1, c[2][R4+0x10]; ISETP.LT.AND.S32 P1, R2, R3, !PT;
/*0003*/ ATOM.CAS.GLOBAL.ACQ_REL.SYS.B32 R1, [R2], R4, R5; // comment
/*0004*/ BSSY B3, L0; PLOP.XOR P0, P1, !P2; BFI.B32 R0, R1, R3, R2, 0x8; NOP {rc=9, mod=0x40};
/*0005*/ @P0 BRA L0; S2R R0, SR_TID.X; BAR.SYNC RZ, PT, 0x0, RZ, PT; EXIT;
)";
  ASSERT_TRUE(assemble(seed, "seed").ok()) << assemble(seed, "seed").status().to_string();
  const std::string alphabet = "@!,[]+-{}=;:./*#RPBLxX0123456789 \n\tabcSRZ_\x80\xff";
  std::mt19937 rng(99);
  int ok = 0;
  for (int n = 0; n < 20000; ++n) {
    std::string text = seed;
    const int edits = 1 + rng() % 6;
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % (text.size() + 1);
      switch (rng() % 4) {
        case 0: if (pos < text.size()) text.erase(pos, 1 + rng() % 4); break;
        case 1: text.insert(pos, 1, alphabet[rng() % alphabet.size()]); break;
        case 2: if (pos < text.size()) text[pos] = alphabet[rng() % alphabet.size()]; break;
        case 3: text = text.substr(0, pos); break;
      }
    }
    auto r = assemble(text, "fuzz");
    if (r.ok()) {
      ++ok;
      for (const Inst& inst : *r) EXPECT_TRUE(validate(inst).ok());
      // What assembles disassembles and reassembles to the same program.
      auto again = assemble(disassemble_program(*r), "again");
      ASSERT_TRUE(again.ok()) << again.status().to_string();
      EXPECT_EQ(*again, *r);
    } else {
      EXPECT_EQ(r.status().code(), Code::kInvalidSource);
      EXPECT_EQ(r.status().message().rfind("fuzz:", 0), 0u) << r.status().message();
    }
  }
  EXPECT_GT(ok, 100);
}

TEST(Assemble, RandomBytesNeverCrash) {
  std::mt19937 rng(5);
  for (int n = 0; n < 5000; ++n) {
    std::string text(rng() % 64, '\0');
    for (char& c : text) c = static_cast<char>(rng());
    auto r = assemble(text, "bytes");
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Code::kInvalidSource);
    }
  }
}

}  // namespace
}  // namespace strata::isa
