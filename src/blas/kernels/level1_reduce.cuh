// Level-1 reductions (dot, asum, nrm2, iamax, iamin): two kernels with a fixed reduction
// tree, so a result depends only on n and the data, never on scheduling. Pass 1 runs
// min(ceil(n / 256), kReduceMaxBlocks) blocks of kReduceThreads threads, each thread
// combining its grid-stride elements in order, each block combining its threads in a
// shared-memory tree and writing one partial; pass 2 (one block) combines the partials the
// same way and writes the result, converted to the result type. The host side is
// src/blas/level1.cc.
#pragma once

#include "level1_givens.cuh"
#include "level1_shape.cuh"
#include "level1_types.cuh"

namespace strata_blas {

// --- the reduction tree ---
template <typename Reducer>
__device__ typename Reducer::P block_reduce(typename Reducer::P v) {
  __shared__ typename Reducer::P shared[kReduceThreads];
  shared[threadIdx.x] = v;
  __syncthreads();
  for (int s = kReduceThreads / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) {
      shared[threadIdx.x] = Reducer::merge(shared[threadIdx.x], shared[threadIdx.x + s]);
    }
    __syncthreads();
  }
  return shared[0];
}

// Pass 1: `term(i)` is element i's partial, combined by Reducer::merge.
template <typename Reducer, typename Term>
__device__ void reduce_pass1(int64_t n, Term term, typename Reducer::P* partials) {
  typename Reducer::P acc = Reducer::identity();
  STRATA_BLAS_FOR(i, n) { acc = Reducer::merge(acc, term(i)); }
  acc = block_reduce<Reducer>(acc);
  if (threadIdx.x == 0) partials[blockIdx.x] = acc;
}

// Pass 2: one block combines `count` partials and writes Reducer::finish (n: the vector's
// length, 0 when the routine returns early).
template <typename Reducer, typename R>
__device__ void reduce_pass2(const typename Reducer::P* partials, int64_t count, int64_t n,
                             R* result) {
  typename Reducer::P acc = Reducer::identity();
  for (int64_t i = threadIdx.x; i < count; i += blockDim.x) acc = Reducer::merge(acc, partials[i]);
  acc = block_reduce<Reducer>(acc);
  if (threadIdx.x == 0) *result = Reducer::template finish<R>(acc, n);
}

template <typename C>
struct SumReducer {
  using P = C;
  __device__ static P identity() { return zero<C>(); }
  __device__ static P merge(P a, P b) { return add(a, b); }
  template <typename R>
  __device__ static R finish(P a, int64_t) {
    return cvt<R>(a);
  }
};

// nrm2 without overflow or underflow: a partial is (scale, ssq) with value scale^2 * ssq
// (LAPACK's lassq); scale is the largest magnitude seen.
template <typename R>
struct ScaledSsq {
  R scale;
  R ssq;
};

template <typename R>
struct Nrm2Reducer {
  using P = ScaledSsq<R>;
  __device__ static P identity() { return P{R(0), R(0)}; }
  __device__ static P of(R v) {
    const R a = abs_(v);
    return a == R(0) ? identity() : P{a, R(1)};
  }
  __device__ static P merge(P a, P b) {
    if (isnan(a.scale) || isnan(b.scale)) return P{a.scale + b.scale, R(1)};
    if (a.scale < b.scale) {
      const P t = a;
      a = b;
      b = t;
    }
    if (b.scale == R(0)) return a;
    if (isinf(a.scale)) return P{a.scale, R(1)};
    const R r = b.scale / a.scale;
    return P{a.scale, a.ssq + b.ssq * r * r};
  }
  template <typename O>
  __device__ static O finish(P a, int64_t) {
    return cvt<O>(a.scale * sqrt_(a.ssq));
  }
};

// iamax / iamin: (|x_i|, i); the first index wins ties. An index of -1 is "none".
template <typename R>
struct ValueIndex {
  R value;
  int64_t index;
};

template <typename R, bool Max>
struct IndexReducer {
  using P = ValueIndex<R>;
  __device__ static P identity() { return P{R(0), -1}; }
  // Branch-free (selects). Written with early returns, this merge is what exposed the
  // compiler's convergence-barrier placement bug (fixed in cfaf813; its shape is tested by
  // compiler_exec_test Convergence.ChainOfEarlyExitsToOneJoin).
  __device__ static P merge(P a, P b) {
    const bool better = Max ? b.value > a.value : b.value < a.value;
    const bool tie = (b.value == a.value) & (b.index < a.index);
    const bool take_b = (a.index < 0) | ((b.index >= 0) & (better | tie));
    return P{take_b ? b.value : a.value, take_b ? b.index : a.index};
  }
  // 1-based; 0 when n <= 0; 1 when no element compares (all NaN), as the reference BLAS.
  template <typename O>
  __device__ static O finish(P a, int64_t n) {
    if (n <= 0) return O(0);
    return O(a.index < 0 ? 1 : a.index + 1);
  }
};

