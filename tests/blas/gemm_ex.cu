// cublasGemmEx / GemmBatchedEx / GemmStridedBatchedEx (and _64) over every row of the
// cuBLAS documentation's cublasGemmEx table of data type / compute type combinations,
// cublasHgemm, cublasSgemmEx, cublasCgemmEx; the combinations outside the table are
// CUBLAS_STATUS_NOT_SUPPORTED; every documented cublasGemmAlgo_t value is accepted.
#include "gemm_test.h"

using namespace gemm_test;

static cublasHandle_t h = nullptr;

// One table row: TA/TB storage, TC storage, TS the scale type (alpha, beta).
template <typename TA, typename TC, typename TS>
void ex_row(const char* name, Random& r, cudaDataType ab, cudaDataType c,
            cublasComputeType_t compute, Precision p) {
  constexpr bool complex = kComplex<TS>;
  constexpr bool integers = kInteger<TA>;
  const cd alpha = integers ? cd(2.0) : complex ? cd(1.25, 0.5) : cd(1.25);
  const cd beta = integers ? cd(-1.0) : complex ? cd(-0.5, 0.75) : cd(-0.5);
  if (integers) p.exact = true;
  const TS alpha_s = from_cd<TS>(alpha), beta_s = from_cd<TS>(beta), zero_s = from_cd<TS>(0.0);
  const cublasOperation_t second = complex ? CUBLAS_OP_C : CUBLAS_OP_T;
  std::string what = std::string("cublasGemmEx ") + name;
  Shape s;
  s.op_a = CUBLAS_OP_N, s.op_b = second, s.m = 33, s.n = 17, s.k = 40, s.lda_pad = 1;
  run_case<TA, TC>(
      what.c_str(), r, s, p, alpha, beta,
      [&](const TA* a, const TA* b, TC* cc) {
        return cublasGemmEx(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, a, ab, s.lda(), b, ab,
                            s.ldb(), &beta_s, cc, c, s.ldc(), compute, CUBLAS_GEMM_DEFAULT);
      },
      integers);
  what = std::string("cublasGemmEx_64 beta=0 ") + name;
  s = Shape();
  s.op_a = second, s.op_b = CUBLAS_OP_N, s.m = 7, s.n = 65, s.k = 20, s.ldc_pad = 2;
  run_case<TA, TC>(
      what.c_str(), r, s, p, alpha, 0.0,
      [&](const TA* a, const TA* b, TC* cc) {
        return cublasGemmEx_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, a, ab, s.lda(), b, ab,
                               s.ldb(), &zero_s, cc, c, s.ldc(), compute,
                               CUBLAS_GEMM_DEFAULT_TENSOR_OP);
      },
      integers);
  using View = BatchView<TA, TC>;
  what = std::string("cublasGemmStridedBatchedEx strideA=0 ") + name;
  s = Shape();
  s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_T, s.m = 16, s.n = 9, s.k = 17;
  run_batched<TA, TC>(
      what.c_str(), r, s, p, alpha, beta, 2, true,
      [&](const View& v) {
        return cublasGemmStridedBatchedEx(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, v.a, ab,
                                          s.lda(), v.stride_a, v.b, ab, s.ldb(), v.stride_b,
                                          &beta_s, v.c, c, s.ldc(), v.stride_c, v.count, compute,
                                          CUBLAS_GEMM_ALGO5);
      },
      integers);
  what = std::string("cublasGemmBatchedEx ") + name;
  run_batched<TA, TC>(
      what.c_str(), r, s, p, alpha, beta, 2, false,
      [&](const View& v) {
        return cublasGemmBatchedEx(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s,
                                   reinterpret_cast<const void* const*>(v.a_array), ab, s.lda(),
                                   reinterpret_cast<const void* const*>(v.b_array), ab, s.ldb(),
                                   &beta_s, reinterpret_cast<void* const*>(v.c_array), c, s.ldc(),
                                   v.count, compute, CUBLAS_GEMM_DEFAULT);
      },
      integers);
  what = std::string("cublasGemmStridedBatchedEx_64 ") + name;
  run_batched<TA, TC>(
      what.c_str(), r, s, p, alpha, beta, 2, false,
      [&](const View& v) {
        return cublasGemmStridedBatchedEx_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, v.a, ab,
                                             s.lda(), v.stride_a, v.b, ab, s.ldb(), v.stride_b,
                                             &beta_s, v.c, c, s.ldc(), v.stride_c, v.count, compute,
                                             CUBLAS_GEMM_DEFAULT);
      },
      integers);
}

