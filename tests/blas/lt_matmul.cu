// cublasLtMatmul and its heuristic the way llm.c and PyTorch call them: FP32, FP16 and BF16
// matrices with FP32 compute; transposes; column- and row-major layouts; strided batches
// (stride 0 broadcasts) and pointer-array batches (CUBLASLT_BATCH_MODE_POINTER_ARRAY, the
// matrices in reverse order and the layouts' strides wrong: they must be ignored); C
// separate from D and in place; epilogues BIAS, RELU_BIAS,
// GELU_BIAS and GELU_AUX_BIAS (the aux matrix holds the pre-activation); a null algorithm
// and no workspace; the heuristic's answer; and the statuses of bad calls. Checked against
// an FP64 host reference with 2 (k u_compute + u_out) (|alpha| |A| |B| + |beta| |C| + |bias|).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>

#include "blas_check.h"

template <typename T> struct Elem;
template <> struct Elem<float> {
  static constexpr cudaDataType type = CUDA_R_32F;
  static float from(double v) { return static_cast<float>(v); }
  static double to(float v) { return v; }
  static constexpr double u = blas_check::kUnitF32;
};
template <> struct Elem<__half> {
  static constexpr cudaDataType type = CUDA_R_16F;
  static __half from(double v) { return __float2half_rn(static_cast<float>(v)); }
  static double to(__half v) { return __half2float(v); }
  static constexpr double u = blas_check::kUnitF16;
};
template <> struct Elem<__nv_bfloat16> {
  static constexpr cudaDataType type = CUDA_R_16BF;
  static __nv_bfloat16 from(double v) { return __float2bfloat16_rn(static_cast<float>(v)); }
  static double to(__nv_bfloat16 v) { return __bfloat162float(v); }
  static constexpr double u = blas_check::kUnitBF16;
};

double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}

struct Matrix {
  int rows, cols;
  int64_t ld, stride;
  bool row_major;
  int64_t at(int r, int c, int b) const {
    return b * stride + (row_major ? r * ld + c : r + c * ld);
  }
  size_t elements(int batch) const {
    return static_cast<size_t>(std::max<int64_t>(stride * (batch - 1), 0) +
                               (row_major ? rows * ld : cols * ld));
  }
};

