#include "blas/status.h"

namespace strata::blas {

cublasStatus_t fail(cublasStatus_t status, const char* function, std::string_view message) {
  STRATA_LOG_WARN("{}: {} ({})", function, message, status_name(status));
  return status;
}

cublasStatus_t bad_handle(const char* function, const void* handle) {
  return fail(CUBLAS_STATUS_NOT_INITIALIZED, function,
              handle == nullptr ? std::string("the handle is null")
                                : fmt::format("{} is not a live cuBLAS handle", handle));
}

namespace {

struct StatusText {
  cublasStatus_t status;
  const char* name;
  const char* text;
};

// The enumerators of cublas_api.h's cublasStatus_t.
constexpr StatusText kStatuses[] = {
    {CUBLAS_STATUS_SUCCESS, "CUBLAS_STATUS_SUCCESS", "success"},
    {CUBLAS_STATUS_NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED",
     "the handle was not created by cublasCreate, or the library could not initialise"},
    {CUBLAS_STATUS_ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED", "a resource allocation failed"},
    {CUBLAS_STATUS_INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE",
     "an unsupported value or parameter was passed"},
    {CUBLAS_STATUS_ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH",
     "the device lacks a feature the function needs"},
    {CUBLAS_STATUS_MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR", "access to GPU memory failed"},
    {CUBLAS_STATUS_EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED",
     "the GPU program failed to execute"},
    {CUBLAS_STATUS_INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR", "an internal operation failed"},
    {CUBLAS_STATUS_NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED",
     "the functionality requested is not supported"},
    {CUBLAS_STATUS_LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR",
     "the functionality requested requires a license"},
};

const StatusText* find(cublasStatus_t status) {
  for (const StatusText& s : kStatuses)
    if (s.status == status) return &s;
  return nullptr;
}

}  // namespace

const char* status_name(cublasStatus_t status) {
  const StatusText* s = find(status);
  return s != nullptr ? s->name : "CUBLAS_STATUS_UNKNOWN";
}

const char* status_string(cublasStatus_t status) {
  const StatusText* s = find(status);
  return s != nullptr ? s->text : "unknown status";
}

}  // namespace strata::blas
