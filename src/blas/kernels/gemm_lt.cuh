// cuBLASLt matmul kernels with forward epilogues (bias, RELU, GELU, aux output;
// kernels/lt_epilogue.h): the GEMM tile kernel instantiated with LtEpilogue for the FP32
// compute combinations cuBLASLt's epilogues serve. strata_blas_gemm_lt_<types>.
#pragma once

#include "gemm.cuh"
#include "lt_epilogue.h"

STRATA_BLAS_GEMM_EPILOGUE(lt_s_s_s, float, float, float, strata_blas::kGemmRoundNone,
                          strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_s_s_s_tf32, float, float, float, strata_blas::kGemmRoundTf32,
                          strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_s_s_s_f16, float, float, float, strata_blas::kGemmRoundF16,
                          strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_s_s_s_bf16, float, float, float, strata_blas::kGemmRoundBf16,
                          strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_h_h_s, __half, __half, float, strata_blas::kGemmRoundNone,
                          strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_h_s_s, __half, float, float, strata_blas::kGemmRoundNone,
                          strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_bf_bf_s, __nv_bfloat16, __nv_bfloat16, float,
                          strata_blas::kGemmRoundNone, strata_blas::LtEpilogue)
STRATA_BLAS_GEMM_EPILOGUE(lt_bf_s_s, __nv_bfloat16, float, float, strata_blas::kGemmRoundNone,
                          strata_blas::LtEpilogue)

// The tensor-core kernels of the same (kernels/gemm_tc.cuh):
// strata_blas_gemm_tc<tile><layout>_lt_<types>.
#include "gemm_tc.cuh"

#define STRATA_BLAS_GEMM_TC_LT_LAYOUT(types, TA, TC, T, F, id, bm, bn, wm, wn, st, lay, ak, bk)  \
  extern "C" __global__ void __launch_bounds__(wm* wn * 32,                                      \
                                               STRATA_GEMM_TC_MIN_CTAS(bm, bn, wm, wn))          \
      strata_blas_gemm_tc##id##lay##_##types(                                                    \
          strata_blas::GemmParams p, strata_blas::Scalar<T> alpha, strata_blas::Scalar<T> beta,  \
          strata_blas::LtEpilogue epilogue) {                                                    \
    strata_blas::gemm_tc::tc_tile<strata_blas::gemm_tc::Tile<bm, bn, wm, wn, st>, F, ak, bk, TA, \
                                  TC, T>(p, alpha, beta, epilogue);                              \
  }
#define STRATA_BLAS_GEMM_TC_LT_KERNEL(types, TA, TC, T, F, id, bm, bn, wm, wn, st) \
  STRATA_GEMM_TC_LAYOUTS(STRATA_BLAS_GEMM_TC_LT_LAYOUT, types, TA, TC, T, F, id, bm, bn, wm, wn, st)
#define STRATA_BLAS_GEMM_TC_LT_TILE(id, bm, bn, wm, wn, st, ...) \
  STRATA_GEMM_TC_LT_TYPES(STRATA_BLAS_GEMM_TC_LT_KERNEL, id, bm, bn, wm, wn, st)
STRATA_GEMM_TC_TILES(STRATA_BLAS_GEMM_TC_LT_TILE, 0)
#undef STRATA_BLAS_GEMM_TC_LT_TILE
#undef STRATA_BLAS_GEMM_TC_LT_KERNEL
#undef STRATA_BLAS_GEMM_TC_LT_LAYOUT
