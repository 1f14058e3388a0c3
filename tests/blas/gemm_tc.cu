// The tensor-core GEMM kernels (src/blas/kernels/gemm_tc.cuh) through cublasGemmEx,
// cublasSgemm under CUBLAS_TF32_TENSOR_OP_MATH and the batched forms: every type
// combination with a tensor-core kernel, every op pair, on every tile configuration
// (forced with STRATA_BLAS_GEMM_TILE, which gemm.h reads at each call) and on the table's
// own choice. Shapes: whole tiles, ragged m / n edges, k not a multiple of the 64-byte k
// slice, leading dimensions beyond the minimum, pointer arrays with misaligned matrices
// (the kernel's per-chunk path) and strided batches with misaligned strides and odd
// leading dimensions (gemm.h's fallback to the plain kernel). Each result is checked
// against the FP64 host reference with issue 7's bound (gemm_test.h check(), which first
// proves it rejects a dropped k-tile, a wrong transpose and a perturbed element); integer
// inputs must be exact. Mutations specific to the tensor-core path: the last k-stage
// dropped and FP16 accumulation of FP16 inputs must both fail the comparison.
#include <cublasLt.h>

#include <cstdlib>

#include "gemm_test.h"
#include "gemm_tiles.h"

using namespace gemm_test;

static cublasHandle_t h = nullptr;

// Every tile of src/blas/kernels/gemm_tiles.h, and "": the selection table's choice.
#define GEMM_TC_TEST_TILE(id, ...) #id,
static const char* const kTiles[] = {STRATA_GEMM_TC_TILES(GEMM_TC_TEST_TILE, 0) ""};
#undef GEMM_TC_TEST_TILE
static constexpr int kNumTiles = sizeof(kTiles) / sizeof(kTiles[0]);

// Leading-dimension padding that keeps ld a multiple of 16 bytes and beyond the minimum.
static int64_t aligned_pad(int64_t rows, int es) {
  const int64_t e = 16 / es;
  const int64_t ld = ((std::max<int64_t>(rows, 1) + e - 1) / e) * e + e;
  return ld - std::max<int64_t>(rows, 1);
}

static void set_tile(const char* tile) {
  if (*tile) {
    setenv("STRATA_BLAS_GEMM_TILE", tile, 1);
  } else {
    unsetenv("STRATA_BLAS_GEMM_TILE");
  }
}

// The comparison must reject a result with the last 64-byte k stage missing and (for
// inputs no wider than FP16, FP32 compute) one accumulated in FP16.
template <typename TA, typename TC>
void tc_mutations(const char* what, const Shape& s, const Precision& p, cd alpha, cd beta,
                  const std::vector<TA>& a, const std::vector<TA>& b, const std::vector<TC>& c,
                  const std::vector<TC>& got) {
  const int64_t slice = 64 / sizeof(TA);
  if (alpha == cd(0.0) || s.k <= slice) return;
  std::vector<cd> mutated;
  std::vector<double> mag;
  std::string why;
  reference(s, s.op_a, ((s.k - 1) / slice) * slice, alpha, beta, a, b, c, &mutated, &mag);
  EXPECT_TRUE(!within(s, p, false, got, c, mutated, mag, &why),
              "%s %s: the comparison accepts a dropped last k stage", what, s.name().c_str());
  if (p.u_compute <= blas_check::kUnitF32 && p.u_out <= blas_check::kUnitF32 && !p.exact &&
      sizeof(TA) == 2) {
    reference(s, s.op_a, s.k, alpha, beta, a, b, c, &mutated, &mag, Mutation::kF16Accumulation);
    EXPECT_TRUE(!within(s, p, false, got, c, mutated, mag, &why),
                "%s %s: the comparison accepts FP16 accumulation", what, s.name().c_str());
  }
}

