#include "compiler/devrt/devrt.h"

#include <array>
#include <utility>

namespace strata::compiler::devrt {

extern const char kLibraryPtx[];  // generated from heap.cu (CMakeLists.txt)

std::string_view library_ptx() {
  return kLibraryPtx;
}

std::string_view library_function(std::string_view name) {
  // CUDA's name (what nvcc's PTX calls) -> the library's definition (heap.cu).
  static constexpr std::array<std::pair<std::string_view, std::string_view>, 5> kFunctions = {{
      {"malloc", "__strata_malloc"},
      {"free", "__strata_free"},
      {"__cuda_syscall_aligned_malloc", "__strata_aligned_malloc"},
      {"__cudaCDP2Malloc", "__strata_cdp2_malloc"},  // device-side cudaMalloc (CDP2)
      {"__cudaCDP2Free", "__strata_cdp2_free"},      // device-side cudaFree
  }};
  for (const auto& [cuda_name, library_name] : kFunctions)
    if (cuda_name == name) return library_name;
  return {};
}

}  // namespace strata::compiler::devrt
