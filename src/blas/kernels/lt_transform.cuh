// cublasLtMatrixTransform: C = alpha op(A) + beta op(B), elementwise, between layouts of
// any order Strata supports (COL, ROW, COL32, COL32_2R_4R4) and element types, with batches. One
// kernel per scale type (strata_blas_lt_transform_{s,d,c,z}); element types are read at run time by
// the out-of-line load / store below, so each kernel stays small for the JIT.
#pragma once

#include <library_types.h>

#include "common.cuh"
#include "lt_transform_params.h"

namespace strata_blas {

// Part `imag` (0 real, 1 imaginary) of element `index` of a matrix of cudaDataType
// `type`, as a double (exact for every type supported; real types have no imaginary
// part). Scalars in and out, not double2: a double2 result or parameter of an out-of-line
// function miscompiled under Strata's JIT in this module (see docs/blas.md).
__device__ __noinline__ double lt_transform_load(const void* p, int32_t type, int64_t index,
                                                 int32_t imag) {
  switch (type) {
    case CUDA_R_32F:
      return imag ? 0.0 : static_cast<const float*>(p)[index];
    case CUDA_R_64F:
      return imag ? 0.0 : static_cast<const double*>(p)[index];
    case CUDA_R_16F:
      return imag ? 0.0 : __half2float(static_cast<const __half*>(p)[index]);
    case CUDA_R_16BF:
      return imag ? 0.0 : __bfloat162float(static_cast<const __nv_bfloat16*>(p)[index]);
    case CUDA_R_8I:
      return imag ? 0.0 : static_cast<const int8_t*>(p)[index];
    case CUDA_R_32I:
      return imag ? 0.0 : static_cast<const int32_t*>(p)[index];
    case CUDA_C_32F:
      return static_cast<const float*>(p)[2 * index + imag];
    case CUDA_C_64F:
      return static_cast<const double*>(p)[2 * index + imag];
  }
  return 0.0;
}

// Integers round to nearest (ties to even) and saturate.
__device__ inline double lt_saturate(double v, double lo, double hi) {
  v = rint(v);
  return v < lo ? lo : (v > hi ? hi : v);
}

__device__ __noinline__ void lt_transform_store(void* p, int32_t type, int64_t index, double re,
                                                double im) {
  switch (type) {
    case CUDA_R_32F:
      static_cast<float*>(p)[index] = static_cast<float>(re);
      return;
    case CUDA_R_64F:
      static_cast<double*>(p)[index] = re;
      return;
    case CUDA_R_16F:
      static_cast<__half*>(p)[index] = __float2half_rn(static_cast<float>(re));
      return;
    case CUDA_R_16BF:
      static_cast<__nv_bfloat16*>(p)[index] = __float2bfloat16_rn(static_cast<float>(re));
      return;
    case CUDA_R_8I:
      static_cast<int8_t*>(p)[index] = static_cast<int8_t>(lt_saturate(re, -128.0, 127.0));
      return;
    case CUDA_R_32I:
      static_cast<int32_t*>(p)[index] =
          static_cast<int32_t>(lt_saturate(re, -2147483648.0, 2147483647.0));
      return;
    case CUDA_C_32F:
      static_cast<float*>(p)[2 * index] = static_cast<float>(re);
      static_cast<float*>(p)[2 * index + 1] = static_cast<float>(im);
      return;
    case CUDA_C_64F:
      static_cast<double*>(p)[2 * index] = re;
      static_cast<double*>(p)[2 * index + 1] = im;
      return;
  }
}

// Element offset of (row, col) of matrix `m` in batch `batch`.
__device__ inline int64_t lt_offset(const LtTransformMatrix& m, int64_t row, int64_t col,
                                    int64_t batch) {
  int64_t at;
  if (m.order == kLtTransformCol32) {
    at = (col / 32) * m.ld + row * 32 + col % 32;
  } else if (m.order == kLtTransformCol32_2R_4R4) {
    // 32 x 32 tiles, a column of tiles per 32 columns (cublasLt.h's offset in a tile).
    const int64_t r = row % 32;
    at = (col / 32) * m.ld + (row / 32) * 1024 + (((r % 8) / 2 * 4 + r / 8) * 2 + r % 2) * 32 +
         col % 32;
  } else if (m.order == kLtTransformRow) {
    at = row * m.ld + col;
  } else {
    at = row + col * m.ld;
  }
  return at + batch * m.batch_stride;
}

// op(X)(i, j) of the matrix as a T (N: X(i, j); T: X(j, i); C: conj(X(j, i))).
__device__ inline int64_t lt_op_offset(const LtTransformMatrix& m, int64_t i, int64_t j,
                                       int64_t batch) {
  const bool t = m.op != 0;
  return lt_offset(m, t ? j : i, t ? i : j, batch);
}
template <typename T>
__device__ inline T lt_op_element(const LtTransformMatrix& m, int64_t i, int64_t j, int64_t batch);
template <>
__device__ inline float lt_op_element<float>(const LtTransformMatrix& m, int64_t i, int64_t j,
                                             int64_t batch) {
  return static_cast<float>(lt_transform_load(m.data, m.type, lt_op_offset(m, i, j, batch), 0));
}
template <>
__device__ inline double lt_op_element<double>(const LtTransformMatrix& m, int64_t i, int64_t j,
                                               int64_t batch) {
  return lt_transform_load(m.data, m.type, lt_op_offset(m, i, j, batch), 0);
}
template <>
__device__ inline cuComplex lt_op_element<cuComplex>(const LtTransformMatrix& m, int64_t i,
                                                     int64_t j, int64_t batch) {
  const int64_t at = lt_op_offset(m, i, j, batch);
  const double re = lt_transform_load(m.data, m.type, at, 0);
  const double im = lt_transform_load(m.data, m.type, at, 1);
  return make_cuComplex(static_cast<float>(re), static_cast<float>(m.op == 2 ? -im : im));
}
template <>
__device__ inline cuDoubleComplex lt_op_element<cuDoubleComplex>(const LtTransformMatrix& m,
                                                                 int64_t i, int64_t j,
                                                                 int64_t batch) {
  const int64_t at = lt_op_offset(m, i, j, batch);
  const double re = lt_transform_load(m.data, m.type, at, 0);
  const double im = lt_transform_load(m.data, m.type, at, 1);
  return make_cuDoubleComplex(re, m.op == 2 ? -im : im);
}

__device__ inline double lt_real(float v) {
  return v;
}
__device__ inline double lt_real(double v) {
  return v;
}
__device__ inline double lt_real(cuComplex v) {
  return v.x;
}
__device__ inline double lt_real(cuDoubleComplex v) {
  return v.x;
}
__device__ inline double lt_imag(float) {
  return 0.0;
}
__device__ inline double lt_imag(double) {
  return 0.0;
}
__device__ inline double lt_imag(cuComplex v) {
  return v.y;
}
__device__ inline double lt_imag(cuDoubleComplex v) {
  return v.y;
}

// alpha == 0 (or a null A): A is not read; beta == 0 (or a null B): B is not read.
template <typename T>
__device__ void lt_transform(const LtTransformParams& p, Scalar<T> alpha_arg, Scalar<T> beta_arg) {
  const T alpha = alpha_arg.get();
  const T beta = beta_arg.get();
  const bool use_a = p.a.data != nullptr && !is_zero(alpha);
  const bool use_b = p.b.data != nullptr && !is_zero(beta);
  const int64_t per_batch = p.rows * p.cols;
  STRATA_BLAS_FOR(t, per_batch * p.batch_count) {
    const int64_t batch = t / per_batch, e = t % per_batch;
    const int64_t i = e % p.rows, j = e / p.rows;
    T v = zero<T>();
    if (use_a) v = mul(alpha, lt_op_element<T>(p.a, i, j, batch));
    if (use_b) {
      const T y = mul(beta, lt_op_element<T>(p.b, i, j, batch));
      v = use_a ? add(v, y) : y;
    }
    lt_transform_store(const_cast<void*>(p.c.data), p.c.type, lt_offset(p.c, i, j, batch),
                       lt_real(v), lt_imag(v));
  }
}

}  // namespace strata_blas

#define STRATA_BLAS_LT_TRANSFORM(suffix, T)                                                      \
  extern "C" __global__ void strata_blas_lt_transform_##suffix(strata_blas::LtTransformParams p, \
                                                               strata_blas::Scalar<T> alpha,     \
                                                               strata_blas::Scalar<T> beta) {    \
    strata_blas::lt_transform<T>(p, alpha, beta);                                                \
  }

STRATA_BLAS_LT_TRANSFORM(s, float)
STRATA_BLAS_LT_TRANSFORM(d, double)
STRATA_BLAS_LT_TRANSFORM(c, cuComplex)
STRATA_BLAS_LT_TRANSFORM(z, cuDoubleComplex)
#undef STRATA_BLAS_LT_TRANSFORM
