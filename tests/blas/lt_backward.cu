// cublasLtMatmul's backward epilogues and vector pointer modes, the way llm.c's and
// PyTorch's backward passes call them: DGELU and DGELU_BGRAD (aux: the GELU input of the
// forward pass), RELU_AUX's bit-mask feeding DRELU and DRELU_BGRAD, BGRADA and BGRADB (bias
// gradients from the input matrices, any transpose and order, batched), and the pointer
// modes DEVICE_VECTOR, ALPHA_DEVICE_VECTOR_BETA_ZERO and ALPHA_DEVICE_VECTOR_BETA_HOST.
// Checked against an FP64 host reference; the bound is issue 7's, scaled by the gradient
// factor where one multiplies the result, and summed over a row for a bias gradient.
#include <cuda_bf16.h>

#include <cmath>
#include <limits>

#include "blas_check.h"

namespace {

using blas_check::Random;

template <typename T>
struct Elem;
template <>
struct Elem<float> {
  static constexpr cudaDataType type = CUDA_R_32F;
  static float from(double v) { return static_cast<float>(v); }
  static double to(float v) { return v; }
  static constexpr double u = blas_check::kUnitF32;
};
template <>
struct Elem<__nv_bfloat16> {
  static constexpr cudaDataType type = CUDA_R_16BF;
  static __nv_bfloat16 from(double v) { return __float2bfloat16_rn(static_cast<float>(v)); }
  static double to(__nv_bfloat16 v) { return __bfloat162float(v); }
  static constexpr double u = blas_check::kUnitBF16;
};

double gelu_grad(double x) {
  const double k = 0.7978845608028654, t = std::tanh(k * (x + 0.044715 * x * x * x));
  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x);
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

template <typename T>
std::vector<double> download_as_double(const T* d, int64_t n) {
  std::vector<T> h = download(d, static_cast<size_t>(n));
  std::vector<double> out(h.size());
  for (size_t i = 0; i < h.size(); ++i) out[i] = Elem<T>::to(h[i]);
  return out;
}

// A matrix of `rows` x `cols` per batch, column- or row-major, with its host values (FP64,
// already rounded to the element type) and device copy.
template <typename T>
struct Mat {
  int rows = 0, cols = 0, batch = 1;
  int64_t ld = 0, stride = 0;
  bool row_major = false;
  std::vector<double> host;
  T* dev = nullptr;
  int64_t at(int r, int c, int b) const {
    return b * stride + (row_major ? r * ld + c : r + c * ld);
  }
  Mat(int r, int c, int b, bool rm, Random& rng, bool integers)
      : rows(r), cols(c), batch(b), row_major(rm) {
    ld = (rm ? c : r) + 3;
    stride = ld * (rm ? r : c) + 5;
    host.assign(static_cast<size_t>(stride * b), 0.0);
    std::vector<T> h(host.size());
    for (size_t i = 0; i < host.size(); ++i) {
      h[i] = Elem<T>::from(integers ? rng.integer(3) : rng.next());
      host[i] = Elem<T>::to(h[i]);
    }
    dev = upload(h);
  }
  double op(bool t, int i, int j, int b) const { return t ? host[at(j, i, b)] : host[at(i, j, b)]; }
  cublasLtMatrixLayout_t layout() const {
    cublasLtMatrixLayout_t l;
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l, Elem<T>::type, rows, cols, ld));
    const int32_t order = row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
    CHECK_CUBLAS(
        cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
    CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch,
                                                  sizeof(batch)));
    CHECK_CUBLAS(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET,
                                                  &stride, sizeof(stride)));
    return l;
  }
  std::vector<double> result() const {
    std::vector<T> h = download(dev, host.size());
    std::vector<double> out(h.size());
    for (size_t i = 0; i < h.size(); ++i) out[i] = Elem<T>::to(h[i]);
    return out;
  }
};

template <typename T>
void set(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a, const T& v) {
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(d, a, &v, sizeof(v)));
}

