// Level-2 BLAS entry points (cublas_api.h): matrix-vector products, triangular products
// and solves, rank-1 and rank-2 updates for S, D, C, Z, the batched gemv family, in LP64
// and `_64` ILP64 variants. Arguments are checked in the reference BLAS order (each bad
// one is CUBLAS_STATUS_INVALID_VALUE, logged); empty problems return at once. Kernels:
// kernels/level2.cuh.
#include <cublas_api.h>

#include <algorithm>
#include <cstdint>

#include "blas/args.h"
#include "blas/kernels.h"
#include "blas/kernels/level2_args.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::MatvecArgs;
using strata_blas::TriangularArgs;
using strata_blas::UpdateArgs;

constexpr unsigned kMatvecThreads = 128;
constexpr unsigned kTriangularThreads = 64;  // the blocks of the sweep (<= 256)
constexpr unsigned kUpdateThreads = 256;
constexpr int64_t kMaxGridY = 65535;

bool valid_op(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}
bool valid_fill(cublasFillMode_t uplo) {
  return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER;
}
bool valid_diag(cublasDiagType_t diag) {
  return diag == CUBLAS_DIAG_NON_UNIT || diag == CUBLAS_DIAG_UNIT;
}

// Checks the scalars and vectors of a product and launches it; p holds the shape.
template <typename T>
cublasStatus_t run_matvec(const char* function, const char* kernel, Handle& h, MatvecArgs<T> p,
                          const T* alpha, const T* beta) {
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (beta == nullptr) return invalid(function, "beta is null");
  p.alpha = scalar_arg(h, alpha);
  p.beta = scalar_arg(h, beta);
  const bool general = p.matrix == strata_blas::kL2General;
  const int64_t rows = general && p.op == 0 ? p.m : p.n;
  dim3 grid = grid_for(rows, kMatvecThreads);
  grid.y = static_cast<unsigned>(std::min(p.batch, kMaxGridY));
  return launch(h, function, kernel, grid, dim3(kMatvecThreads), 0, p);
}

template <typename T>
MatvecArgs<T> matvec_args(int32_t matrix, int32_t storage) {
  MatvecArgs<T> p{};
  p.matrix = matrix;
  p.storage = storage;
  p.batch = 1;
  return p;
}

// gemv, gbmv (banded when kl >= 0), and the batched forms.
template <typename T>
cublasStatus_t gemv(const char* function, const char* kernel, cublasHandle_t handle,
                    cublasOperation_t trans, int64_t m, int64_t n, int64_t kl, int64_t ku,
                    bool banded, const T* alpha, const T* A, int64_t lda, int64_t stride_a,
                    const T* x, int64_t incx, int64_t stride_x, const T* beta, T* y, int64_t incy,
                    int64_t stride_y, int64_t batch, const T* const* a_array,
                    const T* const* x_array, T* const* y_array) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!valid_op(trans)) return invalid(function, "trans is {}", static_cast<int>(trans));
  if (m < 0) return invalid(function, "m is {}", m);
  if (n < 0) return invalid(function, "n is {}", n);
  if (banded) {
    if (kl < 0) return invalid(function, "kl is {}", kl);
    if (ku < 0) return invalid(function, "ku is {}", ku);
    if (lda < kl + ku + 1) return invalid(function, "lda {} < kl + ku + 1 = {}", lda, kl + ku + 1);
  } else if (lda < std::max<int64_t>(1, m)) {
    return invalid(function, "lda {} < max(1, m) = {}", lda, std::max<int64_t>(1, m));
  }
  if (incx == 0) return invalid(function, "incx is 0");
  if (incy == 0) return invalid(function, "incy is 0");
  if (batch < 0) return invalid(function, "batchCount is {}", batch);
  if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  MatvecArgs<T> p =
      matvec_args<T>(strata_blas::kL2General, banded ? strata_blas::kL2Band : strata_blas::kL2Full);
  p.op = static_cast<int32_t>(trans);
  p.m = m, p.n = n, p.kl = kl, p.ku = ku, p.lda = lda, p.batch = batch;
  p.a = A, p.x = x, p.y = y, p.incx = incx, p.incy = incy;
  p.stride_a = stride_a, p.stride_x = stride_x, p.stride_y = stride_y;
  p.a_array = a_array, p.x_array = x_array, p.y_array = y_array;
  if (a_array == nullptr && A == nullptr) return invalid(function, "A is null");
  if (x_array == nullptr && x == nullptr) return invalid(function, "x is null");
  if (y_array == nullptr && y == nullptr) return invalid(function, "y is null");
  return run_matvec(function, kernel, *h, p, alpha, beta);
}

