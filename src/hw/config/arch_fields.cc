#include "hw/config/arch_fields.h"

namespace strata::hw {
namespace {

#define STRATA_ARCH_ACCESS_int64(NAME) \
  [](ArchConfig& c) -> int64_t* { return &c.NAME; }, nullptr, nullptr
#define STRATA_ARCH_ACCESS_double(NAME) \
  nullptr, [](ArchConfig& c) -> double* { return &c.NAME; }, nullptr
#define STRATA_ARCH_ACCESS_string(NAME) \
  nullptr, nullptr, [](ArchConfig& c) -> std::string* { return &c.NAME; }
#define STRATA_ARCH_TYPE_int64 ArchFieldType::kInt64
#define STRATA_ARCH_TYPE_double ArchFieldType::kDouble
#define STRATA_ARCH_TYPE_string ArchFieldType::kString

const ArchFieldInfo kFields[] = {
#define STRATA_ARCH_FIELD(SECTION, NAME, TYPE, MIN, MAX, DESCRIPTION)                 \
  {#SECTION, #NAME, STRATA_ARCH_TYPE_##TYPE, static_cast<double>(MIN),                \
   static_cast<double>(MAX), DESCRIPTION, STRATA_ARCH_ACCESS_##TYPE(NAME)},
#include "hw/config/arch_fields.def"
#undef STRATA_ARCH_FIELD
};

}  // namespace

std::span<const ArchFieldInfo> arch_fields() { return kFields; }

std::string_view arch_field_type_name(ArchFieldType type) {
  switch (type) {
    case ArchFieldType::kInt64: return "int64";
    case ArchFieldType::kDouble: return "double";
    case ArchFieldType::kString: return "string";
  }
  return "?";
}

}  // namespace strata::hw