// The problem: D = alpha op(A) op(B) + beta C (C and D share a layout; D separate).
template <typename T>
struct Problem {
  int m, n, k, batch;
  bool ta, tb;
  Mat<T> a, b, c, d;
  double alpha = 0.75, beta = -0.5;
  Problem(int m_, int n_, int k_, int batch_, bool ta_, bool tb_, bool rows, Random& rng,
          bool integers)
      : m(m_),
        n(n_),
        k(k_),
        batch(batch_),
        ta(ta_),
        tb(tb_),
        a(ta_ ? k_ : m_, ta_ ? m_ : k_, batch_, rows, rng, integers),
        b(tb_ ? n_ : k_, tb_ ? k_ : n_, batch_, rows, rng, integers),
        c(m_, n_, batch_, rows, rng, integers),
        d(m_, n_, batch_, rows, rng, integers) {
    if (integers) alpha = 2.0, beta = -1.0;
  }
  // alpha op(A) op(B) + beta C and its magnitude.
  double value(int i, int j, int bt, double* mag) const {
    double s = 0.0, sa = 0.0;
    for (int p = 0; p < k; ++p) {
      const double x = a.op(ta, i, p, bt), y = b.op(tb, p, j, bt);
      s += x * y, sa += std::fabs(x * y);
    }
    const double cv = c.host[c.at(i, j, bt)];
    *mag = std::fabs(alpha) * sa + std::fabs(beta) * std::fabs(cv);
    return alpha * s + beta * cv;
  }
  cublasLtMatmulDesc_t desc(uint32_t epilogue) const {
    cublasLtMatmulDesc_t dd;
    CHECK_CUBLAS(cublasLtMatmulDescCreate(&dd, CUBLAS_COMPUTE_32F, CUDA_R_32F));
    set(dd, CUBLASLT_MATMUL_DESC_TRANSA, static_cast<int32_t>(ta ? CUBLAS_OP_T : CUBLAS_OP_N));
    set(dd, CUBLASLT_MATMUL_DESC_TRANSB, static_cast<int32_t>(tb ? CUBLAS_OP_T : CUBLAS_OP_N));
    set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue);
    return dd;
  }
  cublasStatus_t run(cublasLtHandle_t lt, cublasLtMatmulDesc_t dd, const void* alpha_p,
                     const void* beta_p) const {
    cublasLtMatrixLayout_t la = a.layout(), lb = b.layout(), lc = c.layout(), ld = d.layout();
    const cublasStatus_t s = cublasLtMatmul(lt, dd, alpha_p, a.dev, la, b.dev, lb, beta_p, c.dev,
                                            lc, d.dev, ld, nullptr, nullptr, 0, 0);
    cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc), cublasLtMatrixLayoutDestroy(ld);
    return s;
  }
  cublasStatus_t run(cublasLtHandle_t lt, cublasLtMatmulDesc_t dd) const {
    const float al = static_cast<float>(alpha), be = static_cast<float>(beta);
    return run(lt, dd, &al, &be);
  }
};

// DGELU and DGELU_BGRAD: D = (alpha op(A) op(B) + beta C) * GELU'(aux).
template <typename T>
void dgelu(cublasLtHandle_t lt, Random& rng, int m, int n, int k, int batch, bool ta, bool tb,
           bool bgrad) {
  Problem<T> p(m, n, k, batch, ta, tb, false, rng, false);
  const int64_t aux_ld = (m + 7) / 8 * 8 + 8, aux_stride = aux_ld * n + 16;
  std::vector<T> aux_h(static_cast<size_t>(aux_stride * batch));
  std::vector<double> aux(aux_h.size());
  for (size_t i = 0; i < aux.size(); ++i) {
    aux_h[i] = Elem<T>::from(2.5 * rng.next());
    aux[i] = Elem<T>::to(aux_h[i]);
  }
  T* aux_d = upload(aux_h);
  const int64_t bias_stride = m + 4;
  T* bias_d = upload(std::vector<T>(static_cast<size_t>(bias_stride * batch), Elem<T>::from(0)));
  cublasLtMatmulDesc_t dd = p.desc(bgrad ? CUBLASLT_EPILOGUE_DGELU_BGRAD : CUBLASLT_EPILOGUE_DGELU);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(aux_d));
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, aux_ld);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, aux_stride);
  if (bgrad) {
    set(dd, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<void*>(bias_d));
    set(dd, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, bias_stride);
  }
  CHECK_CUBLAS(p.run(lt, dd));
  CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<double> got = p.d.result();
  const std::vector<double> bias = download_as_double(bias_d, bias_stride * batch);
  const double u = Elem<T>::u;
  for (int bt = 0; bt < batch; ++bt) {
    for (int i = 0; i < m; ++i) {
      double row_sum = 0.0, row_bound = 0.0;
      for (int j = 0; j < n; ++j) {
        double mag;
        const double v = p.value(i, j, bt, &mag);
        const double g = gelu_grad(aux[i + j * aux_ld + bt * aux_stride]);
        const double want = v * g;
        const double bound =
            blas_check::gemm_bound(k, blas_check::kUnitF32, u, mag * std::fabs(g)) +
            64 * blas_check::kUnitF32 * mag;
        const double have = got[p.d.at(i, j, bt)];
        EXPECT_TRUE(std::fabs(have - want) <= bound,
                    "DGELU %dx%dx%d batch %d (%d,%d): %.9g vs %.9g (bound %.3g)", m, n, k, bt, i, j,
                    have, want, bound);
        row_sum += want, row_bound += bound + u * std::fabs(want);
      }
      if (bgrad) {
        const double have = bias[i + bt * bias_stride];
        const double bound =
            row_bound + 2 * u * std::fabs(row_sum) + n * blas_check::kUnitF32 * row_bound;
        EXPECT_TRUE(std::fabs(have - row_sum) <= bound,
                    "DGELU_BGRAD row %d batch %d: %.9g vs %.9g (bound %.3g)", i, bt, have, row_sum,
                    bound);
      }
    }
  }
  cublasLtMatmulDescDestroy(dd);
  cudaFree(aux_d), cudaFree(bias_d);
}

