#include "tools/library_paths.h"

#include <cstdlib>

namespace strata::tools {

std::string strata_library_path() {
  if (const char* configured = std::getenv("STRATA_LIBRARY_PATH"); configured && *configured) {
    return configured;
  }
  return STRATA_BUILD_LIBRARY_PATH;
}

}  // namespace strata::tools