// The mixed-precision batched gemv (HSH, HSS, TST, TSS): float alpha and beta.
template <typename TA, typename TY>
cublasStatus_t gemv_mixed(const char* function, const char* kernel, cublasHandle_t handle,
                          cublasOperation_t trans, int64_t m, int64_t n, const float* alpha,
                          const TA* A, int64_t lda, int64_t stride_a, const TA* x, int64_t incx,
                          int64_t stride_x, const float* beta, TY* y, int64_t incy,
                          int64_t stride_y, int64_t batch, const TA* const* a_array,
                          const TA* const* x_array, TY* const* y_array) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!valid_op(trans)) return invalid(function, "trans is {}", static_cast<int>(trans));
  if (m < 0) return invalid(function, "m is {}", m);
  if (n < 0) return invalid(function, "n is {}", n);
  if (lda < std::max<int64_t>(1, m)) {
    return invalid(function, "lda {} < max(1, m) = {}", lda, std::max<int64_t>(1, m));
  }
  if (incx == 0) return invalid(function, "incx is 0");
  if (incy == 0) return invalid(function, "incy is 0");
  if (batch < 0) return invalid(function, "batchCount is {}", batch);
  if (m == 0 || n == 0 || batch == 0) return CUBLAS_STATUS_SUCCESS;
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (beta == nullptr) return invalid(function, "beta is null");
  const bool arrays = a_array != nullptr || x_array != nullptr || y_array != nullptr;
  if (arrays ? (a_array == nullptr || x_array == nullptr || y_array == nullptr)
             : (A == nullptr || x == nullptr || y == nullptr)) {
    return invalid(function, "a matrix or vector (array) is null");
  }
  strata_blas::MixedGemvArgs<TA, TY> p{};
  p.op = trans == CUBLAS_OP_N ? 0 : 1;
  p.m = m, p.n = n, p.lda = lda, p.batch = batch;
  p.alpha = scalar_arg(*h, alpha);
  p.beta = scalar_arg(*h, beta);
  p.a = A, p.x = x, p.y = y, p.incx = incx, p.incy = incy;
  p.stride_a = stride_a, p.stride_x = stride_x, p.stride_y = stride_y;
  p.a_array = a_array, p.x_array = x_array, p.y_array = y_array;
  dim3 grid = grid_for(trans == CUBLAS_OP_N ? m : n, kMatvecThreads);
  grid.y = static_cast<unsigned>(std::min(batch, kMaxGridY));
  return launch(*h, function, kernel, grid, dim3(kMatvecThreads), 0, p);
}

// symv, hemv (storage kL2Full), sbmv, hbmv (kL2Band, k), spmv, hpmv (kL2Packed).
template <typename T>
cublasStatus_t symv(const char* function, const char* kernel, int32_t matrix, int32_t storage,
                    cublasHandle_t handle, cublasFillMode_t uplo, int64_t n, int64_t k,
                    const T* alpha, const T* A, int64_t lda, const T* x, int64_t incx,
                    const T* beta, T* y, int64_t incy) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!valid_fill(uplo)) return invalid(function, "uplo is {}", static_cast<int>(uplo));
  if (n < 0) return invalid(function, "n is {}", n);
  if (storage == strata_blas::kL2Band) {
    if (k < 0) return invalid(function, "k is {}", k);
    if (lda < k + 1) return invalid(function, "lda {} < k + 1 = {}", lda, k + 1);
  } else if (storage == strata_blas::kL2Full && lda < std::max<int64_t>(1, n)) {
    return invalid(function, "lda {} < max(1, n) = {}", lda, std::max<int64_t>(1, n));
  }
  if (incx == 0) return invalid(function, "incx is 0");
  if (incy == 0) return invalid(function, "incy is 0");
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (A == nullptr) return invalid(function, "A is null");
  if (x == nullptr) return invalid(function, "x is null");
  if (y == nullptr) return invalid(function, "y is null");
  MatvecArgs<T> p = matvec_args<T>(matrix, storage);
  p.upper = uplo == CUBLAS_FILL_MODE_UPPER;
  p.m = n, p.n = n, p.kl = k, p.ku = k, p.lda = lda;
  p.a = A, p.x = x, p.y = y, p.incx = incx, p.incy = incy;
  return run_matvec(function, kernel, *h, p, alpha, beta);
}

