// Level-2 BLAS kernels (matrix-vector operations) for S, D, C, Z: one kernel per type for
// the matrix-vector products, one for the triangular products and solves, one for the
// rank-1 / rank-2 updates. Arguments: level2_args.h. Every element is computed by one
// thread in a fixed order, so results are deterministic.
#pragma once

#include "common.cuh"
#include "level2_args.h"

namespace strata_blas {

__device__ inline float neg_(float a) {
  return -a;
}
__device__ inline double neg_(double a) {
  return -a;
}
__device__ inline cuComplex neg_(cuComplex a) {
  return make_cuComplex(-a.x, -a.y);
}
__device__ inline cuDoubleComplex neg_(cuDoubleComplex a) {
  return make_cuDoubleComplex(-a.x, -a.y);
}

__device__ inline float div_(float a, float b) {
  return a / b;
}
__device__ inline double div_(double a, double b) {
  return a / b;
}
__device__ inline cuComplex div_(cuComplex a, cuComplex b) {
  return cuCdivf(a, b);
}
__device__ inline cuDoubleComplex div_(cuDoubleComplex a, cuDoubleComplex b) {
  return cuCdiv(a, b);
}

// The element with its imaginary part dropped (the diagonal of a Hermitian matrix).
__device__ inline float real_only(float a) {
  return a;
}
__device__ inline double real_only(double a) {
  return a;
}
__device__ inline cuComplex real_only(cuComplex a) {
  return make_cuComplex(a.x, 0.0f);
}
__device__ inline cuDoubleComplex real_only(cuDoubleComplex a) {
  return make_cuDoubleComplex(a.x, 0.0);
}

// Where element (r, c) of a stored matrix is, branch-free for every storage:
// r + c * column + packed * c (c + 1) / 2 + offset, with
//   full:          column lda,     packed 0,  offset 0;
//   band:          column lda - 1, packed 0,  offset band_offset (A(r, c) at row
//                  band_offset + r - c of column c: ku of a general band matrix, k of an
//                  upper and 0 of a lower triangular / symmetric one);
//   packed upper:  column 0,       packed 1,  offset 0 (r + c (c + 1) / 2);
//   packed lower:  column n,       packed -1, offset 0 (r + c (2n - c - 1) / 2).
struct L2Layout {
  int64_t column, packed, offset;
};

__device__ inline L2Layout l2_layout(int32_t storage, int32_t upper, int64_t n, int64_t lda,
                                     int64_t band_offset) {
  if (storage == kL2Packed) return upper ? L2Layout{0, 1, 0} : L2Layout{n, -1, 0};
  if (storage == kL2Band) return L2Layout{lda - 1, 0, band_offset};
  return L2Layout{lda, 0, 0};
}

__device__ inline int64_t l2_index(const L2Layout& l, int64_t r, int64_t c) {
  return r + c * l.column + l.packed * (c * (c + 1) / 2) + l.offset;
}

// y = alpha op(M) x + beta y; y is never read when beta is 0, A and x never when alpha is 0.
template <typename T>
__device__ void l2_matvec(const MatvecArgs<T>& p) {
  const T alpha = p.alpha.get();
  const T beta = p.beta.get();
  const bool alpha_zero = is_zero(alpha);
  const bool beta_zero = is_zero(beta);
  const bool general = p.matrix == kL2General;
  const int64_t rows = general && p.op == 0 ? p.m : p.n;
  const int64_t cols = general && p.op == 0 ? p.n : p.m;
  // Row i of op(M) has its nonzeros in columns [i - below, i + above].
  int64_t below = rows + cols, above = rows + cols;
  if (p.storage == kL2Band) {
    below = general && p.op == 0 ? p.kl : p.ku;
    above = general && p.op == 0 ? p.ku : p.kl;
  }
  const int64_t band_offset = general || p.upper ? p.ku : 0;
  const bool hermitian = p.matrix == kL2Hermitian;
  const L2Layout layout = l2_layout(p.storage, general ? 0 : p.upper, p.n, p.lda, band_offset);
  for (int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const T* a = p.a_array != nullptr ? p.a_array[b] : p.a + b * p.stride_a;
    const T* x = p.x_array != nullptr ? p.x_array[b] : p.x + b * p.stride_x;
    T* y = p.y_array != nullptr ? p.y_array[b] : p.y + b * p.stride_y;
    // Warp-uniform loops: every thread of the block runs the same trips over the block's
    // column range and masks the terms outside its row's band. (Per-thread trip counts,
    // the natural form, exposed the compiler's convergence-barrier bug fixed in cfaf813;
    // cuda_divergent_grid_stride tests that shape.)
    const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
    for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.x; base < rows;
         base += stride) {
      const int64_t i = base + threadIdx.x;
      const bool active = i < rows;
      const int64_t lo = base - below > 0 ? base - below : 0;
      const int64_t last = base + blockDim.x - 1 + above;
      // No term is read when alpha is 0.
      const int64_t hi = alpha_zero ? lo - 1 : (last < cols - 1 ? last : cols - 1);
      T acc = zero<T>();
#pragma unroll 1
      for (int64_t j = lo; j <= hi; ++j) {
        // general: op(A)(i, j) is A(i, j) or (conj) A(j, i); symmetric / Hermitian: the
        // stored triangle's (i, j) or (j, i), conjugated when Hermitian, and a Hermitian
        // diagonal is real.
        const bool in = active && j >= i - below && j <= i + above;
        const bool stored = p.upper ? i <= j : i >= j;
        const bool swap = general ? p.op != 0 : !stored;
        const bool conjugate = general ? p.op == 2 : hermitian && !stored;
        const int64_t index = in ? l2_index(layout, swap ? j : i, swap ? i : j) : 0;
        T v = a[index];
        v = conjugate ? conj_(v) : v;
        v = hermitian && i == j ? real_only(v) : v;
        const T term = fma_(v, x[vector_offset(j, cols, p.incx)], acc);
        acc = in ? term : acc;
      }
      if (active) {
        T& out = y[vector_offset(i, rows, p.incy)];
        out = beta_zero ? mul(alpha, acc) : fma_(alpha, acc, mul(beta, out));
      }
    }
  }
}

