// Batched LAPACK-like routines of cuBLAS (getrfBatched, getrsBatched, getriBatched,
// matinvBatched, geqrfBatched, gelsBatched): one thread block per matrix (blockIdx.x walks
// the batch), its threads sharing each step of LAPACK's unblocked algorithm (?getf2,
// ?geqr2 with ?larfg / ?larf) with barriers between steps, so the factors, pivots and
// reflectors are LAPACK's. A matrix the host found small enough is staged in dynamic
// shared memory (LapackArgs::stage_bytes) and worked on there; otherwise in place in global
// memory. The per-matrix code is __noinline__ device functions; the kernels are thin loops
// over the batch (JIT cost grows with the size of one function).
#pragma once

#include <climits>

#include "lapack_args.h"
#include "lapack_math.cuh"

namespace strata_blas {
namespace lapack {

// Dynamic shared memory: the staged matrix.
extern __shared__ double2 lapack_stage[];

// Every function below is called by all threads of the block with the same arguments and
// returns after a barrier, unless it says otherwise.

// dst := src for a rows x cols matrix.
template <typename T>
__device__ __noinline__ void copy_matrix(T* dst, int64_t ldd, const T* src, int64_t lds, int rows,
                                         int cols) {
  const int64_t count = static_cast<int64_t>(rows) * cols;
  for (int64_t e = threadIdx.x; e < count; e += blockDim.x) {
    const int64_t r = e % rows, c = e / rows;
    dst[r + c * ldd] = src[r + c * lds];
  }
  __syncthreads();
}

// LU factorisation with partial pivoting of the n x n matrix a, in place (LAPACK ?getf2):
// at step j the pivot is the first row i >= j of largest |re| + |im| in column j (i?amax),
// rows j and pivot are swapped across all n columns, the column below the diagonal is
// divided by the pivot and the trailing matrix updated. pivots null: no pivoting (the
// pivot is a(j, j)). A zero pivot is not divided by and the factorisation continues, as
// LAPACK's does. Writes pivots[j] = 1-based pivot row when pivots is not null. Returns 0,
// or the 1-based index of the first zero pivot.
template <typename T>
__device__ __noinline__ int lu_factor(T* a, int64_t lda, int n, int* pivots) {
  using R = typename RealOf<T>::type;
  __shared__ int pivot_row;
  int info = 0;
  for (int j = 0; j < n; ++j) {
    T* col = a + j * lda;
    if (threadIdx.x < 32) {  // warp 0 searches the column
      R best = R(-1);
      int row = INT_MAX;
      if (pivots != nullptr) {
        for (int i = j + static_cast<int>(threadIdx.x); i < n; i += 32) {
          const R v = abs1(col[i]);
          if (v > best) best = v, row = i;
        }
        for (int offset = 16; offset > 0; offset >>= 1) {
          const R other = __shfl_down_sync(0xffffffffu, best, offset);
          const int other_row = __shfl_down_sync(0xffffffffu, row, offset);
          if (other > best || (other == best && other_row < row)) best = other, row = other_row;
        }
      }
      if (threadIdx.x == 0) pivot_row = row == INT_MAX ? j : row;  // all NaN: a(j, j)
    }
    __syncthreads();
    const int p = pivot_row;
    const T pivot = col[p];
    const bool nonzero = !is_zero(pivot);
    __syncthreads();  // everyone has read the pivot before the swap moves it
    if (nonzero && p != j)
      for (int c = threadIdx.x; c < n; c += blockDim.x) swap_(a[j + c * lda], a[p + c * lda]);
    if (pivots != nullptr && threadIdx.x == 0) pivots[j] = p + 1;
    if (!nonzero && info == 0) info = j + 1;
    __syncthreads();
    if (nonzero)
      for (int i = j + 1 + static_cast<int>(threadIdx.x); i < n; i += blockDim.x)
        col[i] = div(col[i], pivot);
    __syncthreads();
    const int64_t rest = n - 1 - j;
    for (int64_t e = threadIdx.x; e < rest * rest; e += blockDim.x) {
      const int64_t r = j + 1 + e % rest, c = j + 1 + e / rest;
      a[r + c * lda] = sub(a[r + c * lda], mul(col[r], a[j + c * lda]));
    }
    __syncthreads();
  }
  return info;
}

// Element (i, k) of op(A): op 0 A, 1 A^T, 2 A^H.
template <typename T>
__device__ inline T op_at(const T* a, int64_t lda, int op, int64_t i, int64_t k) {
  if (op == 0) return a[i + k * lda];
  const T v = a[k + i * lda];
  return op == 2 ? conj_(v) : v;
}

// Solves op(A) X = B in place for the n x nrhs matrix B, A triangular: its `lower` or
// upper triangle, its diagonal taken as 1 when `unit`. Column-oriented substitution: one
// unknown per step, the threads updating the rest of every right-hand side.
template <typename T>
__device__ __noinline__ void tri_solve(const T* a, int64_t lda, int n, bool lower, bool unit,
                                       int op, T* b, int64_t ldb, int nrhs) {
  const bool forward = lower == (op == 0);  // op(A) is lower triangular
  for (int s = 0; s < n; ++s) {
    const int k = forward ? s : n - 1 - s;
    if (!unit) {
      const T d = op_at(a, lda, op, k, k);
      for (int c = threadIdx.x; c < nrhs; c += blockDim.x) b[k + c * ldb] = div(b[k + c * ldb], d);
      __syncthreads();
    }
    const int64_t rest = n - 1 - s;
    const int64_t first = forward ? k + 1 : 0;
    for (int64_t e = threadIdx.x; e < rest * nrhs; e += blockDim.x) {
      const int64_t i = first + e % rest, c = e / rest;
      b[i + c * ldb] = sub(b[i + c * ldb], mul(op_at(a, lda, op, i, k), b[k + c * ldb]));
    }
    __syncthreads();
  }
}

// The row interchanges of getrf applied to B (n x nrhs): rows i and pivots[i] - 1 swapped
// for i = 0, 1, ... (forward, LAPACK's ?laswp with incx 1) or in reverse order. Pivots
// outside [1, n] are skipped.
template <typename T>
__device__ __noinline__ void apply_pivots(T* b, int64_t ldb, int n, int nrhs, const int* pivots,
                                          bool forward) {
  for (int c = threadIdx.x; c < nrhs; c += blockDim.x)
    for (int s = 0; s < n; ++s) {
      const int i = forward ? s : n - 1 - s;
      const int p = pivots[i] - 1;
      if (p != i && p >= 0 && p < n) swap_(b[i + c * ldb], b[p + c * ldb]);
    }
  __syncthreads();
}

// Solves op(A) X = B in place (LAPACK ?getrs) from getrf's factors of A = P L U.
template <typename T>
__device__ __noinline__ void lu_solve(const T* lu, int64_t lda, int n, const int* pivots, int op,
                                      T* b, int64_t ldb, int nrhs) {
  if (op == 0) {
    if (pivots != nullptr) apply_pivots(b, ldb, n, nrhs, pivots, /*forward=*/true);
    tri_solve(lu, lda, n, /*lower=*/true, /*unit=*/true, 0, b, ldb, nrhs);
    tri_solve(lu, lda, n, /*lower=*/false, /*unit=*/false, 0, b, ldb, nrhs);
  } else {
    tri_solve(lu, lda, n, /*lower=*/false, /*unit=*/false, op, b, ldb, nrhs);
    tri_solve(lu, lda, n, /*lower=*/true, /*unit=*/true, op, b, ldb, nrhs);
    if (pivots != nullptr) apply_pivots(b, ldb, n, nrhs, pivots, /*forward=*/false);
  }
}

// C := A^-1 from getrf's factors (out of place). Returns the 1-based index of the first
// zero diagonal element of U, C then unwritten (no barrier), else 0.
template <typename T>
__device__ __noinline__ int lu_invert(const T* lu, int64_t lda, int n, const int* pivots, T* c,
                                      int64_t ldc) {
  for (int k = 0; k < n; ++k)
    if (is_zero(lu[k + k * lda])) return k + 1;
  const int64_t count = static_cast<int64_t>(n) * n;
  for (int64_t e = threadIdx.x; e < count; e += blockDim.x) {
    const int64_t r = e % n, col = e / n;
    c[r + col * ldc] = r == col ? one<T>() : zero<T>();
  }
  __syncthreads();
  lu_solve(lu, lda, n, pivots, 0, c, ldc, n);
  return 0;
}

// C := (I - t v v^H) C for the len x cols matrix C, v's first element taken as 1 (LAPACK's
// ?larf from the left). One thread per column of C.
template <typename T>
__device__ __noinline__ void apply_reflector(const T* v, int len, T t, T* c, int64_t ldc,
                                             int cols) {
  for (int j = threadIdx.x; j < cols; j += blockDim.x) {
    T* cj = c + static_cast<int64_t>(j) * ldc;
    T w = cj[0];
    for (int r = 1; r < len; ++r) w = add(w, mul(conj_(v[r]), cj[r]));
    const T tw = mul(t, w);
    cj[0] = sub(cj[0], tw);
    for (int r = 1; r < len; ++r) cj[r] = sub(cj[r], mul(v[r], tw));
  }
  __syncthreads();
}

// Householder QR of the m x n matrix a in place (LAPACK ?geqr2): for i < min(m, n),
// ?larfg on column i from row i (beta into a(i, i), v(2:) below it, tau[i]), then H(i)^H
// applied to the columns right of it and, when c is not null, to the m x nrhs matrix c
// (which becomes Q^H c). tau may be null (not stored).
template <typename T>
__device__ __noinline__ void householder_qr(T* a, int64_t lda, int m, int n, T* tau, T* c,
                                            int64_t ldc, int nrhs) {
  using R = typename RealOf<T>::type;
  __shared__ T tau_shared, scale_shared;
  const int k = min(m, n);
  for (int i = 0; i < k; ++i) {
    T* v = a + i + i * lda;
    const int len = m - i;
    if (threadIdx.x < 32) {  // warp 0: ||v(2:len)||, then ?larfg
      R sum = R(0);
      for (int r = 1 + static_cast<int>(threadIdx.x); r < len; r += 32) sum += abs2(v[r]);
      for (int offset = 16; offset > 0; offset >>= 1)
        sum += __shfl_down_sync(0xffffffffu, sum, offset);
      if (threadIdx.x == 0) {
        T alpha = v[0], t, scale;
        make_reflector(alpha, sqrt(sum), t, scale);
        v[0] = alpha;
        tau_shared = t, scale_shared = scale;
        if (tau != nullptr) tau[i] = t;
      }
    }
    __syncthreads();
    const T t = tau_shared, scale = scale_shared;
    __syncthreads();           // everyone has read them before the next step writes them
    if (is_zero(t)) continue;  // H(i) = I
    for (int r = 1 + static_cast<int>(threadIdx.x); r < len; r += blockDim.x)
      v[r] = mul(scale, v[r]);
    __syncthreads();
    if (i + 1 < n) apply_reflector(v, len, conj_(t), v + lda, lda, n - i - 1);
    if (c != nullptr) apply_reflector(v, len, conj_(t), c + i, ldc, nrhs);
  }
  __syncthreads();
}

// Matrix `batch` of a pointer array; null arrays (the host passes them for empty
// problems) give null.
template <typename T>
__device__ inline T* matrix_of(void* const* array, int batch) {
  return array != nullptr ? static_cast<T*>(array[batch]) : nullptr;
}

// The work array of one matrix: `a` itself, or its copy in the stage.
template <typename T>
struct Work {
  T* a;
  int64_t ld;
};
template <typename T>
__device__ inline Work<T> stage_in(const LapackArgs& p, T* a, int rows, int cols) {
  if (p.stage_bytes == 0) return {a, p.lda};
  T* s = reinterpret_cast<T*>(lapack_stage);
  const int64_t ld = max(rows, 1);
  copy_matrix(s, ld, static_cast<const T*>(a), p.lda, rows, cols);
  return {s, ld};
}
template <typename T>
__device__ inline void stage_out(const LapackArgs& p, T* a, Work<T> w, int rows, int cols) {
  if (p.stage_bytes != 0) copy_matrix(a, p.lda, static_cast<const T*>(w.a), w.ld, rows, cols);
}

template <typename T>
__device__ __noinline__ void getrf_one(LapackArgs p, int batch) {
  T* a = matrix_of<T>(p.a_array, batch);
  int* pivots = p.pivots != nullptr ? p.pivots + static_cast<int64_t>(batch) * p.n : nullptr;
  const Work<T> w = stage_in(p, a, p.n, p.n);
  const int info = lu_factor(w.a, w.ld, p.n, pivots);
  stage_out(p, a, w, p.n, p.n);
  if (p.info != nullptr && threadIdx.x == 0) p.info[batch] = info;
}

template <typename T>
__device__ __noinline__ void getrs_one(LapackArgs p, int batch) {
  const int* pivots = p.pivots != nullptr ? p.pivots + static_cast<int64_t>(batch) * p.n : nullptr;
  lu_solve(matrix_of<const T>(p.a_array, batch), p.lda, p.n, pivots, p.op,
           matrix_of<T>(p.b_array, batch), p.ldb, p.nrhs);
}

template <typename T>
__device__ __noinline__ void getri_one(LapackArgs p, int batch) {
  const int* pivots = p.pivots != nullptr ? p.pivots + static_cast<int64_t>(batch) * p.n : nullptr;
  const int info = lu_invert(matrix_of<const T>(p.a_array, batch), p.lda, p.n, pivots,
                             matrix_of<T>(p.b_array, batch), p.ldb);
  if (p.info != nullptr && threadIdx.x == 0) p.info[batch] = info;
  __syncthreads();
}

// matinv: A (n <= 32, always staged) factored in the stage, inverted into Ainv.
template <typename T>
__device__ __noinline__ void matinv_one(LapackArgs p, int batch) {
  __shared__ int pivots[32];
  const Work<T> w = stage_in(p, matrix_of<T>(p.a_array, batch), p.n, p.n);
  int info = lu_factor(w.a, w.ld, p.n, pivots);
  if (info == 0) info = lu_invert(w.a, w.ld, p.n, pivots, matrix_of<T>(p.b_array, batch), p.ldb);
  if (p.info != nullptr && threadIdx.x == 0) p.info[batch] = info;
  __syncthreads();
}

template <typename T>
__device__ __noinline__ void geqrf_one(LapackArgs p, int batch) {
  T* a = matrix_of<T>(p.a_array, batch);
  const Work<T> w = stage_in(p, a, p.m, p.n);
  householder_qr(w.a, w.ld, p.m, p.n, matrix_of<T>(p.b_array, batch), static_cast<T*>(nullptr), 0,
                 0);
  stage_out(p, a, w, p.m, p.n);
}

// gels (m >= n): A = QR in place, C := Q^H C, then R X = C(1:n, :) unless R has a zero
// diagonal element (info: its 1-based index; C then holds Q^H C).
template <typename T>
__device__ __noinline__ void gels_one(LapackArgs p, int batch) {
  T* a = matrix_of<T>(p.a_array, batch);
  T* c = matrix_of<T>(p.b_array, batch);
  const Work<T> w = stage_in(p, a, p.m, p.n);
  householder_qr(w.a, w.ld, p.m, p.n, static_cast<T*>(nullptr), c, p.ldb, p.nrhs);
  int info = 0;
  for (int k = 0; k < p.n && info == 0; ++k)
    if (is_zero(w.a[k + k * w.ld])) info = k + 1;
  if (info == 0)
    tri_solve(static_cast<const T*>(w.a), w.ld, p.n, /*lower=*/false, /*unit=*/false, 0, c, p.ldb,
              p.nrhs);
  stage_out(p, a, w, p.m, p.n);
  if (p.info != nullptr && threadIdx.x == 0) p.info[batch] = info;
  __syncthreads();
}

}  // namespace lapack
}  // namespace strata_blas

