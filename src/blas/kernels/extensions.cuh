// BLAS-like extensions: geam (C = alpha op(A) + beta op(B)) and dgmm (C = A diag(x) or
// diag(x) A), column-major, one thread per element of C in a grid-stride loop.
#pragma once

#include "common.cuh"

namespace strata_blas {

template <typename T>
__device__ inline T op_element(const T* a, int32_t op, int64_t i, int64_t j, int64_t ld) {
  // op: 0 N, 1 T, 2 C (cublasOperation_t)
  if (op == 0) return a[i + j * ld];
  const T v = a[j + i * ld];
  return op == 2 ? conj_(v) : v;
}

// beta == 0: B is not read; alpha == 0: A is not read (either may then be null).
template <typename T>
__device__ void geam(int32_t op_a, int32_t op_b, int64_t m, int64_t n, Scalar<T> alpha_arg,
                     const T* a, int64_t lda, Scalar<T> beta_arg, const T* b, int64_t ldb, T* c,
                     int64_t ldc) {
  const T alpha = alpha_arg.get();
  const T beta = beta_arg.get();
  const bool use_a = !is_zero(alpha), use_b = !is_zero(beta);
  STRATA_BLAS_FOR(t, m * n) {
    const int64_t i = t % m, j = t / m;
    T v = zero<T>();
    if (use_a) v = mul(alpha, op_element(a, op_a, i, j, lda));
    if (use_b) v = use_a ? fma_(beta, op_element(b, op_b, i, j, ldb), v)
                         : mul(beta, op_element(b, op_b, i, j, ldb));
    c[i + j * ldc] = v;
  }
}

// left: C = diag(x) A (x has m elements); else C = A diag(x) (n elements). incx 0: every
// diagonal element is x[0]; negative incx: the vector starts at its far end.
template <typename T>
__device__ void dgmm(bool left, int64_t m, int64_t n, const T* a, int64_t lda, const T* x,
                     int64_t incx, T* c, int64_t ldc) {
  const int64_t len = left ? m : n;
  STRATA_BLAS_FOR(t, m * n) {
    const int64_t i = t % m, j = t / m;
    const int64_t k = left ? i : j;
    const T d = x[vector_offset(k, len, incx)];
    c[i + j * ldc] = mul(a[i + j * lda], d);
  }
}

}  // namespace strata_blas

#define STRATA_BLAS_EXTENSIONS(suffix, T)                                                      \
  extern "C" __global__ void strata_blas_geam_##suffix(                                        \
      int32_t op_a, int32_t op_b, int64_t m, int64_t n, strata_blas::Scalar<T> alpha,          \
      const T* a, int64_t lda, strata_blas::Scalar<T> beta, const T* b, int64_t ldb, T* c,     \
      int64_t ldc) {                                                                           \
    strata_blas::geam(op_a, op_b, m, n, alpha, a, lda, beta, b, ldb, c, ldc);                  \
  }                                                                                            \
  extern "C" __global__ void strata_blas_dgmm_##suffix(int32_t left, int64_t m, int64_t n,     \
                                                       const T* a, int64_t lda, const T* x,    \
                                                       int64_t incx, T* c, int64_t ldc) {      \
    strata_blas::dgmm(left != 0, m, n, a, lda, x, incx, c, ldc);                               \
  }
STRATA_BLAS_EXTENSIONS(s, float)
STRATA_BLAS_EXTENSIONS(d, double)
STRATA_BLAS_EXTENSIONS(c, cuComplex)
STRATA_BLAS_EXTENSIONS(z, cuDoubleComplex)
#undef STRATA_BLAS_EXTENSIONS