// trmv, tbmv, tpmv, trsv, tbsv, tpsv.
template <typename T>
cublasStatus_t triangular(const char* function, const char* kernel, int32_t storage, bool solve,
                          cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans,
                          cublasDiagType_t diag, int64_t n, int64_t k, const T* A, int64_t lda,
                          T* x, int64_t incx) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!valid_fill(uplo)) return invalid(function, "uplo is {}", static_cast<int>(uplo));
  if (!valid_op(trans)) return invalid(function, "trans is {}", static_cast<int>(trans));
  if (!valid_diag(diag)) return invalid(function, "diag is {}", static_cast<int>(diag));
  if (n < 0) return invalid(function, "n is {}", n);
  if (storage == strata_blas::kL2Band) {
    if (k < 0) return invalid(function, "k is {}", k);
    if (lda < k + 1) return invalid(function, "lda {} < k + 1 = {}", lda, k + 1);
  } else if (storage == strata_blas::kL2Full && lda < std::max<int64_t>(1, n)) {
    return invalid(function, "lda {} < max(1, n) = {}", lda, std::max<int64_t>(1, n));
  }
  if (incx == 0) return invalid(function, "incx is 0");
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (A == nullptr) return invalid(function, "A is null");
  if (x == nullptr) return invalid(function, "x is null");
  TriangularArgs<T> p{};
  p.storage = storage;
  p.upper = uplo == CUBLAS_FILL_MODE_UPPER;
  p.op = static_cast<int32_t>(trans);
  p.unit = diag == CUBLAS_DIAG_UNIT;
  p.solve = solve;
  p.n = n;
  p.k = storage == strata_blas::kL2Band ? k : n - 1;
  p.lda = lda;
  p.a = A, p.x = x, p.incx = incx;
  return launch(*h, function, kernel, dim3(1), dim3(kTriangularThreads), 0, p);
}

// ger, geru, gerc (m x n) and syr, her, spr, hpr, syr2, her2, spr2, hpr2 (n x n, m = n).
// Exactly one of alpha / alpha_real is set (alpha_real: her, hpr).
template <typename T, typename R>
cublasStatus_t update(const char* function, const char* kernel, int32_t kind, int32_t storage,
                      cublasHandle_t handle, cublasFillMode_t uplo, int64_t m, int64_t n,
                      const T* alpha, const R* alpha_real, const T* x, int64_t incx, const T* y,
                      int64_t incy, T* A, int64_t lda) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  const bool general = kind == strata_blas::kL2Ger || kind == strata_blas::kL2Gerc;
  const bool two = general || kind == strata_blas::kL2Syr2 || kind == strata_blas::kL2Her2;
  if (!general && !valid_fill(uplo)) return invalid(function, "uplo is {}", static_cast<int>(uplo));
  if (m < 0) return invalid(function, "m is {}", m);
  if (n < 0) return invalid(function, "n is {}", n);
  if (incx == 0) return invalid(function, "incx is 0");
  if (two && incy == 0) return invalid(function, "incy is 0");
  if (storage == strata_blas::kL2Full && lda < std::max<int64_t>(1, m)) {
    return invalid(function, "lda {} < max(1, {}) = {}", lda, general ? "m" : "n",
                   std::max<int64_t>(1, m));
  }
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (alpha == nullptr && alpha_real == nullptr) return invalid(function, "alpha is null");
  if (x == nullptr) return invalid(function, "x is null");
  if (two && y == nullptr) return invalid(function, "y is null");
  if (A == nullptr) return invalid(function, "A is null");
  UpdateArgs<T, R> p{};
  p.update = kind;
  p.storage = storage;
  p.upper = uplo == CUBLAS_FILL_MODE_UPPER;
  p.m = m, p.n = n;
  if (alpha_real != nullptr) {
    p.real_alpha = 1;
    p.alpha_real = scalar_arg(*h, alpha_real);
  } else {
    p.alpha = scalar_arg(*h, alpha);
  }
  p.x = x, p.incx = incx, p.y = y, p.incy = incy, p.a = A, p.lda = lda;
  return launch(*h, function, kernel, grid_for(m * n, kUpdateThreads), dim3(kUpdateThreads), 0, p);
}

}  // namespace
}  // namespace strata::blas

