// cublasSgemm / cublasDgemm (and _64) against the FP64 host reference (gemm_test.h), and
// the math mode rule: under CUBLAS_DEFAULT_MATH no reduced-precision input is used (a
// mantissa bit below TF32 precision survives), under CUBLAS_TF32_TENSOR_OP_MATH the
// inputs are rounded to TF32.
#include "gemm_test.h"

using namespace gemm_test;

// C = A * B with A = 1 + 2^-20 (m x 1) and B = 1: the product keeps 2^-20 unless the
// inputs were rounded to TF32 (10 mantissa bits), which gives 1.
static float tf32_probe(cublasHandle_t h, cublasComputeType_t compute, bool use_ex) {
  const float a = 1.0f + std::ldexp(1.0f, -20), b = 1.0f, one = 1.0f, zero = 0.0f;
  Device<float> da(std::vector<float>{a}), db(std::vector<float>{b}), dc(std::vector<float>{0});
  if (use_ex) {
    CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, da.p, CUDA_R_32F, 1, db.p,
                              CUDA_R_32F, 1, &zero, dc.p, CUDA_R_32F, 1, compute,
                              CUBLAS_GEMM_DEFAULT));
  } else {
    CHECK_CUBLAS(
        cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 1, 1, 1, &one, da.p, 1, db.p, 1, &zero, dc.p, 1));
  }
  return dc.get()[0];
}

int main() {
  cublasHandle_t h = nullptr;
  CHECK_CUBLAS(cublasCreate(&h));
  typed_suite<float>("S", h, 1);
  typed_suite<double>("D", h, 2);

  // Larger shapes: several tiles in every dimension, a partial last tile in each.
  {
    Random r(5);
    Shape s;
    s.op_a = CUBLAS_OP_N, s.op_b = CUBLAS_OP_T, s.m = 200, s.n = 129, s.k = 160, s.lda_pad = 6;
    const float alpha = -1.25f, beta = 0.5f;
    run_case<float, float>("S gemm large", r, s, precision_of<float>(), alpha, beta,
                           [&](const float* a, const float* b, float* c) {
                             return cublasSgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha, a,
                                                s.lda(), b, s.ldb(), &beta, c, s.ldc());
                           });
    s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_N, s.m = 129, s.n = 130, s.k = 70;
    const double alpha_d = 0.75, beta_d = -2.0;
    run_case<double, double>("D gemm large", r, s, precision_of<double>(), alpha_d, beta_d,
                             [&](const double* a, const double* b, double* c) {
                               return cublasDgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_d, a,
                                                  s.lda(), b, s.ldb(), &beta_d, c, s.ldc());
                             });
  }

  const float kept = 1.0f + std::ldexp(1.0f, -20);
  EXPECT_TRUE(tf32_probe(h, CUBLAS_COMPUTE_32F, false) == kept, "default math lost 2^-20");
  EXPECT_TRUE(tf32_probe(h, CUBLAS_COMPUTE_32F, true) == kept, "GemmEx 32F lost 2^-20");
  EXPECT_TRUE(tf32_probe(h, CUBLAS_COMPUTE_32F_FAST_TF32, true) == 1.0f,
              "FAST_TF32 kept 2^-20 (inputs not rounded to TF32)");
  CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_TF32_TENSOR_OP_MATH));
  EXPECT_TRUE(tf32_probe(h, CUBLAS_COMPUTE_32F, false) == 1.0f,
              "TF32 math mode kept 2^-20 (inputs not rounded to TF32)");
  EXPECT_TRUE(tf32_probe(h, CUBLAS_COMPUTE_32F_PEDANTIC, true) == kept,
              "COMPUTE_32F_PEDANTIC lost 2^-20 under TF32 math");
  CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));

  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS gemm_real\n");
  return 0;
}