// arrays: a pointer-array layout, whose strided-batch offset (set to a wrong value) is unused.
cublasLtMatrixLayout_t layout(cudaDataType type, const Matrix& m, int batch, bool arrays = false) {
  cublasLtMatrixLayout_t l;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l, type, m.rows, m.cols, m.ld));
  const int32_t order = m.row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch, sizeof(batch)));
  const int64_t stride = arrays ? 7 : m.stride;
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof(stride)));
  if (arrays) {
    const uint32_t mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY;
    CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof(mode)));
  }
  return l;
}

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
std::vector<T> download(const T* d, size_t n) {
  std::vector<T> v(n);
  CHECK_CUDA(cudaMemcpy(v.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

struct Case {
  int m, n, k, batch;
  cublasOperation_t ta, tb;
  bool a_row, b_row, d_row;
  bool separate_c;  // C in its own buffer, else in place (C == D)
  bool broadcast_a;  // stride 0 for A
  uint32_t epilogue;
  bool arrays = false;   // pointer-array batches: batch b's matrices are stored batch - 1 - b
  bool aligned = false;  // leading dimensions multiples of 8 elements (the tensor-core path)
};

// A device array of the batches' matrix pointers, batch b's at stored batch batch - 1 - b.
template <typename T>
void** pointer_array(T* base, const Matrix& m, int batch) {
  std::vector<void*> p(batch);
  for (int b = 0; b < batch; ++b) p[b] = base + m.at(0, 0, batch - 1 - b);
  return upload(p);
}

template <typename TAB, typename TCD>
void run_case(cublasLtHandle_t lt, blas_check::Random& r, const Case& c, int index) {
  const bool bias = c.epilogue != CUBLASLT_EPILOGUE_DEFAULT;
  const bool aux = c.epilogue == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  const int ar = c.ta == CUBLAS_OP_N ? c.m : c.k, ac = c.ta == CUBLAS_OP_N ? c.k : c.m;
  const int br = c.tb == CUBLAS_OP_N ? c.k : c.n, bc = c.tb == CUBLAS_OP_N ? c.n : c.k;
  const auto pad = [&](int64_t rows, int64_t extra) {
    return c.aligned ? (rows + 7) / 8 * 8 + 8 : rows + extra;
  };
  Matrix A{ar, ac, pad(c.a_row ? ac : ar, 3), 0, c.a_row};
  A.stride = c.broadcast_a ? 0 : (c.a_row ? ar : ac) * A.ld;
  Matrix B{br, bc, pad(c.b_row ? bc : br, 1), 0, c.b_row};
  B.stride = (c.b_row ? br : bc) * B.ld;
  Matrix D{c.m, c.n, pad(c.d_row ? c.n : c.m, 2), 0, c.d_row};
  D.stride = (c.d_row ? c.m : c.n) * D.ld;
  Matrix C = D;
  std::vector<TAB> a(A.elements(c.batch)), b(B.elements(c.batch));
  std::vector<TCD> cm(C.elements(c.batch));
  for (auto& x : a) x = Elem<TAB>::from(r.next());
  for (auto& x : b) x = Elem<TAB>::from(r.next());
  for (auto& x : cm) x = Elem<TCD>::from(r.next());
  std::vector<TCD> bias_v(c.m);
  for (auto& x : bias_v) x = Elem<TCD>::from(r.next());
  const int64_t aux_ld = (c.m + 7) / 8 * 8 + 8;
  const int64_t aux_stride = aux_ld * c.n;
  const float alpha = 0.75f, beta = c.epilogue == CUBLASLT_EPILOGUE_DEFAULT ? -0.5f : 0.25f;

  TAB *da = upload(a), *db = upload(b);
  TCD *dc = upload(cm), *dd = c.separate_c ? upload(std::vector<TCD>(cm.size())) : dc;
  TCD* dbias = upload(bias_v);
  TCD* daux = aux ? upload(std::vector<TCD>(aux_stride * c.batch)) : nullptr;

  cublasLtMatmulDesc_t desc;
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  const int32_t ta = c.ta, tb = c.tb;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb)));
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &c.epilogue, sizeof(c.epilogue)));
  if (bias) {
    const void* p = dbias;
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &p, sizeof(p)));
  }
  if (aux) {
    void* p = daux;
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &p, sizeof(p)));
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &aux_ld, sizeof(aux_ld)));
    CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &aux_stride, sizeof(aux_stride)));
  }
  cublasLtMatrixLayout_t la = layout(Elem<TAB>::type, A, c.batch, c.arrays),
                         lb = layout(Elem<TAB>::type, B, c.batch, c.arrays),
                         lc = layout(Elem<TCD>::type, C, c.batch, c.arrays),
                         ld = layout(Elem<TCD>::type, D, c.batch, c.arrays);
  // Pointer arrays: the matmul's A, B, C, D arguments; stored batch of batch bt.
  void** arrays[4] = {};
  if (c.arrays) {
    arrays[0] = pointer_array(da, A, c.batch), arrays[1] = pointer_array(db, B, c.batch);
    arrays[2] = pointer_array(dc, C, c.batch), arrays[3] = pointer_array(dd, D, c.batch);
  }
  const auto stored = [&](int bt) { return c.arrays ? c.batch - 1 - bt : bt; };
  // The heuristic, as llm.c asks it.
  cublasLtMatmulPreference_t pref;
  CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  const uint64_t workspace = 32 << 20;
  CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace, sizeof(workspace)));
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  CHECK_CUBLAS(cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, ld, pref, 1, &heuristic, &found));
  EXPECT_TRUE(found == 1 && heuristic.state == CUBLAS_STATUS_SUCCESS && heuristic.workspaceSize <= workspace,
              "heuristic: %d results, state %d", found, heuristic.state);
  // Alternate between the heuristic's algorithm and a null one.
  CHECK_CUBLAS(cublasLtMatmul(
      lt, desc, &alpha, c.arrays ? static_cast<const void*>(arrays[0]) : da, la,
      c.arrays ? static_cast<const void*>(arrays[1]) : db, lb, &beta,
      c.arrays ? static_cast<const void*>(arrays[2]) : dc, lc,
      c.arrays ? static_cast<void*>(arrays[3]) : dd, ld,
      index % 2 == 0 ? &heuristic.algo : nullptr, nullptr, 0, 0));
  auto got = download(dd, cm.size());
  auto got_aux = aux ? download(daux, aux_stride * c.batch) : std::vector<TCD>();
  const double u = std::max(blas_check::kUnitF32, 0.0) + Elem<TCD>::u;
  for (int bt = 0; bt < c.batch; ++bt)
    for (int j = 0; j < c.n; ++j)
      for (int i = 0; i < c.m; ++i) {
        double sum = 0, mag = 0;
        const int sb = stored(bt);
        for (int kk = 0; kk < c.k; ++kk) {
          const double av = Elem<TAB>::to(a[c.ta == CUBLAS_OP_N ? A.at(i, kk, sb) : A.at(kk, i, sb)]);
          const double bv = Elem<TAB>::to(b[c.tb == CUBLAS_OP_N ? B.at(kk, j, sb) : B.at(j, kk, sb)]);
          sum += av * bv;
          mag += std::fabs(av * bv);
        }
        const double old = Elem<TCD>::to(cm[C.at(i, j, sb)]);
        double pre = alpha * sum + beta * old;
        double magnitude = std::fabs(alpha) * mag + std::fabs(beta * old);
        if (bias) {
          pre += Elem<TCD>::to(bias_v[i]);
          magnitude += std::fabs(Elem<TCD>::to(bias_v[i]));
        }
        double want = pre;
        if (c.epilogue == CUBLASLT_EPILOGUE_RELU_BIAS) want = pre > 0 ? pre : 0;
        if (c.epilogue == CUBLASLT_EPILOGUE_GELU_BIAS || aux) want = gelu(pre);
        // GELU's slope is at most ~1.13: the bound carries over.
        const double bound = 2.0 * (c.k * blas_check::kUnitF32 + u) * magnitude * 1.2 + 1e-30;
        const double g = Elem<TCD>::to(got[D.at(i, j, sb)]);
        EXPECT_TRUE(std::fabs(g - want) <= bound + Elem<TCD>::u * std::fabs(want),
                    "case %d batch %d D(%d, %d) = %.9g, want %.9g (bound %.3g)", index, bt, i, j, g,
                    want, bound);
        if (aux) {
          const double x = Elem<TCD>::to(got_aux[bt * aux_stride + i + j * aux_ld]);
          EXPECT_TRUE(std::fabs(x - pre) <= bound + Elem<TCD>::u * std::fabs(pre),
                      "case %d aux(%d, %d) = %.9g, want %.9g", index, i, j, x, pre);
        }
      }
  CHECK_CUBLAS(cublasLtMatmulPreferenceDestroy(pref));
  for (auto l : {la, lb, lc, ld}) CHECK_CUBLAS(cublasLtMatrixLayoutDestroy(l));
  CHECK_CUBLAS(cublasLtMatmulDescDestroy(desc));
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  if (dd != dc) CHECK_CUDA(cudaFree(dd));
  CHECK_CUDA(cudaFree(dbias));
  if (daux != nullptr) CHECK_CUDA(cudaFree(daux));
  for (void** p : arrays)
    if (p != nullptr) CHECK_CUDA(cudaFree(p));
}