// Element (i, j) of op(A) for a triangular A, (i, j) inside its triangle.
template <typename T>
__device__ inline T l2_triangular(const TriangularArgs<T>& p, const L2Layout& layout, int64_t i,
                                  int64_t j) {
  const bool swap = p.op != 0;
  const T v = p.a[l2_index(layout, swap ? j : i, swap ? i : j)];
  return p.op == 2 ? conj_(v) : v;
}

// x = op(A) x or x = op(A)^-1 x by a single block. In "positions" (rows in solve order:
// ascending when op(A) is lower triangular, descending when upper), row at position q
// depends on the rows at positions [q - k, q). A solve sweeps blocks of blockDim.x
// positions forwards: each thread first subtracts the solved positions before its block,
// then the block's rows are finished one by one. A product sweeps backwards, so each
// block reads only unmodified elements of x.
template <typename T>
__device__ void l2_triangular_sweep(const TriangularArgs<T>& p) {
  __shared__ T solved[256];
  const int64_t n = p.n;
  const int64_t block = blockDim.x;
  const int t = threadIdx.x;
  const bool lower = (p.upper == 0) != (p.op != 0);
  const L2Layout layout = l2_layout(p.storage, p.upper, n, p.lda, p.upper ? p.k : 0);
  auto row = [&](int64_t q) { return lower ? q : n - 1 - q; };
  auto xat = [&](int64_t i) -> T& { return p.x[vector_offset(i, n, p.incx)]; };
  if (p.solve) {
    for (int64_t q0 = 0; q0 < n; q0 += block) {
      const int64_t q = q0 + t;
      const bool active = q < n;
      const int64_t i = active ? row(q) : 0;
      T s = zero<T>();
      if (active) {
        s = xat(i);
      }
      // The solved positions before the block, in warp-uniform trips, masked per row.
      const int64_t first = q0 - p.k > 0 ? q0 - p.k : 0;
#pragma unroll 1
      for (int64_t d = first; d < q0; ++d) {
        const bool in = active && d >= q - p.k;
        const int64_t j = row(d);
        const T term = fma_(neg_(l2_triangular(p, layout, in ? i : j, j)), xat(j), s);
        s = in ? term : s;
      }
      const int64_t count = n - q0 < block ? n - q0 : block;
      for (int64_t u = 0; u < count; ++u) {
        if (t == u) {
          const T v = p.unit ? s : div_(s, l2_triangular(p, layout, i, i));
          solved[t] = v;
          xat(i) = v;
        }
        __syncthreads();
        if (active && t > u && q - (q0 + u) <= p.k) {
          s = fma_(neg_(l2_triangular(p, layout, i, row(q0 + u))), solved[u], s);
        }
      }
      __syncthreads();
    }
  } else {
    for (int64_t q0 = ((n - 1) / block) * block; q0 >= 0; q0 -= block) {
      const int64_t q = q0 + t;
      const bool active = q < n;
      const int64_t i = active ? row(q) : 0;
      T s = zero<T>();
      if (active) {
        s = p.unit ? xat(i) : mul(l2_triangular(p, layout, i, i), xat(i));
      }
      const int64_t first = q0 - p.k > 0 ? q0 - p.k : 0;
      const int64_t end = q0 + block < n ? q0 + block : n;
#pragma unroll 1
      for (int64_t d = first; d < end; ++d) {
        const bool in = active && d < q && d >= q - p.k;
        const int64_t j = row(d);
        const T term = fma_(l2_triangular(p, layout, in ? i : j, j), xat(j), s);
        s = in ? term : s;
      }
      __syncthreads();
      if (active) xat(i) = s;
      __syncthreads();
    }
  }
}

