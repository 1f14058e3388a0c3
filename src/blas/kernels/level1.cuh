// Level-1 BLAS kernels (vector operations). Element types by letter: h __half, b
// __nv_bfloat16, s float, d double, c cuComplex, z cuDoubleComplex; FP16 and BF16 compute
// in float. Vectors with a negative increment start at their far end (vector_offset). The
// reductions are in level1_reduce.cuh, rotg / rotmg in level1_givens.cuh.
#pragma once

#include "level1_givens.cuh"
#include "level1_reduce.cuh"
#include "level1_types.cuh"

namespace strata_blas {

// --- element-wise kernels ---
// y = alpha * x + y (nothing when alpha is 0, as the reference BLAS).
template <typename C, typename X>
__device__ void axpy(int64_t n, Scalar<C> alpha_arg, const X* x, int64_t incx, X* y,
                     int64_t incy) {
  const C alpha = alpha_arg.get();
  if (is_zero(alpha)) return;
  STRATA_BLAS_FOR(i, n) {
    X& yi = y[vector_offset(i, n, incy)];
    yi = cvt<X>(fma_(alpha, cvt<C>(x[vector_offset(i, n, incx)]), cvt<C>(yi)));
  }
}

// x = alpha * x over n elements, incx > 0 (the host returns early otherwise).
template <typename A, typename C, typename X>
__device__ void scal(int64_t n, Scalar<A> alpha_arg, X* x, int64_t incx) {
  const A alpha = alpha_arg.get();
  STRATA_BLAS_FOR(i, n) { x[i * incx] = cvt<X>(mul(alpha, cvt<C>(x[i * incx]))); }
}

// copy and swap move elements by size.
template <typename E>
__device__ void copy(int64_t n, const E* x, int64_t incx, E* y, int64_t incy) {
  STRATA_BLAS_FOR(i, n) { y[vector_offset(i, n, incy)] = x[vector_offset(i, n, incx)]; }
}

template <typename E>
__device__ void swap(int64_t n, E* x, int64_t incx, E* y, int64_t incy) {
  STRATA_BLAS_FOR(i, n) {
    E& a = x[vector_offset(i, n, incx)];
    E& b = y[vector_offset(i, n, incy)];
    const E t = a;
    a = b;
    b = t;
  }
}

// rot: x' = c x + s y, y' = c y - conj(s) x, c real, s real or complex (computed in C and
// S; c and s are stored as CS and SS: FP16 / BF16 for cublasRotEx's 16-bit forms).
template <typename C, typename S, typename X, typename CS = typename RealOf<C>::type,
          typename SS = S>
__device__ void rot(int64_t n, X* x, int64_t incx, X* y, int64_t incy, Scalar<CS> c_arg,
                    Scalar<SS> s_arg) {
  const auto c = cvt<typename RealOf<C>::type>(c_arg.get());
  const S s = cvt<S>(s_arg.get());
  STRATA_BLAS_FOR(i, n) {
    X& xi = x[vector_offset(i, n, incx)];
    X& yi = y[vector_offset(i, n, incy)];
    const C a = cvt<C>(xi), b = cvt<C>(yi);
    const C new_x = add(mul(c, a), mul(s, b));
    const C new_y = add(mul(c, b), neg(mul(conj_(s), a)));
    xi = cvt<X>(new_x);
    yi = cvt<X>(new_y);
  }
}

// rotm's param: {flag, h11, h21, h12, h22}.
template <typename R>
struct RotmParam {
  R v[5];
};

// rotm computed in R with param stored as P (FP16 / BF16 for cublasRotmEx's 16-bit forms).
template <typename R, typename X, typename P = R>
__device__ void rotm(int64_t n, X* x, int64_t incx, X* y, int64_t incy, Scalar<RotmParam<P>> p) {
  const RotmParam<P> stored = p.get();
  RotmParam<R> param;
  for (int k = 0; k < 5; ++k) param.v[k] = cvt<R>(stored.v[k]);
  const R flag = param.v[0];
  R h11, h21, h12, h22;
  if (flag == R(-2)) return;
  if (flag < R(0)) {
    h11 = param.v[1], h21 = param.v[2], h12 = param.v[3], h22 = param.v[4];
  } else if (flag == R(0)) {
    h11 = R(1), h21 = param.v[2], h12 = param.v[3], h22 = R(1);
  } else {
    h11 = param.v[1], h21 = R(-1), h12 = R(1), h22 = param.v[4];
  }
  STRATA_BLAS_FOR(i, n) {
    X& xi = x[vector_offset(i, n, incx)];
    X& yi = y[vector_offset(i, n, incy)];
    const R a = cvt<R>(xi), b = cvt<R>(yi);
    xi = cvt<X>(h11 * a + h12 * b);
    yi = cvt<X>(h21 * a + h22 * b);
  }
}

}  // namespace strata_blas

