// The PTX lexer: splits PTX text into tokens for the parser (parser.h).
//
// Token shapes:
//   kIdent      foo, $L__BB0_2, %r1, %tid, _ (letters, digits, _, $, and a leading %)
//   kDotName    .reg, .u32, .global, .1d, .shared::cta, .L2::cache_hint (text without the dot)
//   kInt        42, 0x1F, 0777, 0b101, 42U (text as written; value via number.h)
//   kFloat      0f3F800000, 0d3FF0000000000000, 1.5, 1e-3 (text as written)
//   kString     "a.cu" (text without the quotes; no escapes are interpreted)
//   kPunct      one of , ; : ( ) [ ] { } < > + - ! @ | = * / % ~ & ^
//   kEnd        end of input (always the last token)
// Comments (// and /* */) and whitespace are skipped. A token's text views into the
// input, which must outlive the tokens.
#pragma once

#include <string_view>
#include <vector>

#include "base/status.h"
#include "compiler/ptx/ast.h"

namespace strata::ptx {

enum class TokenKind { kIdent, kDotName, kInt, kFloat, kString, kPunct, kEnd };

struct Token {
  TokenKind kind = TokenKind::kEnd;
  std::string_view text;
  SourceLoc loc;
  bool is(char punct) const {
    return kind == TokenKind::kPunct && text.size() == 1 && text[0] == punct;
  }
};

// Tokenizes `text`. Errors (unterminated comment or string, stray byte) are kInvalidPtx
// with "source_name:line:col: message".
StatusOr<std::vector<Token>> tokenize(std::string_view text, std::string_view source_name);

}  // namespace strata::ptx
