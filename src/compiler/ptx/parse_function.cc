// Functions: .entry/.func headers, parameter lists, performance directives, bodies,
// nested blocks and the statements inside them.
#include <fmt/format.h>

#include "compiler/ptx/parser_impl.h"

namespace strata::ptx::detail {
namespace {

bool is_body_space(std::string_view text) {
  return text == "reg" || text == "local" || text == "shared" || text == "param" ||
         text == "const" || text == "global" || text == "tex";
}

// Directives with integer arguments allowed between a header and its body.
bool is_performance_directive(std::string_view text) {
  return text == "maxntid" || text == "reqntid" || text == "minnctapersm" ||
         text == "maxnctapersm" || text == "maxnreg" || text == "maxclusterrank" ||
         text == "reqnctapercluster" || text == "explicitcluster" || text == "noreturn" ||
         text == "blocksareclusters";
}

}  // namespace

Status Parser::parse_function(SourceLoc loc, Linkage linkage, bool is_entry, Module* module) {
  Function function;
  function.loc = loc;
  function.is_entry = is_entry;
  function.is_extern = linkage.is_extern;
  function.is_visible = linkage.is_visible;
  function.is_weak = linkage.is_weak;
  function.is_common = linkage.is_common;
  if (!is_entry && at('(')) RETURN_IF_ERROR(parse_param_list(&function.return_params, /*allow_reg=*/true));
  ASSIGN_OR_RETURN(function.name, expect_ident(is_entry ? "a kernel name" : "a function name"));
  if (at('(')) RETURN_IF_ERROR(parse_param_list(&function.params, /*allow_reg=*/!is_entry));
  RETURN_IF_ERROR(parse_performance_directives(&function));
  if (accept(';')) {
    module->functions.push_back(std::move(function));
    return ok_status();
  }
  if (!at('{')) return unexpected("'{' to open the function body or ';'");
  if (function.is_extern) return error_at(peek().loc, fmt::format(".extern function '{}' cannot have a body", function.name));
  function.has_body = true;
  reg_scopes_.clear();
  reg_scopes_.emplace_back();
  for (const VarDecl& param : function.params) {
    if (param.space == "reg") reg_scopes_.back().insert(param.name);
  }
  for (const VarDecl& param : function.return_params) {
    if (param.space == "reg") reg_scopes_.back().insert(param.name);
  }
  function.body.loc = peek().loc;
  take();  // '{'
  Status status = parse_block(&function, &function.body, 1);
  reg_scopes_.clear();
  RETURN_IF_ERROR(status);
  module->functions.push_back(std::move(function));
  return ok_status();
}

Status Parser::parse_param_list(std::vector<VarDecl>* out, bool allow_reg) {
  RETURN_IF_ERROR(expect('(', "to open the parameter list"));
  if (accept(')')) return ok_status();
  do {
    SourceLoc loc = peek().loc;
    if (!allow_reg && at_dot("reg")) return error_at(loc, "kernel parameters must be .param");
    ASSIGN_OR_RETURN(VarDecl param, parse_param());
    out->push_back(std::move(param));
  } while (accept(','));
  return expect(')', "to close the parameter list");
}

Status Parser::parse_performance_directives(Function* function) {
  while (peek().kind == TokenKind::kDotName) {
    SourceLoc loc = peek().loc;
    std::string_view name = peek().text;
    if (name == "pragma") {
      take();
      ASSIGN_OR_RETURN(Pragma pragma, parse_pragma(loc));
      function->pragmas.push_back(std::move(pragma));
      continue;
    }
    if (!is_performance_directive(name)) {
      return unexpected("a performance directive (.maxntid, .reqntid, ...), '{' or ';'");
    }
    Directive directive;
    directive.loc = loc;
    directive.name = std::string(take().text);
    if (directive.name == "noreturn") function->noreturn = true;
    if (peek().kind == TokenKind::kInt) {
      do {
        ASSIGN_OR_RETURN(int64_t value, parse_int_value("a directive value"));
        directive.values.push_back(value);
      } while (accept(','));
    }
    function->directives.push_back(std::move(directive));
  }
  return ok_status();
}

// Parses statements up to and including the '}' that closes `block`.
Status Parser::parse_block(Function* function, Block* block, int depth) {
  if (depth > kMaxNesting) return error_at(peek().loc, "blocks nested too deeply");
  while (!accept('}')) {
    if (peek().kind == TokenKind::kEnd) return error_at(block->loc, "unterminated block: missing '}'");
    RETURN_IF_ERROR(parse_statement(function, block, depth));
  }
  return ok_status();
}

Status Parser::parse_statement(Function* function, Block* block, int depth) {
  const Token& token = peek();
  SourceLoc loc = token.loc;
  if (token.is('{')) {
    take();
    auto nested = std::make_shared<Block>();
    nested->loc = loc;
    reg_scopes_.emplace_back();
    Status status = parse_block(function, nested.get(), depth + 1);
    reg_scopes_.pop_back();
    RETURN_IF_ERROR(status);
    block->statements.emplace_back(std::move(nested));
    return ok_status();
  }
  if (token.kind == TokenKind::kDotName) {
    std::string_view name = token.text;
    if (name == "loc") {
      take();
      return parse_loc(block);
    }
    if (name == "pragma") {
      take();
      ASSIGN_OR_RETURN(Pragma pragma, parse_pragma(loc));
      block->statements.emplace_back(std::move(pragma));
      return ok_status();
    }
    Linkage linkage;
    while (peek().kind == TokenKind::kDotName) {
      if (accept_dot("extern")) linkage.is_extern = true;
      else if (accept_dot("visible")) linkage.is_visible = true;
      else if (accept_dot("weak")) linkage.is_weak = true;
      else break;
    }
    if (peek().kind == TokenKind::kDotName && is_body_space(peek().text)) {
      std::string space(take().text);
      std::vector<VarDecl> decls;
      RETURN_IF_ERROR(parse_var_decls(loc, std::move(space), linkage, &decls));
      for (VarDecl& decl : decls) block->statements.emplace_back(std::move(decl));
      return ok_status();
    }
    return unexpected("an instruction, label or declaration");
  }
  if (token.kind == TokenKind::kIdent && at(':', 1)) {
    if (peek(2).kind == TokenKind::kDotName) return parse_labelled_directive(function, block);
    Label label;
    label.loc = loc;
    label.name = std::string(take().text);
    take();  // ':'
    block->statements.emplace_back(std::move(label));
    return ok_status();
  }
  ASSIGN_OR_RETURN(Instruction inst, parse_instruction());
  block->statements.emplace_back(std::move(inst));
  return ok_status();
}

// .loc file line col [, function_name label] [, inlined_at file line col]
Status Parser::parse_loc(Block* block) {
  LocDirective loc;
  loc.loc = peek().loc;
  int* fields[3] = {&loc.file, &loc.line, &loc.col};
  for (int* field : fields) {
    SourceLoc at_loc = peek().loc;
    ASSIGN_OR_RETURN(int64_t value, parse_int_value("a .loc file, line or column number"));
    if (value < 0 || value > INT32_MAX) return error_at(at_loc, ".loc value out of range");
    *field = static_cast<int>(value);
  }
  while (accept(',')) {
    ASSIGN_OR_RETURN(std::string key, expect_ident("'function_name' or 'inlined_at'"));
    if (key == "function_name") {
      ASSIGN_OR_RETURN(loc.function_name, expect_ident("a function name label"));
    } else if (key == "inlined_at") {
      int* inlined[3] = {&loc.inlined_file, &loc.inlined_line, &loc.inlined_col};
      for (int* field : inlined) {
        SourceLoc at_loc = peek().loc;
        ASSIGN_OR_RETURN(int64_t value, parse_int_value("an inlined_at file, line or column"));
        if (value < 0 || value > INT32_MAX) return error_at(at_loc, "inlined_at value out of range");
        *field = static_cast<int>(value);
      }
    } else {
      return error_at(loc.loc, fmt::format("unknown .loc attribute '{}'", key));
    }
  }
  block->statements.emplace_back(std::move(loc));
  return ok_status();
}

// name: .callprototype ...; / name: .branchtargets ...; / name: .calltargets ...;
Status Parser::parse_labelled_directive(Function* function, Block* block) {
  SourceLoc loc = peek().loc;
  std::string name(take().text);
  take();  // ':'
  if (accept_dot("callprototype")) {
    CallPrototype proto;
    proto.loc = loc;
    proto.name = std::move(name);
    if (at('(')) RETURN_IF_ERROR(parse_param_list(&proto.return_params, /*allow_reg=*/true));
    if (!(peek().kind == TokenKind::kIdent && peek().text == "_")) return unexpected("'_' in .callprototype");
    take();
    if (at('(')) RETURN_IF_ERROR(parse_param_list(&proto.params, /*allow_reg=*/true));
    if (accept_dot("noreturn")) proto.noreturn = true;
    RETURN_IF_ERROR(expect(';', "to end the .callprototype"));
    function->prototypes.push_back(std::move(proto));
    return ok_status();
  }
  bool is_call = at_dot("calltargets");
  if (is_call || at_dot("branchtargets")) {
    take();
    TargetList list;
    list.loc = loc;
    list.name = std::move(name);
    list.is_call = is_call;
    do {
      ASSIGN_OR_RETURN(std::string target, expect_ident("a target label or function"));
      list.targets.push_back(std::move(target));
    } while (accept(','));
    RETURN_IF_ERROR(expect(';', "to end the target list"));
    function->target_lists.push_back(std::move(list));
    return ok_status();
  }
  // A plain label followed by a directive statement (e.g. a declaration).
  Label label;
  label.loc = loc;
  label.name = std::move(name);
  block->statements.emplace_back(std::move(label));
  return ok_status();
}

}  // namespace strata::ptx::detail
