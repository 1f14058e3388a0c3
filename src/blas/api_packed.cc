// Packed <-> full triangular conversion (cublas_api.h): cublas{S,D,C,Z}tpttr and
// cublas{S,D,C,Z}trttp (kernels/packed.cuh). cuBLAS has no _64 forms of these.
#include <cublas_api.h>

#include <algorithm>

#include "blas/args.h"
#include "blas/kernels.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

// to_full: tpttr (src = AP, dst = A); else trttp (src = A, dst = AP). uplo must be UPPER
// or LOWER, n >= 0 and lda >= max(1, n) (CUBLAS_STATUS_INVALID_VALUE otherwise); n == 0
// returns at once.
template <typename T>
cublasStatus_t packed(const char* function, const char* kernel, bool to_full, cublasHandle_t handle,
                      cublasFillMode_t uplo, int n, const T* src, T* dst, int lda) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (uplo != CUBLAS_FILL_MODE_UPPER && uplo != CUBLAS_FILL_MODE_LOWER)
    return invalid(function, "uplo = {}", static_cast<int>(uplo));
  if (n < 0) return invalid(function, "n = {}: negative", n);
  if (lda < std::max(1, n)) return invalid(function, "lda = {} < max(1, {})", lda, n);
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (src == nullptr || dst == nullptr) return invalid(function, "A or AP is null");
  const int64_t nn = n;
  return launch(*h, function, kernel, grid_for(nn * (nn + 1) / 2), dim3(256), 0,
                static_cast<int32_t>(to_full), static_cast<int32_t>(uplo == CUBLAS_FILL_MODE_LOWER),
                nn, src, dst, static_cast<int64_t>(lda));
}

}  // namespace
}  // namespace strata::blas

extern "C" {

#define STRATA_BLAS_PACKED_ENTRIES(L, T, suffix)                                             \
  cublasStatus_t CUBLASWINAPI cublas##L##tpttr(cublasHandle_t handle, cublasFillMode_t uplo, \
                                               int n, const T* AP, T* A, int lda) {          \
    return strata::blas::packed<T>("cublas" #L "tpttr", "strata_blas_packed_" suffix, true,  \
                                   handle, uplo, n, AP, A, lda);                             \
  }                                                                                          \
  cublasStatus_t CUBLASWINAPI cublas##L##trttp(cublasHandle_t handle, cublasFillMode_t uplo, \
                                               int n, const T* A, int lda, T* AP) {          \
    return strata::blas::packed<T>("cublas" #L "trttp", "strata_blas_packed_" suffix, false, \
                                   handle, uplo, n, A, AP, lda);                             \
  }
STRATA_BLAS_PACKED_ENTRIES(S, float, "s")
STRATA_BLAS_PACKED_ENTRIES(D, double, "d")
STRATA_BLAS_PACKED_ENTRIES(C, cuComplex, "c")
STRATA_BLAS_PACKED_ENTRIES(Z, cuDoubleComplex, "z")
#undef STRATA_BLAS_PACKED_ENTRIES

}  // extern "C"
