// Level-1 BLAS kernels (vector operations).
#pragma once

#include "common.cuh"

namespace strata_blas {

// x = alpha * x over n elements, incx > 0 (the host returns early otherwise).
template <typename A, typename T>
__device__ void scal(int64_t n, Scalar<A> alpha_arg, T* x, int64_t incx) {
  const A alpha = alpha_arg.get();
  STRATA_BLAS_FOR(i, n) { x[i * incx] = mul(alpha, x[i * incx]); }
}

}  // namespace strata_blas

#define STRATA_BLAS_SCAL(suffix, A, T)                                                        \
  extern "C" __global__ void strata_blas_scal_##suffix(int64_t n, strata_blas::Scalar<A> alpha, \
                                                       T* x, int64_t incx) {                   \
    strata_blas::scal(n, alpha, x, incx);                                                     \
  }
STRATA_BLAS_SCAL(s, float, float)
STRATA_BLAS_SCAL(d, double, double)
STRATA_BLAS_SCAL(c, cuComplex, cuComplex)
STRATA_BLAS_SCAL(z, cuDoubleComplex, cuDoubleComplex)
STRATA_BLAS_SCAL(cs, float, cuComplex)
STRATA_BLAS_SCAL(zd, double, cuDoubleComplex)
#undef STRATA_BLAS_SCAL
