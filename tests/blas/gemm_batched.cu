// cublas{H,S,D,C,Z}gemmBatched (device arrays of pointers) and gemmStridedBatched (incl.
// stride 0 for A, padded strides, beta == 0 over NaN, device scalars, _64 forms) against the FP64
// host reference (gemm_test.h).
#include "gemm_test.h"

using namespace gemm_test;

template <typename T>
void batched_suite(const char* type_name, cublasHandle_t h, uint64_t seed) {
  Random r(seed);
  const Precision p = precision_of<T>();
  constexpr bool complex = kComplex<T>;
  const cd alpha = complex ? cd(1.5, -0.5) : cd(1.5), beta = complex ? cd(-0.75, 0.25) : cd(-0.75);
  const T alpha_t = from_cd<T>(alpha), beta_t = from_cd<T>(beta), zero_t = from_cd<T>(0.0);
  using View = BatchView<T, T>;
  std::string what = std::string(type_name) + "gemmBatched";
  Shape s;
  s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_N, s.m = 33, s.n = 17, s.k = 20, s.lda_pad = 2;
  run_batched<T, T>(what.c_str(), r, s, p, alpha, beta, 3, false, [&](const View& v) {
    return xgemm_batched(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_t, v.a_array, s.lda(), v.b_array,
                         s.ldb(), &beta_t, v.c_array, s.ldc(), v.count);
  });
  what = std::string(type_name) + "gemmStridedBatched strideA=0";
  s = Shape();
  s.op_a = CUBLAS_OP_N, s.op_b = CUBLAS_OP_C, s.m = 20, s.n = 33, s.k = 17, s.ldc_pad = 1;
  run_batched<T, T>(what.c_str(), r, s, p, alpha, beta, 4, true, [&](const View& v) {
    return xgemm_strided(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_t, v.a, s.lda(), v.stride_a, v.b,
                         s.ldb(), v.stride_b, &beta_t, v.c, s.ldc(), v.stride_c, v.count);
  });
  what = std::string(type_name) + "gemmStridedBatched beta=0";
  s = Shape();
  s.op_a = CUBLAS_OP_C, s.op_b = CUBLAS_OP_T, s.m = 7, s.n = 65, s.k = 33;
  run_batched<T, T>(what.c_str(), r, s, p, alpha, 0.0, 2, false, [&](const View& v) {
    return xgemm_strided(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_t, v.a, s.lda(), v.stride_a, v.b,
                         s.ldb(), v.stride_b, &zero_t, v.c, s.ldc(), v.stride_c, v.count);
  });
  // Device scalars.
  what = std::string(type_name) + "gemmBatched device scalars";
  s = Shape();
  s.op_a = CUBLAS_OP_N, s.op_b = CUBLAS_OP_N, s.m = 9, s.n = 10, s.k = 11;
  {
    Device<T> scalars(std::vector<T>{alpha_t, beta_t});
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    run_batched<T, T>(what.c_str(), r, s, p, alpha, beta, 2, false, [&](const View& v) {
      return xgemm_batched(h, s.op_a, s.op_b, s.m, s.n, s.k, scalars.p, v.a_array, s.lda(),
                           v.b_array, s.ldb(), scalars.p + 1, v.c_array, s.ldc(), v.count);
    });
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  }
  // Batch counts: 0 returns at once, negative is invalid.
  T* null = nullptr;
  const T* const* null_array = nullptr;
  CHECK_CUBLAS(xgemm_strided(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha_t, null, 4, 16, null, 4,
                             16, &beta_t, null, 4, 16, 0));
  EXPECT_STATUS(xgemm_strided(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha_t, null, 4, 16, null, 4,
                              16, &beta_t, null, 4, 16, -1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm_batched(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha_t, null_array, 4,
                              null_array, 4, &beta_t, nullptr, 4, -2),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm_batched(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &alpha_t, null_array, 3,
                              null_array, 4, &beta_t, nullptr, 4, 2),
                CUBLAS_STATUS_INVALID_VALUE);  // lda < m
}

int main() {
  cublasHandle_t h = nullptr;
  CHECK_CUBLAS(cublasCreate(&h));
  batched_suite<__half>("H", h, 11);
  batched_suite<float>("S", h, 12);
  batched_suite<double>("D", h, 13);
  batched_suite<cuComplex>("C", h, 14);
  batched_suite<cuDoubleComplex>("Z", h, 15);

  // The _64 forms.
  Random r(16);
  const Precision p = precision_of<float>();
  const float alpha = 0.5f, beta = 2.0f;
  using View = BatchView<float, float>;
  Shape s;
  s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_T, s.m = 12, s.n = 13, s.k = 70;
  run_batched<float, float>(
      "cublasSgemmStridedBatched_64", r, s, p, alpha, beta, 2, false, [&](const View& v) {
        return cublasSgemmStridedBatched_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha, v.a, s.lda(),
                                            v.stride_a, v.b, s.ldb(), v.stride_b, &beta, v.c,
                                            s.ldc(), v.stride_c, v.count);
      });
  run_batched<float, float>(
      "cublasSgemmBatched_64", r, s, p, alpha, beta, 2, false, [&](const View& v) {
        return cublasSgemmBatched_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha, v.a_array, s.lda(),
                                     v.b_array, s.ldb(), &beta, v.c_array, s.ldc(), v.count);
      });
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS gemm_batched\n");
  return 0;
}
