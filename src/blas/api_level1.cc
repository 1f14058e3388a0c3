// Level-1 BLAS entry points (cublas_api.h): vector operations for S, D, C, Z and the
// mixed real-complex forms, in LP64 and `_64` ILP64 variants.
#include <cublas_api.h>

#include "blas/args.h"
#include "blas/kernels.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

template <typename A, typename T>
cublasStatus_t scal(const char* function, const char* kernel, cublasHandle_t handle, int64_t n,
                    const A* alpha, T* x, int64_t incx) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  // cuBLAS returns at once for n <= 0 or incx <= 0.
  if (n <= 0 || incx <= 0) return CUBLAS_STATUS_SUCCESS;
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (x == nullptr) return invalid(function, "x is null");
  return launch(*h, function, kernel, grid_for(n), dim3(256), 0, n, scalar_arg(*h, alpha), x, incx);
}

}  // namespace
}  // namespace strata::blas

using strata::blas::scal;

extern "C" {

#define STRATA_BLAS_SCAL_ENTRY(name, kernel, A, T)                                                 \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, const A* alpha, T* x, int incx) { \
    return scal(#name, kernel, handle, n, alpha, x, incx);                                         \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, const A* alpha, T* x,    \
                                        int64_t incx) {                                            \
    return scal(#name "_64", kernel, handle, n, alpha, x, incx);                                   \
  }
STRATA_BLAS_SCAL_ENTRY(cublasSscal_v2, "strata_blas_scal_s", float, float)
STRATA_BLAS_SCAL_ENTRY(cublasDscal_v2, "strata_blas_scal_d", double, double)
STRATA_BLAS_SCAL_ENTRY(cublasCscal_v2, "strata_blas_scal_c", cuComplex, cuComplex)
STRATA_BLAS_SCAL_ENTRY(cublasZscal_v2, "strata_blas_scal_z", cuDoubleComplex, cuDoubleComplex)
STRATA_BLAS_SCAL_ENTRY(cublasCsscal_v2, "strata_blas_scal_cs", float, cuComplex)
STRATA_BLAS_SCAL_ENTRY(cublasZdscal_v2, "strata_blas_scal_zd", double, cuDoubleComplex)
#undef STRATA_BLAS_SCAL_ENTRY

}  // extern "C"
