// Module level of the PTX parser, token helpers and the public entry point.
#include "compiler/ptx/parser.h"

#include <fmt/format.h>

#include <charconv>

#include "compiler/ptx/number.h"
#include "compiler/ptx/parser_impl.h"

namespace strata::ptx {
namespace detail {

const Token& Parser::peek(size_t ahead) const {
  size_t index = pos_ + ahead;
  return index < tokens_.size() ? tokens_[index] : tokens_.back();
}

const Token& Parser::take() {
  const Token& token = peek();
  if (pos_ + 1 < tokens_.size()) ++pos_;  // never move past kEnd
  return token;
}

bool Parser::at_dot(std::string_view name, size_t ahead) const {
  const Token& token = peek(ahead);
  return token.kind == TokenKind::kDotName && token.text == name;
}

bool Parser::accept(char punct) {
  if (!at(punct)) return false;
  take();
  return true;
}

bool Parser::accept_dot(std::string_view name) {
  if (!at_dot(name)) return false;
  take();
  return true;
}

Status Parser::expect(char punct, std::string_view context) {
  if (accept(punct)) return ok_status();
  return unexpected(fmt::format("'{}' {}", punct, context));
}

StatusOr<std::string> Parser::expect_ident(std::string_view what) {
  if (peek().kind != TokenKind::kIdent) return unexpected(what);
  return std::string(take().text);
}

Status Parser::error_at(SourceLoc loc, std::string_view message) const {
  return error(Code::kInvalidPtx,
               fmt::format("{}:{}:{}: {}", source_name_, loc.line, loc.col, message));
}

std::string Parser::describe(const Token& token) {
  switch (token.kind) {
    case TokenKind::kEnd: return "end of input";
    case TokenKind::kDotName: return fmt::format("'.{}'", token.text);
    case TokenKind::kString: return fmt::format("string \"{}\"", token.text.substr(0, 40));
    default: return fmt::format("'{}'", token.text.substr(0, 40));
  }
}

Status Parser::unexpected(std::string_view expected) const {
  return error_at(peek().loc, fmt::format("expected {}, found {}", expected, describe(peek())));
}

StatusOr<Module> Parser::parse_module() {
  Module module;
  module.source_name = source_name_;
  while (peek().kind != TokenKind::kEnd) RETURN_IF_ERROR(parse_module_directive(&module));
  return module;
}

Status Parser::parse_module_directive(Module* module) {
  const Token& first = peek();
  if (first.kind != TokenKind::kDotName) return unexpected("a directive");
  SourceLoc loc = first.loc;
  if (accept_dot("version")) return parse_version(module);
  if (accept_dot("target")) return parse_target(module);
  if (accept_dot("address_size")) {
    ASSIGN_OR_RETURN(int64_t size, parse_int_value("an address size"));
    if (size != 32 && size != 64) return error_at(loc, fmt::format(".address_size must be 32 or 64, not {}", size));
    module->address_size = static_cast<int>(size);
    return ok_status();
  }
  if (accept_dot("file")) return parse_file(module);
  if (accept_dot("section")) return skip_section();
  if (accept_dot("pragma")) {
    ASSIGN_OR_RETURN(Pragma pragma, parse_pragma(loc));
    module->pragmas.push_back(std::move(pragma));
    return ok_status();
  }
  Linkage linkage;
  while (peek().kind == TokenKind::kDotName) {
    if (accept_dot("extern")) linkage.is_extern = true;
    else if (accept_dot("visible")) linkage.is_visible = true;
    else if (accept_dot("weak")) linkage.is_weak = true;
    else if (accept_dot("common")) linkage.is_common = true;
    else break;
  }
  if (accept_dot("entry")) return parse_function(loc, linkage, /*is_entry=*/true, module);
  if (accept_dot("func")) return parse_function(loc, linkage, /*is_entry=*/false, module);
  for (std::string_view space : {"global", "const", "shared", "local", "tex"}) {
    if (accept_dot(space)) return parse_var_decls(loc, std::string(space), linkage, &module->globals);
  }
  return unexpected("a module-level directive (.version, .target, .entry, .func, .global, ...)");
}

Status Parser::parse_version(Module* module) {
  const Token& token = peek();
  std::string_view text = token.text;
  size_t dot = text.find('.');
  int major = 0, minor = 0;
  bool ok = token.kind == TokenKind::kFloat && dot != std::string_view::npos && dot > 0 &&
            dot + 1 < text.size();
  if (ok) {
    auto r1 = std::from_chars(text.data(), text.data() + dot, major);
    auto r2 = std::from_chars(text.data() + dot + 1, text.data() + text.size(), minor);
    ok = r1.ec == std::errc() && r1.ptr == text.data() + dot && r2.ec == std::errc() &&
         r2.ptr == text.data() + text.size();
  }
  if (!ok) return unexpected("a version number like 9.0");
  take();
  module->version_major = major;
  module->version_minor = minor;
  return ok_status();
}

Status Parser::parse_target(Module* module) {
  do {
    ASSIGN_OR_RETURN(std::string target, expect_ident("a target name (sm_80, debug, ...)"));
    module->target.push_back(std::move(target));
  } while (accept(','));
  return ok_status();
}

Status Parser::parse_file(Module* module) {
  FileDirective file;
  ASSIGN_OR_RETURN(int64_t index, parse_int_value("a file index"));
  if (index < 0 || index > INT32_MAX) return error_at(peek().loc, "file index out of range");
  file.index = static_cast<int>(index);
  if (peek().kind != TokenKind::kString) return unexpected("a file name string");
  file.path = std::string(take().text);
  // Optional timestamp and size: `.file 1 "a.cu", 1700000000, 1234`
  while (accept(',')) {
    ASSIGN_OR_RETURN(int64_t ignored, parse_int_value("a file timestamp or size"));
    (void)ignored;
  }
  module->files.push_back(std::move(file));
  return ok_status();
}

// `.section .debug_xxx { ... }`: debug data is skipped token by token (no recursion),
// matching braces so that a malformed section cannot swallow the rest silently.
Status Parser::skip_section() {
  if (peek().kind != TokenKind::kDotName) return unexpected("a section name");
  take();
  SourceLoc open = peek().loc;
  RETURN_IF_ERROR(expect('{', "to open the section"));
  int depth = 1;
  while (depth > 0) {
    const Token& token = take();
    if (token.kind == TokenKind::kEnd) return error_at(open, "unterminated .section: missing '}'");
    if (token.is('{')) ++depth;
    if (token.is('}')) --depth;
  }
  return ok_status();
}

StatusOr<Pragma> Parser::parse_pragma(SourceLoc loc) {
  Pragma pragma;
  pragma.loc = loc;
  do {
    if (peek().kind != TokenKind::kString) return unexpected("a pragma string");
    if (!pragma.text.empty()) pragma.text += ", ";
    pragma.text += std::string(take().text);
  } while (accept(','));
  RETURN_IF_ERROR(expect(';', "after .pragma"));
  return pragma;
}

}  // namespace detail

StatusOr<ptx::Module> parse_ptx(std::string_view text, std::string_view source_name) {
  ASSIGN_OR_RETURN(std::vector<Token> tokens, tokenize(text, source_name));
  detail::Parser parser(std::move(tokens), source_name);
  return parser.parse_module();
}

}  // namespace strata::ptx