// Element-wise kernels.
#define STRATA_BLAS_AXPY(t, C, X)                                                            \
  extern "C" __global__ void strata_blas_axpy_##t(int64_t n, strata_blas::Scalar<C> alpha,    \
                                                  const X* x, int64_t incx, X* y,             \
                                                  int64_t incy) {                             \
    strata_blas::axpy<C, X>(n, alpha, x, incx, y, incy);                                      \
  }
STRATA_BLAS_AXPY(h, float, __half)
STRATA_BLAS_AXPY(b, float, __nv_bfloat16)
STRATA_BLAS_AXPY(s, float, float)
STRATA_BLAS_AXPY(d, double, double)
STRATA_BLAS_AXPY(c, cuComplex, cuComplex)
STRATA_BLAS_AXPY(z, cuDoubleComplex, cuDoubleComplex)
#undef STRATA_BLAS_AXPY

#define STRATA_BLAS_SCAL(suffix, A, C, T)                                                     \
  extern "C" __global__ void strata_blas_scal_##suffix(int64_t n, strata_blas::Scalar<A> alpha, \
                                                       T* x, int64_t incx) {                   \
    strata_blas::scal<A, C, T>(n, alpha, x, incx);                                            \
  }
STRATA_BLAS_SCAL(s, float, float, float)
STRATA_BLAS_SCAL(d, double, double, double)
STRATA_BLAS_SCAL(c, cuComplex, cuComplex, cuComplex)
STRATA_BLAS_SCAL(z, cuDoubleComplex, cuDoubleComplex, cuDoubleComplex)
STRATA_BLAS_SCAL(cs, float, cuComplex, cuComplex)
STRATA_BLAS_SCAL(zd, double, cuDoubleComplex, cuDoubleComplex)
STRATA_BLAS_SCAL(h, float, float, __half)
STRATA_BLAS_SCAL(b, float, float, __nv_bfloat16)
#undef STRATA_BLAS_SCAL

// copy_<bytes>, swap_<bytes>.
#define STRATA_BLAS_MOVE(bytes, E)                                                            \
  extern "C" __global__ void strata_blas_copy_##bytes(int64_t n, const E* x, int64_t incx,    \
                                                      E* y, int64_t incy) {                   \
    strata_blas::copy<E>(n, x, incx, y, incy);                                                \
  }                                                                                           \
  extern "C" __global__ void strata_blas_swap_##bytes(int64_t n, E* x, int64_t incx, E* y,    \
                                                      int64_t incy) {                         \
    strata_blas::swap<E>(n, x, incx, y, incy);                                                \
  }
STRATA_BLAS_MOVE(2, unsigned short)
STRATA_BLAS_MOVE(4, unsigned int)
STRATA_BLAS_MOVE(8, unsigned long long)
STRATA_BLAS_MOVE(16, double2)
#undef STRATA_BLAS_MOVE

// rot_<x type><s type when it differs>.
#define STRATA_BLAS_ROT(suffix, C, S, X)                                                      \
  extern "C" __global__ void strata_blas_rot_##suffix(                                        \
      int64_t n, X* x, int64_t incx, X* y, int64_t incy,                                      \
      strata_blas::Scalar<strata_blas::RealOf<C>::type> c, strata_blas::Scalar<S> s) {        \
    strata_blas::rot<C, S, X>(n, x, incx, y, incy, c, s);                                     \
  }
