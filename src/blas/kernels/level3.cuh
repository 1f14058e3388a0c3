// Level-3 kernels beyond GEMM: syrk, herk, syr2k, her2k, syrkx, herkx, symm, hemm, trmm
// (and the CsyrkEx / CherkEx family). One shared-memory tile kernel per element type
// computes C = alpha * opA * opB + beta * C over a 64 x 64 tile of C, 16 deep, 256
// threads, 4 x 4 elements per thread (kernels/level3_args.h describes the problem). The
// operands are staged through `operand_at`, which knows the symmetric, Hermitian and
// triangular storage forms, so the inner loop is the plain multiply-add of gemm.cuh's
// tile kernel. The store writes only the requested triangle of C; tiles entirely outside
// it do nothing.
//
// Semantics: beta == 0 never reads C (NaN there is ignored); alpha == 0 or k == 0 never
// reads A or B; a triangular operand's other triangle (and a unit diagonal) is never
// read, nor a symmetric operand's other triangle, nor the imaginary parts of a Hermitian
// operand's diagonal.
#pragma once

#include "common.cuh"
#include "level3_args.h"

namespace strata_blas::level3 {

inline constexpr int kTile = 64;
inline constexpr int kTileK = 16;
inline constexpr int kThreads = 256;
inline constexpr int kPerThread = 4;  // kTile / 16

__device__ inline void to_compute(float& o, float i) {
  o = i;
}
__device__ inline void to_compute(double& o, double i) {
  o = i;
}
__device__ inline void to_compute(cuComplex& o, cuComplex i) {
  o = i;
}
__device__ inline void to_compute(cuDoubleComplex& o, cuDoubleComplex i) {
  o = i;
}
__device__ inline void to_compute(cuComplex& o, char2 i) {
  o = make_cuComplex(static_cast<float>(i.x), static_cast<float>(i.y));
}

__device__ inline float real_part(float a) {
  return a;
}
__device__ inline double real_part(double a) {
  return a;
}
__device__ inline cuComplex real_part(cuComplex a) {
  return make_cuComplex(a.x, 0.0f);
}
__device__ inline cuDoubleComplex real_part(cuDoubleComplex a) {
  return make_cuDoubleComplex(a.x, 0.0);
}

// The real type of T's components.
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

template <typename T>
__device__ inline T from_real(typename RealOf<T>::type r);
template <>
__device__ inline float from_real<float>(float r) {
  return r;
}
template <>
__device__ inline double from_real<double>(double r) {
  return r;
}
template <>
__device__ inline cuComplex from_real<cuComplex>(float r) {
  return make_cuComplex(r, 0.0f);
}
template <>
__device__ inline cuDoubleComplex from_real<cuDoubleComplex>(double r) {
  return make_cuDoubleComplex(r, 0.0);
}

template <typename T>
__device__ inline T scalar_value(const L3Scalar<T>& s, int32_t real) {
  if (s.ptr == nullptr) return s.value;
  if (real) return from_real<T>(*static_cast<const typename RealOf<T>::type*>(s.ptr));
  return *static_cast<const T*>(s.ptr);
}

// Element (r, c) of the operand (r < rows, c < cols is the caller's business). operand_at
// and store are inlined, each in one place (the loops around them are not unrolled): with
// both out of line, Strata's JIT computed wrong cuDoubleComplex results (the two call
// sequences declare `param1` with different sizes: b64 and a 16-byte aggregate).
template <typename TA, typename T>
__device__ __forceinline__ T operand_at(L3Operand o, int64_t r, int64_t c) {
  const TA* x = static_cast<const TA*>(o.p);
  T v;
  if (o.kind == kL3General) {
    to_compute(v, o.op == 0 ? x[r + c * o.ld] : x[c + r * o.ld]);
    return o.op == 2 ? conj_(v) : v;
  }
  if (o.kind == kL3Triangular) {
    const int64_t i = o.op == 0 ? r : c, j = o.op == 0 ? c : r;  // stored (i, j)
    if (o.lower ? i < j : i > j) return zero<T>();
    if (i == j && o.unit) return one<T>();
    to_compute(v, x[i + j * o.ld]);
    return o.op == 2 ? conj_(v) : v;
  }
  // Symmetric / Hermitian: the stored triangle, mirrored.
  const bool stored = o.lower ? r >= c : r <= c;
  to_compute(v, stored ? x[r + c * o.ld] : x[c + r * o.ld]);
  if (o.kind == kL3Hermitian) {
    if (r == c) return real_part(v);
    if (!stored) return conj_(v);
  }
  return v;
}

// Whether C's element (i, j) is written.
__device__ inline bool in_fill(int32_t fill, int64_t i, int64_t j) {
  return fill == kL3FillFull || (fill == kL3FillLower ? i >= j : i <= j);
}

// *out = value + beta * *out (*out not read unless use_c), its imaginary part zeroed when
// real_diagonal.
template <typename T>
__device__ __forceinline__ void store(T* out, T value, T beta, bool use_c, bool real_diagonal) {
  T v = value;
  if (use_c) v = fma_(beta, *out, v);
  if (real_diagonal) v = real_part(v);
  *out = v;
}

template <typename TA, typename T>
__device__ void tile(const L3Params& p, L3Scalar<T> alpha_arg, L3Scalar<T> beta_arg) {
  __shared__ T as[kTileK][kTile];
  __shared__ T bs[kTileK][kTile];
  T alpha = scalar_value(alpha_arg, p.alpha_real);
  if (p.conj_alpha) alpha = conj_(alpha);
  const T beta = p.beta_one ? one<T>() : scalar_value(beta_arg, p.beta_real);
  const bool use_ab = !is_zero(alpha) && p.k > 0;  // uniform over the CTA
  const bool use_c = !is_zero(beta);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kTile;
  const int64_t col_tiles = (p.n + kTile - 1) / kTile;
  T* c = static_cast<T*>(p.c);
  for (int64_t col_tile = blockIdx.y; col_tile < col_tiles; col_tile += gridDim.y) {
    const int64_t col0 = col_tile * kTile;
    if (p.fill == kL3FillLower && row0 + kTile - 1 < col0) continue;  // all above the diagonal
    if (p.fill == kL3FillUpper && row0 > col0 + kTile - 1) continue;  // all below it
    T acc[kPerThread][kPerThread];
#pragma unroll
    for (int ii = 0; ii < kPerThread; ++ii) {
#pragma unroll
      for (int jj = 0; jj < kPerThread; ++jj) acc[ii][jj] = zero<T>();
    }
    if (use_ab) {
      for (int64_t k0 = 0; k0 < p.k; k0 += kTileK) {
#pragma unroll 1
        for (int r = 0; r < kTile * kTileK / kThreads; ++r) {
          const int idx = threadIdx.x + r * kThreads;
          const int i = idx % kTile, kk = idx / kTile;
          const int64_t gi = row0 + i, gk = k0 + kk;
          as[kk][i] = gi < p.m && gk < p.k ? operand_at<TA, T>(p.a, gi, gk) : zero<T>();
          const int64_t gj = col0 + i;
          bs[kk][i] = gj < p.n && gk < p.k ? operand_at<TA, T>(p.b, gk, gj) : zero<T>();
        }
        __syncthreads();
#pragma unroll 4
        for (int kk = 0; kk < kTileK; ++kk) {
          T av[kPerThread], bv[kPerThread];
#pragma unroll
          for (int t = 0; t < kPerThread; ++t) {
            av[t] = as[kk][ty + 16 * t];
            bv[t] = bs[kk][tx + 16 * t];
          }
#pragma unroll
          for (int ii = 0; ii < kPerThread; ++ii) {
#pragma unroll
            for (int jj = 0; jj < kPerThread; ++jj) acc[ii][jj] = fma_(av[ii], bv[jj], acc[ii][jj]);
          }
        }
        __syncthreads();
      }
    }
#pragma unroll 1
    for (int e = 0; e < kPerThread * kPerThread; ++e) {
      const int ii = e / kPerThread, jj = e % kPerThread;
      const int64_t i = row0 + ty + 16 * ii, j = col0 + tx + 16 * jj;
      if (i >= p.m || j >= p.n || !in_fill(p.fill, i, j)) continue;
      T value = zero<T>();
#pragma unroll
      for (int a = 0; a < kPerThread; ++a) {
#pragma unroll
        for (int b = 0; b < kPerThread; ++b) {
          if (a == ii && b == jj) value = acc[a][b];
        }
      }
      store<T>(c + i + j * p.ldc, use_ab ? mul(alpha, value) : zero<T>(), beta, use_c,
               p.herm_diag && i == j);
    }
  }
}

}  // namespace strata_blas::level3

// strata_blas_level3_<A type>_<C type>: s, d, c, z; ci8_c (CsyrkEx / CherkEx with
// CUDA_C_8I inputs).
#define STRATA_BLAS_LEVEL3(name, TA, T)                                                  \
  extern "C" __global__ void __launch_bounds__(strata_blas::level3::kThreads)            \
      strata_blas_level3_##name(strata_blas::L3Params p, strata_blas::L3Scalar<T> alpha, \
                                strata_blas::L3Scalar<T> beta) {                         \
    strata_blas::level3::tile<TA, T>(p, alpha, beta);                                    \
  }
STRATA_BLAS_LEVEL3(s, float, float)
STRATA_BLAS_LEVEL3(d, double, double)
STRATA_BLAS_LEVEL3(c, cuComplex, cuComplex)
STRATA_BLAS_LEVEL3(z, cuDoubleComplex, cuDoubleComplex)
STRATA_BLAS_LEVEL3(ci8_c, char2, cuComplex)
#undef STRATA_BLAS_LEVEL3
