// Executable: Strata machine code loaded into one Context's device memory, and the
// descriptors of the kernels in it. Parsing sxbin files and resolving module symbols is
// the driver's job; the HAL only uploads bytes and describes kernels.
//
// Each kernel gets a device-unique kernel id (never 0), written into its launch packets
// and echoed in fault records, so a fault names its executable and kernel.
// The code stays resident until the last reference drops; the backend keeps an
// executable alive while submitted work uses it. Immutable; thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/status.h"

namespace strata::hal {

struct KernelInfo {
  std::string name;
  uint64_t code_offset = 0;            // bytes from the start of the code, 16-aligned
  uint64_t code_size = 0;              // bytes, a non-zero multiple of 16
  uint32_t regs_per_thread = 0;        // 1..255
  uint32_t static_shared_bytes = 0;
  uint32_t local_bytes_per_thread = 0;
  uint32_t num_barriers = 1;           // named CTA barriers used, 1..16
};

struct ExecutableSpec {
  std::string name;                    // for diagnostics (module name)
  std::span<const uint8_t> code;       // whole number of 16-byte instruction words
  std::vector<KernelInfo> kernels;     // each within `code`
};

class Executable {
 public:
  virtual ~Executable() = default;
  Executable(const Executable&) = delete;
  Executable& operator=(const Executable&) = delete;

  const std::string& name() const { return name_; }
  uint64_t code_va() const { return code_va_; }
  uint64_t code_size() const { return code_size_; }
  const std::vector<KernelInfo>& kernels() const { return kernels_; }
  int kernel_count() const { return static_cast<int>(kernels_.size()); }
  // Index of the kernel named `name`; kNotFound otherwise.
  StatusOr<int> find_kernel(std::string_view name) const;
  // Device-unique id of kernel `index` (0 <= index < kernel_count()).
  uint32_t kernel_id(int index) const { return first_kernel_id_ + static_cast<uint32_t>(index); }

  // Checks `spec` (code size, kernel ranges, register/barrier counts). Used by
  // Context::load_executable before the backend sees the spec.
  static Status validate(const ExecutableSpec& spec);

 protected:
  Executable(std::string name, uint64_t code_va, uint64_t code_size,
             std::vector<KernelInfo> kernels, uint32_t first_kernel_id)
      : name_(std::move(name)), code_va_(code_va), code_size_(code_size),
        kernels_(std::move(kernels)), first_kernel_id_(first_kernel_id) {}

 private:
  std::string name_;
  uint64_t code_va_;
  uint64_t code_size_;
  std::vector<KernelInfo> kernels_;
  uint32_t first_kernel_id_;
};

}  // namespace strata::hal