// Forward RELU_AUX_BIAS writes the bit-mask (bit set where the ReLU input is positive);
// DRELU / DRELU_BGRAD with that mask zero the gradient elsewhere. Integer inputs: exact.
void relu_round_trip(cublasLtHandle_t lt, Random& rng, int m, int n, int k, bool bgrad) {
  Problem<float> fwd(m, n, k, 1, false, true, false, rng, true);
  const int64_t mask_ld = (m + 127) / 128 * 128;
  const size_t words = static_cast<size_t>(mask_ld * n / 32);
  uint32_t* mask_d = upload(std::vector<uint32_t>(words, 0xA5A5A5A5u));  // stale bits
  std::vector<float> bias_h(m);
  for (int i = 0; i < m; ++i) bias_h[i] = static_cast<float>(rng.integer(4));
  float* bias_d = upload(bias_h);
  cublasLtMatmulDesc_t dd = fwd.desc(CUBLASLT_EPILOGUE_RELU_AUX_BIAS);
  set(dd, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<const void*>(bias_d));
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask_d));
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
  CHECK_CUBLAS(fwd.run(lt, dd));
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasLtMatmulDescDestroy(dd);
  const std::vector<uint32_t> mask = download(mask_d, words);
  const std::vector<double> out = fwd.d.result();
  std::vector<bool> positive(static_cast<size_t>(m) * n);
  for (int i = 0; i < m; ++i) {
    for (int j = 0; j < n; ++j) {
      double mag;
      const double x = fwd.value(i, j, 0, &mag) + bias_h[i];
      positive[i + j * m] = x > 0;
      const int64_t bit = i + j * mask_ld;
      const bool set_bit = (mask[bit / 32] >> (bit % 32)) & 1u;
      EXPECT_TRUE(set_bit == (x > 0), "RELU_AUX mask (%d,%d): bit %d, input %g", i, j, set_bit, x);
      EXPECT_TRUE(out[fwd.d.at(i, j, 0)] == std::max(x, 0.0), "RELU_AUX_BIAS (%d,%d)", i, j);
    }
  }
  // Backward with the same m x n.
  Problem<float> bwd(m, n, k + 3, 1, true, false, false, rng, true);
  float* grad_d = upload(std::vector<float>(m, -7.0f));
  dd = bwd.desc(bgrad ? CUBLASLT_EPILOGUE_DRELU_BGRAD : CUBLASLT_EPILOGUE_DRELU);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(mask_d));
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, mask_ld);
  if (bgrad) set(dd, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<void*>(grad_d));
  CHECK_CUBLAS(bwd.run(lt, dd));
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasLtMatmulDescDestroy(dd);
  const std::vector<double> got = bwd.d.result();
  const std::vector<float> grad = download(grad_d, m);
  for (int i = 0; i < m; ++i) {
    double sum = 0.0;
    for (int j = 0; j < n; ++j) {
      double mag;
      const double want = positive[i + j * m] ? bwd.value(i, j, 0, &mag) : 0.0;
      sum += want;
      EXPECT_TRUE(got[bwd.d.at(i, j, 0)] == want, "DRELU (%d,%d): %g vs %g", i, j,
                  got[bwd.d.at(i, j, 0)], want);
    }
    if (bgrad) EXPECT_TRUE(grad[i] == sum, "DRELU_BGRAD row %d: %g vs %g", i, grad[i], sum);
  }
  cudaFree(mask_d), cudaFree(bias_d), cudaFree(grad_d);
}

