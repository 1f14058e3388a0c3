// The fields of the 128-bit instruction word (isa/fields.def) as data: names, bit
// positions, and typed access to the corresponding member of an Inst or bits of a Word.
// The encoder, decoder, assembler ("{rc=5}" field overrides) and docs generator all go
// through this one table.
#pragma once

#include <cstdint>
#include <string_view>

#include "isa/inst.h"

namespace strata::isa {

enum class Field : uint8_t {
#define STRATA_FIELD(NAME, LSB, WIDTH, DESCRIPTION) NAME,
#include "isa/fields.def"
#undef STRATA_FIELD
  kCount
};
inline constexpr int kNumFields = static_cast<int>(Field::kCount);

struct FieldInfo {
  std::string_view name;
  int lsb;
  int width;
  std::string_view description;
  // Largest value the field can hold: (1 << width) - 1.
  uint64_t max_value() const { return width >= 64 ? ~0ull : (1ull << width) - 1; }
};
const FieldInfo& field_info(Field f);
// Field by its fields.def name ("rd", "stall"); returns false if unknown.
bool field_from_name(std::string_view name, Field* out);

// The value of field f held in an Inst (enums and bools as their integer values).
uint64_t get_field(const Inst& inst, Field f);
// Stores `value` into the Inst member of field f. The value must fit the field's width
// (CHECKed: callers range-check user input first); enum validity is not checked here
// (see validate() in isa/encode.h).
void set_field(Inst& inst, Field f, uint64_t value);

// The same for the raw bits of a Word.
uint64_t get_field(const Word& word, Field f);
void set_field(Word& word, Field f, uint64_t value);

}  // namespace strata::isa
