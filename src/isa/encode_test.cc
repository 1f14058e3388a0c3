#include "isa/encode.h"

#include <gtest/gtest.h>

#include <random>

#include "isa/fields.h"
#include "isa/modifiers.h"

namespace strata::isa {
namespace {

Inst sample_iadd() {
  Inst i;
  i.op = Opcode::IADD;
  i.guard = 0;
  i.guard_neg = true;
  i.rd = 2;
  i.ra = 4;
  i.b_imm = true;
  i.imm = 0x10;
  i.type = DataType::S32;
  return i;
}

TEST(Encode, KnownLayout) {
  const Word w = encode(sample_iadd());
  EXPECT_EQ(w.lo & 0x3ff, static_cast<uint64_t>(Opcode::IADD));
  EXPECT_EQ((w.lo >> 10) & 7, 0u);          // guard P0
  EXPECT_EQ((w.lo >> 13) & 1, 1u);          // negated
  EXPECT_EQ((w.lo >> 14) & 0xff, 2u);       // rd
  EXPECT_EQ((w.lo >> 22) & 0xff, 4u);       // ra
  EXPECT_EQ((w.lo >> 30) & 0xff, 255u);     // rb = RZ
  EXPECT_EQ((w.lo >> 53) & 1, 1u);          // b_imm
  EXPECT_EQ((w.lo >> 54) & 0x1f, static_cast<uint64_t>(DataType::S32));
  EXPECT_EQ(w.hi & 0xffffffff, 0x10u);      // imm
  EXPECT_EQ((w.hi >> (111 - 64)) & 0xf, 1u);  // default stall
  EXPECT_EQ((w.hi >> (116 - 64)) & 7, 7u);     // no write barrier
}

TEST(Encode, RoundTripsDefaultInstOfEveryOpcode) {
  for (int op = 0; op < kNumOpcodes; ++op) {
    Inst i;
    i.op = static_cast<Opcode>(op);
    auto d = decode(encode(i));
    ASSERT_TRUE(d.ok()) << op_info(i.op).name << ": " << d.status().to_string();
    EXPECT_EQ(*d, i);
  }
}

TEST(Encode, EveryFieldAtMinAndMax) {
  for (int fi = 0; fi < kNumFields; ++fi) {
    const auto f = static_cast<Field>(fi);
    for (uint64_t v : {uint64_t{0}, field_info(f).max_value()}) {
      Word w;
      set_field(w, f, v);
      EXPECT_EQ(get_field(w, f), v) << field_info(f).name;
      // Only this field's bits are set.
      for (int other = 0; other < kNumFields; ++other) {
        if (other == fi) continue;
        EXPECT_EQ(get_field(w, static_cast<Field>(other)), 0u);
      }
      // Through Inst when the value is legal there.
      Inst inst = sample_iadd();
      set_field(inst, f, v);
      if (validate(inst).ok()) {
        auto d = decode(encode(inst));
        ASSERT_TRUE(d.ok());
        EXPECT_EQ(*d, inst) << field_info(f).name << "=" << v;
        EXPECT_EQ(get_field(*d, f), v);
      }
    }
  }
}

TEST(Decode, RejectsUnknownOpcode) {
  Word w = encode(sample_iadd());
  set_field(w, Field::opcode, kNumOpcodes);
  auto d = decode(w);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.status().code(), Code::kIllegalInstruction);
  set_field(w, Field::opcode, 1023);
  EXPECT_FALSE(decode(w).ok());
}

TEST(Decode, RejectsUndefinedEnumValues) {
  struct Case { Field field; uint64_t value; };
  for (Case c : {Case{Field::type, static_cast<uint64_t>(DataType::kCount)},
                 Case{Field::type2, 31}, Case{Field::space, 7}, Case{Field::scope, 3}}) {
    Word w = encode(sample_iadd());
    set_field(w, c.field, c.value);
    auto d = decode(w);
    ASSERT_FALSE(d.ok()) << field_info(c.field).name;
    EXPECT_EQ(d.status().code(), Code::kIllegalInstruction);
  }
  Inst mufu;
  mufu.op = Opcode::MUFU;
  mufu.mod = static_cast<uint8_t>(MufuOp::kCount);
  EXPECT_FALSE(decode(encode(mufu)).ok());
  mufu.mod = static_cast<uint8_t>(MufuOp::TANH);
  EXPECT_TRUE(decode(encode(mufu)).ok());
  Inst bsync;
  bsync.op = Opcode::BSYNC;
  bsync.mod = 16;
  EXPECT_FALSE(decode(encode(bsync)).ok());
}

TEST(Decode, RandomWordsFailCleanlyOrRoundTrip) {
  std::mt19937_64 rng(1234);
  int accepted = 0;
  for (int n = 0; n < 200000; ++n) {
    Word w{rng(), rng()};
    if (n % 2) w.lo = (w.lo & ~uint64_t{0x3ff}) | (rng() % kNumOpcodes);
    auto d = decode(w);
    if (!d.ok()) {
      EXPECT_EQ(d.status().code(), Code::kIllegalInstruction);
      continue;
    }
    ++accepted;
    EXPECT_EQ(encode(*d), w);
  }
  EXPECT_GT(accepted, 1000);
}

TEST(Program, BytesAreLittleEndianLowWordFirst) {
  Inst a = sample_iadd();
  Inst b;
  b.op = Opcode::EXIT;
  const Inst prog[] = {a, b};
  auto bytes = encode_program(prog);
  ASSERT_EQ(bytes.size(), 32u);
  const Word w = encode(a);
  EXPECT_EQ(bytes[0], w.lo & 0xff);
  EXPECT_EQ(bytes[7], w.lo >> 56);
  EXPECT_EQ(bytes[8], w.hi & 0xff);
  auto back = decode_program(bytes);
  ASSERT_TRUE(back.ok());
  ASSERT_EQ(back->size(), 2u);
  EXPECT_EQ((*back)[0], a);
  EXPECT_EQ((*back)[1], b);

  bytes.pop_back();
  auto bad = decode_program(bytes);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Code::kIllegalInstruction);
}