namespace l2 = strata::blas;
using strata_blas::kL2Band;
using strata_blas::kL2Full;
using strata_blas::kL2General;
using strata_blas::kL2Ger;
using strata_blas::kL2Gerc;
using strata_blas::kL2Her;
using strata_blas::kL2Her2;
using strata_blas::kL2Hermitian;
using strata_blas::kL2Packed;
using strata_blas::kL2Symmetric;
using strata_blas::kL2Syr;
using strata_blas::kL2Syr2;

#define L2_MATVEC(t) "strata_blas_l2_matvec_" t
#define L2_TRI(t) "strata_blas_l2_triangular_" t
#define L2_UPDATE(t) "strata_blas_l2_update_" t

// The body of each family's entry points; L2I is the integer type of the variant.

extern "C" {

// --- gemv, gbmv ---
#define GEMV(t, T, name)                                                                           \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasOperation_t trans, L2I m, L2I n,   \
                                   const T* alpha, const T* A, L2I lda, const T* x, L2I incx,      \
                                   const T* beta, T* y, L2I incy) {                                \
    return l2::gemv<T>(#name, L2_MATVEC(t), handle, trans, m, n, 0, 0, false, alpha, A, lda, 0, x, \
                       incx, 0, beta, y, incy, 0, 1, nullptr, nullptr, nullptr);                   \
  }
#define GBMV(t, T, name)                                                                         \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasOperation_t trans, L2I m, L2I n, \
                                   L2I kl, L2I ku, const T* alpha, const T* A, L2I lda,          \
                                   const T* x, L2I incx, const T* beta, T* y, L2I incy) {        \
    return l2::gemv<T>(#name, L2_MATVEC(t), handle, trans, m, n, kl, ku, true, alpha, A, lda, 0, \
                       x, incx, 0, beta, y, incy, 0, 1, nullptr, nullptr, nullptr);              \
  }
#define GEMV_BATCHED(t, T, name)                                                                   \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasOperation_t trans, L2I m, L2I n,   \
                                   const T* alpha, const T* const Aarray[], L2I lda,               \
                                   const T* const xarray[], L2I incx, const T* beta,               \
                                   T* const yarray[], L2I incy, L2I batchCount) {                  \
    if (batchCount > 0 && (Aarray == nullptr || xarray == nullptr || yarray == nullptr)) {         \
      return l2::invalid(#name, "a pointer array is null");                                        \
    }                                                                                              \
    return l2::gemv<T>(#name, L2_MATVEC(t), handle, trans, m, n, 0, 0, false, alpha, nullptr, lda, \
                       0, nullptr, incx, 0, beta, nullptr, incy, 0, batchCount, Aarray, xarray,    \
                       yarray);                                                                    \
  }
#define GEMV_STRIDED(t, T, name)                                                                 \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasOperation_t trans, L2I m, L2I n, \
                                   const T* alpha, const T* A, L2I lda, long long int strideA,   \
                                   const T* x, L2I incx, long long int stridex, const T* beta,   \
                                   T* y, L2I incy, long long int stridey, L2I batchCount) {      \
    return l2::gemv<T>(#name, L2_MATVEC(t), handle, trans, m, n, 0, 0, false, alpha, A, lda,     \
                       strideA, x, incx, stridex, beta, y, incy, stridey, batchCount, nullptr,   \
                       nullptr, nullptr);                                                        \
  }

