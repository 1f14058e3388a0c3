// Triangular solves with many right-hand sides (trsm, trsmBatched): op(A) X = alpha B
// (left) or X op(A) = alpha B (right), X overwriting B. Each thread solves one right-hand
// side (a column of B on the left, a row on the right) by substitution in a fixed order,
// so results are deterministic; blockIdx.y walks the batch.
#pragma once

#include "common.cuh"
#include "trsm_args.h"

namespace strata_blas {


// Element (i, k) of op(A).
template <typename T>
__device__ inline T trsm_op(const T* a, int32_t op, int64_t i, int64_t k, int64_t lda) {
  if (op == 0) return a[i + k * lda];
  const T v = a[k + i * lda];
  return op == 2 ? conj_(v) : v;
}

__device__ inline float trsm_div(float a, float b) { return a / b; }
__device__ inline double trsm_div(double a, double b) { return a / b; }
__device__ inline cuComplex trsm_div(cuComplex a, cuComplex b) { return cuCdivf(a, b); }
__device__ inline cuDoubleComplex trsm_div(cuDoubleComplex a, cuDoubleComplex b) { return cuCdiv(a, b); }
__device__ inline float trsm_sub(float a, float b) { return a - b; }
__device__ inline double trsm_sub(double a, double b) { return a - b; }
__device__ inline cuComplex trsm_sub(cuComplex a, cuComplex b) { return cuCsubf(a, b); }
__device__ inline cuDoubleComplex trsm_sub(cuDoubleComplex a, cuDoubleComplex b) { return cuCsub(a, b); }

template <typename T>
__device__ void trsm(const TrsmArgs& p, Scalar<T> alpha_arg) {
  const T alpha = alpha_arg.get();
  const bool alpha_zero = is_zero(alpha);
  // op(A) is lower triangular when the stored triangle is lower and not transposed, or
  // upper and transposed.
  const bool op_lower = (p.lower != 0) == (p.op == 0);
  const int64_t dim = p.left ? p.m : p.n;      // order of A
  const int64_t count = p.left ? p.n : p.m;    // right-hand sides
  for (int64_t batch = blockIdx.y; batch < p.batch_count; batch += gridDim.y) {
    const T* a = p.a_array != nullptr ? static_cast<const T*>(p.a_array[batch]) : static_cast<const T*>(p.a);
    T* b = p.b_array != nullptr ? static_cast<T*>(p.b_array[batch]) : static_cast<T*>(p.b);
    STRATA_BLAS_FOR(r, count) {
      // Element e of this right-hand side.
      auto at = [&](int64_t e) -> T& { return p.left ? b[e + r * p.ldb] : b[r + e * p.ldb]; };
      if (alpha_zero) {
        for (int64_t e = 0; e < dim; ++e) at(e) = zero<T>();
        continue;
      }
      for (int64_t e = 0; e < dim; ++e) at(e) = mul(alpha, at(e));
      // Left: op(A) x = b, forward when op(A) is lower. Right: x op(A) = b, i.e.
      // sum_k x_k op(A)(k, j) = b_j, forward when op(A) is upper.
      const bool forward = p.left ? op_lower : !op_lower;
      for (int64_t s = 0; s < dim; ++s) {
        const int64_t e = forward ? s : dim - 1 - s;
        T v = at(e);
        for (int64_t t = 0; t < s; ++t) {
          const int64_t k = forward ? t : dim - 1 - t;
          const T coef = p.left ? trsm_op(a, p.op, e, k, p.lda) : trsm_op(a, p.op, k, e, p.lda);
          v = trsm_sub(v, mul(coef, at(k)));
        }
        if (!p.unit) v = trsm_div(v, trsm_op(a, p.op, e, e, p.lda));
        at(e) = v;
      }
    }
  }
}

}  // namespace strata_blas

#define STRATA_BLAS_TRSM(suffix, T)                                                            \
  extern "C" __global__ void strata_blas_trsm_##suffix(strata_blas::TrsmArgs p,                \
                                                       strata_blas::Scalar<T> alpha) {         \
    strata_blas::trsm<T>(p, alpha);                                                            \
  }
STRATA_BLAS_TRSM(s, float)
STRATA_BLAS_TRSM(d, double)
STRATA_BLAS_TRSM(c, cuComplex)
STRATA_BLAS_TRSM(z, cuDoubleComplex)
#undef STRATA_BLAS_TRSM