TEST(Program, DecodeNamesTheFailingInstruction) {
  Inst a = sample_iadd();
  const Inst prog[] = {a, a};
  auto bytes = encode_program(prog);
  bytes[16] = 0xff;
  bytes[17] |= 0x03;  // opcode 1023
  auto bad = decode_program(bytes);
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.status().message().find("instruction 1"), std::string::npos);
}

TEST(Tables, TypesAndNames) {
  EXPECT_EQ(type_bits(DataType::F64), 64);
  EXPECT_EQ(type_regs(DataType::B128), 4);
  EXPECT_EQ(type_regs(DataType::U64), 2);
  EXPECT_EQ(type_regs(DataType::U16), 1);
  EXPECT_TRUE(type_is_float(DataType::BF16));
  EXPECT_TRUE(type_is_signed(DataType::S8));
  EXPECT_FALSE(type_is_signed(DataType::B32));
  for (int t = 0; t < static_cast<int>(DataType::kCount); ++t) {
    DataType back;
    ASSERT_TRUE(type_from_name(type_name(static_cast<DataType>(t)), &back));
    EXPECT_EQ(static_cast<int>(back), t);
  }
  EXPECT_EQ(special_reg_name(SpecialReg::TID_X), "SR_TID.X");
  for (int op = 0; op < kNumOpcodes; ++op) {
    Opcode back;
    ASSERT_TRUE(opcode_from_name(op_info(static_cast<Opcode>(op)).name, &back));
    EXPECT_EQ(static_cast<int>(back), op);
  }
  Opcode dummy;
  EXPECT_FALSE(opcode_from_name("iadd", &dummy));
}

}  // namespace
}  // namespace strata::isa