// --- HSH, HSS, TST, TSS gemvBatched / gemvStridedBatched ---
#define GEMV_MIXED_BATCHED(t, TA, TY, name)                                                      \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasOperation_t trans, L2I m, L2I n, \
                                   const float* alpha, const TA* const Aarray[], L2I lda,        \
                                   const TA* const xarray[], L2I incx, const float* beta,        \
                                   TY* const yarray[], L2I incy, L2I batchCount) {               \
    return l2::gemv_mixed<TA, TY>(#name, "strata_blas_l2_gemv_" t, handle, trans, m, n, alpha,   \
                                  nullptr, lda, 0, nullptr, incx, 0, beta, nullptr, incy, 0,     \
                                  batchCount, Aarray, xarray, yarray);                           \
  }
#define GEMV_MIXED_STRIDED(t, TA, TY, name)                                                       \
  cublasStatus_t CUBLASWINAPI name(                                                               \
      cublasHandle_t handle, cublasOperation_t trans, L2I m, L2I n, const float* alpha,           \
      const TA* A, L2I lda, long long int strideA, const TA* x, L2I incx, long long int stridex,  \
      const float* beta, TY* y, L2I incy, long long int stridey, L2I batchCount) {                \
    return l2::gemv_mixed<TA, TY>(#name, "strata_blas_l2_gemv_" t, handle, trans, m, n, alpha, A, \
                                  lda, strideA, x, incx, stridex, beta, y, incy, stridey,         \
                                  batchCount, nullptr, nullptr, nullptr);                         \
  }

// --- symv, hemv, sbmv, hbmv, spmv, hpmv ---
#define SYMV_FULL(t, T, matrix, name)                                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n,            \
                                   const T* alpha, const T* A, L2I lda, const T* x, L2I incx,      \
                                   const T* beta, T* y, L2I incy) {                                \
    return l2::symv<T>(#name, L2_MATVEC(t), matrix, kL2Full, handle, uplo, n, 0, alpha, A, lda, x, \
                       incx, beta, y, incy);                                                       \
  }
#define SYMV_BAND(t, T, matrix, name)                                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n, L2I k,     \
                                   const T* alpha, const T* A, L2I lda, const T* x, L2I incx,      \
                                   const T* beta, T* y, L2I incy) {                                \
    return l2::symv<T>(#name, L2_MATVEC(t), matrix, kL2Band, handle, uplo, n, k, alpha, A, lda, x, \
                       incx, beta, y, incy);                                                       \
  }
#define SYMV_PACKED(t, T, matrix, name)                                                          \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n,          \
                                   const T* alpha, const T* AP, const T* x, L2I incx,            \
                                   const T* beta, T* y, L2I incy) {                              \
    return l2::symv<T>(#name, L2_MATVEC(t), matrix, kL2Packed, handle, uplo, n, 0, alpha, AP, 1, \
                       x, incx, beta, y, incy);                                                  \
  }

// --- trmv, tbmv, tpmv, trsv, tbsv, tpsv ---
#define TR_FULL(t, T, solve, name)                                                                 \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo,                   \
                                   cublasOperation_t trans, cublasDiagType_t diag, L2I n,          \
                                   const T* A, L2I lda, T* x, L2I incx) {                          \
    return l2::triangular<T>(#name, L2_TRI(t), kL2Full, solve, handle, uplo, trans, diag, n, 0, A, \
                             lda, x, incx);                                                        \
  }
#define TR_BAND(t, T, solve, name)                                                                 \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo,                   \
                                   cublasOperation_t trans, cublasDiagType_t diag, L2I n, L2I k,   \
                                   const T* A, L2I lda, T* x, L2I incx) {                          \
    return l2::triangular<T>(#name, L2_TRI(t), kL2Band, solve, handle, uplo, trans, diag, n, k, A, \
                             lda, x, incx);                                                        \
  }
