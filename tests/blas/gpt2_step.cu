// One GPT-2 transformer block, forward and backward, calling cuBLAS and cuBLASLt the way
// llm.c's train_gpt2 does: the linear layers are cublasLtMatmul with row-major
// activations (B*T x C) and weights (OC x C) seen column-major (TRANSA = T), bias and
// GELU_AUX_BIAS epilogues forward, DGELU (aux: the GELU input) and BGRADB (the bias
// gradient) backward, gradients accumulated with beta = 1; attention is
// cublasSgemmStridedBatched over (batch, head) with llm.c's permute / softmax kernels.
// Random weights; every output and gradient is checked against an FP64 CPU reference of the
// same block (relative error bound 1e-4 of each tensor's largest magnitude).
//   x2 = x + proj(attention(qkv(x)));  out = x2 + fcproj(gelu(fc(x2)));  L = sum(out * dout)
#include <cmath>
#include <cstring>

#include "blas_check.h"

namespace {

constexpr int B = 2, T = 8, C = 32, NH = 4, HS = C / NH, C4 = 4 * C, BT = B * T;

// ---- device kernels of the block (as in llm.c) ----

// qkv (B, T, 3, NH, HS) -> q, k, v (B, NH, T, HS)
__global__ void permute(float* q, float* k, float* v, const float* qkv) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * T * HS) return;
  const int b = idx / (NH * T * HS), h = idx / (T * HS) % NH, t = idx / HS % T, d = idx % HS;
  const int in = b * T * 3 * C + t * 3 * C + h * HS + d;
  q[idx] = qkv[in], k[idx] = qkv[in + C], v[idx] = qkv[in + 2 * C];
}
// (B, NH, T, HS) -> (B, T, NH * HS) at column offset `offset` of rows of width `width`
__global__ void unpermute(float* out, const float* in, int width, int offset) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * T * HS) return;
  const int b = idx / (NH * T * HS), h = idx / (T * HS) % NH, t = idx / HS % T, d = idx % HS;
  out[(b * T + t) * width + offset + h * HS + d] = in[idx];
}
// (B, T, C) -> (B, NH, T, HS)
__global__ void permute_one(float* out, const float* in) {
  const int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= B * NH * T * HS) return;
  const int b = idx / (NH * T * HS), h = idx / (T * HS) % NH, t = idx / HS % T, d = idx % HS;
  out[idx] = in[(b * T + t) * C + h * HS + d];
}
// Causal softmax of scale * preatt over each row (query t, keys t2 <= t).
__global__ void softmax(float* att, const float* preatt, float scale) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;  // (b, h, t)
  if (row >= B * NH * T) return;
  const int t = row % T;
  const float* p = preatt + row * T;
  float* a = att + row * T;
  float m = -INFINITY;
  for (int t2 = 0; t2 <= t; ++t2) m = fmaxf(m, scale * p[t2]);
  float sum = 0.0f;
  for (int t2 = 0; t2 <= t; ++t2) sum += expf(scale * p[t2] - m);
  for (int t2 = 0; t2 < T; ++t2) a[t2] = t2 <= t ? expf(scale * p[t2] - m) / sum : 0.0f;
}
// dpreatt = scale * att * (datt - sum(att * datt)) over each causal row.
__global__ void softmax_backward(float* dpreatt, const float* datt, const float* att, float scale) {
  const int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row >= B * NH * T) return;
  const int t = row % T;
  const float* a = att + row * T;
  const float* da = datt + row * T;
  float dot = 0.0f;
  for (int t2 = 0; t2 <= t; ++t2) dot += a[t2] * da[t2];
  for (int t2 = 0; t2 < T; ++t2)
    dpreatt[row * T + t2] = t2 <= t ? scale * a[t2] * (da[t2] - dot) : 0.0f;
}
__global__ void add(float* out, const float* a, const float* b, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = a[i] + b[i];
}

