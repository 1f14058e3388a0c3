// Element types of the Level-1 kernels: conversions between storage types (FP16, BF16,
// FP32, FP64, complex) and compute types, |re| + |im|, the real type of a compute type,
// negation.
#pragma once

#include "common.cuh"

namespace strata_blas {

// --- conversions between storage and compute types ---
__device__ inline void convert(float& o, float v) { o = v; }
__device__ inline void convert(double& o, double v) { o = v; }
__device__ inline void convert(cuComplex& o, cuComplex v) { o = v; }
__device__ inline void convert(cuDoubleComplex& o, cuDoubleComplex v) { o = v; }
__device__ inline void convert(float& o, __half v) { o = __half2float(v); }
__device__ inline void convert(float& o, __nv_bfloat16 v) { o = __bfloat162float(v); }
__device__ inline void convert(__half& o, float v) { o = __float2half_rn(v); }
__device__ inline void convert(__nv_bfloat16& o, float v) { o = __float2bfloat16_rn(v); }

template <typename O, typename I>
__device__ inline O cvt(I v) {
  O o;
  convert(o, v);
  return o;
}

// |re| + |im| of complex values, |v| of real ones (iamax, iamin, asum).
__device__ inline float abs1(float v) { return fabsf(v); }
__device__ inline double abs1(double v) { return fabs(v); }
__device__ inline float abs1(cuComplex v) { return fabsf(v.x) + fabsf(v.y); }
__device__ inline double abs1(cuDoubleComplex v) { return fabs(v.x) + fabs(v.y); }

template <typename C>
struct RealOf {
  using type = C;
};
template <>
struct RealOf<cuComplex> {
  using type = float;
};
template <>
struct RealOf<cuDoubleComplex> {
  using type = double;
};

__device__ inline float neg(float a) { return -a; }
__device__ inline double neg(double a) { return -a; }
__device__ inline cuComplex neg(cuComplex a) { return make_cuComplex(-a.x, -a.y); }
__device__ inline cuDoubleComplex neg(cuDoubleComplex a) {
  return make_cuDoubleComplex(-a.x, -a.y);
}

}  // namespace strata_blas