#define TR_PACKED(t, T, solve, name)                                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo,                  \
                                   cublasOperation_t trans, cublasDiagType_t diag, L2I n,         \
                                   const T* AP, T* x, L2I incx) {                                 \
    return l2::triangular<T>(#name, L2_TRI(t), kL2Packed, solve, handle, uplo, trans, diag, n, 0, \
                             AP, 1, x, incx);                                                     \
  }

// --- ger, geru, gerc, syr, her, spr, hpr, syr2, her2, spr2, hpr2 ---
#define GER(t, T, R, kind, name)                                                                  \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, L2I m, L2I n, const T* alpha,           \
                                   const T* x, L2I incx, const T* y, L2I incy, T* A, L2I lda) {   \
    return l2::update<T, R>(#name, L2_UPDATE(t), kind, kL2Full, handle, CUBLAS_FILL_MODE_FULL, m, \
                            n, alpha, nullptr, x, incx, y, incy, A, lda);                         \
  }
#define SYR(t, T, R, A_T, kind, storage, name)                                                     \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n,            \
                                   const A_T* alpha, const T* x, L2I incx, T* A, L2I lda) {        \
    return l2::update<T, R>(#name, L2_UPDATE(t), kind, storage, handle, uplo, n, n,                \
                            kind == kL2Her ? nullptr : reinterpret_cast<const T*>(alpha),          \
                            kind == kL2Her ? reinterpret_cast<const R*>(alpha) : nullptr, x, incx, \
                            nullptr, 1, A, lda);                                                   \
  }
#define SPR(t, T, R, A_T, kind, name)                                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n,            \
                                   const A_T* alpha, const T* x, L2I incx, T* AP) {                \
    return l2::update<T, R>(#name, L2_UPDATE(t), kind, kL2Packed, handle, uplo, n, n,              \
                            kind == kL2Her ? nullptr : reinterpret_cast<const T*>(alpha),          \
                            kind == kL2Her ? reinterpret_cast<const R*>(alpha) : nullptr, x, incx, \
                            nullptr, 1, AP, 1);                                                    \
  }
#define SYR2(t, T, R, kind, name)                                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n,        \
                                   const T* alpha, const T* x, L2I incx, const T* y, L2I incy, \
                                   T* A, L2I lda) {                                            \
    return l2::update<T, R>(#name, L2_UPDATE(t), kind, kL2Full, handle, uplo, n, n, alpha,     \
                            nullptr, x, incx, y, incy, A, lda);                                \
  }
#define SPR2(t, T, R, kind, name)                                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo, L2I n,        \
                                   const T* alpha, const T* x, L2I incx, const T* y, L2I incy, \
                                   T* AP) {                                                    \
    return l2::update<T, R>(#name, L2_UPDATE(t), kind, kL2Packed, handle, uplo, n, n, alpha,   \
                            nullptr, x, incx, y, incy, AP, 1);                                 \
  }

