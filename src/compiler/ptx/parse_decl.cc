// Declarations: state-space variables, parameters, initializers and the integer
// constant expressions they use.
#include <fmt/format.h>

#include "compiler/ptx/number.h"
#include "compiler/ptx/parser_impl.h"

namespace strata::ptx::detail {
namespace {

bool is_vector_width(std::string_view text, int* width) {
  if (text == "v2") *width = 2;
  else if (text == "v4") *width = 4;
  else if (text == "v8") *width = 8;
  else return false;
  return true;
}

bool is_state_space(std::string_view text) {
  return text == "global" || text == "const" || text == "shared" || text == "local" ||
         text == "param";
}

// Largest array dimension or register range accepted; keeps later size arithmetic safe.
constexpr int64_t kMaxCount = int64_t{1} << 40;

}  // namespace

Status Parser::parse_var_decls(SourceLoc loc, std::string space, Linkage linkage,
                               std::vector<VarDecl>* out) {
  VarDecl base;
  base.loc = loc;
  base.space = std::move(space);
  base.is_extern = linkage.is_extern;
  base.is_visible = linkage.is_visible;
  base.is_weak = linkage.is_weak;
  base.is_common = linkage.is_common;
  RETURN_IF_ERROR(parse_decl_modifiers(&base, /*is_param=*/false));
  do {
    VarDecl decl = base;
    decl.loc = peek().loc;
    RETURN_IF_ERROR(parse_decl_name(&decl));
    if (accept('=')) {
      if (decl.space == "reg" || decl.space == "shared" || decl.space == "local" ||
          decl.space == "param") {
        return error_at(decl.loc, fmt::format("variables in .{} cannot have initializers", decl.space));
      }
      decl.has_init = true;
      RETURN_IF_ERROR(parse_initializer(&decl, 0));
    }
    if (decl.space == "reg" && !reg_scopes_.empty()) reg_scopes_.back().insert(decl.name);
    out->push_back(std::move(decl));
  } while (accept(','));
  return expect(';', "to end the declaration");
}

StatusOr<VarDecl> Parser::parse_param() {
  VarDecl decl;
  decl.loc = peek().loc;
  if (accept_dot("param")) decl.space = "param";
  else if (accept_dot("reg")) decl.space = "reg";
  else return unexpected("'.param' or '.reg' parameter");
  RETURN_IF_ERROR(parse_decl_modifiers(&decl, /*is_param=*/true));
  RETURN_IF_ERROR(parse_decl_name(&decl));
  if (decl.reg_range >= 0) return error_at(decl.loc, "a parameter cannot be a register range");
  return decl;
}

Status Parser::parse_decl_modifiers(VarDecl* decl, bool is_param) {
  while (peek().kind == TokenKind::kDotName) {
    SourceLoc loc = peek().loc;
    std::string_view name = peek().text;
    int width = 0;
    if (name == "align") {
      take();
      ASSIGN_OR_RETURN(int64_t align, parse_int_value("an alignment"));
      if (align <= 0 || align > (1 << 20) || (align & (align - 1)) != 0) {
        return error_at(loc, fmt::format("alignment must be a power of two, not {}", align));
      }
      decl->align = static_cast<int>(align);
    } else if (is_vector_width(name, &width)) {
      take();
      decl->vector_width = width;
    } else if (name == "ptr") {
      take();
      if (!is_param) return error_at(loc, "'.ptr' is only allowed on kernel parameters");
      decl->is_ptr = true;
      if (peek().kind == TokenKind::kDotName && is_state_space(peek().text)) {
        decl->ptr_space = std::string(take().text);
      }
      if (accept_dot("align")) {
        ASSIGN_OR_RETURN(int64_t align, parse_int_value("a pointer alignment"));
        if (align <= 0 || align > (1 << 20) || (align & (align - 1)) != 0) {
          return error_at(loc, fmt::format("pointer alignment must be a power of two, not {}", align));
        }
        decl->ptr_align = static_cast<int>(align);
      }
    } else if (name == "attribute") {
      take();
      RETURN_IF_ERROR(expect('(', "after .attribute"));
      do {
        if (peek().kind != TokenKind::kDotName) return unexpected("an attribute like .managed");
        decl->attributes.emplace_back(take().text);
      } while (accept(','));
      RETURN_IF_ERROR(expect(')', "to close .attribute("));
    } else if (decl->type.empty()) {
      decl->type = std::string(take().text);
    } else {
      return error_at(loc, fmt::format("unexpected '.{}' in declaration of type .{}", name, decl->type));
    }
  }
  if (decl->type.empty()) return unexpected("a type (.u32, .b8, .pred, ...)");
  return ok_status();
}

Status Parser::parse_decl_name(VarDecl* decl) {
  ASSIGN_OR_RETURN(decl->name, expect_ident("a variable name"));
  if (accept('<')) {
    SourceLoc loc = peek().loc;
    ASSIGN_OR_RETURN(int64_t count, parse_int_value("a register count"));
    if (count < 0 || count > kMaxCount) return error_at(loc, fmt::format("register count {} out of range", count));
    decl->reg_range = static_cast<int>(count);
    RETURN_IF_ERROR(expect('>', "to close the register range"));
  }
  while (accept('[')) {
    if (accept(']')) {
      decl->dims.push_back(0);
      continue;
    }
    SourceLoc loc = peek().loc;
    ASSIGN_OR_RETURN(int64_t dim, parse_int_value("an array dimension"));
    if (dim <= 0 || dim > kMaxCount) return error_at(loc, fmt::format("array dimension {} out of range", dim));
    decl->dims.push_back(dim);
    RETURN_IF_ERROR(expect(']', "to close the array dimension"));
  }
  return ok_status();
}

// Initializers are flattened: `{{1, 2}, {3, 4}}` -> 1, 2, 3, 4.
Status Parser::parse_initializer(VarDecl* decl, int depth) {
  if (depth > kMaxNesting) return error_at(peek().loc, "initializer nested too deeply");
  if (!accept('{')) return parse_init_element(decl);
  if (accept('}')) return ok_status();
  do {
    RETURN_IF_ERROR(parse_initializer(decl, depth + 1));
  } while (accept(','));
  return expect('}', "to close the initializer list");
}

Status Parser::parse_init_element(VarDecl* decl) {
  const Token& token = peek();
  // 0xFF00(generic(sym)+4): one byte of an address.
  if (token.kind == TokenKind::kInt && at('(', 1)) {
    SourceLoc loc = token.loc;
    std::optional<IntLiteral> mask = parse_int_literal(take().text);
    if (!mask || mask->value == 0) return error_at(loc, "invalid address mask");
    take();  // '('
    ASSIGN_OR_RETURN(SymbolOperand symbol, parse_init_address());
    symbol.mask = mask->value;
    RETURN_IF_ERROR(expect(')', "to close the masked address"));
    decl->init.emplace_back(std::move(symbol));
    return ok_status();
  }
  if (token.kind == TokenKind::kIdent) {
    ASSIGN_OR_RETURN(SymbolOperand symbol, parse_init_address());
    decl->init.emplace_back(std::move(symbol));
    return ok_status();
  }
  bool negate = token.is('-') && peek(1).kind == TokenKind::kFloat;
  if (token.kind == TokenKind::kFloat || negate) {
    if (negate) take();
    SourceLoc loc = peek().loc;
    std::optional<ImmFloat> value = parse_float_literal(take().text);
    if (!value) return error_at(loc, "malformed floating-point literal");
    if (negate) value->bits ^= value->is_f32 ? (uint64_t{1} << 31) : (uint64_t{1} << 63);
    decl->init.emplace_back(*value);
    return ok_status();
  }
  ASSIGN_OR_RETURN(int64_t value, parse_const_expr());
  decl->init.emplace_back(ImmInt{value, false});
  return ok_status();
}

// sym, sym+8, sym-8, generic(sym), generic(sym)+8
StatusOr<SymbolOperand> Parser::parse_init_address() {
  SymbolOperand symbol;
  if (peek().kind == TokenKind::kIdent && peek().text == "generic" && at('(', 1)) {
    take();
    take();
    symbol.generic = true;
    ASSIGN_OR_RETURN(symbol.name, expect_ident("a variable or function name"));
    RETURN_IF_ERROR(expect(')', "to close generic("));
  } else {
    ASSIGN_OR_RETURN(symbol.name, expect_ident("a variable or function name"));
  }
  if (accept('+')) {
    ASSIGN_OR_RETURN(symbol.offset, parse_const_expr());
  } else if (accept('-')) {
    ASSIGN_OR_RETURN(int64_t offset, parse_const_expr());
    symbol.offset = static_cast<int64_t>(0 - static_cast<uint64_t>(offset));
  }
  return symbol;
}

StatusOr<int64_t> Parser::parse_int_value(std::string_view what) {
  const Token& token = peek();
  if (token.kind != TokenKind::kInt && !token.is('-') && !token.is('(') && !token.is('~')) {
    return unexpected(what);
  }
  return parse_const_expr();
}

// ---- integer constant expressions (64-bit, wrapping, C precedence) ----

namespace {

// Binary operator at the current token: returns its precedence (higher binds tighter)
// and the number of tokens it spans ("<<" and ">>" are two '<'/'>' tokens).
int binary_precedence(const Parser& p, std::string* op, int* width) {
  const Token& token = p.peek();
  if (token.kind != TokenKind::kPunct) return -1;
  *width = 1;
  char c = token.text[0];
  if ((c == '<' || c == '>') && p.at(c, 1)) {
    *op = std::string(2, c);
    *width = 2;
    return 5;
  }
  *op = std::string(1, c);
  switch (c) {
    case '*': case '/': case '%': return 7;
    case '+': case '-': return 6;
    case '&': return 4;
    case '^': return 3;
    case '|': return 2;
    default: return -1;
  }
}

}  // namespace

StatusOr<int64_t> Parser::parse_const_expr(int depth) { return parse_binary(0, depth); }

StatusOr<int64_t> Parser::parse_binary(int min_precedence, int depth) {
  if (depth > kMaxNesting) return error_at(peek().loc, "expression nested too deeply");
  ASSIGN_OR_RETURN(int64_t lhs, parse_unary(depth + 1));
  while (true) {
    std::string op;
    int width = 0;
    int precedence = binary_precedence(*this, &op, &width);
    if (precedence < 0 || precedence < min_precedence) return lhs;
    SourceLoc loc = peek().loc;
    for (int i = 0; i < width; ++i) take();
    ASSIGN_OR_RETURN(int64_t rhs, parse_binary(precedence + 1, depth + 1));
    uint64_t a = static_cast<uint64_t>(lhs), b = static_cast<uint64_t>(rhs);
    uint64_t r = 0;
    if (op == "*") r = a * b;
    else if (op == "+") r = a + b;
    else if (op == "-") r = a - b;
    else if (op == "&") r = a & b;
    else if (op == "^") r = a ^ b;
    else if (op == "|") r = a | b;
    else if (op == "<<") r = b >= 64 ? 0 : a << b;
    else if (op == ">>") r = b >= 64 ? (lhs < 0 ? ~uint64_t{0} : 0) : static_cast<uint64_t>(lhs >> b);
    else {  // '/' or '%'
      if (rhs == 0) return error_at(loc, "division by zero in constant expression");
      if (lhs == INT64_MIN && rhs == -1) r = op == "/" ? a : 0;
      else r = static_cast<uint64_t>(op == "/" ? lhs / rhs : lhs % rhs);
    }
    lhs = static_cast<int64_t>(r);
  }
}

StatusOr<int64_t> Parser::parse_unary(int depth) {
  if (depth > kMaxNesting) return error_at(peek().loc, "expression nested too deeply");
  const Token& token = peek();
  if (token.is('-') || token.is('~') || token.is('!') || token.is('+')) {
    char op = take().text[0];
    ASSIGN_OR_RETURN(int64_t value, parse_unary(depth + 1));
    uint64_t v = static_cast<uint64_t>(value);
    if (op == '-') return static_cast<int64_t>(0 - v);
    if (op == '~') return static_cast<int64_t>(~v);
    if (op == '!') return int64_t{value == 0};
    return value;
  }
  if (token.is('(')) {
    take();
    ASSIGN_OR_RETURN(int64_t value, parse_binary(0, depth + 1));
    RETURN_IF_ERROR(expect(')', "to close the parenthesized expression"));
    return value;
  }
  if (token.kind == TokenKind::kInt) {
    SourceLoc loc = token.loc;
    std::optional<IntLiteral> literal = parse_int_literal(take().text);
    if (!literal) return error_at(loc, "malformed or out-of-range integer literal");
    return static_cast<int64_t>(literal->value);
  }
  return unexpected("an integer constant");
}

}  // namespace strata::ptx::detail
