#include "cuda/fatbin/device_runtime_library.h"

#include <string>
#include <string_view>

namespace strata::cuda::fatbin {

bool is_device_runtime_library(const Image& image) {
  constexpr std::string_view kPrefix = "__cudaCDP2";
  for (const Entry& entry : image.entries) {
    if (!entry.is_ptx()) continue;
    auto text = ptx_text(entry);
    if (!text.ok()) continue;
    for (size_t at = text->find(kPrefix); at != std::string::npos;
         at = text->find(kPrefix, at + 1)) {
      const size_t line = text->rfind('\n', at);
      const size_t begin = line == std::string::npos ? 0 : line + 1;
      const std::string_view head(text->data() + begin, at - begin);
      if (head.starts_with(".visible .func") || head.starts_with(".weak .func")) return true;
    }
  }
  return false;
}

}  // namespace strata::cuda::fatbin
