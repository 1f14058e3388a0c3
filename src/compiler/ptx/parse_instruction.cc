// Instructions: guard, opcode, modifiers and operands (see ast.h for their shapes).
#include <fmt/format.h>

#include "compiler/ptx/number.h"
#include "compiler/ptx/parser_impl.h"

namespace strata::ptx::detail {
namespace {

// Component of %tid.x-style special registers and of vector registers.
char component_of(std::string_view text) {
  if (text.size() != 1) return 0;
  switch (text[0]) {
    case 'x': case 'r': return 'x';
    case 'y': case 'g': return 'y';
    case 'z': case 'b': return 'z';
    case 'w': case 'a': return 'w';
    default: return 0;
  }
}

// A video instruction's sub-word selector: .b0-.b3, .h0/.h1, and the SIMD forms
// .bxyzw (x..w in 0-7) and .hxy (x, y in 0-3).
bool is_video_selector(std::string_view text) {
  if (text.size() < 2 || (text[0] != 'b' && text[0] != 'h')) return false;
  for (char ch : text.substr(1))
    if (ch < '0' || ch > '7') return false;
  return true;
}

bool starts_immediate(const Token& token) {
  return token.kind == TokenKind::kInt || token.kind == TokenKind::kFloat || token.is('-') ||
         token.is('~') || token.is('(') || token.is('+');
}

}  // namespace

bool Parser::is_register_name(std::string_view name) const {
  if (!name.empty() && name[0] == '%') return true;
  std::string key(name);
  for (const auto& scope : reg_scopes_) {
    if (scope.count(key)) return true;
  }
  return false;
}

StatusOr<Instruction> Parser::parse_instruction() {
  Instruction inst;
  inst.loc = peek().loc;
  if (accept('@')) {
    if (accept('!')) inst.guard_negated = true;
    ASSIGN_OR_RETURN(inst.guard, expect_ident("a guard predicate after '@'"));
    if (!is_register_name(inst.guard)) {
      return error_at(inst.loc, fmt::format("guard '{}' is not a register", inst.guard));
    }
  }
  if (peek().kind != TokenKind::kIdent || peek().text[0] == '%') {
    return unexpected("an instruction opcode");
  }
  inst.opcode = std::string(take().text);
  while (peek().kind == TokenKind::kDotName) inst.modifiers.emplace_back(take().text);
  if (inst.opcode == "call") {
    RETURN_IF_ERROR(parse_call_operands(&inst));
    RETURN_IF_ERROR(expect(';', "to end the call"));
    return inst;
  }
  if (accept(';')) return inst;
  do {
    ASSIGN_OR_RETURN(OperandSlot slot, parse_operand(/*allow_vector=*/true));
    inst.operands.push_back(std::move(slot));
    if (inst.operands.size() == 1 && at('|')) {  // setp's p|q destination
      take();
      ASSIGN_OR_RETURN(OperandSlot second, parse_operand(/*allow_vector=*/false));
      inst.operands.push_back(std::move(second));
      inst.has_pred_pair = true;
    }
  } while (accept(','));
  RETURN_IF_ERROR(expect(';', fmt::format("to end the '{}' instruction", inst.opcode)));
  return inst;
}

StatusOr<OperandSlot> Parser::parse_operand(bool allow_vector) {
  OperandSlot slot;
  slot.loc = peek().loc;
  if (accept('!')) {
    slot.negated = true;
    if (peek().kind != TokenKind::kIdent) return unexpected("a predicate register after '!'");
  } else if (peek().is('-') && peek(1).kind == TokenKind::kIdent && is_register_name(peek(1).text)) {
    take();
    slot.minus = true;
  }
  const Token& token = peek();
  if (token.is('{')) {
    if (!allow_vector || slot.negated) return error_at(slot.loc, "a vector operand is not allowed here");
    ASSIGN_OR_RETURN(slot.value, parse_vector());
    return slot;
  }
  if (token.is('[')) {
    if (slot.negated) return error_at(slot.loc, "an address cannot be negated");
    ASSIGN_OR_RETURN(slot.value, parse_address());
    return slot;
  }
  if (token.kind == TokenKind::kIdent) {
    std::string name(take().text);
    if (name == "_") {
      slot.value = SinkOperand{};
      return slot;
    }
    if (is_register_name(name)) {
      RegOperand reg{std::move(name), 0};
      if (peek().kind == TokenKind::kDotName) {
        char component = component_of(peek().text);
        if (component == 0 && is_video_selector(peek().text)) {
          reg.selector = std::string(take().text);
        } else {
          if (component == 0) return unexpected("a register component (.x, .y, .z, .w)");
          take();
          reg.component = component;
        }
      }
      slot.value = std::move(reg);
      return slot;
    }
    SymbolOperand symbol{std::move(name), 0};
    if (at('+') || (at('-') && !slot.negated)) {
      bool minus = take().is('-');
      ASSIGN_OR_RETURN(int64_t offset, parse_const_expr());
      symbol.offset = minus ? static_cast<int64_t>(0 - static_cast<uint64_t>(offset)) : offset;
    }
    slot.value = std::move(symbol);
    return slot;
  }
  if (slot.negated) return unexpected("a predicate register after '!'");
  if (starts_immediate(token)) {
    ASSIGN_OR_RETURN(slot.value, parse_immediate());
    return slot;
  }
  return unexpected("an operand");
}

StatusOr<Operand> Parser::parse_immediate() {
  const Token& token = peek();
  bool negate = token.is('-') && peek(1).kind == TokenKind::kFloat;
  if (token.kind == TokenKind::kFloat || negate) {
    if (negate) take();
    SourceLoc loc = peek().loc;
    std::optional<ImmFloat> value = parse_float_literal(take().text);
    if (!value) return error_at(loc, "malformed floating-point literal");
    if (negate) value->bits ^= value->is_f32 ? (uint64_t{1} << 31) : (uint64_t{1} << 63);
    return Operand(*value);
  }
  // A lone literal keeps its U suffix; an expression is signed.
  bool lone = token.kind == TokenKind::kInt && !starts_immediate(peek(1)) &&
              !(peek(1).kind == TokenKind::kPunct && std::string_view("*/%&^|<>").find(peek(1).text[0]) != std::string_view::npos);
  bool unsigned_suffix = token.kind == TokenKind::kInt && !token.text.empty() &&
                         (token.text.back() == 'U' || token.text.back() == 'u');
  ASSIGN_OR_RETURN(int64_t value, parse_const_expr());
  return Operand(ImmInt{value, lone && unsigned_suffix});
}

StatusOr<std::shared_ptr<VectorOperand>> Parser::parse_vector() {
  RETURN_IF_ERROR(expect('{', "to open the vector operand"));
  auto vector = std::make_shared<VectorOperand>();
  if (at('}')) return unexpected("a vector element");
  do {
    ASSIGN_OR_RETURN(OperandSlot element, parse_operand(/*allow_vector=*/false));
    if (element.negated) return error_at(element.loc, "vector elements cannot be negated");
    if (std::holds_alternative<AddressOperand>(element.value)) {
      return error_at(element.loc, "vector elements cannot be addresses");
    }
    vector->elements.push_back(std::move(element.value));
    if (vector->elements.size() > 64) return error_at(element.loc, "too many vector elements");
  } while (accept(','));
  RETURN_IF_ERROR(expect('}', "to close the vector operand"));
  return vector;
}

// [%rd1], [%rd1+16], [%rd1+-4], [sym], [sym+8], [0x1000], [tex, {c}], [tex, smp, {c}]
StatusOr<Operand> Parser::parse_address() {
  RETURN_IF_ERROR(expect('[', "to open the address"));
  AddressOperand address;
  const Token& token = peek();
  if (token.kind == TokenKind::kIdent) {
    address.base = std::string(take().text);
    address.base_is_reg = is_register_name(address.base);
    if (at('+') || at('-')) {
      bool minus = take().is('-');
      ASSIGN_OR_RETURN(int64_t offset, parse_const_expr());
      address.offset = minus ? static_cast<int64_t>(0 - static_cast<uint64_t>(offset)) : offset;
    }
  } else if (token.kind == TokenKind::kInt || token.is('-') || token.is('(') || token.is('~')) {
    ASSIGN_OR_RETURN(address.offset, parse_const_expr());
  } else {
    return unexpected("a register, symbol or constant address");
  }
  if (accept(',')) {
    if (peek().kind == TokenKind::kIdent) {
      ASSIGN_OR_RETURN(address.sampler, expect_ident("a sampler"));
      RETURN_IF_ERROR(expect(',', "before the coordinate vector"));
    }
    ASSIGN_OR_RETURN(address.coords, parse_vector());
  }
  RETURN_IF_ERROR(expect(']', "to close the address"));
  return Operand(std::move(address));
}

// call[.uni] (r0, ...), callee, (a0, ...)[, prototype-or-targets]  -> ast.h's encoding.
Status Parser::parse_call_operands(Instruction* inst) {
  auto add = [&](Operand value, SourceLoc loc) {
    inst->operands.push_back(OperandSlot{std::move(value), false, loc});
  };
  SourceLoc loc = peek().loc;
  std::shared_ptr<VectorOperand> returns = std::make_shared<VectorOperand>();
  if (at('(')) {
    ASSIGN_OR_RETURN(returns, parse_call_list());
    RETURN_IF_ERROR(expect(',', "after the call's return list"));
  }
  add(returns, loc);
  loc = peek().loc;
  ASSIGN_OR_RETURN(std::string callee, expect_ident("the called function"));
  if (is_register_name(callee)) add(RegOperand{std::move(callee), 0}, loc);
  else add(SymbolOperand{std::move(callee), 0}, loc);
  loc = peek().loc;
  std::shared_ptr<VectorOperand> args = std::make_shared<VectorOperand>();
  bool have_target = false;
  if (accept(',')) {
    if (at('(')) {
      loc = peek().loc;
      ASSIGN_OR_RETURN(args, parse_call_list());
    } else {
      have_target = true;  // call %rd, prototype;  (no arguments written)
    }
  }
  add(args, loc);
  if (have_target || accept(',')) {
    loc = peek().loc;
    ASSIGN_OR_RETURN(std::string target, expect_ident("a call prototype or target list"));
    add(SymbolOperand{std::move(target), 0}, loc);
  }
  return ok_status();
}

// ( a, b, c ) of a call: registers, parameter symbols or immediates.
StatusOr<std::shared_ptr<VectorOperand>> Parser::parse_call_list() {
  RETURN_IF_ERROR(expect('(', "to open the call's list"));
  auto list = std::make_shared<VectorOperand>();
  if (accept(')')) return list;
  do {
    ASSIGN_OR_RETURN(OperandSlot element, parse_operand(/*allow_vector=*/false));
    if (element.negated || std::holds_alternative<AddressOperand>(element.value)) {
      return error_at(element.loc, "call arguments must be parameters, registers or constants");
    }
    list->elements.push_back(std::move(element.value));
  } while (accept(','));
  RETURN_IF_ERROR(expect(')', "to close the call's list"));
  return list;
}

}  // namespace strata::ptx::detail