// One GemmEx case with the mutations above.
template <typename TA, typename TC, typename TS>
void ex_case(const std::string& what, Random& r, const Shape& s, const Precision& p, cd alpha,
             cd beta, cudaDataType ab, cudaDataType ct, cublasComputeType_t compute,
             bool integers) {
  const auto a = random_matrix<TA>(r, s.a_rows(), s.a_cols(), s.lda(), integers);
  const auto b = random_matrix<TA>(r, s.b_rows(), s.b_cols(), s.ldb(), integers);
  auto c = random_matrix<TC>(r, s.m, s.n, s.ldc(), integers);
  if (beta == cd(0.0)) std::fill(c.begin(), c.end(), poison<TC>());
  Device<TA> da(a), db(b);
  Device<TC> dc(c);
  const TS alpha_s = from_cd<TS>(alpha), beta_s = from_cd<TS>(beta);
  CHECK_CUBLAS(cublasGemmEx(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, da.p, ab, s.lda(), db.p, ab,
                            s.ldb(), &beta_s, dc.p, ct, s.ldc(), compute,
                            CUBLAS_GEMM_DEFAULT_TENSOR_OP));
  CHECK_CUDA(cudaDeviceSynchronize());
  const auto got = dc.get();
  check(what.c_str(), s, p, alpha, beta, a, b, c, got);
  tc_mutations(what.c_str(), s, p, alpha, beta, a, b, c, got);
}

// Every op pair on every tile, whole and ragged shapes, then batches.
template <typename TA, typename TC, typename TS>
void tc_row(const char* name, Random& r, cudaDataType ab, cudaDataType ct,
            cublasComputeType_t compute, Precision p) {
  constexpr bool integers = kInteger<TA>;
  const int es = sizeof(TA);
  if (integers) p.exact = true;
  const cd alpha = integers ? cd(2.0) : cd(1.25);
  const cd beta = integers ? cd(-1.0) : cd(-0.5);
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  // (m, n, k): a whole 128 x 128 tile two k slices deep; ragged edges with k off the slice;
  // a thin problem.
  const int64_t shapes[][3] = {{128, 128, 128 / es}, {77, 45, 37 + 64 / es}, {9, 130, 23}};
  int index = 0;
  for (cublasOperation_t oa : ops) {
    for (cublasOperation_t ob : ops) {
      if ((oa == CUBLAS_OP_C || ob == CUBLAS_OP_C) && (oa + ob) % 2 == 0) continue;  // C == T
      const auto& dims = shapes[index % 3];
      const char* tile = kTiles[index % kNumTiles];
      ++index;
      Shape s;
      s.op_a = oa, s.op_b = ob, s.m = dims[0], s.n = dims[1], s.k = dims[2];
      s.lda_pad = aligned_pad(s.a_rows(), es), s.ldb_pad = aligned_pad(s.b_rows(), es);
      s.ldc_pad = index % 2;
      set_tile(tile);
      const bool zero_beta = index % 3 == 0;
      const std::string what =
          std::string(name) + " tile " + (*tile ? tile : "table") + (zero_beta ? " beta=0" : "");
      ex_case<TA, TC, TS>(what, r, s, p, alpha, zero_beta ? cd(0.0) : beta, ab, ct, compute,
                          integers);
    }
  }
  // Batches: pointer arrays whose matrices are misaligned (stride ld * cols + 3: the
  // kernel's per-chunk path), and the same memory as strided batches (gemm.h falls back
  // to the plain kernel). _64 forms.
  using View = BatchView<TA, TC>;
  const TS alpha_s = from_cd<TS>(alpha), beta_s = from_cd<TS>(beta);
  Shape s;
  s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_N, s.m = 40, s.n = 72, s.k = 50;
  s.lda_pad = aligned_pad(s.a_rows(), es), s.ldb_pad = aligned_pad(s.b_rows(), es);
  set_tile("64x64");
  run_batched<TA, TC>(
      (std::string("cublasGemmBatchedEx_64 ") + name).c_str(), r, s, p, alpha, beta, 3, false,
      [&](const View& v) {
        return cublasGemmBatchedEx_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s,
                                      reinterpret_cast<const void* const*>(v.a_array), ab, s.lda(),
                                      reinterpret_cast<const void* const*>(v.b_array), ab, s.ldb(),
                                      &beta_s, reinterpret_cast<void* const*>(v.c_array), ct,
                                      s.ldc(), v.count, compute, CUBLAS_GEMM_DEFAULT);
      },
      integers);
  set_tile("128x64");
  run_batched<TA, TC>((std::string("cublasGemmStridedBatchedEx ") + name).c_str(), r, s, p, alpha,
                      beta, 2, true,
                      [&](const View& v) {
                        return cublasGemmStridedBatchedEx(
                            h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_s, v.a, ab, s.lda(),
                            v.stride_a, v.b, ab, s.ldb(), v.stride_b, &beta_s, v.c, ct, s.ldc(),
                            v.stride_c, v.count, compute, CUBLAS_GEMM_DEFAULT);
                      },
                      integers);
  // An odd leading dimension (the plain kernel) and zero dimensions (quick returns).
  s = Shape();
  s.op_a = CUBLAS_OP_N, s.op_b = CUBLAS_OP_T, s.m = 33, s.n = 20, s.k = 19, s.lda_pad = 1;
  set_tile("");
  ex_case<TA, TC, TS>(std::string(name) + " odd lda", r, s, p, alpha, beta, ab, ct, compute,
                      integers);
  s = Shape();
  s.m = 16, s.n = 16, s.k = 0;
  ex_case<TA, TC, TS>(std::string(name) + " k=0", r, s, p, alpha, beta, ab, ct, compute, integers);
  // m = 0 or n = 0: success, C untouched.
  for (int zero = 0; zero < 2; ++zero) {
    const int64_t m = zero == 0 ? 0 : 16, n = zero == 1 ? 0 : 16;
    const std::vector<TA> x(16 * 16, from_cd<TA>(1.0));
    const std::vector<TC> c(16 * 16, from_cd<TC>(3.0));
    Device<TA> dx(x);
    Device<TC> dc(c);
    CHECK_CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, 16, &alpha_s, dx.p, ab, 16, dx.p,
                              ab, 16, &beta_s, dc.p, ct, 16, compute, CUBLAS_GEMM_DEFAULT));
    CHECK_CUDA(cudaDeviceSynchronize());
    const auto got = dc.get();
    for (size_t i = 0; i < got.size(); ++i) {
      EXPECT_TRUE(to_cd(got[i]) == cd(3.0), "%s m=%lld n=%lld: C[%zu] was written", name,
                  (long long)m, (long long)n, i);
    }
  }
}

