// Errors of the cuBLAS entry points: each failure is one precise log line naming the
// entry point and the argument, then the cublasStatus_t cuBLAS returns.
#pragma once

#include <cublas_api.h>
#include <fmt/format.h>

#include <string_view>

#include "base/log.h"

namespace strata::blas {

// Logs "<function>: <message>" at warn level and returns `status`.
cublasStatus_t fail(cublasStatus_t status, const char* function, std::string_view message);

template <typename... Args>
cublasStatus_t fail(cublasStatus_t status, const char* function, fmt::format_string<Args...> format,
                    Args&&... args) {
  return fail(status, function, std::string_view(fmt::format(format, std::forward<Args>(args)...)));
}

// CUBLAS_STATUS_INVALID_VALUE naming the argument.
template <typename... Args>
cublasStatus_t invalid(const char* function, fmt::format_string<Args...> format, Args&&... args) {
  return fail(CUBLAS_STATUS_INVALID_VALUE, function, format, std::forward<Args>(args)...);
}

// CUBLAS_STATUS_NOT_INITIALIZED for a null or unknown handle.
cublasStatus_t bad_handle(const char* function, const void* handle);

// "CUBLAS_STATUS_SUCCESS" ... (cublasGetStatusName) and a sentence (cublasGetStatusString);
// "CUBLAS_STATUS_UNKNOWN" / "unknown status" for values cuBLAS does not define.
const char* status_name(cublasStatus_t status);
const char* status_string(cublasStatus_t status);

}  // namespace strata::blas
