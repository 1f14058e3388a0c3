// Binary encoding of Strata instructions: Inst <-> 128-bit Word <-> bytes.
//
// The layout is isa/fields.def; both directions are driven by that table (isa/fields.h),
// so encode(decode(w)) == w for every word decode accepts and decode(encode(i)) == i for
// every Inst validate() accepts. All functions are pure and thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"
#include "isa/inst.h"

namespace strata::isa {

// Checks that every field of `inst` fits its bit width and holds a defined value: the
// opcode exists, type/type2/space/scope are defined enum values, and mod is legal for
// the opcode (isa/modifiers.h). Fails with Code::kIllegalInstruction naming the field.
Status validate(const Inst& inst);

// Packs `inst` into a word. Each field must fit its width (CHECKed: an Inst that does not
// is a bug in its producer); enum legality is not checked, use validate() first when
// the Inst comes from untrusted input.
Word encode(const Inst& inst);

// Unpacks a word. Fails with Code::kIllegalInstruction for an unknown opcode or an
// undefined enum value in any field (see validate()).
StatusOr<Inst> decode(const Word& word);

// Little-endian bytes, kInstBytes (16) per instruction, low word first.
std::vector<uint8_t> encode_program(std::span<const Inst> program);
// Fails with Code::kIllegalInstruction if the size is not a multiple of 16 or any word
// does not decode; the message names the instruction index.
StatusOr<std::vector<Inst>> decode_program(std::span<const uint8_t> bytes);

}  // namespace strata::isa