// BGRADA (sum over k of op(A), one per row of D) and BGRADB (of op(B), one per column),
// with the GEMM itself unchanged. Integer inputs: exact.
template <typename T>
void bgrad(cublasLtHandle_t lt, Random& rng, int m, int n, int k, int batch, bool ta, bool tb,
           bool rows, bool of_a) {
  Problem<T> p(m, n, k, batch, ta, tb, rows, rng, true);
  const int len = of_a ? m : n;
  const int64_t stride = len + 2;
  T* grad_d = upload(std::vector<T>(static_cast<size_t>(stride * batch), Elem<T>::from(-9)));
  cublasLtMatmulDesc_t dd = p.desc(of_a ? CUBLASLT_EPILOGUE_BGRADA : CUBLASLT_EPILOGUE_BGRADB);
  set(dd, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<void*>(grad_d));
  set(dd, CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE, stride);
  CHECK_CUBLAS(p.run(lt, dd));
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasLtMatmulDescDestroy(dd);
  const std::vector<double> got = p.d.result();
  const std::vector<double> grad = download_as_double(grad_d, stride * batch);
  for (int bt = 0; bt < batch; ++bt) {
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double mag;
        const double want = p.value(i, j, bt, &mag);
        EXPECT_TRUE(got[p.d.at(i, j, bt)] == Elem<T>::to(Elem<T>::from(want)),
                    "BGRAD GEMM (%d,%d,%d)", i, j, bt);
      }
    }
    for (int x = 0; x < len; ++x) {
      double sum = 0.0;
      for (int q = 0; q < k; ++q) sum += of_a ? p.a.op(ta, x, q, bt) : p.b.op(tb, q, x, bt);
      const double have = grad[x + bt * stride];
      EXPECT_TRUE(have == Elem<T>::to(Elem<T>::from(sum)),
                  "%s %dx%dx%d t%d%d %s batch %d [%d]: %g vs %g", of_a ? "BGRADA" : "BGRADB", m, n,
                  k, ta, tb, rows ? "row" : "col", bt, x, have, sum);
    }
  }
  cudaFree(grad_d);
}