// ---- host helpers ----

struct Buffer {
  std::vector<float> host;
  float* dev = nullptr;
  explicit Buffer(size_t n) : host(n, 0.0f) { CHECK_CUDA(cudaMalloc(&dev, n * sizeof(float))); }
  Buffer(size_t n, blas_check::Random& r, double scale) : Buffer(n) {
    for (float& v : host) v = static_cast<float>(scale * r.next());
    up();
  }
  void up() {
    CHECK_CUDA(cudaMemcpy(dev, host.data(), host.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  const std::vector<float>& down() {
    CHECK_CUDA(cudaMemcpy(host.data(), dev, host.size() * sizeof(float), cudaMemcpyDeviceToHost));
    return host;
  }
};

template <typename V>
void set(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a, const V& v) {
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(d, a, &v, sizeof(v)));
}

// llm.c's matmul_cublaslt: column-major D (m x n) = op(A) op(B) [+ beta D] with an epilogue;
// A is k x m when transA (else m x k), B k x n (n x k when transB). bias: the bias (BIAS
// epilogues) or the bias gradient (BGRADB); aux: the GELU input (GELU_AUX_BIAS output,
// DGELU input), ld m.
void matmul(cublasLtHandle_t lt, float* d, const float* a, const float* b, const float* bias, int m,
            int n, int k, bool ta, bool tb, uint32_t epilogue, float* aux, bool accumulate) {
  cublasLtMatmulDesc_t desc;
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  set(desc, CUBLASLT_MATMUL_DESC_TRANSA, static_cast<int32_t>(ta ? CUBLAS_OP_T : CUBLAS_OP_N));
  set(desc, CUBLASLT_MATMUL_DESC_TRANSB, static_cast<int32_t>(tb ? CUBLAS_OP_T : CUBLAS_OP_N));
  set(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, epilogue);
  if (bias != nullptr) {
    set(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<const void*>(bias));
    set(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, static_cast<int32_t>(CUDA_R_32F));
  }
  if (aux != nullptr) {
    set(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, static_cast<void*>(aux));
    set(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, static_cast<int64_t>(m));
  }
  cublasLtMatrixLayout_t la, lb, lc;
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&la, CUDA_R_32F, ta ? k : m, ta ? m : k, ta ? k : m));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lb, CUDA_R_32F, tb ? n : k, tb ? k : n, tb ? n : k));
  CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&lc, CUDA_R_32F, m, n, m));
  cublasLtMatmulPreference_t pref;
  CHECK_CUBLAS(cublasLtMatmulPreferenceCreate(&pref));
  const size_t workspace = 32 << 20;
  CHECK_CUBLAS(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                                    &workspace, sizeof(workspace)));
  cublasLtMatmulHeuristicResult_t heuristic;
  int found = 0;
  CHECK_CUBLAS(
      cublasLtMatmulAlgoGetHeuristic(lt, desc, la, lb, lc, lc, pref, 1, &heuristic, &found));
  EXPECT_TRUE(found == 1, "no algorithm for %dx%dx%d epilogue %u", m, n, k, epilogue);
  const float one = 1.0f, beta = accumulate ? 1.0f : 0.0f;
  CHECK_CUBLAS(cublasLtMatmul(lt, desc, &one, a, la, b, lb, &beta, d, lc, d, lc, &heuristic.algo,
                              nullptr, 0, 0));
  cublasLtMatmulPreferenceDestroy(pref);
  cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb), cublasLtMatrixLayoutDestroy(lc);
  cublasLtMatmulDescDestroy(desc);
}