// Every entry point: X(body macro, name, body arguments...).
#define L2_ENTRIES(X)                                                                     \
  X(GEMV_MIXED_BATCHED, cublasHSHgemvBatched, "hsh", __half, __half)                      \
  X(GEMV_MIXED_BATCHED, cublasHSSgemvBatched, "hss", __half, float)                       \
  X(GEMV_MIXED_BATCHED, cublasTSTgemvBatched, "tst", __nv_bfloat16, __nv_bfloat16)        \
  X(GEMV_MIXED_BATCHED, cublasTSSgemvBatched, "tss", __nv_bfloat16, float)                \
  X(GEMV_MIXED_STRIDED, cublasHSHgemvStridedBatched, "hsh", __half, __half)               \
  X(GEMV_MIXED_STRIDED, cublasHSSgemvStridedBatched, "hss", __half, float)                \
  X(GEMV_MIXED_STRIDED, cublasTSTgemvStridedBatched, "tst", __nv_bfloat16, __nv_bfloat16) \
  X(GEMV_MIXED_STRIDED, cublasTSSgemvStridedBatched, "tss", __nv_bfloat16, float)         \
  X(GEMV, cublasSgemv_v2, "s", float)                                                     \
  X(GBMV, cublasSgbmv_v2, "s", float)                                                     \
  X(GEMV_BATCHED, cublasSgemvBatched, "s", float)                                         \
  X(GEMV_STRIDED, cublasSgemvStridedBatched, "s", float)                                  \
  X(SYMV_FULL, cublasSsymv_v2, "s", float, kL2Symmetric)                                  \
  X(TR_FULL, cublasStrmv_v2, "s", float, false)                                           \
  X(TR_FULL, cublasStrsv_v2, "s", float, true)                                            \
  X(TR_BAND, cublasStbmv_v2, "s", float, false)                                           \
  X(TR_BAND, cublasStbsv_v2, "s", float, true)                                            \
  X(TR_PACKED, cublasStpmv_v2, "s", float, false)                                         \
  X(TR_PACKED, cublasStpsv_v2, "s", float, true)                                          \
  X(SYR, cublasSsyr_v2, "s", float, float, float, kL2Syr, kL2Full)                        \
  X(SYR2, cublasSsyr2_v2, "s", float, float, kL2Syr2)                                     \
  X(SYMV_BAND, cublasSsbmv_v2, "s", float, kL2Symmetric)                                  \
  X(SYMV_PACKED, cublasSspmv_v2, "s", float, kL2Symmetric)                                \
  X(GER, cublasSger_v2, "s", float, float, kL2Ger)                                        \
  X(SPR, cublasSspr_v2, "s", float, float, float, kL2Syr)                                 \
  X(SPR2, cublasSspr2_v2, "s", float, float, kL2Syr2)                                     \
  X(GEMV, cublasDgemv_v2, "d", double)                                                    \
  X(GBMV, cublasDgbmv_v2, "d", double)                                                    \
  X(GEMV_BATCHED, cublasDgemvBatched, "d", double)                                        \
  X(GEMV_STRIDED, cublasDgemvStridedBatched, "d", double)                                 \
  X(SYMV_FULL, cublasDsymv_v2, "d", double, kL2Symmetric)                                 \
  X(TR_FULL, cublasDtrmv_v2, "d", double, false)                                          \
  X(TR_FULL, cublasDtrsv_v2, "d", double, true)                                           \
  X(TR_BAND, cublasDtbmv_v2, "d", double, false)                                          \
  X(TR_BAND, cublasDtbsv_v2, "d", double, true)                                           \
  X(TR_PACKED, cublasDtpmv_v2, "d", double, false)                                        \
  X(TR_PACKED, cublasDtpsv_v2, "d", double, true)                                         \
  X(SYR, cublasDsyr_v2, "d", double, double, double, kL2Syr, kL2Full)                     \
  X(SYR2, cublasDsyr2_v2, "d", double, double, kL2Syr2)                                   \
  X(SYMV_BAND, cublasDsbmv_v2, "d", double, kL2Symmetric)                                 \
  X(SYMV_PACKED, cublasDspmv_v2, "d", double, kL2Symmetric)                               \
  X(GER, cublasDger_v2, "d", double, double, kL2Ger)                                      \
  X(SPR, cublasDspr_v2, "d", double, double, double, kL2Syr)                              \
  X(SPR2, cublasDspr2_v2, "d", double, double, kL2Syr2)                                   \
  X(GEMV, cublasCgemv_v2, "c", cuComplex)                                                 \
  X(GBMV, cublasCgbmv_v2, "c", cuComplex)                                                 \
  X(GEMV_BATCHED, cublasCgemvBatched, "c", cuComplex)                                     \
  X(GEMV_STRIDED, cublasCgemvStridedBatched, "c", cuComplex)                              \
  X(SYMV_FULL, cublasCsymv_v2, "c", cuComplex, kL2Symmetric)                              \
  X(TR_FULL, cublasCtrmv_v2, "c", cuComplex, false)                                       \
  X(TR_FULL, cublasCtrsv_v2, "c", cuComplex, true)                                        \
  X(TR_BAND, cublasCtbmv_v2, "c", cuComplex, false)                                       \
  X(TR_BAND, cublasCtbsv_v2, "c", cuComplex, true)                                        \
  X(TR_PACKED, cublasCtpmv_v2, "c", cuComplex, false)                                     \
  X(TR_PACKED, cublasCtpsv_v2, "c", cuComplex, true)                                      \
  X(SYR, cublasCsyr_v2, "c", cuComplex, float, cuComplex, kL2Syr, kL2Full)                \
  X(SYR2, cublasCsyr2_v2, "c", cuComplex, float, kL2Syr2)                                 \
  X(SYMV_FULL, cublasChemv_v2, "c", cuComplex, kL2Hermitian)                              \
  X(SYMV_BAND, cublasChbmv_v2, "c", cuComplex, kL2Hermitian)                              \
  X(SYMV_PACKED, cublasChpmv_v2, "c", cuComplex, kL2Hermitian)                            \
  X(GER, cublasCgeru_v2, "c", cuComplex, float, kL2Ger)                                   \
  X(GER, cublasCgerc_v2, "c", cuComplex, float, kL2Gerc)                                  \
  X(SYR, cublasCher_v2, "c", cuComplex, float, float, kL2Her, kL2Full)                    \
  X(SPR, cublasChpr_v2, "c", cuComplex, float, float, kL2Her)                             \
  X(SYR2, cublasCher2_v2, "c", cuComplex, float, kL2Her2)                                 \
  X(SPR2, cublasChpr2_v2, "c", cuComplex, float, kL2Her2)                                 \
  X(GEMV, cublasZgemv_v2, "z", cuDoubleComplex)                                           \
  X(GBMV, cublasZgbmv_v2, "z", cuDoubleComplex)                                           \
  X(GEMV_BATCHED, cublasZgemvBatched, "z", cuDoubleComplex)                               \
  X(GEMV_STRIDED, cublasZgemvStridedBatched, "z", cuDoubleComplex)                        \
  X(SYMV_FULL, cublasZsymv_v2, "z", cuDoubleComplex, kL2Symmetric)                        \
  X(TR_FULL, cublasZtrmv_v2, "z", cuDoubleComplex, false)                                 \
  X(TR_FULL, cublasZtrsv_v2, "z", cuDoubleComplex, true)                                  \
  X(TR_BAND, cublasZtbmv_v2, "z", cuDoubleComplex, false)                                 \
  X(TR_BAND, cublasZtbsv_v2, "z", cuDoubleComplex, true)                                  \
  X(TR_PACKED, cublasZtpmv_v2, "z", cuDoubleComplex, false)                               \
  X(TR_PACKED, cublasZtpsv_v2, "z", cuDoubleComplex, true)                                \
  X(SYR, cublasZsyr_v2, "z", cuDoubleComplex, double, cuDoubleComplex, kL2Syr, kL2Full)   \
  X(SYR2, cublasZsyr2_v2, "z", cuDoubleComplex, double, kL2Syr2)                          \
  X(SYMV_FULL, cublasZhemv_v2, "z", cuDoubleComplex, kL2Hermitian)                        \
  X(SYMV_BAND, cublasZhbmv_v2, "z", cuDoubleComplex, kL2Hermitian)                        \
  X(SYMV_PACKED, cublasZhpmv_v2, "z", cuDoubleComplex, kL2Hermitian)                      \
  X(GER, cublasZgeru_v2, "z", cuDoubleComplex, double, kL2Ger)                            \
  X(GER, cublasZgerc_v2, "z", cuDoubleComplex, double, kL2Gerc)                           \
  X(SYR, cublasZher_v2, "z", cuDoubleComplex, double, double, kL2Her, kL2Full)            \
  X(SPR, cublasZhpr_v2, "z", cuDoubleComplex, double, double, kL2Her)                     \
  X(SYR2, cublasZher2_v2, "z", cuDoubleComplex, double, kL2Her2)                          \
  X(SPR2, cublasZhpr2_v2, "z", cuDoubleComplex, double, kL2Her2)

// Each entry point twice: LP64 with int, `_64` with int64_t (L2I is read when the list
// expands).
#define L2_LP64(F, name, ...) F(__VA_ARGS__, name)
#define L2_ILP64(F, name, ...) F(__VA_ARGS__, name##_64)
#define L2I int
L2_ENTRIES(L2_LP64)
#undef L2I
#define L2I int64_t
L2_ENTRIES(L2_ILP64)
#undef L2I

}  // extern "C"
