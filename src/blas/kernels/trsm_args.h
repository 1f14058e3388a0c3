// The problem a trsm kernel (kernels/trsm.cuh) solves, shared by the host code that
// launches it (api_trsm.cc) and the kernel so both agree on its layout.
#pragma once

#include <cstdint>

namespace strata_blas {

struct TrsmArgs {
  int32_t left;   // side: 1 left (op(A) X = alpha B), 0 right (X op(A) = alpha B)
  int32_t lower;  // the stored triangle of A: 1 lower, 0 upper
  int32_t op;     // cublasOperation_t: 0 N, 1 T, 2 C
  int32_t unit;   // 1: unit diagonal (not read)
  int64_t m, n;   // B is m x n
  const void* a;
  const void* const* a_array;  // trsmBatched: device array of device pointers, else null
  int64_t lda;
  void* b;
  void* const* b_array;
  int64_t ldb;
  int64_t batch_count;
};

}  // namespace strata_blas
