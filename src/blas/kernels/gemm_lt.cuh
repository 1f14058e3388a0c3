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
