// Packed <-> full triangular storage (cublas<t>tpttr, cublas<t>trttp), column-major, one
// thread per element of the packed array in a grid-stride loop. Only the uplo triangle of
// the full matrix is read (trttp) or written (tpttr); the other triangle is never touched.
#pragma once

#include "common.cuh"

namespace strata_blas {

// The (row, column) of packed element p of an n x n triangle (column-major packing, as
// LAPACK's ?tpttr documents): upper column j holds rows 0..j at p = i + j (j + 1) / 2,
// lower column j rows j..n-1 at p = (i - j) + j (2n - j + 1) / 2.
__device__ inline void packed_position(bool lower, int64_t n, int64_t p, int64_t* i, int64_t* j) {
  // Column j starts at start(j); find the largest j with start(j) <= p (a short search
  // from a floating-point estimate, exact for any n a device can hold).
  int64_t col;
  if (!lower) {
    col = static_cast<int64_t>((sqrt(8.0 * static_cast<double>(p) + 1.0) - 1.0) / 2.0);
    while (col > 0 && col * (col + 1) / 2 > p) --col;
    while ((col + 1) * (col + 2) / 2 <= p) ++col;
    *j = col;
    *i = p - col * (col + 1) / 2;
  } else {
    // start(j) = j (2n - j + 1) / 2; count from the end: q = total - 1 - p lies in the
    // reversed upper packing of columns n-1..0.
    const int64_t q = n * (n + 1) / 2 - 1 - p;
    col = static_cast<int64_t>((sqrt(8.0 * static_cast<double>(q) + 1.0) - 1.0) / 2.0);
    while (col > 0 && col * (col + 1) / 2 > q) --col;
    while ((col + 1) * (col + 2) / 2 <= q) ++col;
    // reversed column col has col + 1 elements; q's offset in it is counted from its end
    const int64_t r = q - col * (col + 1) / 2;
    *j = n - 1 - col;
    *i = n - 1 - r;
  }
}

template <typename T>
__device__ void packed_copy(bool to_full, bool lower, int64_t n, const T* src, T* dst,
                            int64_t lda) {
  STRATA_BLAS_FOR(p, n * (n + 1) / 2) {
    int64_t i, j;
    packed_position(lower, n, p, &i, &j);
    if (to_full) {
      dst[i + j * lda] = src[p];
    } else {
      dst[p] = src[i + j * lda];
    }
  }
}

}  // namespace strata_blas

// to_full != 0: tpttr (src packed, dst full); else trttp (src full, dst packed).
#define STRATA_BLAS_PACKED(suffix, T)                                                 \
  extern "C" __global__ void strata_blas_packed_##suffix(                             \
      int32_t to_full, int32_t lower, int64_t n, const T* src, T* dst, int64_t lda) { \
    strata_blas::packed_copy(to_full != 0, lower != 0, n, src, dst, lda);             \
  }
STRATA_BLAS_PACKED(s, float)
STRATA_BLAS_PACKED(d, double)
STRATA_BLAS_PACKED(c, cuComplex)
STRATA_BLAS_PACKED(z, cuDoubleComplex)
#undef STRATA_BLAS_PACKED
