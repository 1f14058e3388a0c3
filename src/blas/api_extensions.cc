// BLAS-like extensions (cublas_api.h): geam and dgmm for S, D, C, Z, LP64 and `_64`.
#include <cublas_api.h>

#include <algorithm>

#include "blas/args.h"
#include "blas/kernels.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

bool op_valid(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// C = alpha op(A) + beta op(B). In place, C may be A (with transa N and lda == ldc) or B
// (transb N, ldb == ldc); any other overlap of C with an input is CUBLAS_STATUS_INVALID_VALUE.
// With host scalars, a zero alpha (beta) means A (B) is not read and may be null.
template <typename T>
cublasStatus_t geam(const char* function, const char* kernel, cublasHandle_t handle,
                    cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
                    const T* alpha, const T* a, int64_t lda, const T* beta, const T* b, int64_t ldb,
                    T* c, int64_t ldc) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!op_valid(transa)) return invalid(function, "transa = {}", static_cast<int>(transa));
  if (!op_valid(transb)) return invalid(function, "transb = {}", static_cast<int>(transb));
  if (m < 0 || n < 0) return invalid(function, "m = {}, n = {}: negative", m, n);
  const int64_t a_rows = transa == CUBLAS_OP_N ? m : n;
  const int64_t b_rows = transb == CUBLAS_OP_N ? m : n;
  if (lda < std::max<int64_t>(1, a_rows))
    return invalid(function, "lda = {} < max(1, {})", lda, a_rows);
  if (ldb < std::max<int64_t>(1, b_rows))
    return invalid(function, "ldb = {} < max(1, {})", ldb, b_rows);
  if (ldc < std::max<int64_t>(1, m)) return invalid(function, "ldc = {} < max(1, {})", ldc, m);
  if (alpha == nullptr || beta == nullptr) return invalid(function, "alpha or beta is null");
  if (c == a && c != nullptr && (transa != CUBLAS_OP_N || lda != ldc))
    return invalid(function, "in place on A needs transa N and lda == ldc");
  if (c == b && c != nullptr && (transb != CUBLAS_OP_N || ldb != ldc))
    return invalid(function, "in place on B needs transb N and ldb == ldc");
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (c == nullptr) return invalid(function, "C is null");
  return launch(*h, function, kernel, grid_for(m * n), dim3(256), 0, static_cast<int32_t>(transa),
                static_cast<int32_t>(transb), m, n, scalar_arg(*h, alpha), a, lda,
                scalar_arg(*h, beta), b, ldb, c, ldc);
}

// C = diag(x) A (CUBLAS_SIDE_LEFT) or A diag(x) (CUBLAS_SIDE_RIGHT); in place when C is A
// with ldc == lda.
template <typename T>
cublasStatus_t dgmm(const char* function, const char* kernel, cublasHandle_t handle,
                    cublasSideMode_t mode, int64_t m, int64_t n, const T* a, int64_t lda,
                    const T* x, int64_t incx, T* c, int64_t ldc) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (mode != CUBLAS_SIDE_LEFT && mode != CUBLAS_SIDE_RIGHT)
    return invalid(function, "mode = {}", static_cast<int>(mode));
  if (m < 0 || n < 0) return invalid(function, "m = {}, n = {}: negative", m, n);
  if (lda < std::max<int64_t>(1, m)) return invalid(function, "lda = {} < max(1, {})", lda, m);
  if (ldc < std::max<int64_t>(1, m)) return invalid(function, "ldc = {} < max(1, {})", ldc, m);
  if (c == a && c != nullptr && lda != ldc)
    return invalid(function, "in place needs lda == ldc (lda = {}, ldc = {})", lda, ldc);
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (a == nullptr || x == nullptr || c == nullptr) return invalid(function, "a null pointer");
  return launch(*h, function, kernel, grid_for(m * n), dim3(256), 0,
                static_cast<int32_t>(mode == CUBLAS_SIDE_LEFT), m, n, a, lda, x, incx, c, ldc);
}

}  // namespace
}  // namespace strata::blas

extern "C" {

#define STRATA_BLAS_EXTENSION_ENTRIES(L, T, suffix)                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##geam(                                                     \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,     \
      const T* alpha, const T* A, int lda, const T* beta, const T* B, int ldb, T* C, int ldc) {    \
    return strata::blas::geam("cublas" #L "geam", "strata_blas_geam_" suffix, handle, transa,      \
                              transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);                  \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##geam_64(                                                  \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,        \
      int64_t n, const T* alpha, const T* A, int64_t lda, const T* beta, const T* B, int64_t ldb,  \
      T* C, int64_t ldc) {                                                                         \
    return strata::blas::geam("cublas" #L "geam_64", "strata_blas_geam_" suffix, handle, transa,   \
                              transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc);                  \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##dgmm(cublasHandle_t handle, cublasSideMode_t mode, int m, \
                                              int n, const T* A, int lda, const T* x, int incx,    \
                                              T* C, int ldc) {                                     \
    return strata::blas::dgmm("cublas" #L "dgmm", "strata_blas_dgmm_" suffix, handle, mode, m, n,  \
                              A, lda, x, incx, C, ldc);                                            \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##dgmm_64(cublasHandle_t handle, cublasSideMode_t mode,     \
                                                 int64_t m, int64_t n, const T* A, int64_t lda,    \
                                                 const T* x, int64_t incx, T* C, int64_t ldc) {    \
    return strata::blas::dgmm("cublas" #L "dgmm_64", "strata_blas_dgmm_" suffix, handle, mode, m,  \
                              n, A, lda, x, incx, C, ldc);                                         \
  }
STRATA_BLAS_EXTENSION_ENTRIES(S, float, "s")
STRATA_BLAS_EXTENSION_ENTRIES(D, double, "d")
STRATA_BLAS_EXTENSION_ENTRIES(C, cuComplex, "c")
STRATA_BLAS_EXTENSION_ENTRIES(Z, cuDoubleComplex, "z")
#undef STRATA_BLAS_EXTENSION_ENTRIES

}  // extern "C"
