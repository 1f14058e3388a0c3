// cuBLASLt's FP8 matmul on the tensor cores: the tensor-core tile kernel (kernels/gemm_tc.cuh)
// with m16n8k32 e4m3 / e5m2 mma.sync (FP32 accumulators) for the FP8 table's A x B type pairs
// (gemm_tiles.h STRATA_GEMM_TC_F8_TYPES), on every tile configuration, TN layout only. Same
// arguments and results as the FP8 kernel kernels/lt_fp8.cuh, which serves what this one
// does not (other layouts, operands the cp.async path cannot take, the "fma" choice):
// v = alpha op(A) op(B) from the accumulators, then the LtEpilogue (`scaled`: A/B scales,
// the C term, bias, activation, amax, D's scale), D stored in its runtime element type
// (FP8 saturating). The family's PTX targets compute_89 (FP8 mma); the library launches it
// only on devices of compute capability 8.9 and later (api_lt_matmul.cc).
// strata_blas_gemm_tc<tile>tn_lt_f8_<a>_<b>.
#pragma once

#include "gemm_tc.cuh"
#include "lt_epilogue.h"

namespace strata_blas::gemm_tc {

// The FP8 kernels' epilogue: LtEpilogue's, and D's element type (gemm_tc.cuh StoresOutput:
// it stores D itself).
struct Fp8Output {
  LtEpilogue lt;
  int32_t d_type;  // LtElement

  __device__ float operator()(float v, int64_t row, int64_t col, int64_t batch) const {
    return lt.apply(v, row, col, batch);
  }
  __device__ void store_output(const GemmParams& p, int64_t row, int64_t col, int64_t batch,
                               float v) const {
    void* d = p.c_array != nullptr ? p.c_array[batch] : p.c;
    const int64_t base = p.c_array != nullptr ? 0 : batch * p.stride_c;
    LtEpilogue::store(d, d_type, base + row + col * p.ldc, v);
  }
};

}  // namespace strata_blas::gemm_tc

#define STRATA_BLAS_LT_FP8_TC_KERNEL(types, TA, TC, T, F, id, bm, bn, wm, wn, st)                \
  extern "C" __global__ void __launch_bounds__(wm* wn * 32,                                      \
                                               STRATA_GEMM_TC_MIN_CTAS(bm, bn, wm, wn))          \
      strata_blas_gemm_tc##id##tn_##types(                                                       \
          strata_blas::GemmParams p, strata_blas::Scalar<float> alpha,                           \
          strata_blas::Scalar<float> beta, strata_blas::LtEpilogue epilogue,                     \
          strata_blas::LtFp8Types out) {                                                         \
    strata_blas::gemm_tc::tc_tile<strata_blas::gemm_tc::Tile<bm, bn, wm, wn, st>, F, true, true, \
                                  TA, TC, T>(p, alpha, beta,                                     \
                                             strata_blas::gemm_tc::Fp8Output{epilogue, out.d});  \
  }
#define STRATA_BLAS_LT_FP8_TC_TILE(id, bm, bn, wm, wn, st, ...) \
  STRATA_GEMM_TC_F8_TYPES(STRATA_BLAS_LT_FP8_TC_KERNEL, id, bm, bn, wm, wn, st)
STRATA_GEMM_TC_TILES(STRATA_BLAS_LT_FP8_TC_TILE, 0)
#undef STRATA_BLAS_LT_FP8_TC_TILE
#undef STRATA_BLAS_LT_FP8_TC_KERNEL