STRATA_BLAS_ROT(h, float, float, __half)
STRATA_BLAS_ROT(b, float, float, __nv_bfloat16)
STRATA_BLAS_ROT(s, float, float, float)
STRATA_BLAS_ROT(d, double, double, double)
STRATA_BLAS_ROT(c, cuComplex, cuComplex, cuComplex)
STRATA_BLAS_ROT(cs, cuComplex, float, cuComplex)
STRATA_BLAS_ROT(z, cuDoubleComplex, cuDoubleComplex, cuDoubleComplex)
STRATA_BLAS_ROT(zd, cuDoubleComplex, double, cuDoubleComplex)
#undef STRATA_BLAS_ROT
// FP16 / BF16 vectors with c and s in their own type.
#define STRATA_BLAS_ROT16(suffix, X)                                                          \
  extern "C" __global__ void strata_blas_rot_##suffix(int64_t n, X* x, int64_t incx, X* y,    \
                                                      int64_t incy, strata_blas::Scalar<X> c, \
                                                      strata_blas::Scalar<X> s) {             \
    strata_blas::rot<float, float, X, X, X>(n, x, incx, y, incy, c, s);                       \
  }
STRATA_BLAS_ROT16(hh, __half)
STRATA_BLAS_ROT16(bb, __nv_bfloat16)
#undef STRATA_BLAS_ROT16

#define STRATA_BLAS_ROTM(suffix, R, X)                                                        \
  extern "C" __global__ void strata_blas_rotm_##suffix(                                       \
      int64_t n, X* x, int64_t incx, X* y, int64_t incy,                                      \
      strata_blas::Scalar<strata_blas::RotmParam<R>> param) {                                 \
    strata_blas::rotm<R, X>(n, x, incx, y, incy, param);                                      \
  }
STRATA_BLAS_ROTM(h, float, __half)
STRATA_BLAS_ROTM(b, float, __nv_bfloat16)
STRATA_BLAS_ROTM(s, float, float)
STRATA_BLAS_ROTM(d, double, double)
#undef STRATA_BLAS_ROTM
#define STRATA_BLAS_ROTM16(suffix, X)                                                         \
  extern "C" __global__ void strata_blas_rotm_##suffix(                                       \
      int64_t n, X* x, int64_t incx, X* y, int64_t incy,                                      \
      strata_blas::Scalar<strata_blas::RotmParam<X>> param) {                                 \
    strata_blas::rotm<float, X, X>(n, x, incx, y, incy, param);                               \
  }
STRATA_BLAS_ROTM16(hh, __half)
STRATA_BLAS_ROTM16(bb, __nv_bfloat16)
#undef STRATA_BLAS_ROTM16

// rotg and rotmg under CUBLAS_POINTER_MODE_DEVICE: one thread.
#define STRATA_BLAS_ROTG(suffix, T, R)                                                        \
  extern "C" __global__ void strata_blas_rotg_##suffix(T* a, T* b, R* c, T* s) {              \
    strata_blas::rotg(a, b, c, s);                                                            \
  }
STRATA_BLAS_ROTG(s, float, float)
STRATA_BLAS_ROTG(d, double, double)
STRATA_BLAS_ROTG(c, cuComplex, float)
STRATA_BLAS_ROTG(z, cuDoubleComplex, double)
#undef STRATA_BLAS_ROTG
#define STRATA_BLAS_ROTMG(suffix, R)                                                          \
  extern "C" __global__ void strata_blas_rotmg_##suffix(R* d1, R* d2, R* x1, const R* y1,     \
                                                        R* param) {                           \
    strata_blas::rotmg<R>(d1, d2, x1, y1, param);                                             \
  }
STRATA_BLAS_ROTMG(s, float)
STRATA_BLAS_ROTMG(d, double)
#undef STRATA_BLAS_ROTMG
