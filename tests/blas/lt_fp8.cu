// cublasLtMatmul with FP8 inputs the way PyTorch's scaled_gemm and Transformer Engine call
// it: A and B E4M3 / E5M2 in the "TN" format, FP32 compute and scale, per-tensor scale
// factors for A, B, C and D, AMAX_D, FAST_ACCUM, a BF16 bias, and outputs in BF16, FP16,
// FP32 and FP8 (saturating). Reference: FP64 of the decoded inputs,
//   D = scale_D (alpha scale_A scale_B op(A) op(B) + beta scale_C C + bias),
//   amax_D = max |D / scale_D| (before D's scale).
// Leading dimensions beyond the minimum by two elements (the FP8 kernel without tensor cores)
// and 16-byte multiples on every tensor-core tile (kernels/lt_fp8_tc.cuh).
// Also the combinations the FP8 table rejects (E5M2 x E5M2, not TN) and, with the argument
// `unsupported` (run on a compute capability 8.0 device), that every FP8 matmul is
// CUBLAS_STATUS_NOT_SUPPORTED there, as on an A100.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <cmath>
#include <cstring>

#include "blas_check.h"
#include "gemm_tiles.h"

namespace {

using blas_check::Random;

// Every tile of src/blas/kernels/gemm_tiles.h, "fma" (the FP8 kernel without tensor cores)
// and "": the selection table's choice (gemm.h reads STRATA_BLAS_GEMM_TILE at each call).
#define LT_FP8_TILE(id, ...) #id,
const char* const kTiles[] = {STRATA_GEMM_TC_TILES(LT_FP8_TILE, 0) "fma", ""};
#undef LT_FP8_TILE

struct Format {
  cudaDataType type;
  double u;  // unit roundoff of the stored result
  int bytes;
};

double decode(cudaDataType t, const unsigned char* p) {
  switch (t) {
    case CUDA_R_8F_E4M3:
    case CUDA_R_8F_E5M2: {
      const __half_raw h = __nv_cvt_fp8_to_halfraw(*p, t == CUDA_R_8F_E4M3 ? __NV_E4M3 : __NV_E5M2);
      return __half2float(__half(h));
    }
    case CUDA_R_16BF: {
      __nv_bfloat16 v;
      std::memcpy(&v, p, 2);
      return __bfloat162float(v);
    }
    case CUDA_R_16F: {
      __half v;
      std::memcpy(&v, p, 2);
      return __half2float(v);
    }
    default: {
      float v;
      std::memcpy(&v, p, 4);
      return v;
    }
  }
}

void encode(cudaDataType t, double x, unsigned char* p) {
  switch (t) {
    case CUDA_R_8F_E4M3:
    case CUDA_R_8F_E5M2:
      *p = __nv_cvt_double_to_fp8(x, __NV_SATFINITE, t == CUDA_R_8F_E4M3 ? __NV_E4M3 : __NV_E5M2);
      break;
    case CUDA_R_16BF: {
      const __nv_bfloat16 v = __float2bfloat16_rn(static_cast<float>(x));
      std::memcpy(p, &v, 2);
      break;
    }
    case CUDA_R_16F: {
      const __half v = __float2half_rn(static_cast<float>(x));
      std::memcpy(p, &v, 2);
      break;
    }
    default: {
      const float v = static_cast<float>(x);
      std::memcpy(p, &v, 4);
    }
  }
}

int bytes_of(cudaDataType t) {
  return t == CUDA_R_32F ? 4 : (t == CUDA_R_16BF || t == CUDA_R_16F) ? 2 : 1;
}
double unit_of(cudaDataType t) {
  switch (t) {
    case CUDA_R_8F_E4M3:
      return 1.0 / 16;  // 3 mantissa bits
    case CUDA_R_8F_E5M2:
      return 1.0 / 8;  // 2 mantissa bits
    case CUDA_R_16BF:
      return blas_check::kUnitBF16;
    case CUDA_R_16F:
      return blas_check::kUnitF16;
    default:
      return blas_check::kUnitF32;
  }
}
double max_of(cudaDataType t) {
  return t == CUDA_R_8F_E4M3 ? 448.0 : t == CUDA_R_8F_E5M2 ? 57344.0 : 1e300;
}

// A column-major matrix of `type` with random values in [-range, range], as bytes.
struct Mat {
  cudaDataType type;
  int rows, cols;
  int64_t ld;
  std::vector<unsigned char> bytes;
  void* dev = nullptr;
  // aligned: ld a multiple of 16 bytes (the tensor-core kernels' cp.async path), else r + 2.
  Mat(cudaDataType t, int r, int c, Random& rng, double range, bool aligned)
      : type(t),
        rows(r),
        cols(c),
        ld(aligned ? (r * bytes_of(t) + 31) / 16 * 16 / bytes_of(t) : r + 2) {
    bytes.assign(static_cast<size_t>(ld * c * bytes_of(t)), 0);
    for (int j = 0; j < c; ++j)
      for (int i = 0; i < r; ++i) encode(t, range * rng.next(), &bytes[(i + j * ld) * bytes_of(t)]);
    CHECK_CUDA(cudaMalloc(&dev, bytes.size()));
    CHECK_CUDA(cudaMemcpy(dev, bytes.data(), bytes.size(), cudaMemcpyHostToDevice));
  }
  double at(int i, int j) const { return decode(type, &bytes[(i + j * ld) * bytes_of(type)]); }
  cublasLtMatrixLayout_t layout() const {
    cublasLtMatrixLayout_t l;
    CHECK_CUBLAS(cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld));
    return l;
  }
};

