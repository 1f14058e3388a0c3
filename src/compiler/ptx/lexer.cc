#include "compiler/ptx/lexer.h"

#include <fmt/format.h>

namespace strata::ptx {
namespace {

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$';
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

class Lexer {
 public:
  Lexer(std::string_view text, std::string_view source_name)
      : text_(text), source_name_(source_name) {}

  StatusOr<std::vector<Token>> run() {
    std::vector<Token> tokens;
    while (true) {
      RETURN_IF_ERROR(skip_space_and_comments());
      if (pos_ >= text_.size()) break;
      ASSIGN_OR_RETURN(Token token, next());
      tokens.push_back(token);
    }
    tokens.push_back(Token{TokenKind::kEnd, text_.substr(text_.size()), here()});
    return tokens;
  }

 private:
  SourceLoc here() const { return SourceLoc{line_, col_}; }
  char peek(size_t ahead = 0) const {
    return pos_ + ahead < text_.size() ? text_[pos_ + ahead] : '\0';
  }
  void advance() {
    if (text_[pos_] == '\n') {
      ++line_;
      col_ = 1;
    } else {
      ++col_;
    }
    ++pos_;
  }
  Status error_at(SourceLoc loc, std::string_view message) const {
    return error(Code::kInvalidPtx,
                 fmt::format("{}:{}:{}: {}", source_name_, loc.line, loc.col, message));
  }

  Status skip_space_and_comments() {
    while (pos_ < text_.size()) {
      char c = peek();
      if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (pos_ < text_.size() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        SourceLoc start = here();
        advance();
        advance();
        while (pos_ < text_.size() && !(peek() == '*' && peek(1) == '/')) advance();
        if (pos_ >= text_.size()) return error_at(start, "unterminated /* comment");
        advance();
        advance();
      } else {
        break;
      }
    }
    return ok_status();
  }

  Token make(TokenKind kind, size_t start, SourceLoc loc) const {
    return Token{kind, text_.substr(start, pos_ - start), loc};
  }

  StatusOr<Token> next() {
    SourceLoc loc = here();
    size_t start = pos_;
    char c = peek();
    if (is_ident_start(c) || (c == '%' && (is_ident_start(peek(1))))) {
      advance();
      while (is_ident_char(peek())) advance();
      return make(TokenKind::kIdent, start, loc);
    }
    if (c == '.' && is_ident_char(peek(1))) {
      advance();
      size_t name_start = pos_;
      while (true) {
        while (is_ident_char(peek())) advance();
        if (peek() == ':' && peek(1) == ':' && is_ident_char(peek(2))) {
          advance();
          advance();
          continue;
        }
        break;
      }
      return Token{TokenKind::kDotName, text_.substr(name_start, pos_ - name_start), loc};
    }
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number(start, loc);
    if (c == '"') {
      advance();
      size_t body = pos_;
      while (pos_ < text_.size() && peek() != '"' && peek() != '\n') {
        if (peek() == '\\' && pos_ + 1 < text_.size() && peek(1) != '\n') advance();
        advance();
      }
      if (peek() != '"') return error_at(loc, "unterminated string literal");
      Token token{TokenKind::kString, text_.substr(body, pos_ - body), loc};
      advance();
      return token;
    }
    static constexpr std::string_view kPunct = ",;:()[]{}<>+-!@|=*/%~&^";
    if (kPunct.find(c) != std::string_view::npos) {
      advance();
      return make(TokenKind::kPunct, start, loc);
    }
    unsigned byte = static_cast<unsigned char>(c);
    if (byte >= 0x21 && byte < 0x7f) return error_at(loc, fmt::format("unexpected character '{}'", c));
    return error_at(loc, fmt::format("unexpected byte 0x{:02x}", byte));
  }

  StatusOr<Token> number(size_t start, SourceLoc loc) {
    char c = peek();
    char c1 = peek(1);
    if (c == '0' && (c1 == 'f' || c1 == 'F' || c1 == 'd' || c1 == 'D')) {
      size_t digits = (c1 == 'f' || c1 == 'F') ? 8 : 16;
      advance();
      advance();
      size_t n = 0;
      while (is_hex(peek())) {
        advance();
        ++n;
      }
      if (n != digits || is_ident_char(peek())) {
        return error_at(loc, fmt::format("malformed float literal '{}': expected {} hex digits",
                                         text_.substr(start, pos_ - start), digits));
      }
      return make(TokenKind::kFloat, start, loc);
    }
    if (c == '0' && (c1 == 'x' || c1 == 'X' || c1 == 'b' || c1 == 'B')) {
      advance();
      advance();
      while (is_hex(peek())) advance();
    } else {
      bool is_float = false;
      while (is_digit(peek())) advance();
      if (peek() == '.' && is_digit(peek(1))) {
        is_float = true;
        advance();
        while (is_digit(peek())) advance();
      } else if (peek() == '.' && !is_ident_start(peek(1))) {
        is_float = true;  // "1." (a trailing dot not followed by a modifier name)
        advance();
      }
      if ((peek() == 'e' || peek() == 'E') &&
          (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
        is_float = true;
        advance();
        if (peek() == '+' || peek() == '-') advance();
        while (is_digit(peek())) advance();
      }
      if (is_float) {
        if (is_ident_char(peek())) {
          return error_at(loc, fmt::format("malformed number '{}'", text_.substr(start, pos_ - start + 1)));
        }
        return make(TokenKind::kFloat, start, loc);
      }
    }
    if (peek() == 'U' || peek() == 'u') advance();
    if (is_ident_char(peek())) {
      return error_at(loc, fmt::format("malformed number '{}'", text_.substr(start, pos_ - start + 1)));
    }
    return make(TokenKind::kInt, start, loc);
  }

  std::string_view text_;
  std::string_view source_name_;
  size_t pos_ = 0;
  int line_ = 1;
  int col_ = 1;
};

}  // namespace

StatusOr<std::vector<Token>> tokenize(std::string_view text, std::string_view source_name) {
  return Lexer(text, source_name).run();
}

}  // namespace strata::ptx
