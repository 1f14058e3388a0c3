// Finding and reading arch config files (STRATA_ARCH, STRATA_ARCH_DIR).
#include <fmt/format.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>

#include "hw/config/arch_config.h"

#ifndef STRATA_DEFAULT_ARCH_DIR
#error "STRATA_DEFAULT_ARCH_DIR must be defined by the build"
#endif

namespace strata::hw {
namespace {

constexpr std::string_view kDefaultArch = "strata-g1";

bool is_path(std::string_view s) {
  return s.find('/') != std::string_view::npos ||
         (s.size() >= 5 && s.substr(s.size() - 5) == ".toml");
}

bool is_valid_name(std::string_view s) {
  if (s.empty() || s.front() == '.') return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

std::string arch_dir() {
  const char* env = std::getenv("STRATA_ARCH_DIR");
  return (env != nullptr && env[0] != '\0') ? env : STRATA_DEFAULT_ARCH_DIR;
}

}  // namespace

StatusOr<ArchConfig> load_arch_config(std::string_view name_or_path) {
  std::string path;
  if (is_path(name_or_path)) {
    path = std::string(name_or_path);
  } else if (is_valid_name(name_or_path)) {
    path = fmt::format("{}/{}.toml", arch_dir(), name_or_path);
  } else {
    return error(Code::kInvalidValue,
                 fmt::format("invalid arch config name '{}': expected a name made of "
                             "[A-Za-z0-9._-] or a path to a .toml file",
                             name_or_path));
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    return error(Code::kFileNotFound, fmt::format("arch config '{}': cannot open {}: {}",
                                                  name_or_path, path, std::strerror(errno)));
  }
  std::ostringstream contents;
  contents << in.rdbuf();
  if (in.bad()) {
    return error(Code::kFileNotFound, fmt::format("arch config: error reading {}", path));
  }
  return parse_arch_config(contents.str(), path);
}

StatusOr<ArchConfig> load_arch_config_from_env() {
  const char* env = std::getenv("STRATA_ARCH");
  return load_arch_config((env != nullptr && env[0] != '\0') ? std::string_view(env)
                                                             : kDefaultArch);
}

}  // namespace strata::hw
