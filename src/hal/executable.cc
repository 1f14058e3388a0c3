#include "hal/executable.h"

#include <fmt/format.h>

namespace strata::hal {

StatusOr<int> Executable::find_kernel(std::string_view name) const {
  for (size_t i = 0; i < kernels_.size(); ++i) {
    if (kernels_[i].name == name) return static_cast<int>(i);
  }
  return error(Code::kNotFound, fmt::format("no kernel '{}' in module '{}'", name, name_));
}

Status Executable::validate(const ExecutableSpec& spec) {
  const uint64_t size = spec.code.size();
  if (size == 0 || size % 16 != 0) {
    return error(Code::kInvalidImage,
                 fmt::format("module '{}': code size {} is not a non-zero multiple of 16", spec.name, size));
  }
  for (const KernelInfo& k : spec.kernels) {
    if (k.name.empty()) return error(Code::kInvalidImage, fmt::format("module '{}': unnamed kernel", spec.name));
    if (k.code_offset % 16 != 0 || k.code_size == 0 || k.code_size % 16 != 0 ||
        k.code_offset > size || k.code_size > size - k.code_offset) {
      return error(Code::kInvalidImage,
                   fmt::format("module '{}': kernel '{}' code [{}, +{}) is misaligned or outside the "
                               "{} bytes of code", spec.name, k.name, k.code_offset, k.code_size, size));
    }
    if (k.regs_per_thread == 0 || k.regs_per_thread > 255) {
      return error(Code::kInvalidImage, fmt::format("module '{}': kernel '{}' uses {} registers "
                                                    "(1..255)", spec.name, k.name, k.regs_per_thread));
    }
    if (k.num_barriers == 0 || k.num_barriers > 16) {
      return error(Code::kInvalidImage, fmt::format("module '{}': kernel '{}' uses {} barriers "
                                                    "(1..16)", spec.name, k.name, k.num_barriers));
    }
  }
  return ok_status();
}

}  // namespace strata::hal
