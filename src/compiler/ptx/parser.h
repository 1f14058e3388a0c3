// The PTX parser: text -> ptx::Module (compiler/ptx/ast.h).
//
// Contract:
// - Accepts the PTX grammar nvcc 13 emits (ISA 9.x; older versions are parsed the same
//   way): module directives, variable declarations with initializers, .entry/.func
//   definitions, prototypes and declarations, instructions with guards and every operand
//   shape, labels, nested blocks, .loc/.file debug info, .pragma, and .section debug data
//   (parsed and skipped: it does not appear in the AST).
// - The parse is syntactic. Opcodes and modifiers are not checked against the PTX ISA
//   here; that is compiler/ir's job. Unknown directives are errors.
// - On malformed input it returns Code::kInvalidPtx with a message of the form
//   "<source_name>:<line>:<col>: <what was expected / found>". It never crashes, never
//   loops forever and bounds its recursion depth (nested blocks, initializer braces,
//   vector operands), so it is safe on untrusted input.
// - `text` need not be NUL-terminated and may contain NUL or non-ASCII bytes (errors).
// - Thread-safe: it keeps no global state. The returned Module owns all its strings.
#pragma once

#include <string_view>

#include "base/status.h"
#include "compiler/ptx/ast.h"

namespace strata::ptx {

StatusOr<ptx::Module> parse_ptx(std::string_view text, std::string_view source_name);

}  // namespace strata::ptx