// Vector pointer modes: alpha (and beta) per row of D.
void vector_modes(cublasLtHandle_t lt, Random& rng, int32_t mode, bool rows, int batch) {
  Problem<float> p(37, 21, 13, batch, false, true, rows, rng, false);
  const int64_t vstride = mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO ? 0 : p.m + 3;
  std::vector<float> alpha_h(static_cast<size_t>(p.m + vstride * (batch - 1))), beta_h(p.m);
  for (float& v : alpha_h) v = static_cast<float>(rng.next());
  for (float& v : beta_h) v = static_cast<float>(rng.next());
  const float beta_host = -0.25f;
  if (mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO) {
    // beta is zero: C is never read, NaN there must not reach D.
    std::vector<float> nan(p.c.host.size(), std::numeric_limits<float>::quiet_NaN());
    CHECK_CUDA(cudaMemcpy(p.c.dev, nan.data(), nan.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  float* alpha_d = upload(alpha_h);
  float* beta_d = upload(beta_h);
  cublasLtMatmulDesc_t dd = p.desc(CUBLASLT_EPILOGUE_DEFAULT);
  set(dd, CUBLASLT_MATMUL_DESC_POINTER_MODE, mode);
  if (mode != CUBLASLT_POINTER_MODE_DEVICE_VECTOR)
    set(dd, CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, vstride);
  const void* beta_p = mode == CUBLASLT_POINTER_MODE_DEVICE_VECTOR
                           ? static_cast<const void*>(beta_d)
                       : mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST
                           ? static_cast<const void*>(&beta_host)
                           : nullptr;
  CHECK_CUBLAS(p.run(lt, dd, alpha_d, beta_p));
  CHECK_CUDA(cudaDeviceSynchronize());
  cublasLtMatmulDescDestroy(dd);
  const std::vector<double> got = p.d.result();
  for (int bt = 0; bt < batch; ++bt) {
    for (int i = 0; i < p.m; ++i) {
      const double al =
          alpha_h[i + (mode == CUBLASLT_POINTER_MODE_DEVICE_VECTOR ? 0 : bt * vstride)];
      const double be = mode == CUBLASLT_POINTER_MODE_DEVICE_VECTOR                   ? beta_h[i]
                        : mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST ? beta_host
                                                                                      : 0.0;
      for (int j = 0; j < p.n; ++j) {
        double s = 0.0, sa = 0.0;
        for (int q = 0; q < p.k; ++q) {
          const double x = p.a.op(false, i, q, bt) * p.b.op(true, q, j, bt);
          s += x, sa += std::fabs(x);
        }
        const double cv = be == 0.0 ? 0.0 : p.c.host[p.c.at(i, j, bt)];
        const double want = al * s + be * cv;
        const double bound = blas_check::gemm_bound(p.k, blas_check::kUnitF32, blas_check::kUnitF32,
                                                    std::fabs(al) * sa + std::fabs(be * cv)) +
                             1e-30;
        const double have = got[p.d.at(i, j, bt)];
        EXPECT_TRUE(std::fabs(have - want) <= bound, "pointer mode %d %s (%d,%d,%d): %.9g vs %.9g",
                    mode, rows ? "row" : "col", i, j, bt, have, want);
      }
    }
  }
  cudaFree(alpha_d), cudaFree(beta_d);
}

void bad_calls(cublasLtHandle_t lt, Random& rng) {
  Problem<float> p(16, 8, 4, 1, false, false, false, rng, true);
  cublasLtMatmulDesc_t dd = p.desc(CUBLASLT_EPILOGUE_BGRADB);  // no bias pointer
  EXPECT_STATUS(p.run(lt, dd), CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(dd);
  void* mask = nullptr;
  CHECK_CUDA(cudaMalloc(&mask, 4096));
  dd = p.desc(CUBLASLT_EPILOGUE_DRELU);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, mask);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, int64_t{64});  // a bit-mask ld: multiple of 128
  EXPECT_STATUS(p.run(lt, dd), CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(dd);
  dd = p.desc(CUBLASLT_EPILOGUE_DGELU);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, mask);
  set(dd, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, int64_t{12});  // not a multiple of 8
  EXPECT_STATUS(p.run(lt, dd), CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(dd);
  dd = p.desc(CUBLASLT_EPILOGUE_DEFAULT);
  set(dd, CUBLASLT_MATMUL_DESC_POINTER_MODE,
      static_cast<int32_t>(CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO));
  set(dd, CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE, int64_t{16});
  EXPECT_STATUS(p.run(lt, dd, mask, nullptr), CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(dd);
  dd = p.desc(CUBLASLT_EPILOGUE_DEFAULT);  // FP8 scale factors of FP32 matrices
  set(dd, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, static_cast<const void*>(mask));
  EXPECT_STATUS(p.run(lt, dd), CUBLAS_STATUS_INVALID_VALUE);
  cublasLtMatmulDescDestroy(dd);
  cudaFree(mask);
}

}  // namespace

int main() {
  cublasLtHandle_t lt;
  CHECK_CUBLAS(cublasLtCreate(&lt));
  Random rng(7);
  dgelu<float>(lt, rng, 24, 20, 17, 1, false, false, false);
  dgelu<__nv_bfloat16>(lt, rng, 33, 18, 40, 2, true, false, true);  // llm.c's backward shape
  dgelu<float>(lt, rng, 70, 9, 5, 2, false, true, true);
  relu_round_trip(lt, rng, 40, 12, 9, false);
  relu_round_trip(lt, rng, 130, 7, 6, true);
  for (bool of_a : {true, false}) {
    bgrad<float>(lt, rng, 19, 23, 30, 1, false, false, false, of_a);
    bgrad<float>(lt, rng, 19, 23, 30, 2, true, true, false, of_a);
    bgrad<__nv_bfloat16>(lt, rng, 12, 70, 17, 2, true, false, false, of_a);  // llm.c: dW, dbias
    bgrad<float>(lt, rng, 21, 15, 11, 1, false, true, true, of_a);
  }
  for (int32_t mode :
       {CUBLASLT_POINTER_MODE_DEVICE_VECTOR, CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO,
        CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST}) {
    vector_modes(lt, rng, mode, false, 2);
    vector_modes(lt, rng, mode, true, 1);
  }
  bad_calls(lt, rng);
  CHECK_CUBLAS(cublasLtDestroy(lt));
  std::printf("PASS lt_backward\n");
  return 0;
}
