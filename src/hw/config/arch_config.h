// ArchConfig: the typed contents of an architecture config file (arch/*.toml).
// Fields are declared once in arch_fields.def. Loading validates every field's type
// and range, rejects unknown keys, and reports errors as "file:line: message".
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "base/status.h"

namespace strata::hw {

struct ArchConfig {
#define STRATA_ARCH_FIELD_int64(NAME) int64_t NAME = 0;
#define STRATA_ARCH_FIELD_double(NAME) double NAME = 0;
#define STRATA_ARCH_FIELD_string(NAME) std::string NAME;
#define STRATA_ARCH_FIELD(SECTION, NAME, TYPE, MIN, MAX, DESCRIPTION) STRATA_ARCH_FIELD_##TYPE(NAME)
#include "hw/config/arch_fields.def"
#undef STRATA_ARCH_FIELD
#undef STRATA_ARCH_FIELD_int64
#undef STRATA_ARCH_FIELD_double
#undef STRATA_ARCH_FIELD_string

  std::string source_path;   // file it was loaded from
  std::string content_hash;  // hex hash of the file's bytes (keys the JIT cache)
};

// Parses TOML text; `path` names it in error messages.
StatusOr<ArchConfig> parse_arch_config(std::string_view toml_text, std::string_view path);

// Loads the config named by STRATA_ARCH: a path to a .toml file, or a name looked up
// as <name>.toml in the installed arch directory (STRATA_ARCH_DIR, else the directory
// compiled in as STRATA_DEFAULT_ARCH_DIR). Default name: "strata-g1".
StatusOr<ArchConfig> load_arch_config_from_env();
StatusOr<ArchConfig> load_arch_config(std::string_view name_or_path);

}  // namespace strata::hw