float* device_float(float v) {
  float* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, sizeof(float)));
  CHECK_CUDA(cudaMemcpy(d, &v, sizeof(float), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
void set(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t a, const T& v) {
  CHECK_CUBLAS(cublasLtMatmulDescSetAttribute(d, a, &v, sizeof(v)));
}

struct Case {
  cudaDataType a, b, c, d;
  int m, n, k;
  bool bias, scales, amax;
  bool aligned = false;  // leading dimensions the tensor-core kernels take
};

// Runs one FP8 matmul: D (m x n) = op(A) op(B) with A stored k x m (TRANSA = T) and B k x n.
cublasStatus_t run(cublasLtHandle_t lt, Random& rng, const Case& cs, bool check,
                   cublasOperation_t ta = CUBLAS_OP_T, cublasOperation_t tb = CUBLAS_OP_N) {
  Mat a(cs.a, cs.k, cs.m, rng, 4.0, cs.aligned), b(cs.b, cs.k, cs.n, rng, 4.0, cs.aligned);
  Mat c(cs.c, cs.m, cs.n, rng, 8.0, cs.aligned), d(cs.d, cs.m, cs.n, rng, 1.0, cs.aligned);
  const float alpha = 1.25f, beta = -0.5f;
  const float sa = 0.5f, sb = 2.0f, sc = 0.25f,
              sd = cs.d == CUDA_R_8F_E4M3 || cs.d == CUDA_R_8F_E5M2 ? 0.125f : 1.0f;
  float* sa_d = device_float(sa);
  float* sb_d = device_float(sb);
  float* sc_d = device_float(sc);
  float* sd_d = device_float(sd);
  float* amax_d = device_float(-1.0f);
  std::vector<__nv_bfloat16> bias_h(cs.m);
  for (auto& v : bias_h) v = __float2bfloat16_rn(static_cast<float>(4.0 * rng.next()));
  __nv_bfloat16* bias_d = nullptr;
  CHECK_CUDA(cudaMalloc(&bias_d, cs.m * sizeof(__nv_bfloat16)));
  CHECK_CUDA(
      cudaMemcpy(bias_d, bias_h.data(), cs.m * sizeof(__nv_bfloat16), cudaMemcpyHostToDevice));

  cublasLtMatmulDesc_t desc;
  CHECK_CUBLAS(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  set(desc, CUBLASLT_MATMUL_DESC_TRANSA, static_cast<int32_t>(ta));
  set(desc, CUBLASLT_MATMUL_DESC_TRANSB, static_cast<int32_t>(tb));
  set(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, int8_t{1});
  if (cs.scales) {
    set(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, static_cast<const void*>(sa_d));
    set(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, static_cast<const void*>(sb_d));
    set(desc, CUBLASLT_MATMUL_DESC_C_SCALE_POINTER, static_cast<const void*>(sc_d));
    if (sd != 1.0f) set(desc, CUBLASLT_MATMUL_DESC_D_SCALE_POINTER, static_cast<const void*>(sd_d));
  }
  if (cs.amax) set(desc, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, static_cast<void*>(amax_d));
  if (cs.bias) {
    set(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, static_cast<uint32_t>(CUBLASLT_EPILOGUE_BIAS));
    set(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, static_cast<const void*>(bias_d));
    set(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, static_cast<int32_t>(CUDA_R_16BF));
  }
  cublasLtMatrixLayout_t la = a.layout(), lb = b.layout(), lc = c.layout(), ld = d.layout();
  const cublasStatus_t s = cublasLtMatmul(lt, desc, &alpha, a.dev, la, b.dev, lb, &beta, c.dev, lc,
                                          d.dev, ld, nullptr, nullptr, 0, 0);
  if (s == CUBLAS_STATUS_SUCCESS && check) {
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<unsigned char> got(d.bytes.size());
    CHECK_CUDA(cudaMemcpy(got.data(), d.dev, got.size(), cudaMemcpyDeviceToHost));
    float amax = 0.0f;
    CHECK_CUDA(cudaMemcpy(&amax, amax_d, sizeof(float), cudaMemcpyDeviceToHost));
    const double s_ab = cs.scales ? double(sa) * sb : 1.0, s_c = cs.scales ? sc : 1.0;
    const double s_d = cs.scales ? sd : 1.0;
    const double u_out = unit_of(cs.d);
    double want_amax = 0.0, amax_bound = 0.0;
    for (int j = 0; j < cs.n; ++j) {
      for (int i = 0; i < cs.m; ++i) {
        double sum = 0.0, mag = 0.0;
        for (int q = 0; q < cs.k; ++q) {
          const double x = a.at(q, i) * b.at(q, j);
          sum += x, mag += std::fabs(x);
        }
        const double bias = cs.bias ? __bfloat162float(bias_h[i]) : 0.0;
        const double pre = alpha * s_ab * sum + beta * s_c * c.at(i, j) + bias;
        mag = std::fabs(alpha * s_ab) * mag + std::fabs(beta * s_c * c.at(i, j)) + std::fabs(bias);
        const double bound_pre =
            blas_check::gemm_bound(cs.k, blas_check::kUnitF32, blas_check::kUnitF32, mag);
        want_amax = std::max(want_amax, std::fabs(pre));
        amax_bound = std::max(amax_bound, bound_pre);
        const double want =
            std::min(std::max(pre * s_d, -max_of(cs.d)), max_of(cs.d));  // saturating
        const double have = decode(cs.d, &got[(i + j * d.ld) * bytes_of(cs.d)]);
        // FP8 subnormals: an absolute error up to half their spacing (2^-10 for E4M3).
        const double bound =
            bound_pre * s_d + u_out * std::fabs(want) * 2 + (bytes_of(cs.d) == 1 ? 2e-3 : 0.0);
        EXPECT_TRUE(std::fabs(have - want) <= bound,
                    "FP8 %d/%d -> %d (%d,%d): %.9g vs %.9g (bound %.3g)", cs.a, cs.b, cs.d, i, j,
                    have, want, bound);
      }
    }
    if (cs.amax)
      EXPECT_TRUE(std::fabs(amax - want_amax) <= amax_bound, "AMAX_D %.9g vs %.9g", amax,
                  want_amax);
  }
  cublasLtMatrixLayoutDestroy(la), cublasLtMatrixLayoutDestroy(lb);
  cublasLtMatrixLayoutDestroy(lc), cublasLtMatrixLayoutDestroy(ld);
  cublasLtMatmulDescDestroy(desc);
  cudaFree(a.dev), cudaFree(b.dev), cudaFree(c.dev), cudaFree(d.dev);
  cudaFree(sa_d), cudaFree(sb_d), cudaFree(sc_d), cudaFree(sd_d), cudaFree(amax_d),
      cudaFree(bias_d);
  return s;
}

}  // namespace

int main(int argc, char** argv) {
  const bool unsupported = argc > 1 && std::strcmp(argv[1], "unsupported") == 0;
  cublasLtHandle_t lt;
  CHECK_CUBLAS(cublasLtCreate(&lt));
  Random rng(11);
  const Case kCases[] = {
      {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_16BF, 40, 24, 48, true, true, true},
      {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16F, CUDA_R_16F, 17, 33, 20, false, false, false},
      {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_32F, CUDA_R_32F, 64, 16, 32, true, true, true},
      {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_R_16BF, CUDA_R_8F_E4M3, 32, 20, 36, false, true, true},
      {CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUDA_R_16F, CUDA_R_8F_E5M2, 24, 24, 16, true, true, true},
      {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_8F_E4M3, 70, 5, 64, false, true, true},
  };
  if (unsupported) {
    for (const Case& c : kCases) EXPECT_STATUS(run(lt, rng, c, false), CUBLAS_STATUS_NOT_SUPPORTED);
    std::printf("PASS lt_fp8_unsupported\n");
    return 0;
  }
  for (const Case& c : kCases) CHECK_CUBLAS(run(lt, rng, c, true));
  // The tensor-core kernels (16-byte leading dimensions): each A x B type pair, ragged m and
  // n edges, a partial last k slice, on every tile configuration and on the table's choice.
  const Case kTcCases[] = {
      {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_16BF, 150, 72, 96, true, true, true,
       true},
      {CUDA_R_8F_E4M3, CUDA_R_8F_E5M2, CUDA_R_16BF, CUDA_R_8F_E4M3, 64, 64, 128, false, true, true,
       true},
      {CUDA_R_8F_E5M2, CUDA_R_8F_E4M3, CUDA_R_16F, CUDA_R_8F_E5M2, 40, 136, 64, true, true, true,
       true},
      {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_32F, CUDA_R_32F, 130, 129, 208, false, false, false,
       true},
  };
  for (const char* tile : kTiles) {
    if (*tile) {
      setenv("STRATA_BLAS_GEMM_TILE", tile, 1);
    } else {
      unsetenv("STRATA_BLAS_GEMM_TILE");
    }
    for (const Case& c : kTcCases) CHECK_CUBLAS(run(lt, rng, c, true));
  }
  unsetenv("STRATA_BLAS_GEMM_TILE");
  // Outside the FP8 table: E5M2 x E5M2, an E5M2 D from E4M3 inputs, FP32 C with a BF16 D,
  // and any format but TN.
  EXPECT_STATUS(
      run(lt, rng,
          {CUDA_R_8F_E5M2, CUDA_R_8F_E5M2, CUDA_R_16BF, CUDA_R_16BF, 8, 8, 16, false, false, false},
          false),
      CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(run(lt, rng,
                    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_8F_E5M2, 8, 8, 16, false,
                     false, false},
                    false),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(
      run(lt, rng,
          {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_32F, CUDA_R_16BF, 8, 8, 16, false, false, false},
          false),
      CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(run(lt, rng,
                    {CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_16BF, 16, 16, 16, false,
                     false, false},
                    false, CUBLAS_OP_N, CUBLAS_OP_N),
                CUBLAS_STATUS_NOT_SUPPORTED);
  CHECK_CUBLAS(cublasLtDestroy(lt));
  std::printf("PASS lt_fp8\n");
  return 0;
}
