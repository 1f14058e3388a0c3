// Shared device code of the cuBLAS kernels: element types, complex arithmetic and scalar
// arguments. Kernels are extern "C" so the host finds them by name (kernels.h); their
// names are strata_blas_<routine>_<types>.
#pragma once

#include <cuComplex.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstdint>

#include "scalar.h"

namespace strata_blas {

// Arithmetic on real and complex elements.
__device__ inline float add(float a, float b) { return a + b; }
__device__ inline double add(double a, double b) { return a + b; }
__device__ inline cuComplex add(cuComplex a, cuComplex b) { return cuCaddf(a, b); }
__device__ inline cuDoubleComplex add(cuDoubleComplex a, cuDoubleComplex b) { return cuCadd(a, b); }

__device__ inline float mul(float a, float b) { return a * b; }
__device__ inline double mul(double a, double b) { return a * b; }
__device__ inline cuComplex mul(cuComplex a, cuComplex b) { return cuCmulf(a, b); }
__device__ inline cuDoubleComplex mul(cuDoubleComplex a, cuDoubleComplex b) { return cuCmul(a, b); }
// Real scalar times complex element (cublasCsscal, cublasZdscal).
__device__ inline cuComplex mul(float a, cuComplex b) { return make_cuComplex(a * b.x, a * b.y); }
__device__ inline cuDoubleComplex mul(double a, cuDoubleComplex b) {
  return make_cuDoubleComplex(a * b.x, a * b.y);
}

// a * b + c, fused for real types (one rounding, as the hardware FMA does).
__device__ inline float fma_(float a, float b, float c) { return fmaf(a, b, c); }
__device__ inline double fma_(double a, double b, double c) { return fma(a, b, c); }
__device__ inline cuComplex fma_(cuComplex a, cuComplex b, cuComplex c) {
  return make_cuComplex(fmaf(a.x, b.x, fmaf(-a.y, b.y, c.x)), fmaf(a.x, b.y, fmaf(a.y, b.x, c.y)));
}
__device__ inline cuDoubleComplex fma_(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c) {
  return make_cuDoubleComplex(fma(a.x, b.x, fma(-a.y, b.y, c.x)), fma(a.x, b.y, fma(a.y, b.x, c.y)));
}

__device__ inline float conj_(float a) { return a; }
__device__ inline double conj_(double a) { return a; }
__device__ inline cuComplex conj_(cuComplex a) { return cuConjf(a); }
__device__ inline cuDoubleComplex conj_(cuDoubleComplex a) { return cuConj(a); }

template <typename T>
__device__ inline T zero();
template <>
__device__ inline float zero<float>() { return 0.0f; }
template <>
__device__ inline double zero<double>() { return 0.0; }
template <>
__device__ inline cuComplex zero<cuComplex>() { return make_cuComplex(0.0f, 0.0f); }
template <>
__device__ inline cuDoubleComplex zero<cuDoubleComplex>() { return make_cuDoubleComplex(0.0, 0.0); }

template <typename T>
__device__ inline T one();
template <>
__device__ inline float one<float>() { return 1.0f; }
template <>
__device__ inline double one<double>() { return 1.0; }
template <>
__device__ inline cuComplex one<cuComplex>() { return make_cuComplex(1.0f, 0.0f); }
template <>
__device__ inline cuDoubleComplex one<cuDoubleComplex>() { return make_cuDoubleComplex(1.0, 0.0); }

__device__ inline bool is_zero(float a) { return a == 0.0f; }
__device__ inline bool is_zero(double a) { return a == 0.0; }
__device__ inline bool is_zero(cuComplex a) { return a.x == 0.0f && a.y == 0.0f; }
__device__ inline bool is_zero(cuDoubleComplex a) { return a.x == 0.0 && a.y == 0.0; }

// Element i of a strided vector of n elements: BLAS starts a negative-increment vector at
// its far end, so element i is at (n - 1 - i) * |inc| then.
__device__ inline int64_t vector_offset(int64_t i, int64_t n, int64_t inc) {
  return inc >= 0 ? i * inc : (n - 1 - i) * -inc;
}

// A grid-stride loop over [0, n).
#define STRATA_BLAS_FOR(i, n)                                                       \
  for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < (n); \
       i += static_cast<int64_t>(gridDim.x) * blockDim.x)

}  // namespace strata_blas
