// Internal to the PTX parser: the recursive-descent Parser over the lexer's tokens.
// Split by idea across parser.cc (module level), parse_decl.cc (declarations,
// initializers, constant expressions), parse_function.cc (functions and bodies) and
// parse_instruction.cc (instructions and operands). Not part of the public API.
#pragma once

#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "base/status.h"
#include "compiler/ptx/ast.h"
#include "compiler/ptx/lexer.h"

namespace strata::ptx::detail {

// Bound on nesting (blocks, braces, parentheses) so malformed input cannot overflow
// the stack. nvcc output nests a few levels at most.
inline constexpr int kMaxNesting = 64;

struct Linkage {
  bool is_extern = false, is_visible = false, is_weak = false, is_common = false;
  bool any() const { return is_extern || is_visible || is_weak || is_common; }
};

class Parser {
 public:
  Parser(std::vector<Token> tokens, std::string_view source_name)
      : tokens_(std::move(tokens)), source_name_(source_name) {}

  StatusOr<Module> parse_module();

  // ---- token access (parser.cc) ----
  const Token& peek(size_t ahead = 0) const;
  const Token& take();
  bool at(char punct, size_t ahead = 0) const { return peek(ahead).is(punct); }
  bool at_dot(std::string_view name, size_t ahead = 0) const;
  bool accept(char punct);
  bool accept_dot(std::string_view name);
  Status expect(char punct, std::string_view context);
  StatusOr<std::string> expect_ident(std::string_view what);
  Status error_at(SourceLoc loc, std::string_view message) const;
  Status unexpected(std::string_view expected) const;  // "expected X, found 'y'"
  static std::string describe(const Token& token);

  // ---- declarations (parse_decl.cc) ----
  // Parses the rest of a declaration after `.space` (already consumed, its location is
  // `loc`): modifiers, type and one or more names with optional initializers, through
  // the terminating ';'. Appends one VarDecl per name.
  Status parse_var_decls(SourceLoc loc, std::string space, Linkage linkage,
                         std::vector<VarDecl>* out);
  // One parameter of a function or prototype: `.param .align 4 .b8 name[12]`,
  // `.param .u64 .ptr.global.align 8 name`, `.reg .u32 name`. No terminator.
  StatusOr<VarDecl> parse_param();
  StatusOr<int64_t> parse_const_expr(int depth = 0);
  StatusOr<int64_t> parse_int_value(std::string_view what);  // a constant expression

  // ---- functions (parse_function.cc) ----
  Status parse_function(SourceLoc loc, Linkage linkage, bool is_entry, Module* module);

  // ---- instructions (parse_instruction.cc) ----
  StatusOr<Instruction> parse_instruction();

 private:
  // parse_decl.cc
  Status parse_decl_modifiers(VarDecl* decl, bool is_param);
  Status parse_decl_name(VarDecl* decl);
  Status parse_initializer(VarDecl* decl, int depth);
  Status parse_init_element(VarDecl* decl);
  StatusOr<SymbolOperand> parse_init_address();
  StatusOr<int64_t> parse_binary(int precedence, int depth);
  StatusOr<int64_t> parse_unary(int depth);

  // parse_function.cc
  Status parse_param_list(std::vector<VarDecl>* out, bool allow_reg);
  Status parse_performance_directives(Function* function);
  Status parse_block(Function* function, Block* block, int depth);
  Status parse_statement(Function* function, Block* block, int depth);
  Status parse_loc(Block* block);
  Status parse_labelled_directive(Function* function, Block* block);

  // parse_instruction.cc
  StatusOr<OperandSlot> parse_operand(bool allow_vector);
  StatusOr<Operand> parse_address();
  StatusOr<std::shared_ptr<VectorOperand>> parse_vector();
  StatusOr<Operand> parse_immediate();
  Status parse_call_operands(Instruction* inst);
  StatusOr<std::shared_ptr<VectorOperand>> parse_call_list();
  bool is_register_name(std::string_view name) const;

  // parser.cc
  Status parse_module_directive(Module* module);
  Status parse_version(Module* module);
  Status parse_target(Module* module);
  Status parse_file(Module* module);
  Status skip_section();
  StatusOr<Pragma> parse_pragma(SourceLoc loc);

  std::vector<Token> tokens_;
  size_t pos_ = 0;
  std::string source_name_;
  // Names declared by .reg in the enclosing scopes of the current function body, so
  // that registers written without '%' (as in inline assembly) are recognized.
  std::vector<std::unordered_set<std::string>> reg_scopes_;
};

}  // namespace strata::ptx::detail
