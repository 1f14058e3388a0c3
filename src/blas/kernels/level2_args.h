// The kernel arguments of the Level-2 BLAS kernels (level2.cuh), shared by the host entry
// points (api_level2.cc) and the kernels so both agree on the layout. Each kernel takes one
// of these structs by value.
#pragma once

#include <cstdint>

#include "scalar.h"

namespace strata_blas {

// How a matrix is stored (cuBLAS documentation, "Level-2 Function Reference").
enum L2Storage : int32_t {
  kL2Full = 0,    // column-major with leading dimension lda
  kL2Packed = 1,  // the stored triangle packed column by column (AP)
  kL2Band = 2,    // banded: general (kl, ku) or triangular / symmetric (k)
};

// The matrix of a matrix-vector product y = alpha op(M) x + beta y.
enum L2Matrix : int32_t {
  kL2General = 0,    // gemv, gbmv
  kL2Symmetric = 1,  // symv, sbmv, spmv
  kL2Hermitian = 2,  // hemv, hbmv, hpmv
};

// gemv, gbmv, symv, hemv, sbmv, hbmv, spmv, hpmv, gemvBatched, gemvStridedBatched.
// The batch is blockIdx.y (grid-strided); when a_array is not null, the matrices and
// vectors of batch b are a_array[b], x_array[b], y_array[b], else a + b * stride_a, ...
template <typename T>
struct MatvecArgs {
  int32_t matrix;   // L2Matrix
  int32_t storage;  // L2Storage
  int32_t op;       // 0 N, 1 T, 2 C (cublasOperation_t); general matrices only
  int32_t upper;    // symmetric / hermitian: the upper triangle is stored
  int64_t m, n;     // A is m x n (symmetric / hermitian: n x n)
  int64_t kl, ku;   // general band: sub- and super-diagonals; symmetric band: k in both
  int64_t lda;
  int64_t batch;
  Scalar<T> alpha, beta;
  const T* a;
  int64_t stride_a;
  const T* x;
  int64_t incx, stride_x;
  T* y;
  int64_t incy, stride_y;
  const T* const* a_array;
  const T* const* x_array;
  T* const* y_array;
};

// The mixed-precision batched gemv (cublasHSHgemvBatched, HSS, TST, TSS and their strided
// forms): A and x of TA (__half, __nv_bfloat16), y of TY (TA or float), alpha, beta and
// the sums in float. Batches as in MatvecArgs.
template <typename TA, typename TY>
struct MixedGemvArgs {
  int32_t op;  // 0 N, otherwise T (C is T for real types)
  int64_t m, n, lda, batch;
  Scalar<float> alpha, beta;
  const TA* a;
  int64_t stride_a;
  const TA* x;
  int64_t incx, stride_x;
  TY* y;
  int64_t incy, stride_y;
  const TA* const* a_array;
  const TA* const* x_array;
  TY* const* y_array;
};

// trmv, tbmv, tpmv (solve = 0) and trsv, tbsv, tpsv (solve = 1): x = op(A) x or
// x = op(A)^-1 x, by one block sweeping the diagonal blocks.
template <typename T>
struct TriangularArgs {
  int32_t storage;  // L2Storage
  int32_t upper;
  int32_t op;  // 0 N, 1 T, 2 C
  int32_t unit;
  int32_t solve;
  int64_t n, k;  // k: band super- or sub-diagonals (n - 1 unless banded)
  int64_t lda;
  const T* a;
  T* x;
  int64_t incx;
};

// The rank-1 and rank-2 updates.
enum L2Update : int32_t {
  kL2Ger = 0,   // A += alpha x y^T (ger, geru)
  kL2Gerc = 1,  // A += alpha x y^H
  kL2Syr = 2,   // A += alpha x x^T, stored triangle
  kL2Her = 3,   // A += alpha x x^H, real alpha
  kL2Syr2 = 4,  // A += alpha (x y^T + y x^T)
  kL2Her2 = 5,  // A += alpha x y^H + conj(alpha) y x^H
};

// ger, geru, gerc, syr, her, spr, hpr, syr2, her2, spr2, hpr2. R is T's real type (the
// alpha of her / hpr).
template <typename T, typename R>
struct UpdateArgs {
  int32_t update;   // L2Update
  int32_t storage;  // kL2Full or kL2Packed
  int32_t upper;
  int32_t real_alpha;  // alpha_real is the scalar (her, hpr)
  int64_t m, n;
  Scalar<T> alpha;
  Scalar<R> alpha_real;
  const T* x;
  int64_t incx;
  const T* y;
  int64_t incy;
  T* a;
  int64_t lda;
};

}  // namespace strata_blas