// cublasLtMatmul through the tensor-core epilogue kernels (strata_blas_gemm_tc<tile><layout>_lt_*):
// D = epilogue(alpha A^T B + beta C) with a per-row FP32 bias, D FP32, against the FP64
// reference (RELU is 1-Lipschitz, so the bound of the pre-activation value holds).
template <typename TA>
void lt_case(const char* name, Random& r, cudaDataType ab, cublasComputeType_t compute,
             cublasLtEpilogue_t epilogue, double u_compute, const char* tile) {
  const int64_t m = 96, n = 72, k = 80;  // A stored k x m (op T), B k x n, ld multiples of 16 B
  std::vector<TA> a(k * m), b(k * n);
  std::vector<float> c(m * n), bias(m);
  for (auto& v : a) v = random_element<TA>(r, false);
  for (auto& v : b) v = random_element<TA>(r, false);
  for (auto& v : c) v = random_element<float>(r, false);
  for (auto& v : bias) v = random_element<float>(r, false);
  Device<TA> da(a), db(b);
  Device<float> dc(c), dd(std::vector<float>(m * n, 0.0f)), dbias(bias);
  cublasLtHandle_t lt = reinterpret_cast<cublasLtHandle_t>(h);
  cublasLtMatmulDesc_t desc;
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, compute, CUDA_R_32F));
  const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue,
                                              sizeof(epilogue)));
  const float* bias_p = dbias.p;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias_p,
                                              sizeof(bias_p)));
  cublasLtMatrixLayout_t la, lb, lc;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&la, ab, k, m, k));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lb, ab, k, n, k));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m));
  const float alpha = 1.25f, beta = -0.5f;
  set_tile(tile);
  CHECK_CUBLAS(cublasLtMatmul(lt, desc, &alpha, da.p, la, db.p, lb, &beta, dc.p, lc, dd.p, lc,
                              nullptr, nullptr, 0, nullptr));
  CHECK_CUDA(cudaDeviceSynchronize());
  const auto got = dd.get();
  for (int64_t j = 0; j < n; ++j) {
    for (int64_t i = 0; i < m; ++i) {
      double sum = 0, mag = 0;
      for (int64_t l = 0; l < k; ++l) {
        const double x = to_cd(a[l + i * k]).real(), y = to_cd(b[l + j * k]).real();
        sum += x * y, mag += std::abs(x * y);
      }
      double want = alpha * sum + beta * c[i + j * m] + bias[i];
      mag = std::abs(alpha) * mag + std::abs(beta * c[i + j * m]) + std::abs(bias[i]);
      if (epilogue == CUBLASLT_EPILOGUE_RELU_BIAS) want = std::max(want, 0.0);
      const double bound = blas_check::gemm_bound(k + 1, u_compute, blas_check::kUnitF32, mag);
      EXPECT_TRUE(std::abs(got[i + j * m] - want) <= bound,
                  "cublasLtMatmul %s tile %s: D(%lld,%lld) = %.9g, reference %.9g, bound %.3g",
                  name, tile, (long long)i, (long long)j, got[i + j * m], want, bound);
    }
  }
  cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(desc);
}

