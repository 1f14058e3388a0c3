// ArchConfig: the typed contents of an architecture config file (arch/*.toml).
// Fields are declared once in arch_fields.def. Loading validates every field's type
// and range, rejects unknown keys, and reports errors as "file:line: message".
#pragma once

#include <cstdint>
#include <map>
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

  // Per field ("section.name"): its `source: ...` or `calibrated: ...` comment.
  std::map<std::string, std::string> provenance;
  std::string source_path;   // file it was loaded from
  std::string content_hash;  // hex hash of the file's bytes (keys the JIT cache)
};

// Parses TOML text; `path` names it in error messages. Every field of
// arch_fields.def must appear exactly once in its [section], with the declared type,
// within its range, followed on the same line by a `# source: ...` or
// `# calibrated: ...` comment; unknown sections and keys are rejected, as are configs
// whose fields contradict each other (e.g. a per-block limit above the per-SM one).
// Errors are Code::kInvalidValue with the message "path:line: what is wrong".
// Sets source_path = path and content_hash = arch_content_hash(toml_text).
StatusOr<ArchConfig> parse_arch_config(std::string_view toml_text, std::string_view path);

// Hex FNV-1a 64 of `bytes` (16 lower-case hex digits). Stable across builds and hosts.
std::string arch_content_hash(std::string_view bytes);

// Loads the config named by STRATA_ARCH: a path to a .toml file, or a name looked up
// as <name>.toml in the installed arch directory (STRATA_ARCH_DIR, else the directory
// compiled in as STRATA_DEFAULT_ARCH_DIR). Default name: "strata-g1". An argument
// containing '/' or ending in ".toml" is a path; a name may contain only
// [A-Za-z0-9._-]. A missing file is Code::kFileNotFound naming the path tried.
StatusOr<ArchConfig> load_arch_config_from_env();
StatusOr<ArchConfig> load_arch_config(std::string_view name_or_path);

}  // namespace strata::hw
