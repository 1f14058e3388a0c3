// Whole-file reads and writes for the CLI, with errors naming the path.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::tools {

StatusOr<std::vector<uint8_t>> read_file(const std::string& path);
// Writes to a temporary file beside `path` and renames it over `path`.
Status write_file(const std::string& path, std::span<const uint8_t> bytes);

}  // namespace strata::tools