void bad_calls(cublasLtHandle_t lt) {
  cublasLtMatmulDesc_t desc;
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  cublasLtMatrixLayout_t a, b, c, bad;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&a, CUDA_R_32F, 8, 4, 8));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&b, CUDA_R_32F, 4, 6, 4));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&c, CUDA_R_32F, 8, 6, 8));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&bad, CUDA_R_32F, 5, 6, 8));  // rows != m
  cublasLtMatmulHeuristicResult_t h;
  int found = 0;
  EXPECT_STATUS(cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, bad, nullptr, 1, &h, &found),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, c, nullptr, 0, &h, &found),
                CUBLAS_STATUS_INVALID_VALUE);
  // FP16 matrices with an FP32 matmul descriptor's FP32 C: not a combination cuBLASLt has.
  cublasLtMatrixLayout_t h16;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&h16, CUDA_R_16F, 8, 6, 8));
  EXPECT_STATUS(cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, h16, h16, nullptr, 1, &h, &found),
                CUBLAS_STATUS_NOT_SUPPORTED);
  const float one = 1.0f;
  EXPECT_STATUS(cublasLtMatmul(nullptr, desc, &one, nullptr, a, nullptr, b, &one, nullptr, c, nullptr, c,
                               nullptr, nullptr, 0, 0), CUBLAS_STATUS_NOT_INITIALIZED);
  const uint32_t bias_epilogue = CUBLASLT_EPILOGUE_BIAS;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &bias_epilogue, sizeof(bias_epilogue)));
  float* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, 64 * sizeof(float)));
  EXPECT_STATUS(cublasLtMatmul(lt, desc, &one, d, a, d, b, &one, d, c, d, c, nullptr, nullptr, 0, 0),
                CUBLAS_STATUS_INVALID_VALUE);  // BIAS without a bias pointer
  // Pointer-array batches: not with bias gradients; a batch mode outside the enum.
  uint32_t mode = CUBLASLT_BATCH_MODE_POINTER_ARRAY;
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof(mode)));
  const uint32_t bgrad = CUBLASLT_EPILOGUE_BGRADB;
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &bgrad, sizeof(bgrad)));
  EXPECT_STATUS(cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, c, nullptr, 1, &h, &found),
                CUBLAS_STATUS_NOT_SUPPORTED);
  mode = 5;
  CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(c, CUBLASLT_MATRIX_LAYOUT_BATCH_MODE, &mode, sizeof(mode)));
  EXPECT_STATUS(cublasLtMatmulAlgoGetHeuristic(lt, desc, a, b, c, c, nullptr, 1, &h, &found),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUDA(cudaFree(d));
  for (auto l : {a, b, c, bad, h16}) CHECK_CUBLAS(cublasLtMatrixLayoutDestroy(l));
  CHECK_CUBLAS(cublasLtMatmulDescDestroy(desc));
}