#define STRATA_BLAS_LAPACK_KERNEL(routine, suffix, T)                                      \
  extern "C" __global__ void strata_blas_##routine##_##suffix(strata_blas::LapackArgs p) { \
    for (int b = blockIdx.x; b < p.batch_count; b += gridDim.x)                            \
      strata_blas::lapack::routine##_one<T>(p, b);                                         \
  }
#define STRATA_BLAS_LAPACK_KERNELS(routine)        \
  STRATA_BLAS_LAPACK_KERNEL(routine, s, float)     \
  STRATA_BLAS_LAPACK_KERNEL(routine, d, double)    \
  STRATA_BLAS_LAPACK_KERNEL(routine, c, cuComplex) \
  STRATA_BLAS_LAPACK_KERNEL(routine, z, cuDoubleComplex)
STRATA_BLAS_LAPACK_KERNELS(getrf)
STRATA_BLAS_LAPACK_KERNELS(getrs)
STRATA_BLAS_LAPACK_KERNELS(getri)
STRATA_BLAS_LAPACK_KERNELS(matinv)
STRATA_BLAS_LAPACK_KERNELS(geqrf)
STRATA_BLAS_LAPACK_KERNELS(gels)
#undef STRATA_BLAS_LAPACK_KERNELS
#undef STRATA_BLAS_LAPACK_KERNEL
