// LinkState: a CUlinkState collecting PTX (directly or from fatbins) that
// cuLinkComplete compiles and links together into one Strata binary (the "cubin"
// cuLinkComplete returns, which cuModuleLoadData accepts). Not thread-safe (as CUDA:
// one thread uses a link state at a time).
#pragma once

#include <cuda.h>

#include <string>
#include <vector>

#include "base/status.h"
#include "compiler/compiler.h"
#include "hw/config/arch_config.h"

namespace strata::cuda::driver {

class LinkState {
 public:
  explicit LinkState(hw::ArchConfig arch) : arch_(std::move(arch)) {}
  CUlinkState handle() { return reinterpret_cast<CUlinkState>(this); }

  // kNotSupported for cubin/object/library inputs (NVIDIA machine code or host objects).
  Status add(CUjitInputType type, const void* data, size_t size, const char* name);
  // Compiles all inputs; the image stays owned by this state.
  StatusOr<std::pair<const void*, size_t>> complete();

  // CU_JIT_ERROR_LOG_BUFFER from cuLinkCreate, filled with the first error.
  void set_error_log(char* buffer, size_t size) { log_ = buffer; log_size_ = size; }
  void write_error_log(const Status& status);

 private:
  hw::ArchConfig arch_;
  std::vector<compiler::PtxSource> sources_;
  std::vector<uint8_t> image_;
  char* log_ = nullptr;
  size_t log_size_ = 0;
};

// Fills CU_JIT_ERROR_LOG_BUFFER / CU_JIT_INFO_LOG_BUFFER style options: finds the log
// buffer and size among `options` (kInvalidValue for malformed option arrays).
struct JitLogOptions {
  char* error_log = nullptr;
  size_t error_log_size = 0;
};
StatusOr<JitLogOptions> parse_jit_options(unsigned int count, const CUjit_option* options,
                                          void* const* values);
void write_log(char* buffer, size_t size, const std::string& text);

}  // namespace strata::cuda::driver