__device__ inline float from_real(float a, float) {
  return a;
}
__device__ inline double from_real(double a, double) {
  return a;
}
__device__ inline cuComplex from_real(float a, cuComplex) {
  return make_cuComplex(a, 0.0f);
}
__device__ inline cuDoubleComplex from_real(double a, cuDoubleComplex) {
  return make_cuDoubleComplex(a, 0.0);
}

// The rank-1 / rank-2 updates; nothing is read or written when alpha is 0. Element (r, c)
// gets alpha x_r w_c (w: y for ger / gerc / syr2 / her2, x for syr / her; conjugated for
// gerc / her / her2), plus alpha2 y_r x_c for syr2 / her2 (alpha2 = conj(alpha) and x_c
// conjugated for her2).
template <typename T, typename R>
__device__ void l2_update(const UpdateArgs<T, R>& p) {
  const T alpha = p.real_alpha ? from_real(p.alpha_real.get(), T{}) : p.alpha.get();
  if (is_zero(alpha)) return;
  const bool triangle = p.update >= kL2Syr;
  const bool hermitian = p.update == kL2Her || p.update == kL2Her2;
  const bool two = p.update == kL2Syr2 || p.update == kL2Her2;
  const bool w_is_y = p.update == kL2Ger || p.update == kL2Gerc || two;
  const bool conjugate = p.update == kL2Gerc || hermitian;
  const T* w = w_is_y ? p.y : p.x;
  const int64_t incw = w_is_y ? p.incy : p.incx;
  const T alpha2 = p.update == kL2Her2 ? conj_(alpha) : alpha;
  const L2Layout layout = l2_layout(p.storage, p.upper, p.n, p.lda, 0);
  STRATA_BLAS_FOR(e, p.m * p.n) {
    const int64_t r = e % p.m;
    const int64_t c = e / p.m;
    if (!triangle || (p.upper ? r <= c : r >= c)) {
      T* a = p.a + l2_index(layout, r, c);
      T v = *a;
      const T wc = w[vector_offset(c, p.n, incw)];
      v = fma_(mul(alpha, p.x[vector_offset(r, p.m, p.incx)]), conjugate ? conj_(wc) : wc, v);
      if (two) {
        const T xc = p.x[vector_offset(c, p.n, p.incx)];
        v = fma_(mul(alpha2, p.y[vector_offset(r, p.m, p.incy)]), hermitian ? conj_(xc) : xc, v);
      }
      *a = hermitian && r == c ? real_only(v) : v;
    }
  }
}

