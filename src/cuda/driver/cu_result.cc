#include "cuda/driver/cu_result.h"

#include "base/log.h"
#include "cuda/driver/error_strings.h"
#include "cuda/driver/logs.h"

namespace strata::cuda::driver {

CUresult to_cu_result(Code code) {
  if (code == Code::kInvalidConfiguration) return CUDA_ERROR_INVALID_VALUE;
  auto result = static_cast<CUresult>(static_cast<int>(code));
  return error_name(result) != nullptr ? result : CUDA_ERROR_UNKNOWN;
}

CUresult to_cu_result(const char* api, const Status& status) {
  if (status.ok()) return CUDA_SUCCESS;
  CUresult result = to_cu_result(status.code());
  if (status.code() != Code::kNotReady) {
    STRATA_LOG_INFO("{}: {} ({})", api, status.message(), error_name(result));
    // The same line in the error log cuLogs* reads (logs.h).
    append_error_log(fmt::format("{}: {} ({})", api, status.message(), error_name(result)));
  }
  return result;
}

Code to_code(CUresult result) {
  return error_name(result) != nullptr ? static_cast<Code>(static_cast<int>(result))
                                       : Code::kUnknown;
}

}  // namespace strata::cuda::driver