// out (BT x OC) = inp (BT x IC) W^T (W: OC x IC) + bias, row-major, llm.c's forward call.
void linear(cublasLtHandle_t lt, float* out, const float* inp, const float* w, const float* bias,
            int ic, int oc, uint32_t epilogue = CUBLASLT_EPILOGUE_BIAS, float* aux = nullptr) {
  matmul(lt, out, w, inp, bias, oc, BT, ic, true, false, epilogue, aux, false);
}
// llm.c's matmul_backward: dinp (+)= dout W [* GELU'(pre)], dW = dout^T inp, db = sum dout.
void linear_backward(cublasLtHandle_t lt, float* dinp, float* dw, float* db, const float* dout,
                     const float* inp, const float* w, int ic, int oc, float* pre_gelu,
                     bool accumulate_dinp) {
  matmul(lt, dinp, w, dout, nullptr, ic, BT, oc, false, false,
         pre_gelu != nullptr ? CUBLASLT_EPILOGUE_DGELU : CUBLASLT_EPILOGUE_DEFAULT, pre_gelu,
         accumulate_dinp);
  matmul(lt, dw, inp, dout, db, ic, oc, BT, false, true, CUBLASLT_EPILOGUE_BGRADB, nullptr, false);
}

// cublasSgemmStridedBatched over B * NH (b, h) pairs, column-major as llm.c calls it.
void batched(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
             const float* a, int lda, long long sa, const float* b, int ldb, long long sb, float* c,
             int ldc, long long sc) {
  const float one = 1.0f, zero = 0.0f;
  CHECK_CUBLAS(cublasSgemmStridedBatched(h, ta, tb, m, n, k, &one, a, lda, sa, b, ldb, sb, &zero, c,
                                         ldc, sc, B * NH));
}

// ---- FP64 CPU reference of the same block ----

using Vec = std::vector<double>;
Vec of(const std::vector<float>& v) {
  return Vec(v.begin(), v.end());
}

// out (n x oc) = inp (n x ic) W^T + bias
Vec ref_linear(const Vec& inp, const Vec& w, const Vec& bias, int n, int ic, int oc) {
  Vec out(static_cast<size_t>(n) * oc);
  for (int r = 0; r < n; ++r)
    for (int o = 0; o < oc; ++o) {
      double s = bias[o];
      for (int i = 0; i < ic; ++i) s += inp[r * ic + i] * w[o * ic + i];
      out[r * oc + o] = s;
    }
  return out;
}
void ref_linear_backward(const Vec& dout, const Vec& inp, const Vec& w, int n, int ic, int oc,
                         Vec* dinp, Vec* dw, Vec* db) {
  dinp->assign(static_cast<size_t>(n) * ic, 0.0), dw->assign(static_cast<size_t>(oc) * ic, 0.0);
  db->assign(oc, 0.0);
  for (int r = 0; r < n; ++r)
    for (int o = 0; o < oc; ++o) {
      const double g = dout[r * oc + o];
      (*db)[o] += g;
      for (int i = 0; i < ic; ++i)
        (*dinp)[r * ic + i] += g * w[o * ic + i], (*dw)[o * ic + i] += g * inp[r * ic + i];
    }
}
double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}
double gelu_grad(double x) {
  const double k = 0.7978845608028654, t = std::tanh(k * (x + 0.044715 * x * x * x));
  return 0.5 * (1.0 + t) + 0.5 * x * (1.0 - t * t) * k * (1.0 + 3.0 * 0.044715 * x * x);
}

struct Reference {
  Vec out, dx, dwqkv, dbqkv, dwproj, dbproj, dwfc, dbfc, dwfcproj, dbfcproj;
};

