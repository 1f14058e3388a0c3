// The problem a GEMM kernel (kernels/gemm.cuh) computes, shared by the host code that
// launches it (gemm.h, lt_matmul.cc) and the kernels so both agree on its layout:
//   C[b] = epilogue(alpha * op(A[b]) * op(B[b]) + beta * C[b]),  b in [0, batch_count),
// (cuBLASLt: D[b] = ... + beta * C[b], C read from c_in),
// column-major, op(A) m x k, op(B) k x n, C m x n. Batch b's matrices are the pointer
// arrays' entries when the arrays are set (the *Batched entry points: device arrays of
// device pointers), else a + b * stride_a etc. (the *StridedBatched entry points; a plain
// GEMM is one batch).
#pragma once

#include <cstdint>

namespace strata_blas {

// cublasOperation_t's values, which the kernels compare against.
enum GemmOp : int32_t { kGemmOpN = 0, kGemmOpT = 1, kGemmOpC = 2 };

struct GemmParams {
  int64_t m, n, k;
  int32_t op_a, op_b;  // GemmOp
  const void* a;
  const void* const* a_array;  // null: strided
  int64_t lda, stride_a;
  const void* b;
  const void* const* b_array;
  int64_t ldb, stride_b;
  void* c;
  void* const* c_array;
  int64_t ldc, stride_c;
  int64_t batch_count;
  // cuBLASLt: C is read from c_in (ldc_in, stride_c_in), or from c_in_array's matrices
  // (CUBLASLT_BATCH_MODE_POINTER_ARRAY), and the result written to c (D); both null: C is
  // read from c itself (cuBLAS).
  const void* c_in;
  const void* const* c_in_array;
  int64_t ldc_in, stride_c_in;
};

// How the kernels round real FP32 inputs (each component of complex ones) before the
// products: none, or to TF32 / FP16 / BF16 as the fast compute types and math modes allow
// (gemm.h decides). Part of the kernel name: strata_blas_gemm_<types>[_tf32|_f16|_bf16].
enum GemmRounding : int32_t { kGemmRoundNone = 0, kGemmRoundTf32, kGemmRoundF16, kGemmRoundBf16 };

}  // namespace strata_blas
