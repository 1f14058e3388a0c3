#include "compiler/ptx/lexer.h"

#include <gtest/gtest.h>

#include "compiler/ptx/number.h"

namespace strata::ptx {
namespace {

std::vector<Token> lex(std::string_view text) {
  StatusOr<std::vector<Token>> tokens = tokenize(text, "t.ptx");
  EXPECT_TRUE(tokens.ok()) << tokens.status().to_string();
  return tokens.ok() ? *tokens : std::vector<Token>{};
}

TEST(LexerTest, TokenShapesAndLocations) {
  std::vector<Token> tokens = lex("ld.global.L2::128B.f32 %f1, [%rd1+-4]; // c\n/* x\n */ $L__BB0_1:");
  ASSERT_EQ(tokens.size(), 16u);
  EXPECT_EQ(tokens[0].kind, TokenKind::kIdent);
  EXPECT_EQ(tokens[0].text, "ld");
  EXPECT_EQ(tokens[2].kind, TokenKind::kDotName);
  EXPECT_EQ(tokens[2].text, "L2::128B");
  EXPECT_EQ(tokens[4].text, "%f1");
  EXPECT_TRUE(tokens[8].is('+'));
  EXPECT_TRUE(tokens[9].is('-'));
  EXPECT_EQ(tokens[10].kind, TokenKind::kInt);
  EXPECT_EQ(tokens[13].text, "$L__BB0_1");
  EXPECT_EQ(tokens[13].loc.line, 3);
  EXPECT_EQ(tokens[13].loc.col, 5);
  EXPECT_EQ(tokens[15].kind, TokenKind::kEnd);
}

TEST(LexerTest, Numbers) {
  std::vector<Token> tokens = lex("0f3F800000 0d3FF0000000000000 1.5 2e10 9.0 42U 0x1f 0777 0b101 .1d");
  EXPECT_EQ(tokens[0].kind, TokenKind::kFloat);
  EXPECT_EQ(tokens[1].kind, TokenKind::kFloat);
  EXPECT_EQ(tokens[2].kind, TokenKind::kFloat);
  EXPECT_EQ(tokens[3].kind, TokenKind::kFloat);
  EXPECT_EQ(tokens[4].kind, TokenKind::kFloat);
  for (int i = 5; i < 9; ++i) EXPECT_EQ(tokens[i].kind, TokenKind::kInt) << i;
  EXPECT_EQ(tokens[9].kind, TokenKind::kDotName);
  EXPECT_EQ(tokens[9].text, "1d");
}

TEST(LexerTest, Errors) {
  for (std::string_view bad : {"/* open", "\"open", "0f3F80", "12abc", "a # b", "x \x01"}) {
    StatusOr<std::vector<Token>> tokens = tokenize(bad, "bad.ptx");
    ASSERT_FALSE(tokens.ok()) << bad;
    EXPECT_EQ(tokens.status().code(), Code::kInvalidPtx);
    EXPECT_EQ(tokens.status().message().rfind("bad.ptx:1:", 0), 0u) << tokens.status().message();
  }
}

TEST(NumberTest, IntegerLiterals) {
  EXPECT_EQ(parse_int_literal("42")->value, 42u);
  EXPECT_EQ(parse_int_literal("0x1F")->value, 31u);
  EXPECT_EQ(parse_int_literal("0777")->value, 511u);
  EXPECT_EQ(parse_int_literal("0b101")->value, 5u);
  EXPECT_TRUE(parse_int_literal("7U")->unsigned_suffix);
  EXPECT_EQ(parse_int_literal("0xFFFFFFFFFFFFFFFF")->value, UINT64_MAX);
  EXPECT_FALSE(parse_int_literal("0x1FFFFFFFFFFFFFFFF"));  // overflow
  EXPECT_FALSE(parse_int_literal("0789"));                 // not octal
  EXPECT_FALSE(parse_int_literal("0b102"));
}

TEST(NumberTest, FloatLiterals) {
  EXPECT_EQ(parse_float_literal("0f3F800000")->bits, 0x3F800000u);
  EXPECT_TRUE(parse_float_literal("0f3F800000")->is_f32);
  EXPECT_EQ(parse_float_literal("0d3FF0000000000000")->bits, 0x3FF0000000000000u);
  EXPECT_EQ(parse_float_literal("1.5")->bits, 0x3FF8000000000000u);
  EXPECT_EQ(parse_float_literal("2.")->bits, 0x4000000000000000u);
  EXPECT_EQ(parse_float_literal("1e999")->bits, 0x7FF0000000000000u);
  EXPECT_FALSE(parse_float_literal("0f3F8"));
}

}  // namespace
}  // namespace strata::ptx
