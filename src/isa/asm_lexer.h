// Tokenizer for Strata assembly (isa/asm.h). Internal to the assembler.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace strata::isa {

struct AsmToken {
  enum class Kind { kIdent, kNumber, kPunct, kEnd };
  Kind kind = Kind::kEnd;
  std::string_view text;  // view into the source; for kPunct one character
  int line = 1;
  int col = 1;
  bool is(char punct) const { return kind == Kind::kPunct && text.size() == 1 && text[0] == punct; }
};

// Splits `text` into tokens ending with one kEnd token. Identifiers are
// [A-Za-z_][A-Za-z0-9_.]*, numbers [0-9][A-Za-z0-9_]* (validated by the parser),
// punctuation one of "@!,[]+-{}=;:". Skips whitespace and comments ("//", "#" to the end
// of the line, "/* */"). Fails with Code::kInvalidSource "name:line:col: message" on a
// stray character or an unterminated block comment.
StatusOr<std::vector<AsmToken>> tokenize_asm(std::string_view text, std::string_view source_name);

// "name:line:col: message" as a kInvalidSource Status.
Status asm_error(std::string_view source_name, int line, int col, std::string_view message);

}  // namespace strata::isa