template <typename R>
using IamaxReducer = IndexReducer<R, true>;
template <typename R>
using IaminReducer = IndexReducer<R, false>;

// --- pass-1 kernels ---
template <typename X, bool Conj>
__device__ void dot_pass1(int64_t n, const X* x, int64_t incx, const X* y, int64_t incy,
                          typename SumReducer<X>::P* partials) {
  reduce_pass1<SumReducer<X>>(
      n,
      [=](int64_t i) {
        const X a = x[vector_offset(i, n, incx)];
        return mul(Conj ? conj_(a) : a, y[vector_offset(i, n, incy)]);
      },
      partials);
}

// FP16 / BF16 dot in float.
template <typename X>
__device__ void dot_pass1_f(int64_t n, const X* x, int64_t incx, const X* y, int64_t incy,
                            float* partials) {
  reduce_pass1<SumReducer<float>>(
      n,
      [=](int64_t i) {
        return cvt<float>(x[vector_offset(i, n, incx)]) * cvt<float>(y[vector_offset(i, n, incy)]);
      },
      partials);
}

template <typename C, typename X>
__device__ void asum_pass1(int64_t n, const X* x, int64_t incx,
                           typename RealOf<C>::type* partials) {
  using R = typename RealOf<C>::type;
  reduce_pass1<SumReducer<R>>(
      n, [=](int64_t i) { return abs1(cvt<C>(x[i * incx])); }, partials);
}

__device__ inline ScaledSsq<float> nrm2_term(float v) { return Nrm2Reducer<float>::of(v); }
__device__ inline ScaledSsq<double> nrm2_term(double v) { return Nrm2Reducer<double>::of(v); }
__device__ inline ScaledSsq<float> nrm2_term(cuComplex v) {
  return Nrm2Reducer<float>::merge(Nrm2Reducer<float>::of(v.x), Nrm2Reducer<float>::of(v.y));
}
__device__ inline ScaledSsq<double> nrm2_term(cuDoubleComplex v) {
  return Nrm2Reducer<double>::merge(Nrm2Reducer<double>::of(v.x), Nrm2Reducer<double>::of(v.y));
}

template <typename C, typename X>
__device__ void nrm2_pass1(int64_t n, const X* x, int64_t incx,
                          ScaledSsq<typename RealOf<C>::type>* partials) {
  using R = typename RealOf<C>::type;
  reduce_pass1<Nrm2Reducer<R>>(
      n, [=](int64_t i) { return nrm2_term(cvt<C>(x[i * incx])); }, partials);
}

template <typename C, typename X, bool Max>
__device__ void index_pass1(int64_t n, const X* x, int64_t incx,
                           ValueIndex<typename RealOf<C>::type>* partials) {
  using R = typename RealOf<C>::type;
  reduce_pass1<IndexReducer<R, Max>>(
      n,
      [=](int64_t i) {
        const R v = abs1(cvt<C>(x[i * incx]));
        // A NaN never compares: it is "none" unless a later element is a number.
        return isnan(v) ? IndexReducer<R, Max>::identity() : ValueIndex<R>{v, i};
      },
      partials);
}

}  // namespace strata_blas

// --- extern "C" kernels ---
#define STRATA_L1_REDUCE_THREADS __launch_bounds__(strata_blas::kReduceThreads)

#define STRATA_BLAS_DOT(name, X, conj)                                                        \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_##name(                     \
      int64_t n, const X* x, int64_t incx, const X* y, int64_t incy, X* partials) {           \
    strata_blas::dot_pass1<X, conj>(n, x, incx, y, incy, partials);                           \
  }
STRATA_BLAS_DOT(dot_p1_s, float, false)
STRATA_BLAS_DOT(dot_p1_d, double, false)
STRATA_BLAS_DOT(dot_p1_c, cuComplex, false)
STRATA_BLAS_DOT(dot_p1_z, cuDoubleComplex, false)
STRATA_BLAS_DOT(dotc_p1_c, cuComplex, true)
STRATA_BLAS_DOT(dotc_p1_z, cuDoubleComplex, true)
#undef STRATA_BLAS_DOT
#define STRATA_BLAS_DOT_F(name, X)                                                            \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_##name(                     \
      int64_t n, const X* x, int64_t incx, const X* y, int64_t incy, float* partials) {       \
    strata_blas::dot_pass1_f<X>(n, x, incx, y, incy, partials);                               \
  }