// cublasSgemmEx / cublasCgemmEx for one row (CUBLAS_COMPUTE_32F).
template <typename TA, typename TC, typename TS>
void ex32_row(const char* name, Random& r, cudaDataType ab, cudaDataType c, Precision p) {
  constexpr bool complex = kComplex<TS>;
  constexpr bool integers = kInteger<TA>;
  if (integers) p.exact = true;
  const cd alpha = complex ? cd(0.75, -0.25) : cd(0.75), beta = complex ? cd(2.0, 1.0) : cd(2.0);
  const TS alpha_s = from_cd<TS>(alpha), beta_s = from_cd<TS>(beta);
  Shape s;
  s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_N, s.m = 20, s.n = 21, s.k = 35;
  const std::string what = std::string(complex ? "cublasCgemmEx " : "cublasSgemmEx ") + name;
  run_case<TA, TC>(
      what.c_str(), r, s, p, alpha, beta,
      [&](const TA* a, const TA* b, TC* cc) {
        if constexpr (complex) {
          return cublasCgemmEx(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, a, ab, s.lda(), b, ab,
                               s.ldb(), &beta_s, cc, c, s.ldc());
        } else {
          return cublasSgemmEx_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, a, ab, s.lda(), b, ab,
                                  s.ldb(), &beta_s, cc, c, s.ldc());
        }
      },
      integers);
}

