// Triangular solves with many right-hand sides (cublas_api.h): trsm and trsmBatched for
// S, D, C, Z, LP64 and `_64`.
#include <cublas_api.h>

#include <algorithm>

#include "blas/args.h"
#include "blas/gemm.h"
#include "blas/kernels.h"
#include "blas/kernels/trsm_args.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::TrsmArgs;

// Checks and launches. Statuses: CUBLAS_STATUS_INVALID_VALUE for an undefined side, fill
// mode, operation or diagonal type, m or n < 0, lda < max(1, order of A), ldb < max(1, m),
// batchCount < 0, a null alpha. m, n or batchCount 0: nothing to do.
template <typename T>
cublasStatus_t trsm(const char* function, const char* kernel, cublasHandle_t handle,
                    cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,
                    cublasDiagType_t diag, int64_t m, int64_t n, const T* alpha, const void* a,
                    const void* const* a_array, int64_t lda, void* b, void* const* b_array,
                    int64_t ldb, int64_t batch_count) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (side != CUBLAS_SIDE_LEFT && side != CUBLAS_SIDE_RIGHT)
    return invalid(function, "side = {}", static_cast<int>(side));
  if (uplo != CUBLAS_FILL_MODE_LOWER && uplo != CUBLAS_FILL_MODE_UPPER)
    return invalid(function, "uplo = {}", static_cast<int>(uplo));
  if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C)
    return invalid(function, "trans = {}", static_cast<int>(trans));
  if (diag != CUBLAS_DIAG_NON_UNIT && diag != CUBLAS_DIAG_UNIT)
    return invalid(function, "diag = {}", static_cast<int>(diag));
  if (m < 0 || n < 0) return invalid(function, "m = {}, n = {}: negative", m, n);
  const int64_t order = side == CUBLAS_SIDE_LEFT ? m : n;
  if (lda < std::max<int64_t>(1, order))
    return invalid(function, "lda = {} < max(1, {})", lda, order);
  if (ldb < std::max<int64_t>(1, m)) return invalid(function, "ldb = {} < max(1, {})", ldb, m);
  if (batch_count < 0) return invalid(function, "batchCount = {} < 0", batch_count);
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (m == 0 || n == 0 || batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  TrsmArgs p{};
  p.left = side == CUBLAS_SIDE_LEFT;
  p.lower = uplo == CUBLAS_FILL_MODE_LOWER;
  p.op = static_cast<int32_t>(trans);
  p.unit = diag == CUBLAS_DIAG_UNIT;
  p.m = m, p.n = n;
  p.a = a, p.a_array = a_array, p.lda = lda;
  p.b = b, p.b_array = b_array, p.ldb = ldb;
  p.batch_count = batch_count;
  // With a zero host alpha, A is not read (B becomes zero) and may be null.
  const bool reads_a = h->device_pointers() || !gemm_detail::host_is<T>(alpha, 0.0);
  if (b_array == nullptr && b == nullptr) return invalid(function, "B is null");
  if (reads_a && a_array == nullptr && a == nullptr) return invalid(function, "A is null");
  const int64_t rhs = side == CUBLAS_SIDE_LEFT ? n : m;
  dim3 grid = grid_for(rhs, 64);
  grid.y = static_cast<unsigned>(std::min<int64_t>(batch_count, 65535));
  return launch(*h, function, kernel, grid, dim3(64), 0, p, scalar_arg(*h, alpha));
}

}  // namespace
}  // namespace strata::blas

extern "C" {

#define STRATA_BLAS_TRSM_ENTRIES(L, T, suffix)                                                     \
  cublasStatus_t CUBLASWINAPI cublas##L##trsm_v2(                                                  \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                         \
      cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const T* alpha, const T* A,    \
      int lda, T* B, int ldb) {                                                                    \
    return strata::blas::trsm<T>("cublas" #L "trsm_v2", "strata_blas_trsm_" suffix, handle, side,  \
                                 uplo, trans, diag, m, n, alpha, A, nullptr, lda, B, nullptr, ldb, \
                                 1);                                                               \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##trsm_v2_64(                                               \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                         \
      cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n, const T* alpha,        \
      const T* A, int64_t lda, T* B, int64_t ldb) {                                                \
    return strata::blas::trsm<T>("cublas" #L "trsm_v2_64", "strata_blas_trsm_" suffix, handle,     \
                                 side, uplo, trans, diag, m, n, alpha, A, nullptr, lda, B,         \
                                 nullptr, ldb, 1);                                                 \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##trsmBatched(                                              \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                         \
      cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const T* alpha,                \
      const T* const A[], int lda, T* const B[], int ldb, int batchCount) {                        \
    return strata::blas::trsm<T>("cublas" #L "trsmBatched", "strata_blas_trsm_" suffix, handle,    \
                                 side, uplo, trans, diag, m, n, alpha, nullptr,                    \
                                 reinterpret_cast<const void* const*>(A), lda, nullptr,            \
                                 reinterpret_cast<void* const*>(B), ldb, batchCount);              \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##trsmBatched_64(                                           \
      cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                         \
      cublasOperation_t trans, cublasDiagType_t diag, int64_t m, int64_t n, const T* alpha,        \
      const T* const A[], int64_t lda, T* const B[], int64_t ldb, int64_t batchCount) {            \
    return strata::blas::trsm<T>("cublas" #L "trsmBatched_64", "strata_blas_trsm_" suffix, handle, \
                                 side, uplo, trans, diag, m, n, alpha, nullptr,                    \
                                 reinterpret_cast<const void* const*>(A), lda, nullptr,            \
                                 reinterpret_cast<void* const*>(B), ldb, batchCount);              \
  }
STRATA_BLAS_TRSM_ENTRIES(S, float, "s")
STRATA_BLAS_TRSM_ENTRIES(D, double, "d")
STRATA_BLAS_TRSM_ENTRIES(C, cuComplex, "c")
STRATA_BLAS_TRSM_ENTRIES(Z, cuDoubleComplex, "z")
#undef STRATA_BLAS_TRSM_ENTRIES

}  // extern "C"
