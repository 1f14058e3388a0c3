// The assembly operand list of each opcode (the OPERANDS column of isa/opcodes.def) in
// parsed form, shared by the disassembler and the assembler.
#pragma once

#include <span>
#include <string_view>

#include "isa/inst.h"

namespace strata::isa {

enum class OperandKind : uint8_t {
  kD,            // "d"  Rd
  kA,            // "a"  Ra
  kB,            // "b"  Rb or the immediate (b_imm)
  kC,            // "c"  Rc
  kPd,           // "pd" destination predicate
  kPs,           // "ps" source predicate, may be negated
  kPq,           // "pq" second source predicate in rb's low 3 bits; negation in mod bit 7
  kImm,          // "i"  the 32-bit immediate
  kTarget,       // "t"  instruction index in imm
  kSpecialReg,   // "sr" special register in mod
  kConvBarrier,  // "bb" convergence barrier in mod
  kMemory,       // "m"  [Ra+imm]
  kConstBank,    // "cb" c[mod][Ra+imm]
};

// The operands of `op`, in assembly order. Valid for the program's lifetime.
std::span<const OperandKind> operand_kinds(Opcode op);
// The opcodes.def spelling of a kind ("pd").
std::string_view operand_kind_token(OperandKind kind);

}  // namespace strata::isa
