// cuBLASLt helper functions (cublasLt.h): handles, versions, status strings.
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include "blas/handle.h"
#include "blas/status.h"

using strata::blas::invalid;

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtCreate(cublasLtHandle_t* lightHandle) {
  if (lightHandle == nullptr) return invalid("cublasLtCreate", "lightHandle is null");
  strata::blas::Handle* h = nullptr;
  const cublasStatus_t s = strata::blas::create_handle(&h, "cublasLtCreate");
  if (s == CUBLAS_STATUS_SUCCESS)
    *lightHandle = reinterpret_cast<cublasLtHandle_t>(static_cast<cublasContext*>(h));
  return s;
}

cublasStatus_t CUBLASWINAPI cublasLtDestroy(cublasLtHandle_t lightHandle) {
  strata::blas::Handle* h = strata::blas::handle_of(lightHandle);
  if (h == nullptr) return strata::blas::bad_handle("cublasLtDestroy", lightHandle);
  cudaStreamSynchronize(h->stream);
  strata::blas::destroy_handle(h);
  return CUBLAS_STATUS_SUCCESS;
}

const char* CUBLASWINAPI cublasLtGetStatusName(cublasStatus_t status) {
  return strata::blas::status_name(status);
}

const char* CUBLASWINAPI cublasLtGetStatusString(cublasStatus_t status) {
  return strata::blas::status_string(status);
}

size_t CUBLASWINAPI cublasLtGetVersion(void) {
  // cuBLASLt carries cuBLAS's version (cublas_api.h: CUBLAS_VERSION).
  return CUBLAS_VERSION;
}

size_t CUBLASWINAPI cublasLtGetCudartVersion(void) {
  return CUDART_VERSION;
}

cublasStatus_t CUBLASWINAPI cublasLtGetProperty(libraryPropertyType type, int* value) {
  if (value == nullptr) return invalid("cublasLtGetProperty", "value is null");
  switch (type) {
    case MAJOR_VERSION:
      *value = CUBLAS_VER_MAJOR;
      return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = CUBLAS_VER_MINOR;
      return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = CUBLAS_VER_PATCH;
      return CUBLAS_STATUS_SUCCESS;
  }
  return invalid("cublasLtGetProperty", "type = {} is not a libraryPropertyType",
                 static_cast<int>(type));
}

}  // extern "C"
