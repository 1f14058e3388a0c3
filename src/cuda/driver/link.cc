#include "cuda/driver/link.h"

#include <cstring>

#include "cuda/driver/module_image.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

Status LinkState::add(CUjitInputType type, const void* data, size_t size, const char* name) {
  if (data == nullptr) return error(Code::kInvalidValue, "cuLinkAddData: data is null");
  std::string label = name != nullptr && *name != '\0' ? name : fmt::format("input {}", sources_.size());
  switch (type) {
    case CU_JIT_INPUT_PTX: {
      const char* text = static_cast<const char*>(data);
      size_t length = size == 0 ? std::strlen(text) : strnlen(text, size);
      sources_.push_back({label, std::string(text, length)});
      return ok_status();
    }
    case CU_JIT_INPUT_FATBINARY: {
      ASSIGN_OR_RETURN(std::vector<compiler::PtxSource> found, ptx_sources_of_image(data, arch_));
      if (found.empty()) {
        return error(Code::kNoBinaryForGpu,
                     fmt::format("cuLinkAddData: '{}' holds no PTX; rebuild with PTX", label));
      }
      for (auto& s : found) sources_.push_back(std::move(s));
      return ok_status();
    }
    case CU_JIT_INPUT_CUBIN:
    case CU_JIT_INPUT_OBJECT:
    case CU_JIT_INPUT_LIBRARY:
      return error(Code::kNotSupported,
                   fmt::format("cuLinkAddData: '{}': Strata links PTX only (cubin, object and "
                               "library inputs hold NVIDIA machine code); rebuild with PTX",
                               label));
    default:
      return error(Code::kInvalidValue, fmt::format("cuLinkAddData: unknown input type {}",
                                                    static_cast<int>(type)));
  }
}

StatusOr<std::pair<const void*, size_t>> LinkState::complete() {
  if (sources_.empty()) return error(Code::kInvalidValue, "cuLinkComplete: nothing was added");
  ASSIGN_OR_RETURN(image_, jit_compile(sources_, arch_));
  return std::pair<const void*, size_t>(image_.data(), image_.size());
}

void LinkState::write_error_log(const Status& status) {
  write_log(log_, log_size_, status.message());
}

void write_log(char* buffer, size_t size, const std::string& text) {
  if (buffer == nullptr || size == 0) return;
  size_t n = std::min(size - 1, text.size());
  std::memcpy(buffer, text.data(), n);
  buffer[n] = '\0';
}

StatusOr<JitLogOptions> parse_jit_options(unsigned int count, const CUjit_option* options,
                                          void* const* values) {
  JitLogOptions out;
  if (count == 0) return out;
  if (options == nullptr || values == nullptr) {
    return error(Code::kInvalidValue, "JIT options: options or optionValues is null");
  }
  for (unsigned int i = 0; i < count; ++i) {
    if (options[i] < 0 || options[i] >= CU_JIT_NUM_OPTIONS) {
      return error(Code::kInvalidValue, fmt::format("JIT options: unknown option {}",
                                                    static_cast<int>(options[i])));
    }
    if (options[i] == CU_JIT_ERROR_LOG_BUFFER) {
      out.error_log = static_cast<char*>(values[i]);
    } else if (options[i] == CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES) {
      out.error_log_size = static_cast<size_t>(reinterpret_cast<uintptr_t>(values[i]));
    }
  }
  return out;
}

}  // namespace strata::cuda::driver
