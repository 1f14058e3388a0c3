// Numeric literals of PTX: integer and floating-point token text -> values.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

#include "compiler/ptx/ast.h"

namespace strata::ptx {

struct IntLiteral {
  uint64_t value = 0;       // the 64-bit pattern (PTX integer literals are 64-bit)
  bool unsigned_suffix = false;
};

// Parses 42, 0x1f, 0X1F, 0777 (octal), 0b101, each with an optional U suffix.
// Returns nullopt for malformed text or a value that does not fit in 64 bits.
std::optional<IntLiteral> parse_int_literal(std::string_view text);

// Parses 0fXXXXXXXX (f32 bits), 0dXXXXXXXXXXXXXXXX (f64 bits) and decimal floats
// (1.5, 1e-3, 2.; stored as f64 bits). Returns nullopt for malformed text.
std::optional<ImmFloat> parse_float_literal(std::string_view text);

}  // namespace strata::ptx