int main() {
  CHECK_CUBLAS(cublasCreate(&h));
  Random r(21);
  using namespace blas_check;
  const Precision f32{kUnitF32, kUnitF32}, f64{kUnitF64, kUnitF64};
  const Precision f32_to_f16{kUnitF32, kUnitF16}, f32_to_bf16{kUnitF32, kUnitBF16};
  const Precision f16{kUnitF16, kUnitF16}, tf32{kUnitTF32, kUnitF32};
  const Precision fast16{kUnitF16, kUnitF32}, fast16bf{kUnitBF16, kUnitF32};

  // The table, row by row (compute type, scale type, A/B type, C type).
  for (auto compute : {CUBLAS_COMPUTE_16F, CUBLAS_COMPUTE_16F_PEDANTIC}) {
    ex_row<__half, __half, __half>("16F: 16F -> 16F", r, CUDA_R_16F, CUDA_R_16F, compute, f16);
  }
  for (auto compute : {CUBLAS_COMPUTE_32I, CUBLAS_COMPUTE_32I_PEDANTIC}) {
    ex_row<int8_t, int32_t, int32_t>("32I: 8I -> 32I", r, CUDA_R_8I, CUDA_R_32I, compute, f32);
  }
  for (auto compute : {CUBLAS_COMPUTE_32F, CUBLAS_COMPUTE_32F_PEDANTIC}) {
    ex_row<__nv_bfloat16, __nv_bfloat16, float>("32F: 16BF -> 16BF", r, CUDA_R_16BF, CUDA_R_16BF,
                                                compute, f32_to_bf16);
    ex_row<__half, __half, float>("32F: 16F -> 16F", r, CUDA_R_16F, CUDA_R_16F, compute,
                                  f32_to_f16);
    ex_row<int8_t, float, float>("32F: 8I -> 32F", r, CUDA_R_8I, CUDA_R_32F, compute, f32);
    ex_row<__nv_bfloat16, float, float>("32F: 16BF -> 32F", r, CUDA_R_16BF, CUDA_R_32F, compute,
                                        f32);
    ex_row<__half, float, float>("32F: 16F -> 32F", r, CUDA_R_16F, CUDA_R_32F, compute, f32);
    ex_row<float, float, float>("32F: 32F -> 32F", r, CUDA_R_32F, CUDA_R_32F, compute, f32);
    ex_row<char2, cuComplex, cuComplex>("32F: C8I -> C32F", r, CUDA_C_8I, CUDA_C_32F, compute, f32);
    ex_row<cuComplex, cuComplex, cuComplex>("32F: C32F -> C32F", r, CUDA_C_32F, CUDA_C_32F, compute,
                                            f32);
  }
  ex_row<float, float, float>("32F_FAST_16F", r, CUDA_R_32F, CUDA_R_32F,
                              CUBLAS_COMPUTE_32F_FAST_16F, fast16);
  ex_row<float, float, float>("32F_FAST_16BF", r, CUDA_R_32F, CUDA_R_32F,
                              CUBLAS_COMPUTE_32F_FAST_16BF, fast16bf);
  ex_row<float, float, float>("32F_FAST_TF32", r, CUDA_R_32F, CUDA_R_32F,
                              CUBLAS_COMPUTE_32F_FAST_TF32, tf32);
  ex_row<float, float, float>("32F_EMULATED_16BFX9", r, CUDA_R_32F, CUDA_R_32F,
                              CUBLAS_COMPUTE_32F_EMULATED_16BFX9, f32);
  ex_row<cuComplex, cuComplex, cuComplex>("C 32F_FAST_TF32", r, CUDA_C_32F, CUDA_C_32F,
                                          CUBLAS_COMPUTE_32F_FAST_TF32, tf32);
  ex_row<cuComplex, cuComplex, cuComplex>("C 32F_FAST_16F", r, CUDA_C_32F, CUDA_C_32F,
                                          CUBLAS_COMPUTE_32F_FAST_16F, fast16);
  ex_row<cuComplex, cuComplex, cuComplex>("C 32F_FAST_16BF", r, CUDA_C_32F, CUDA_C_32F,
                                          CUBLAS_COMPUTE_32F_FAST_16BF, fast16bf);
  for (auto compute :
       {CUBLAS_COMPUTE_64F, CUBLAS_COMPUTE_64F_PEDANTIC, CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT}) {
    ex_row<double, double, double>("64F: 64F -> 64F", r, CUDA_R_64F, CUDA_R_64F, compute, f64);
    ex_row<cuDoubleComplex, cuDoubleComplex, cuDoubleComplex>("64F: C64F -> C64F", r, CUDA_C_64F,
                                                              CUDA_C_64F, compute, f64);
  }

  // cublasSgemmEx's and cublasCgemmEx's tables.
  ex32_row<__nv_bfloat16, __nv_bfloat16, float>("16BF -> 16BF", r, CUDA_R_16BF, CUDA_R_16BF,
                                                f32_to_bf16);
  ex32_row<__nv_bfloat16, float, float>("16BF -> 32F", r, CUDA_R_16BF, CUDA_R_32F, f32);
  ex32_row<__half, __half, float>("16F -> 16F", r, CUDA_R_16F, CUDA_R_16F, f32_to_f16);
  ex32_row<__half, float, float>("16F -> 32F", r, CUDA_R_16F, CUDA_R_32F, f32);
  ex32_row<int8_t, float, float>("8I -> 32F", r, CUDA_R_8I, CUDA_R_32F, f32);
  ex32_row<float, float, float>("32F -> 32F", r, CUDA_R_32F, CUDA_R_32F, f32);
  ex32_row<char2, cuComplex, cuComplex>("C8I -> C32F", r, CUDA_C_8I, CUDA_C_32F, f32);
  ex32_row<cuComplex, cuComplex, cuComplex>("C32F -> C32F", r, CUDA_C_32F, CUDA_C_32F, f32);

  // cublasHgemm (FP16 accumulation) and its _64 form.
  {
    Shape s;
    s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_N, s.m = 65, s.n = 7, s.k = 33;
    const __half alpha = __float2half(1.5f), beta = __float2half(-0.5f);
    run_case<__half, __half>("cublasHgemm", r, s, f16, 1.5, -0.5,
                             [&](const __half* a, const __half* b, __half* c) {
                               return cublasHgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha, a,
                                                  s.lda(), b, s.ldb(), &beta, c, s.ldc());
                             });
    run_case<__half, __half>("cublasHgemm_64", r, s, f16, 1.5, -0.5,
                             [&](const __half* a, const __half* b, __half* c) {
                               return cublasHgemm_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha, a,
                                                     s.lda(), b, s.ldb(), &beta, c, s.ldc());
                             });
  }

  // Outside the table: CUBLAS_STATUS_NOT_SUPPORTED. Undefined enum values: INVALID_VALUE.
  {
    const float one = 1.0f;
    const double one_d = 1.0;
    Device<float> buf(std::vector<float>(64, 0.0f));
    auto ex = [&](cudaDataType a, cudaDataType b, cudaDataType c, cublasComputeType_t compute,
                  const void* scale, cublasGemmAlgo_t algo = CUBLAS_GEMM_DEFAULT) {
      return cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, scale, buf.p, a, 2, buf.p, b, 2,
                          scale, buf.p, c, 2, compute, algo);
    };
    const cublasStatus_t kNo = CUBLAS_STATUS_NOT_SUPPORTED;
    EXPECT_STATUS(ex(CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_16F, CUBLAS_COMPUTE_32F, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_64F, &one_d), kNo);
    EXPECT_STATUS(ex(CUDA_R_8I, CUDA_R_8I, CUDA_R_8I, CUBLAS_COMPUTE_32I, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_16F, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F_FAST_TF32, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_16F, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_32F, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_64F, &one_d), kNo);
    EXPECT_STATUS(ex(CUDA_C_32F, CUDA_C_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, &one), kNo);
    EXPECT_STATUS(ex(CUDA_C_8I, CUDA_C_8I, CUDA_C_32F, CUBLAS_COMPUTE_32F_FAST_TF32, &one), kNo);
    EXPECT_STATUS(ex(CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32F, &one), kNo);
    EXPECT_STATUS(
        ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, static_cast<cublasComputeType_t>(12345), &one),
        CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, &one,
                     static_cast<cublasGemmAlgo_t>(57)),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, nullptr),
                  CUBLAS_STATUS_INVALID_VALUE);
    // SgemmEx takes real types only, CgemmEx complex ones.
    EXPECT_STATUS(cublasSgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, buf.p, CUDA_C_32F, 2,
                                buf.p, CUDA_C_32F, 2, &one, buf.p, CUDA_C_32F, 2),
                  kNo);
    const cuComplex one_c = make_cuComplex(1.0f, 0.0f);
    EXPECT_STATUS(cublasCgemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one_c, buf.p, CUDA_R_32F, 2,
                                buf.p, CUDA_R_32F, 2, &one_c, buf.p, CUDA_R_32F, 2),
                  kNo);
    EXPECT_STATUS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, buf.p, CUDA_R_32F, 1,
                               buf.p, CUDA_R_32F, 2, &one, buf.p, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F,
                               CUBLAS_GEMM_DEFAULT),
                  CUBLAS_STATUS_INVALID_VALUE);  // lda < m
    // Every documented algorithm is accepted (and computes the same GEMM).
    std::vector<int> algos = {CUBLAS_GEMM_DEFAULT, CUBLAS_GEMM_DEFAULT_TENSOR_OP};
    for (int a = CUBLAS_GEMM_ALGO0; a <= CUBLAS_GEMM_ALGO23; ++a) algos.push_back(a);
    for (int a = CUBLAS_GEMM_ALGO0_TENSOR_OP; a <= CUBLAS_GEMM_ALGO15_TENSOR_OP; ++a) {
      algos.push_back(a);
    }
    for (int algo : algos) {
      CHECK_CUBLAS(ex(CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, &one,
                      static_cast<cublasGemmAlgo_t>(algo)));
    }
  }
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS gemm_ex\n");
  return 0;
}