Reference reference(const Vec& x, const Vec& wqkv, const Vec& bqkv, const Vec& wproj,
                    const Vec& bproj, const Vec& wfc, const Vec& bfc, const Vec& wfcproj,
                    const Vec& bfcproj, const Vec& dout) {
  Reference r;
  const Vec qkv = ref_linear(x, wqkv, bqkv, BT, C, 3 * C);
  const double scale = 1.0 / std::sqrt(static_cast<double>(HS));
  Vec att(static_cast<size_t>(B) * NH * T * T, 0.0), y(static_cast<size_t>(BT) * C, 0.0);
  auto q = [&](int b, int t, int h, int d) { return qkv[(b * T + t) * 3 * C + h * HS + d]; };
  auto k = [&](int b, int t, int h, int d) { return qkv[(b * T + t) * 3 * C + C + h * HS + d]; };
  auto v = [&](int b, int t, int h, int d) {
    return qkv[(b * T + t) * 3 * C + 2 * C + h * HS + d];
  };
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < NH; ++h)
      for (int t = 0; t < T; ++t) {
        double* a = &att[((b * NH + h) * T + t) * T];
        double m = -1e300, sum = 0.0;
        for (int t2 = 0; t2 <= t; ++t2) {
          double s = 0.0;
          for (int d = 0; d < HS; ++d) s += q(b, t, h, d) * k(b, t2, h, d);
          a[t2] = s * scale, m = std::max(m, a[t2]);
        }
        for (int t2 = 0; t2 <= t; ++t2) a[t2] = std::exp(a[t2] - m), sum += a[t2];
        for (int t2 = 0; t2 <= t; ++t2) a[t2] /= sum;
        for (int d = 0; d < HS; ++d) {
          double s = 0.0;
          for (int t2 = 0; t2 <= t; ++t2) s += a[t2] * v(b, t2, h, d);
          y[(b * T + t) * C + h * HS + d] = s;
        }
      }
  const Vec proj = ref_linear(y, wproj, bproj, BT, C, C);
  Vec x2(x.size());
  for (size_t i = 0; i < x.size(); ++i) x2[i] = x[i] + proj[i];
  const Vec pre = ref_linear(x2, wfc, bfc, BT, C, C4);
  Vec fch(pre.size());
  for (size_t i = 0; i < pre.size(); ++i) fch[i] = gelu(pre[i]);
  const Vec fcproj = ref_linear(fch, wfcproj, bfcproj, BT, C4, C);
  r.out.resize(x.size());
  for (size_t i = 0; i < x.size(); ++i) r.out[i] = x2[i] + fcproj[i];
  // Backward.
  Vec dfch, dpre(pre.size()), dx2, dy;
  ref_linear_backward(dout, fch, wfcproj, BT, C4, C, &dfch, &r.dwfcproj, &r.dbfcproj);
  for (size_t i = 0; i < pre.size(); ++i) dpre[i] = dfch[i] * gelu_grad(pre[i]);
  ref_linear_backward(dpre, x2, wfc, BT, C, C4, &dx2, &r.dwfc, &r.dbfc);
  for (size_t i = 0; i < dx2.size(); ++i) dx2[i] += dout[i];
  ref_linear_backward(dx2, y, wproj, BT, C, C, &dy, &r.dwproj, &r.dbproj);
  Vec dqkv(qkv.size(), 0.0);
  for (int b = 0; b < B; ++b)
    for (int h = 0; h < NH; ++h)
      for (int t = 0; t < T; ++t) {
        const double* a = &att[((b * NH + h) * T + t) * T];
        double datt[T] = {}, dot = 0.0;
        for (int t2 = 0; t2 <= t; ++t2) {
          for (int d = 0; d < HS; ++d) {
            const double g = dy[(b * T + t) * C + h * HS + d];
            datt[t2] += g * v(b, t2, h, d);
            dqkv[(b * T + t2) * 3 * C + 2 * C + h * HS + d] += a[t2] * g;
          }
          dot += a[t2] * datt[t2];
        }
        for (int t2 = 0; t2 <= t; ++t2) {
          const double dp = scale * a[t2] * (datt[t2] - dot);
          for (int d = 0; d < HS; ++d) {
            dqkv[(b * T + t) * 3 * C + h * HS + d] += dp * k(b, t2, h, d);
            dqkv[(b * T + t2) * 3 * C + C + h * HS + d] += dp * q(b, t, h, d);
          }
        }
      }
  Vec dx;
  ref_linear_backward(dqkv, x, wqkv, BT, C, 3 * C, &dx, &r.dwqkv, &r.dbqkv);
  for (size_t i = 0; i < dx.size(); ++i) dx[i] += dx2[i];
  r.dx = dx;
  return r;
}