__device__ inline float to_float(float a) {
  return a;
}
__device__ inline float to_float(__half a) {
  return __half2float(a);
}
__device__ inline float to_float(__nv_bfloat16 a) {
  return __bfloat162float(a);
}
__device__ inline void from_float(float a, float* out) {
  *out = a;
}
__device__ inline void from_float(float a, __half* out) {
  *out = __float2half_rn(a);
}
__device__ inline void from_float(float a, __nv_bfloat16* out) {
  *out = __float2bfloat16_rn(a);
}

// The mixed-precision gemv: y = alpha op(A) x + beta y summed in float, y rounded once.
// Warp-uniform loops as in l2_matvec.
template <typename TA, typename TY>
__device__ void l2_gemv_mixed(const MixedGemvArgs<TA, TY>& p) {
  const float alpha = p.alpha.get();
  const float beta = p.beta.get();
  const int64_t rows = p.op == 0 ? p.m : p.n;
  const int64_t cols = p.op == 0 ? p.n : p.m;
  const int64_t stride = static_cast<int64_t>(gridDim.x) * blockDim.x;
  for (int64_t b = blockIdx.y; b < p.batch; b += gridDim.y) {
    const TA* a = p.a_array != nullptr ? p.a_array[b] : p.a + b * p.stride_a;
    const TA* x = p.x_array != nullptr ? p.x_array[b] : p.x + b * p.stride_x;
    TY* y = p.y_array != nullptr ? p.y_array[b] : p.y + b * p.stride_y;
    for (int64_t base = static_cast<int64_t>(blockIdx.x) * blockDim.x; base < rows;
         base += stride) {
      const int64_t i = base + threadIdx.x;
      const bool active = i < rows;
      const int64_t hi = alpha == 0.0f ? -1 : cols - 1;
      float acc = 0.0f;
#pragma unroll 1
      for (int64_t j = 0; j <= hi; ++j) {
        const int64_t r = active ? i : 0;
        const float v = to_float(p.op == 0 ? a[r + j * p.lda] : a[j + r * p.lda]);
        acc = fmaf(v, to_float(x[vector_offset(j, cols, p.incx)]), acc);
      }
      if (active) {
        TY* out = y + vector_offset(i, rows, p.incy);
        from_float(beta == 0.0f ? alpha * acc : fmaf(alpha, acc, beta * to_float(*out)), out);
      }
    }
  }
}

}  // namespace strata_blas

#define STRATA_BLAS_LEVEL2(suffix, T, R)                                                       \
  extern "C" __global__ void strata_blas_l2_matvec_##suffix(strata_blas::MatvecArgs<T> p) {    \
    strata_blas::l2_matvec(p);                                                                 \
  }                                                                                            \
  extern "C" __global__ void strata_blas_l2_triangular_##suffix(                               \
      strata_blas::TriangularArgs<T> p) {                                                      \
    strata_blas::l2_triangular_sweep(p);                                                       \
  }                                                                                            \
  extern "C" __global__ void strata_blas_l2_update_##suffix(strata_blas::UpdateArgs<T, R> p) { \
    strata_blas::l2_update(p);                                                                 \
  }
STRATA_BLAS_LEVEL2(s, float, float)
STRATA_BLAS_LEVEL2(d, double, double)
STRATA_BLAS_LEVEL2(c, cuComplex, float)
STRATA_BLAS_LEVEL2(z, cuDoubleComplex, double)
#undef STRATA_BLAS_LEVEL2

#define STRATA_BLAS_GEMV_MIXED(suffix, TA, TY)                                                    \
  extern "C" __global__ void strata_blas_l2_gemv_##suffix(strata_blas::MixedGemvArgs<TA, TY> p) { \
    strata_blas::l2_gemv_mixed(p);                                                                \
  }
STRATA_BLAS_GEMV_MIXED(hsh, __half, __half)
STRATA_BLAS_GEMV_MIXED(hss, __half, float)
STRATA_BLAS_GEMV_MIXED(tst, __nv_bfloat16, __nv_bfloat16)
STRATA_BLAS_GEMV_MIXED(tss, __nv_bfloat16, float)
#undef STRATA_BLAS_GEMV_MIXED
