// Reflection over arch_fields.def: one ArchFieldInfo per field, in declaration order.
// Used by the parser, by the schema-table generator for docs/arch-config.md, and by
// anything that wants to print or compare configs field by field. Immutable; thread-safe.
#pragma once

#include <span>
#include <string>
#include <string_view>

#include "hw/config/arch_config.h"

namespace strata::hw {

enum class ArchFieldType { kInt64, kDouble, kString };

struct ArchFieldInfo {
  std::string_view section;
  std::string_view name;
  ArchFieldType type;
  double min;  // inclusive bounds for kInt64/kDouble (exact for |v| < 2^53)
  double max;
  std::string_view description;
  int64_t* (*int64_field)(ArchConfig&);      // non-null for kInt64
  double* (*double_field)(ArchConfig&);      // non-null for kDouble
  std::string* (*string_field)(ArchConfig&); // non-null for kString
};

std::span<const ArchFieldInfo> arch_fields();
std::string_view arch_field_type_name(ArchFieldType type);  // "int64", "double", "string"

}  // namespace strata::hw
