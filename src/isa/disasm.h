// Disassembler: Inst -> text in the Strata assembly syntax, which isa/asm.h parses back
// exactly: assemble(disassemble(i, true)) == i for every Inst that validate() accepts,
// and disassembling the result reproduces the text. The syntax is described in
// docs/isa.md ("Assembly syntax"); in short:
//
//   [@[!]Pg ]MNEMONIC[.MODIFIERS][.TYPE[.TYPE2]] [operand, ...] [{field=value, ...}];
//
//   @!P0 IADD.S32 R2, R4, 0x10;
//   ISETP.LT.AND.S32 P1, R2, R3, !PT;
//   LD.GLOBAL.ACQUIRE.GPU.U32 R5, [R2+0x8] {stall=4, wbar=0, rbar=-, wait=0x0};
//
// Operands follow the OPERANDS column of isa/opcodes.def. Field values the syntax cannot
// otherwise express (a non-default field an opcode does not use, mod bits outside its
// modifier kind) are printed as raw "{field=value}" overrides so that nothing is lost;
// the control bits are printed in the same braces when requested. Pure, thread-safe.
#pragma once

#include <span>
#include <string>

#include "isa/inst.h"

namespace strata::isa {

// One instruction, ending with ';'. An Inst that validate() rejects disassembles to
// "<illegal instruction: reason>" (which the assembler rejects).
std::string disassemble(const Inst& inst, bool with_control = false);

// A whole kernel, one instruction per line prefixed with its index as a comment
// ("/*0004*/"), with a label line "L<index>:" before every instruction that a BRA or
// BSSY in the program targets; those targets are printed as the label. The text
// assembles back to the same program.
std::string disassemble_program(std::span<const Inst> program, bool with_control = true);

}  // namespace strata::isa
