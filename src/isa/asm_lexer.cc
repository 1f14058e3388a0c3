#include "isa/asm_lexer.h"

#include <fmt/format.h>

namespace strata::isa {
namespace {

bool is_ident_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c) || c == '.'; }
bool is_punct(char c) {
  return std::string_view("@!,[]+-{}=;:").find(c) != std::string_view::npos;
}

}  // namespace

Status asm_error(std::string_view source_name, int line, int col, std::string_view message) {
  return error(Code::kInvalidSource, fmt::format("{}:{}:{}: {}", source_name, line, col, message));
}

StatusOr<std::vector<AsmToken>> tokenize_asm(std::string_view text, std::string_view source_name) {
  std::vector<AsmToken> tokens;
  size_t i = 0;
  int line = 1;
  int col = 1;
  auto advance = [&](size_t n) {
    for (size_t k = 0; k < n && i < text.size(); ++k, ++i) {
      if (text[i] == '\n') {
        ++line;
        col = 1;
      } else {
        ++col;
      }
    }
  };
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v') {
      advance(1);
      continue;
    }
    if (c == '#' || (c == '/' && i + 1 < text.size() && text[i + 1] == '/')) {
      while (i < text.size() && text[i] != '\n') advance(1);
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      const int start_line = line;
      const int start_col = col;
      const size_t end = text.find("*/", i + 2);
      if (end == std::string_view::npos) {
        return asm_error(source_name, start_line, start_col, "unterminated /* comment");
      }
      advance(end + 2 - i);
      continue;
    }
    AsmToken tok;
    tok.line = line;
    tok.col = col;
    size_t len = 1;
    if (is_ident_start(c)) {
      tok.kind = AsmToken::Kind::kIdent;
      while (i + len < text.size() && is_ident_char(text[i + len])) ++len;
    } else if (is_digit(c)) {
      tok.kind = AsmToken::Kind::kNumber;
      while (i + len < text.size() &&
             (is_ident_start(text[i + len]) || is_digit(text[i + len]))) {
        ++len;
      }
    } else if (is_punct(c)) {
      tok.kind = AsmToken::Kind::kPunct;
    } else {
      const auto byte = static_cast<unsigned char>(c);
      return asm_error(source_name, line, col,
                       byte >= 0x20 && byte < 0x7f
                           ? fmt::format("unexpected character '{}'", c)
                           : fmt::format("unexpected byte 0x{:02x}", byte));
    }
    tok.text = text.substr(i, len);
    tokens.push_back(tok);
    advance(len);
  }
  AsmToken end;
  end.line = line;
  end.col = col;
  tokens.push_back(end);
  return tokens;
}

}  // namespace strata::isa
