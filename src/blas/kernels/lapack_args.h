// The problem a batched LAPACK-like kernel (kernels/lapack.cuh) solves, shared by the host
// code that launches it (api_lapack.cc) and the kernels so both agree on its layout. One
// struct serves every routine; the comment of each field says which routines read it.
#pragma once

#include <cstdint>

namespace strata_blas {

struct LapackArgs {
  int32_t m;     // rows of A (geqrf, gels; the others: = n)
  int32_t n;     // order of A (getrf, getrs, getri, matinv), columns of A (geqrf, gels)
  int32_t nrhs;  // right-hand sides (getrs, gels)
  int32_t op;    // getrs: cublasOperation_t of A (0 N, 1 T, 2 C)
  // Dynamic shared memory the kernel may stage A in (bytes; 0: work on A in global memory).
  // The host sets it only when the routine's whole working matrix fits.
  int32_t stage_bytes;
  int32_t batch_count;
  void* const* a_array;  // device array of device pointers to the A matrices
  int32_t lda;
  int32_t ldb;
  // getrs: B (in / out); getri: C (out); matinv: Ainv (out); geqrf: Tau; gels: C (in / out).
  void* const* b_array;
  int* pivots;  // n per matrix, matrix i's at pivots + i * n; null: no pivoting
  int* info;    // batch_count device ints (getrf, getri, matinv, gels' devInfoArray); may be null
};

}  // namespace strata_blas
