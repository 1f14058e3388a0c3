// Element arithmetic of the batched LAPACK-like kernels (lapack.cuh) beyond common.cuh's:
// the real type of an element, LAPACK's |re| + |im| magnitude (i?amax), squared moduli,
// subtraction and division, and the Householder reflector of LAPACK's ?larfg.
#pragma once

#include "common.cuh"

namespace strata_blas {
namespace lapack {

template <typename T>
struct RealOf {
  using type = T;
};
template <>
struct RealOf<cuComplex> {
  using type = float;
};
template <>
struct RealOf<cuDoubleComplex> {
  using type = double;
};

// |re| + |im|: the magnitude LAPACK's pivot search (i?amax: dcabs1 for complex) compares.
__device__ inline float abs1(float a) {
  return fabsf(a);
}
__device__ inline double abs1(double a) {
  return fabs(a);
}
__device__ inline float abs1(cuComplex a) {
  return fabsf(a.x) + fabsf(a.y);
}
__device__ inline double abs1(cuDoubleComplex a) {
  return fabs(a.x) + fabs(a.y);
}

// |a|^2.
__device__ inline float abs2(float a) {
  return a * a;
}
__device__ inline double abs2(double a) {
  return a * a;
}
__device__ inline float abs2(cuComplex a) {
  return a.x * a.x + a.y * a.y;
}
__device__ inline double abs2(cuDoubleComplex a) {
  return a.x * a.x + a.y * a.y;
}

__device__ inline float sub(float a, float b) {
  return a - b;
}
__device__ inline double sub(double a, double b) {
  return a - b;
}
__device__ inline cuComplex sub(cuComplex a, cuComplex b) {
  return cuCsubf(a, b);
}
__device__ inline cuDoubleComplex sub(cuDoubleComplex a, cuDoubleComplex b) {
  return cuCsub(a, b);
}

__device__ inline float div(float a, float b) {
  return a / b;
}
__device__ inline double div(double a, double b) {
  return a / b;
}
__device__ inline cuComplex div(cuComplex a, cuComplex b) {
  return cuCdivf(a, b);
}
__device__ inline cuDoubleComplex div(cuDoubleComplex a, cuDoubleComplex b) {
  return cuCdiv(a, b);
}

template <typename T>
__device__ inline void swap_(T& a, T& b) {
  const T t = a;
  a = b;
  b = t;
}

// LAPACK's ?larfg for alpha = the reflector's first element and xnorm = ||x||_2 of the
// rest: H^H (alpha; x) = (beta; 0) with H = I - tau (1; v)(1; v)^H, beta real. On return
// `alpha` holds beta, `tau` tau and `scale` the factor 1 / (alpha - beta) that turns x
// into v. tau = 0 (H = I, alpha unchanged) when x = 0 and alpha is real; otherwise
// beta = -sign(re(alpha)) * ||(alpha; x)||, tau = (beta - alpha) / beta. LAPACK's
// rescaling of a tiny beta (below the safe minimum) is not done.
__device__ inline void make_reflector(float& alpha, float xnorm, float& tau, float& scale) {
  if (xnorm == 0.0f) {
    tau = 0.0f, scale = 0.0f;
    return;
  }
  const float beta = -copysignf(hypotf(alpha, xnorm), alpha);
  tau = (beta - alpha) / beta;
  scale = 1.0f / (alpha - beta);
  alpha = beta;
}
__device__ inline void make_reflector(double& alpha, double xnorm, double& tau, double& scale) {
  if (xnorm == 0.0) {
    tau = 0.0, scale = 0.0;
    return;
  }
  const double beta = -copysign(hypot(alpha, xnorm), alpha);
  tau = (beta - alpha) / beta;
  scale = 1.0 / (alpha - beta);
  alpha = beta;
}
__device__ inline void make_reflector(cuComplex& alpha, float xnorm, cuComplex& tau,
                                      cuComplex& scale) {
  if (xnorm == 0.0f && alpha.y == 0.0f) {
    tau = make_cuComplex(0.0f, 0.0f), scale = tau;
    return;
  }
  const float beta = -copysignf(norm3df(alpha.x, alpha.y, xnorm), alpha.x);
  tau = make_cuComplex((beta - alpha.x) / beta, -alpha.y / beta);
  scale = cuCdivf(make_cuComplex(1.0f, 0.0f), make_cuComplex(alpha.x - beta, alpha.y));
  alpha = make_cuComplex(beta, 0.0f);
}
__device__ inline void make_reflector(cuDoubleComplex& alpha, double xnorm, cuDoubleComplex& tau,
                                      cuDoubleComplex& scale) {
  if (xnorm == 0.0 && alpha.y == 0.0) {
    tau = make_cuDoubleComplex(0.0, 0.0), scale = tau;
    return;
  }
  const double beta = -copysign(norm3d(alpha.x, alpha.y, xnorm), alpha.x);
  tau = make_cuDoubleComplex((beta - alpha.x) / beta, -alpha.y / beta);
  scale = cuCdiv(make_cuDoubleComplex(1.0, 0.0), make_cuDoubleComplex(alpha.x - beta, alpha.y));
  alpha = make_cuDoubleComplex(beta, 0.0);
}

}  // namespace lapack
}  // namespace strata_blas
