// Where this build's libcudart.so.13 and libcuda.so.1 live: the directories compiled in
// by CMake, or STRATA_LIBRARY_PATH when set (an installed layout). Colon-separated.
#pragma once

#include <string>

namespace strata::tools {

std::string strata_library_path();

}  // namespace strata::tools