void expect_close(const char* name, const std::vector<float>& got, const Vec& want) {
  double scale = 0.0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  const double bound = 1e-4 * scale + 1e-30;
  for (size_t i = 0; i < want.size(); ++i)
    EXPECT_TRUE(std::fabs(got[i] - want[i]) <= bound, "%s[%zu]: %.9g vs %.9g (bound %.3g)", name, i,
                got[i], want[i], bound);
  std::printf("%-9s %5zu values, max |ref| %.4g: ok\n", name, want.size(), scale);
}

}  // namespace

int main() {
  blas_check::Random rng(2024);
  cublasHandle_t blas;
  CHECK_CUBLAS(cublasCreate(&blas));
  // A cublasHandle_t serves as a cublasLtHandle_t, as llm.c's fp32 build relies on.
  const auto lt = reinterpret_cast<cublasLtHandle_t>(blas);
  const double ws = 1.0 / std::sqrt(static_cast<double>(C));
  Buffer x(BT * C, rng, 1.0), wqkv(3 * C * C, rng, ws), bqkv(3 * C, rng, 0.1),
      wproj(C * C, rng, ws), bproj(C, rng, 0.1), wfc(C4 * C, rng, ws), bfc(C4, rng, 0.1),
      wfcproj(C * C4, rng, 0.5 * ws), bfcproj(C, rng, 0.1), dout(BT * C, rng, 1.0);
  const int threads = 64, all = B * NH * T * HS, rows = B * NH * T;
  auto grid = [&](int n) { return (n + threads - 1) / threads; };
  const float scale = 1.0f / std::sqrt(static_cast<float>(HS));
  // Forward.
  Buffer qkv(BT * 3 * C), q(all), k(all), v(all), preatt(rows * T), att(rows * T), vacc(all),
      y(BT * C), proj(BT * C), x2(BT * C), pre(BT * C4), fch(BT * C4), fcproj(BT * C), out(BT * C);
  linear(lt, qkv.dev, x.dev, wqkv.dev, bqkv.dev, C, 3 * C);
  permute<<<grid(all), threads>>>(q.dev, k.dev, v.dev, qkv.dev);
  batched(blas, CUBLAS_OP_T, CUBLAS_OP_N, T, T, HS, k.dev, HS, T * HS, q.dev, HS, T * HS,
          preatt.dev, T, T * T);
  softmax<<<grid(rows), threads>>>(att.dev, preatt.dev, scale);
  batched(blas, CUBLAS_OP_N, CUBLAS_OP_N, HS, T, T, v.dev, HS, T * HS, att.dev, T, T * T, vacc.dev,
          HS, T * HS);
  unpermute<<<grid(all), threads>>>(y.dev, vacc.dev, C, 0);
  linear(lt, proj.dev, y.dev, wproj.dev, bproj.dev, C, C);
  add<<<grid(BT * C), threads>>>(x2.dev, x.dev, proj.dev, BT * C);
  linear(lt, fch.dev, x2.dev, wfc.dev, bfc.dev, C, C4, CUBLASLT_EPILOGUE_GELU_AUX_BIAS, pre.dev);
  linear(lt, fcproj.dev, fch.dev, wfcproj.dev, bfcproj.dev, C4, C);
  add<<<grid(BT * C), threads>>>(out.dev, x2.dev, fcproj.dev, BT * C);
  CHECK_CUDA(cudaGetLastError());
  // Backward (llm.c's order; dx2 starts as the residual's gradient, dout).
  Buffer dfch(BT * C4), dwfcproj(C * C4), dbfcproj(C), dx2(BT * C), dwfc(C4 * C), dbfc(C4),
      dy(BT * C), dwproj(C * C), dbproj(C), dvacc(all), datt(rows * T), dpreatt(rows * T), dq(all),
      dk(all), dv(all), dqkv(BT * 3 * C), dwqkv(3 * C * C), dbqkv(3 * C), dx(BT * C);
  linear_backward(lt, dfch.dev, dwfcproj.dev, dbfcproj.dev, dout.dev, fch.dev, wfcproj.dev, C4, C,
                  pre.dev, false);
  CHECK_CUDA(cudaMemcpy(dx2.dev, dout.dev, BT * C * sizeof(float), cudaMemcpyDeviceToDevice));
  linear_backward(lt, dx2.dev, dwfc.dev, dbfc.dev, dfch.dev, x2.dev, wfc.dev, C, C4, nullptr, true);
  linear_backward(lt, dy.dev, dwproj.dev, dbproj.dev, dx2.dev, y.dev, wproj.dev, C, C, nullptr,
                  false);
  permute_one<<<grid(all), threads>>>(dvacc.dev, dy.dev);
  batched(blas, CUBLAS_OP_T, CUBLAS_OP_N, T, T, HS, v.dev, HS, T * HS, dvacc.dev, HS, T * HS,
          datt.dev, T, T * T);
  batched(blas, CUBLAS_OP_N, CUBLAS_OP_T, HS, T, T, dvacc.dev, HS, T * HS, att.dev, T, T * T,
          dv.dev, HS, T * HS);
  softmax_backward<<<grid(rows), threads>>>(dpreatt.dev, datt.dev, att.dev, scale);
  batched(blas, CUBLAS_OP_N, CUBLAS_OP_N, HS, T, T, k.dev, HS, T * HS, dpreatt.dev, T, T * T,
          dq.dev, HS, T * HS);
  batched(blas, CUBLAS_OP_N, CUBLAS_OP_T, HS, T, T, q.dev, HS, T * HS, dpreatt.dev, T, T * T,
          dk.dev, HS, T * HS);
  unpermute<<<grid(all), threads>>>(dqkv.dev, dq.dev, 3 * C, 0);
  unpermute<<<grid(all), threads>>>(dqkv.dev, dk.dev, 3 * C, C);
  unpermute<<<grid(all), threads>>>(dqkv.dev, dv.dev, 3 * C, 2 * C);
  CHECK_CUDA(cudaMemcpy(dx.dev, dx2.dev, BT * C * sizeof(float), cudaMemcpyDeviceToDevice));
  linear_backward(lt, dx.dev, dwqkv.dev, dbqkv.dev, dqkv.dev, x.dev, wqkv.dev, C, 3 * C, nullptr,
                  true);
  CHECK_CUDA(cudaDeviceSynchronize());

  const Reference r =
      reference(of(x.host), of(wqkv.host), of(bqkv.host), of(wproj.host), of(bproj.host),
                of(wfc.host), of(bfc.host), of(wfcproj.host), of(bfcproj.host), of(dout.host));
  expect_close("out", out.down(), r.out);
  expect_close("dx", dx.down(), r.dx);
  expect_close("dWqkv", dwqkv.down(), r.dwqkv);
  expect_close("dbqkv", dbqkv.down(), r.dbqkv);
  expect_close("dWproj", dwproj.down(), r.dwproj);
  expect_close("dbproj", dbproj.down(), r.dbproj);
  expect_close("dWfc", dwfc.down(), r.dwfc);
  expect_close("dbfc", dbfc.down(), r.dbfc);
  expect_close("dWfcproj", dwfcproj.down(), r.dwfcproj);
  expect_close("dbfcproj", dbfcproj.down(), r.dbfcproj);
  CHECK_CUBLAS(cublasDestroy(blas));
  std::printf("PASS gpt2_step\n");
  return 0;
}