STRATA_BLAS_DOT_F(dot_p1_h, __half)
STRATA_BLAS_DOT_F(dot_p1_b, __nv_bfloat16)
#undef STRATA_BLAS_DOT_F

// asum / nrm2 / iamax / iamin pass 1, by element type (compute type C).
#define STRATA_BLAS_VEC_REDUCE(t, C, X)                                                        \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_asum_p1_##t(                 \
      int64_t n, const X* x, int64_t incx, strata_blas::RealOf<C>::type* partials) {           \
    strata_blas::asum_pass1<C, X>(n, x, incx, partials);                                       \
  }                                                                                            \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_nrm2_p1_##t(                 \
      int64_t n, const X* x, int64_t incx,                                                     \
      strata_blas::ScaledSsq<strata_blas::RealOf<C>::type>* partials) {                        \
    strata_blas::nrm2_pass1<C, X>(n, x, incx, partials);                                       \
  }                                                                                            \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_iamax_p1_##t(                \
      int64_t n, const X* x, int64_t incx,                                                     \
      strata_blas::ValueIndex<strata_blas::RealOf<C>::type>* partials) {                       \
    strata_blas::index_pass1<C, X, true>(n, x, incx, partials);                                \
  }                                                                                            \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_iamin_p1_##t(                \
      int64_t n, const X* x, int64_t incx,                                                     \
      strata_blas::ValueIndex<strata_blas::RealOf<C>::type>* partials) {                       \
    strata_blas::index_pass1<C, X, false>(n, x, incx, partials);                               \
  }
STRATA_BLAS_VEC_REDUCE(h, float, __half)
STRATA_BLAS_VEC_REDUCE(b, float, __nv_bfloat16)
STRATA_BLAS_VEC_REDUCE(s, float, float)
STRATA_BLAS_VEC_REDUCE(d, double, double)
STRATA_BLAS_VEC_REDUCE(c, cuComplex, cuComplex)
STRATA_BLAS_VEC_REDUCE(z, cuDoubleComplex, cuDoubleComplex)
#undef STRATA_BLAS_VEC_REDUCE

// Pass 2: <reducer>_p2_<partial type><result type>.
#define STRATA_BLAS_PASS2(name, Reducer, R)                                                      \
  extern "C" __global__ STRATA_L1_REDUCE_THREADS void strata_blas_##name(                        \
      const Reducer::P* partials, int64_t count, int64_t n, R* result) {                         \
    strata_blas::reduce_pass2<Reducer, R>(partials, count, n, result);                           \
  }
STRATA_BLAS_PASS2(sum_p2_ss, strata_blas::SumReducer<float>, float)
STRATA_BLAS_PASS2(sum_p2_sh, strata_blas::SumReducer<float>, __half)
STRATA_BLAS_PASS2(sum_p2_sb, strata_blas::SumReducer<float>, __nv_bfloat16)
STRATA_BLAS_PASS2(sum_p2_dd, strata_blas::SumReducer<double>, double)
STRATA_BLAS_PASS2(sum_p2_cc, strata_blas::SumReducer<cuComplex>, cuComplex)
STRATA_BLAS_PASS2(sum_p2_zz, strata_blas::SumReducer<cuDoubleComplex>, cuDoubleComplex)
STRATA_BLAS_PASS2(nrm2_p2_ss, strata_blas::Nrm2Reducer<float>, float)
STRATA_BLAS_PASS2(nrm2_p2_sh, strata_blas::Nrm2Reducer<float>, __half)
STRATA_BLAS_PASS2(nrm2_p2_sb, strata_blas::Nrm2Reducer<float>, __nv_bfloat16)
STRATA_BLAS_PASS2(nrm2_p2_dd, strata_blas::Nrm2Reducer<double>, double)
STRATA_BLAS_PASS2(iamax_p2_s_i32, strata_blas::IamaxReducer<float>, int)
STRATA_BLAS_PASS2(iamax_p2_s_i64, strata_blas::IamaxReducer<float>, int64_t)
STRATA_BLAS_PASS2(iamax_p2_d_i32, strata_blas::IamaxReducer<double>, int)
STRATA_BLAS_PASS2(iamax_p2_d_i64, strata_blas::IamaxReducer<double>, int64_t)
STRATA_BLAS_PASS2(iamin_p2_s_i32, strata_blas::IaminReducer<float>, int)
STRATA_BLAS_PASS2(iamin_p2_s_i64, strata_blas::IaminReducer<float>, int64_t)
STRATA_BLAS_PASS2(iamin_p2_d_i32, strata_blas::IaminReducer<double>, int)
STRATA_BLAS_PASS2(iamin_p2_d_i64, strata_blas::IaminReducer<double>, int64_t)
#undef STRATA_BLAS_PASS2
