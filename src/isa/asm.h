// Assembler: Strata assembly text -> instructions. Accepts exactly the syntax that
// isa/disasm.h prints (see docs/isa.md, "Assembly syntax"), plus:
//   - labels "name:" (identifier: letter or '_' first, then letters, digits, '_', '.')
//     before any instruction; a branch/BSSY target is a label or an instruction index
//     (decimal or 0x hex);
//   - comments: "//" and "#" to the end of the line, "/* ... */";
//   - immediates in decimal, 0x hex, or negative decimal/hex (two's complement, 32 bits);
//   - mnemonics, modifiers, register and predicate names in any letter case (labels are
//     case-sensitive); modifiers in any order (the two types stay in order: type, type2).
// Every statement ends with ';'. Control bits not given in "{...}" take the defaults of
// isa::Control. Every instruction must pass validate() (isa/encode.h).
//
// Errors are Code::kInvalidSource with the message "source_name:line:col: message"
// (1-based line and column), for the first error found. Never crashes on any input.
// Pure and thread-safe.
#pragma once

#include <string_view>
#include <vector>

#include "base/status.h"
#include "isa/inst.h"

namespace strata::isa {

StatusOr<std::vector<Inst>> assemble(std::string_view text, std::string_view source_name);

// Exactly one instruction (no labels; numeric targets only).
StatusOr<Inst> assemble_instruction(std::string_view text);

}  // namespace strata::isa