int main() {
  // The handle comes from cuBLAS and is used as a cuBLASLt handle, as PyTorch does.
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  cublasLtHandle_t lt = reinterpret_cast<cublasLtHandle_t>(handle);
  blas_check::Random r(3);
  const Case cases[] = {
      {33, 20, 45, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false, false, true, false, CUBLASLT_EPILOGUE_DEFAULT},
      {17, 40, 24, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false, false, false, false, CUBLASLT_EPILOGUE_DEFAULT},
      {40, 9, 70, 3, CUBLAS_OP_N, CUBLAS_OP_T, false, false, false, true, true, CUBLASLT_EPILOGUE_DEFAULT},
      {24, 31, 16, 2, CUBLAS_OP_T, CUBLAS_OP_T, true, false, true, true, false, CUBLASLT_EPILOGUE_DEFAULT},
      {65, 12, 33, 1, CUBLAS_OP_N, CUBLAS_OP_N, true, true, true, false, false, CUBLASLT_EPILOGUE_DEFAULT},
      {48, 64, 32, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false, false, true, false, CUBLASLT_EPILOGUE_BIAS},
      {30, 17, 40, 1, CUBLAS_OP_N, CUBLAS_OP_N, false, false, false, true, false, CUBLASLT_EPILOGUE_RELU_BIAS},
      {40, 24, 48, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false, false, true, false, CUBLASLT_EPILOGUE_GELU_BIAS},
      {48, 16, 24, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false, false, true, false, CUBLASLT_EPILOGUE_GELU_AUX_BIAS},
      // Pointer arrays: on the tensor-core kernels (16-byte leading dimensions), with a
      // row-major D, in place with GELU_AUX_BIAS, and a broadcast A (every pointer the same).
      {64, 48, 64, 3, CUBLAS_OP_T, CUBLAS_OP_N, false, false, false, true, false, CUBLASLT_EPILOGUE_DEFAULT, true, true},
      {33, 20, 45, 2, CUBLAS_OP_N, CUBLAS_OP_T, true, false, true, true, false, CUBLASLT_EPILOGUE_BIAS, true},
      {40, 24, 48, 2, CUBLAS_OP_T, CUBLAS_OP_N, false, false, false, false, false, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, true},
      {24, 36, 40, 3, CUBLAS_OP_N, CUBLAS_OP_N, false, false, false, true, true, CUBLASLT_EPILOGUE_DEFAULT, true, true},
  };
  int index = 0;
  for (const Case& c : cases) {
    run_case<float, float>(lt, r, c, index++);
    run_case<__nv_bfloat16, __nv_bfloat16>(lt, r, c, index++);
    run_case<__half, __half>(lt, r, c, index++);
  }
  bad_calls(lt);
  CHECK_CUBLAS(cublasDestroy(handle));
  std::printf("PASS lt_matmul\n");
  return 0;
}