int main() {
  CHECK_CUBLAS(cublasCreate(&h));
  Random r(77);
  using namespace blas_check;
  const Precision f32{kUnitF32, kUnitF32}, f16{kUnitF16, kUnitF16};
  const Precision f32_to_f16{kUnitF32, kUnitF16}, f32_to_bf16{kUnitF32, kUnitBF16};
  const Precision tf32{kUnitTF32, kUnitF32};

  tc_row<__half, __half, __half>("16F: 16F -> 16F", r, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_16F,
                                 f16);
  tc_row<__half, __half, float>("32F: 16F -> 16F", r, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F,
                                f32_to_f16);
  tc_row<__half, float, float>("32F: 16F -> 32F", r, CUDA_R_16F, CUDA_R_32F, CUBLAS_COMPUTE_32F,
                               f32);
  tc_row<__nv_bfloat16, __nv_bfloat16, float>("32F: 16BF -> 16BF", r, CUDA_R_16BF, CUDA_R_16BF,
                                              CUBLAS_COMPUTE_32F, f32_to_bf16);
  tc_row<__nv_bfloat16, float, float>("32F: 16BF -> 32F", r, CUDA_R_16BF, CUDA_R_32F,
                                      CUBLAS_COMPUTE_32F, f32);
  tc_row<float, float, float>("32F_FAST_TF32", r, CUDA_R_32F, CUDA_R_32F,
                              CUBLAS_COMPUTE_32F_FAST_TF32, tf32);
  tc_row<int8_t, int32_t, int32_t>("32I: 8I -> 32I", r, CUDA_R_8I, CUDA_R_32I, CUBLAS_COMPUTE_32I,
                                   f32);

  lt_case<__half>("16F -> 32F RELU_BIAS", r, CUDA_R_16F, CUBLAS_COMPUTE_32F,
                  CUBLASLT_EPILOGUE_RELU_BIAS, kUnitF32, "128x64");
  lt_case<__nv_bfloat16>("16BF -> 32F BIAS", r, CUDA_R_16BF, CUBLAS_COMPUTE_32F,
                         CUBLASLT_EPILOGUE_BIAS, kUnitF32, "64x64");
  lt_case<float>("32F_FAST_TF32 RELU_BIAS", r, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32,
                 CUBLASLT_EPILOGUE_RELU_BIAS, kUnitTF32, "128x128");
  lt_case<__half>("16F -> 32F BIAS, 64 x 64 warp tiles", r, CUDA_R_16F, CUBLAS_COMPUTE_32F,
                  CUBLASLT_EPILOGUE_BIAS, kUnitF32, "128x128w64");

  // cublasSgemm under CUBLAS_TF32_TENSOR_OP_MATH takes the TF32 kernel; under
  // CUBLAS_DEFAULT_MATH an FP32 mantissa bit below TF32's survives (never the tensor
  // cores): A = 1 + 2^-20, B = 1, k = 4 -> 4 (1 + 2^-20) exactly in FP32, 4 in TF32.
  {
    set_tile("128x128");
    const int n = 64, k = 4;
    std::vector<float> a(n * k, 1.0f + 0x1p-20f), b(k * n, 1.0f), c(n * n, 0.0f);
    Device<float> da(a), db(b), dc(c);
    const float one = 1.0f, zero = 0.0f;
    for (cublasMath_t math : {CUBLAS_DEFAULT_MATH, CUBLAS_TF32_TENSOR_OP_MATH}) {
      CHECK_CUBLAS(cublasSetMathMode(h, math));
      CHECK_CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, k, &one, da.p, n, db.p, k, &zero,
                               dc.p, n));
      CHECK_CUDA(cudaDeviceSynchronize());
      const auto got = dc.get();
      const float want = math == CUBLAS_DEFAULT_MATH ? 4.0f * (1.0f + 0x1p-20f) : 4.0f;
      for (int i = 0; i < n * n; ++i) {
        EXPECT_TRUE(got[i] == want, "cublasSgemm math %d: C[%d] = %.9g, expected %.9g", (int)math,
                    i, got[i], want);
      }
    }
    CHECK_CUBLAS(cublasSetMathMode(h, CUBLAS_DEFAULT_MATH));
  }
  set_tile("");
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS gemm_tc\n");
  return 0;
}
