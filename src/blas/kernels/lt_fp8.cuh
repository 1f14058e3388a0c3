// cuBLASLt's FP8 matmul (E4M3 / E5M2 A and B, FP32 compute): one tile kernel whose element
// types are runtime arguments (LtElement), so a single kernel serves every combination of
// the FP8 type table (api_lt_matmul.cc). FP8 values convert exactly to FP32 as they are
// staged in shared memory; products and sums are FP32 (no reduced-precision accumulation,
// with or without CUBLASLT_MATMUL_DESC_FAST_ACCUM). The kernel computes v = alpha op(A) op(B)
// and the epilogue functor (kernels/lt_epilogue.h, `scaled`) adds the scaled C term, bias,
// activation, amax and D's scale; D is stored in d_type (FP8 saturating).
// A CTA of 256 threads computes a 64 x 64 tile of D, 4 x 4 elements per thread, 16 deep.
#pragma once

#include "gemm_params.h"
#include "lt_epilogue.h"
#include "scalar.h"

namespace strata_blas::lt_fp8 {

inline constexpr int kTile = 64;
inline constexpr int kDepth = 16;
inline constexpr int kThreads = 256;

// Element (row, col) of op(X) for X column-major with leading dimension ld.
__device__ inline float load_op(const void* x, int32_t type, int32_t op, int64_t row, int64_t col,
                                int64_t ld) {
  return LtEpilogue::load(x, type, op == kGemmOpN ? row + col * ld : col + row * ld);
}

}  // namespace strata_blas::lt_fp8

extern "C" __global__ void __launch_bounds__(strata_blas::lt_fp8::kThreads)
    strata_blas_lt_fp8(strata_blas::GemmParams p, strata_blas::Scalar<float> alpha_arg,
                       strata_blas::Scalar<float> beta_arg, strata_blas::LtEpilogue epilogue,
                       strata_blas::LtFp8Types types) {
  using namespace strata_blas::lt_fp8;
  (void)beta_arg;  // the epilogue adds the C term
  __shared__ float as[kDepth][kTile];
  __shared__ float bs[kDepth][kTile];
  const float alpha = alpha_arg.get();
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t col_tiles = (p.n + kTile - 1) / kTile;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kTile;
  for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
    const auto* a = static_cast<const uint8_t*>(p.a) + batch * p.stride_a;
    const auto* b = static_cast<const uint8_t*>(p.b) + batch * p.stride_b;
    for (int64_t col_tile = blockIdx.y; col_tile < col_tiles; col_tile += gridDim.y) {
      const int64_t col0 = col_tile * kTile;
      float acc[4][4] = {};
      if (alpha != 0.0f) {
        for (int64_t k0 = 0; k0 < p.k; k0 += kDepth) {
          for (int idx = threadIdx.x; idx < kTile * kDepth; idx += kThreads) {
            // Consecutive threads walk the stored matrix's leading dimension.
            int i, kk;
            if (p.op_a == strata_blas::kGemmOpN) {
              i = idx % kTile, kk = idx / kTile;
            } else {
              kk = idx % kDepth, i = idx / kDepth;
            }
            const int64_t gi = row0 + i, gk = k0 + kk;
            as[kk][i] = gi < p.m && gk < p.k ? load_op(a, types.a, p.op_a, gi, gk, p.lda) : 0.0f;
            int j;
            if (p.op_b == strata_blas::kGemmOpN) {
              kk = idx % kDepth, j = idx / kDepth;
            } else {
              j = idx % kTile, kk = idx / kTile;
            }
            const int64_t gj = col0 + j, gk2 = k0 + kk;
            bs[kk][j] = gj < p.n && gk2 < p.k ? load_op(b, types.b, p.op_b, gk2, gj, p.ldb) : 0.0f;
          }
          __syncthreads();
#pragma unroll
          for (int kk = 0; kk < kDepth; ++kk) {
#pragma unroll
            for (int ii = 0; ii < 4; ++ii) {
#pragma unroll
              for (int jj = 0; jj < 4; ++jj)
                acc[ii][jj] = fmaf(as[kk][ty + 16 * ii], bs[kk][tx + 16 * jj], acc[ii][jj]);
            }
          }
          __syncthreads();
        }
      }
      for (int ii = 0; ii < 4; ++ii) {
        const int64_t row = row0 + ty + 16 * ii;
        if (row >= p.m) continue;
        for (int jj = 0; jj < 4; ++jj) {
          const int64_t col = col0 + tx + 16 * jj;
          if (col >= p.n) continue;
          const float v = epilogue.apply(alpha * acc[ii][jj], row, col, batch);
          strata_blas::LtEpilogue::store(p.c, types.d, row + col * p.ldc + batch * p.stride_c, v);
        }
      }
    }
  }
}
