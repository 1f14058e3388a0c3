// GEMM throughput of cuBLAS on Strata (issue 7 item 8): modeled TFLOP/s and the fraction of
// the configuration's peak for SGEMM, FP16 and BF16 GEMM (FP32 compute) and FP8 (cuBLASLt,
// E4M3 inputs, BF16 output) at GPT-2 small's matmul shapes and 4096^3, beside a naive
// shared-memory tiled GEMM compiled into this program, run on the same shapes in the same
// run.
//
// An ordinary CUDA program (nvcc -cudart shared, -lcublas -lcublasLt). Under `strata run`
// the times are the performance model's (cudaEvent times read the virtual clock; run with
// STRATA_HOST_TIME=none so that host CPU time, such as JIT compilation, stays out of
// them, and STRATA_TIMING=sampled for the detailed model), and the peaks come from the
// config's arch file (STRATA_ARCH, STRATA_ARCH_DIR; the derivation is printed). Run
// natively on an NVIDIA GPU (no `strata run`), the library is NVIDIA's cuBLAS, the times
// are measured (median of 10 after a warm-up), and the program prints the naive kernel as
// a percentage of cuBLAS per shape. GEMM_BENCH_MODE=strata / native overrides the detection.
//
// Every GEMM is D = alpha A^T B + beta C, column-major, A stored k x m (the TN form of
// llm.c's forward matmuls and of cuBLASLt's FP8 layout). Results are checked against a
// host FP64 reference with issue 7's bound on every element (--quick) or on 512 sampled
// elements (full runs), never the timings.
//
//   gemm_bench [--quick] [--shapes gpt2,square,2048,large] [--shape MxNxK ...]
//              [--types f32,f16,bf16,fp8] [--tokens N]
//     --quick: small shapes (seconds); ctest bench_blas_gemm_quick.
//     default: GPT-2 small's matmuls at B x T = N tokens (256) and 1024^3 (--shapes
//     gpt2,square); "2048" adds 2048^3 and "large" 4096^3. --shape adds one m x n x k
//     shape (repeatable; given alone, only those shapes run).
#include <cublasLt.h>
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#ifndef STRATA_LIB_DIR
#define STRATA_LIB_DIR ""
#endif
#ifndef STRATA_DEFAULT_ARCH_DIR
#define STRATA_DEFAULT_ARCH_DIR ""
#endif

#define CHECK_CUDA(call)                                                                        \
  do {                                                                                          \
    cudaError_t e_ = (call);                                                                    \
    if (e_ != cudaSuccess) {                                                                    \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e_)); \
      std::exit(1);                                                                             \
    }                                                                                           \
  } while (0)

namespace {

// --- Element types ----------------------------------------------------------------------

enum class Kind { F32, F16, BF16, FP8 };
struct TypeInfo {
  const char* name;
  size_t bytes;      // of A and B
  size_t out_bytes;  // of C and D
  double u_out;      // unit roundoff of C / D
};
TypeInfo info(Kind k) {
  switch (k) {
    case Kind::F32:
      return {"f32", 4, 4, std::ldexp(1.0, -24)};
    case Kind::F16:
      return {"f16", 2, 2, std::ldexp(1.0, -11)};
    case Kind::BF16:
      return {"bf16", 2, 2, std::ldexp(1.0, -8)};
    default:
      return {"fp8", 1, 2, std::ldexp(1.0, -8)};  // E4M3 in, BF16 out
  }
}

template <typename T>
__host__ __device__ float to_float(T v);
template <>
__host__ __device__ float to_float(float v) {
  return v;
}
template <>
__host__ __device__ float to_float(__half v) {
  return __half2float(v);
}
template <>
__host__ __device__ float to_float(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
template <>
__host__ __device__ float to_float(__nv_fp8_e4m3 v) {
  return static_cast<float>(v);
}
template <typename T>
__host__ __device__ T from_float(float v);
template <>
__host__ __device__ float from_float(float v) {
  return v;
}
template <>
__host__ __device__ __half from_float(float v) {
  return __float2half_rn(v);
}
template <>
__host__ __device__ __nv_bfloat16 from_float(float v) {
  return __float2bfloat16_rn(v);
}
template <>
__host__ __device__ __nv_fp8_e4m3 from_float(float v) {
  return __nv_fp8_e4m3(v);
}

// --- The naive tiled GEMM ---------------------------------------------------------------

// D = alpha A^T B + beta C: 16 x 16 output tile per block, one element per thread, A and B
// staged through shared memory 16 deep, FP32 accumulation. The textbook kernel (CUDA
// Programming Guide, "Shared Memory" matrix multiplication) a user writes first.
constexpr int kTile = 16;
template <typename TI, typename TO>
__global__ void naive_gemm_tn(int m, int n, int k, float alpha, const TI* A, int lda, const TI* B,
                              int ldb, float beta, TO* C, int ldc) {
  __shared__ float as[kTile][kTile + 1], bs[kTile][kTile + 1];
  const int row = blockIdx.x * kTile + threadIdx.x, col = blockIdx.y * kTile + threadIdx.y;
  float acc = 0;
  for (int k0 = 0; k0 < k; k0 += kTile) {
    // as[kk][r] = A(k0 + kk, row block r): A is k x m, so A^T(r, kk) is contiguous in kk.
    const int ar = blockIdx.x * kTile + threadIdx.y, ak = k0 + threadIdx.x;
    as[threadIdx.x][threadIdx.y] =
        ar < m && ak < k ? to_float(A[ak + static_cast<size_t>(ar) * lda]) : 0.f;
    const int bk = k0 + threadIdx.x;
    bs[threadIdx.x][threadIdx.y] =
        col < n && bk < k ? to_float(B[bk + static_cast<size_t>(col) * ldb]) : 0.f;
    __syncthreads();
    for (int kk = 0; kk < kTile; ++kk) acc += as[kk][threadIdx.x] * bs[kk][threadIdx.y];
    __syncthreads();
  }
  if (row < m && col < n) {
    TO* c = C + row + static_cast<size_t>(col) * ldc;
    *c = from_float<TO>(alpha * acc + (beta == 0.f ? 0.f : beta * to_float(*c)));
  }
}

// --- The configuration's peaks ----------------------------------------------------------

struct Peaks {
  std::string name, derivation;
  double fp32 = 0, tensor_f16 = 0, tensor_f8 = 0;  // FLOP/s; 0 when unknown
  double of(Kind k) const {
    return k == Kind::F32 ? fp32 : k == Kind::FP8 ? tensor_f8 : tensor_f16;
  }
};

// `key = value` fields of an arch TOML file (sections ignored: the keys are unique).
std::map<std::string, double> read_arch(const std::string& path) {
  std::map<std::string, double> fields;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    const size_t eq = line.find('=');
    if (eq == std::string::npos || line[0] == '#' || line[0] == '[') continue;
    std::string key = line.substr(0, eq);
    key.erase(key.find_last_not_of(" \t") + 1);
    char* end = nullptr;
    const double v = std::strtod(line.c_str() + eq + 1, &end);
    if (end != line.c_str() + eq + 1) fields[key] = v;
  }
  return fields;
}

Peaks strata_peaks() {
  const char* arch = std::getenv("STRATA_ARCH");
  std::string name = arch && *arch ? arch : "strata-g1";
  std::string path = name;
  if (name.find('/') == std::string::npos && name.find(".toml") == std::string::npos) {
    const char* dir = std::getenv("STRATA_ARCH_DIR");
    path = std::string(dir && *dir ? dir : STRATA_DEFAULT_ARCH_DIR) + "/" + name + ".toml";
  }
  auto f = read_arch(path);
  Peaks p;
  p.name = name;
  const double sms = f["sm_count"], ghz = f["core_clock_mhz"] / 1000.0;
  if (sms == 0 || ghz == 0) {
    p.derivation = "cannot read " + path + ": no peaks";
    return p;
  }
  p.fp32 = sms * f["fp32_lanes_per_clock"] * 2 * ghz * 1e9;
  p.tensor_f16 = sms * f["tensor_fma_per_clock_f16"] * 2 * ghz * 1e9;
  p.tensor_f8 = sms * f["tensor_fma_per_clock_f8"] * 2 * ghz * 1e9;
  char buf[1024];
  std::snprintf(
      buf, sizeof buf,
      "%s (%s):\n"
      "  FP32 peak      = sm_count %g x fp32_lanes_per_clock %g x 2 FLOP x %g GHz = %.2f TFLOP/s\n"
      "  FP16/BF16 peak = sm_count %g x tensor_fma_per_clock_f16 %g x 2 FLOP x %g GHz = %.2f "
      "TFLOP/s\n"
      "  FP8 peak       = sm_count %g x tensor_fma_per_clock_f8 %g x 2 FLOP x %g GHz = %.2f "
      "TFLOP/s",
      name.c_str(), path.c_str(), sms, f["fp32_lanes_per_clock"], ghz, p.fp32 / 1e12, sms,
      f["tensor_fma_per_clock_f16"], ghz, p.tensor_f16 / 1e12, sms, f["tensor_fma_per_clock_f8"],
      ghz, p.tensor_f8 / 1e12);
  p.derivation = buf;
  return p;
}

// Strata's runtime is the one loaded when it lives in this build's library directory
// (GEMM_BENCH_MODE=strata or native overrides, e.g. for a copy of the libraries).
bool under_strata() {
  if (const char* mode = std::getenv("GEMM_BENCH_MODE"); mode && *mode)
    return std::strcmp(mode, "strata") == 0;
  Dl_info where{};
  if (!dladdr(reinterpret_cast<void*>(static_cast<cudaError_t (*)(int*)>(&cudaGetDeviceCount)),
              &where) ||
      !where.dli_fname)
    return false;
  char resolved[4096], lib_dir[4096];
  if (!realpath(where.dli_fname, resolved) || !realpath(STRATA_LIB_DIR, lib_dir)) return false;
  return std::strncmp(resolved, lib_dir, std::strlen(lib_dir)) == 0;
}

// --- One GEMM ---------------------------------------------------------------------------

struct Shape {
  const char* name;
  int m, n, k;
};

struct Buffers {
  void *a = nullptr, *b = nullptr, *c = nullptr, *d_naive = nullptr;
  std::vector<float> ha, hb, hc;  // host copies of the stored values
};

// Deterministic values in [-1, 1), rounded to the stored type.
uint64_t g_state = 0x2545F4914F6CDD1Dull;
float next_uniform() {
  g_state ^= g_state >> 12, g_state ^= g_state << 25, g_state ^= g_state >> 27;
  return static_cast<float>(((g_state * 0x2545F4914F6CDD1Dull) >> 40) * (1.0 / 16777216.0) * 2.0 -
                            1.0);
}

template <typename T>
void fill(void** dev, std::vector<float>& host, size_t count) {
  std::vector<T> v(count);
  host.resize(count);
  for (size_t i = 0; i < count; ++i) v[i] = from_float<T>(next_uniform()), host[i] = to_float(v[i]);
  CHECK_CUDA(cudaMalloc(dev, count * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(*dev, v.data(), count * sizeof(T), cudaMemcpyHostToDevice));
}

template <typename T>
std::vector<float> download(const void* dev, size_t count) {
  std::vector<T> v(count);
  CHECK_CUDA(cudaMemcpy(v.data(), dev, count * sizeof(T), cudaMemcpyDeviceToHost));
  std::vector<float> out(count);
  for (size_t i = 0; i < count; ++i) out[i] = to_float(v[i]);
  return out;
}

constexpr float kAlpha = 0.75f, kBeta = -0.5f;

// Checks D against the FP64 reference on every element (all) or on 512 sampled ones.
bool check(const Shape& s, const Buffers& b, const std::vector<float>& d, double u_compute,
           double u_out, double scale, bool all, const char* who) {
  const size_t total = static_cast<size_t>(s.m) * s.n;
  const size_t count = all ? total : std::min<size_t>(512, total);
  for (size_t t = 0; t < count; ++t) {
    const size_t idx = all ? t : (t * 2654435761ull) % total;
    const int i = static_cast<int>(idx % s.m), j = static_cast<int>(idx / s.m);
    double sum = 0, mag = 0;
    for (int l = 0; l < s.k; ++l) {
      const double p =
          double(b.ha[l + static_cast<size_t>(i) * s.k]) * b.hb[l + static_cast<size_t>(j) * s.k];
      sum += p, mag += std::fabs(p);
    }
    const double c = b.hc[idx];
    const double want = kAlpha * scale * sum + kBeta * c;
    const double bound =
        2 * (s.k * u_compute + u_out) * (std::fabs(kAlpha * scale) * mag + std::fabs(kBeta * c));
    if (!(std::fabs(d[idx] - want) <= bound)) {
      std::printf("FAIL %s %s D(%d, %d) = %.9g, want %.9g (bound %.3g)\n", who, s.name, i, j,
                  d[idx], want, bound);
      return false;
    }
  }
  return true;
}

struct Timer {
  cudaEvent_t start, stop;
  Timer() {
    CHECK_CUDA(cudaEventCreate(&start));
    CHECK_CUDA(cudaEventCreate(&stop));
  }
  ~Timer() {
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
  }
  // Median milliseconds of `reps` runs of f (after `warmup` untimed ones).
  template <typename F>
  double time(F f, int warmup, int reps) {
    for (int i = 0; i < warmup; ++i) f();
    std::vector<float> ms;
    for (int i = 0; i < reps; ++i) {
      CHECK_CUDA(cudaEventRecord(start));
      f();
      CHECK_CUDA(cudaEventRecord(stop));
      CHECK_CUDA(cudaEventSynchronize(stop));
      float t = 0;
      CHECK_CUDA(cudaEventElapsedTime(&t, start, stop));
      ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    return ms[ms.size() / 2];
  }
};

struct Context {
  cublasHandle_t blas;
  cublasLtHandle_t lt;
  void* workspace;
  size_t workspace_size = 32u << 20;
  bool strata;
  bool quick;
  Peaks peaks;
  int failures = 0;
};

// cuBLAS's call for a type: cublasSgemm, cublasGemmEx (16F / 16BF, 32F compute) or
// cublasLtMatmul (FP8: E4M3 A and B with unit scales, BF16 C and D). Returns its status.
cublasStatus_t library_gemm(Context& ctx, Kind kind, const Shape& s, const Buffers& b, void* d) {
  const float alpha = kAlpha, beta = kBeta;
  switch (kind) {
    case Kind::F32:
      return cublasSgemm(ctx.blas, CUBLAS_OP_T, CUBLAS_OP_N, s.m, s.n, s.k, &alpha,
                         static_cast<float*>(b.a), s.k, static_cast<float*>(b.b), s.k, &beta,
                         static_cast<float*>(d), s.m);
    case Kind::F16:
    case Kind::BF16: {
      const cudaDataType t = kind == Kind::F16 ? CUDA_R_16F : CUDA_R_16BF;
      return cublasGemmEx(ctx.blas, CUBLAS_OP_T, CUBLAS_OP_N, s.m, s.n, s.k, &alpha, b.a, t, s.k,
                          b.b, t, s.k, &beta, d, t, s.m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    }
    case Kind::FP8: {
      cublasLtMatmulDesc_t desc;
      cublasStatus_t st = cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F);
      if (st != CUBLAS_STATUS_SUCCESS) return st;
      const int32_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
      cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof(ta));
      cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof(tb));
      cublasLtMatrixLayout_t la, lb, lc;
      cublasLtMatrixLayoutCreate(&la, CUDA_R_8F_E4M3, s.k, s.m, s.k);
      cublasLtMatrixLayoutCreate(&lb, CUDA_R_8F_E4M3, s.k, s.n, s.k);
      cublasLtMatrixLayoutCreate(&lc, CUDA_R_16BF, s.m, s.n, s.m);
      st = cublasLtMatmul(ctx.lt, desc, &alpha, b.a, la, b.b, lb, &beta, d, lc, d, lc, nullptr,
                          ctx.workspace, ctx.workspace_size, 0);
      cublasLtMatrixLayoutDestroy(la);
      cublasLtMatrixLayoutDestroy(lb);
      cublasLtMatrixLayoutDestroy(lc);
      cublasLtMatmulDescDestroy(desc);
      return st;
    }
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

template <typename TI, typename TO>
void naive(const Shape& s, const Buffers& b, void* d) {
  const dim3 grid((s.m + kTile - 1) / kTile, (s.n + kTile - 1) / kTile), block(kTile, kTile);
  naive_gemm_tn<TI, TO><<<grid, block>>>(s.m, s.n, s.k, kAlpha, static_cast<const TI*>(b.a), s.k,
                                         static_cast<const TI*>(b.b), s.k, kBeta,
                                         static_cast<TO*>(d), s.m);
}

template <typename TI, typename TO>
void run_shape(Context& ctx, Kind kind, const Shape& s) {
  const TypeInfo ti = info(kind);
  Buffers b;
  fill<TI>(&b.a, b.ha, static_cast<size_t>(s.k) * s.m);
  fill<TI>(&b.b, b.hb, static_cast<size_t>(s.k) * s.n);
  void* c_init = nullptr;
  fill<TO>(&c_init, b.hc, static_cast<size_t>(s.m) * s.n);
  const size_t c_bytes = static_cast<size_t>(s.m) * s.n * sizeof(TO);
  void *d_lib = nullptr, *d_naive = nullptr;
  CHECK_CUDA(cudaMalloc(&d_lib, c_bytes));
  CHECK_CUDA(cudaMalloc(&d_naive, c_bytes));
  // Both start from C (beta != 0); each timed run restarts from it (the copy is untimed).
  auto reset = [&](void* d) {
    CHECK_CUDA(cudaMemcpy(d, c_init, c_bytes, cudaMemcpyDeviceToDevice));
  };
  const int warmup = ctx.strata ? 0 : 2, reps = ctx.strata ? 1 : 10;
  Timer timer;
  const double flops = 2.0 * s.m * s.n * s.k;

  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  double lib_ms = 0;
  if (ctx.strata) {
    reset(d_lib);
    lib_ms = timer.time([&] { status = library_gemm(ctx, kind, s, b, d_lib); }, 0, 1);
  } else {
    lib_ms = timer.time([&] { reset(d_lib), status = library_gemm(ctx, kind, s, b, d_lib); },
                        warmup, reps);
    const double copy_ms = timer.time([&] { reset(d_lib); }, warmup, reps);
    lib_ms = std::max(lib_ms - copy_ms, 1e-6);
    reset(d_lib), library_gemm(ctx, kind, s, b, d_lib);
  }
  double naive_ms = 0;
  if (ctx.strata) {
    reset(d_naive);
    naive_ms = timer.time([&] { naive<TI, TO>(s, b, d_naive); }, 0, 1);
  } else {
    naive_ms = timer.time([&] { reset(d_naive), naive<TI, TO>(s, b, d_naive); }, warmup, reps);
    const double copy_ms = timer.time([&] { reset(d_naive); }, warmup, reps);
    naive_ms = std::max(naive_ms - copy_ms, 1e-6);
    reset(d_naive), naive<TI, TO>(s, b, d_naive);
  }
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());

  // FP32 compute everywhere (SGEMM under CUBLAS_DEFAULT_MATH: no reduced-precision inputs).
  const double u_compute = std::ldexp(1.0, -24);
  const bool naive_ok = check(s, b, download<TO>(d_naive, static_cast<size_t>(s.m) * s.n),
                              u_compute, ti.u_out, 1.0, ctx.quick, "naive");
  bool lib_ok = status == CUBLAS_STATUS_SUCCESS;
  if (lib_ok)
    lib_ok = check(s, b, download<TO>(d_lib, static_cast<size_t>(s.m) * s.n), u_compute, ti.u_out,
                   1.0, ctx.quick, "cublas");
  ctx.failures += !naive_ok || (!lib_ok && status != CUBLAS_STATUS_NOT_SUPPORTED);

  const double naive_tflops = flops / (naive_ms * 1e-3) / 1e12;
  const double peak = ctx.peaks.of(kind);
  char peak_naive[32] = "", peak_lib[32] = "";
  if (peak > 0)
    std::snprintf(peak_naive, sizeof peak_naive, " %5.1f%% of peak",
                  100 * flops / (naive_ms * 1e-3) / peak);
  if (status != CUBLAS_STATUS_SUCCESS) {
    std::printf("%-4s %-12s %5d %5d %5d  cublas %s  naive %10.1f us %7.3f TFLOP/s%s\n", ti.name,
                s.name, s.m, s.n, s.k, cublasGetStatusName(status), naive_ms * 1e3, naive_tflops,
                peak_naive);
  } else {
    const double lib_tflops = flops / (lib_ms * 1e-3) / 1e12;
    if (peak > 0)
      std::snprintf(peak_lib, sizeof peak_lib, " %5.1f%% of peak",
                    100 * flops / (lib_ms * 1e-3) / peak);
    std::printf(
        "%-4s %-12s %5d %5d %5d  cublas %10.1f us %7.3f TFLOP/s%s  naive %10.1f us %7.3f TFLOP/s%s "
        " "
        "cublas/naive %.2fx%s%s\n",
        ti.name, s.name, s.m, s.n, s.k, lib_ms * 1e3, lib_tflops, peak_lib, naive_ms * 1e3,
        naive_tflops, peak_naive, naive_ms / lib_ms, ctx.strata ? "" : "  naive = ",
        ctx.strata
            ? ""
            : (std::to_string(static_cast<int>(100 * lib_ms / naive_ms + 0.5)) + "% of cuBLAS")
                  .c_str());
  }
  std::fflush(stdout);
  for (void* p : {b.a, b.b, c_init, d_lib, d_naive}) cudaFree(p);
}

void run_kind(Context& ctx, Kind kind, const std::vector<Shape>& shapes) {
  for (const Shape& s : shapes) {
    switch (kind) {
      case Kind::F32:
        run_shape<float, float>(ctx, kind, s);
        break;
      case Kind::F16:
        run_shape<__half, __half>(ctx, kind, s);
        break;
      case Kind::BF16:
        run_shape<__nv_bfloat16, __nv_bfloat16>(ctx, kind, s);
        break;
      case Kind::FP8:
        run_shape<__nv_fp8_e4m3, __nv_bfloat16>(ctx, kind, s);
        break;
    }
  }
}

bool listed(const std::string& list, const char* item) {
  return ("," + list + ",").find("," + std::string(item) + ",") != std::string::npos;
}

// "MxNxK" with positive sizes, appended to `out` (unnamed); false if malformed.
bool parse_shape(const char* text, std::vector<Shape>* out) {
  int m = 0, n = 0, k = 0;
  char end = 0;
  if (std::sscanf(text, "%dx%dx%d%c", &m, &n, &k, &end) != 3 || m <= 0 || n <= 0 || k <= 0)
    return false;
  out->push_back({"", m, n, k});
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Context ctx{};
  std::string shapes_arg = "gpt2,square", types_arg = "f32,f16,bf16,fp8";
  int tokens = 256;
  bool shapes_given = false;
  std::vector<std::string> extra_names;  // names of the --shape shapes (Shape holds pointers)
  std::vector<Shape> extra;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--quick")
      ctx.quick = true;
    else if (a == "--shapes" && i + 1 < argc)
      shapes_arg = argv[++i], shapes_given = true;
    else if (a == "--shape" && i + 1 < argc && parse_shape(argv[i + 1], &extra))
      extra_names.push_back(argv[++i]);
    else if (a == "--types" && i + 1 < argc)
      types_arg = argv[++i];
    else if (a == "--tokens" && i + 1 < argc)
      tokens = std::atoi(argv[++i]);
    else {
      std::printf(
          "usage: gemm_bench [--quick] [--shapes gpt2,square,2048,large] [--shape MxNxK ...] "
          "[--types f32,f16,bf16,fp8] [--tokens N]\n");
      return 2;
    }
  }
  ctx.strata = under_strata();
  for (size_t i = 0; i < extra.size(); ++i) extra[i].name = extra_names[i].c_str();
  if (!extra.empty() && !shapes_given) shapes_arg.clear();
  std::vector<Shape> shapes;
  if (ctx.quick) {
    shapes = {{"gpt2-qkv/32", 72, 48, 64}, {"square-96", 96, 96, 96}};
  } else {
    // GPT-2 small (d_model 768, 4 x 768 MLP), B x T = `tokens`: the forward matmuls as
    // llm.c issues them (m = output features, n = tokens, k = input features).
    if (listed(shapes_arg, "gpt2"))
      shapes.insert(shapes.end(), {{"gpt2-qkv", 2304, tokens, 768},
                                   {"gpt2-attproj", 768, tokens, 768},
                                   {"gpt2-fc", 3072, tokens, 768},
                                   {"gpt2-fcproj", 768, tokens, 3072}});
    if (listed(shapes_arg, "square")) shapes.push_back({"square-1024", 1024, 1024, 1024});
    if (listed(shapes_arg, "2048")) shapes.push_back({"square-2048", 2048, 2048, 2048});
    if (listed(shapes_arg, "large")) shapes.push_back({"square-4096", 4096, 4096, 4096});
    shapes.insert(shapes.end(), extra.begin(), extra.end());
  }
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  if (ctx.strata) {
    ctx.peaks = strata_peaks();
    const char* timing = std::getenv("STRATA_TIMING");
    std::printf("Strata, device \"%s\", timing model %s; config %s\n", prop.name,
                timing && *timing ? timing : "fast", ctx.peaks.derivation.c_str());
  } else {
    std::printf("native, device \"%s\" (%d SMs): NVIDIA's cuBLAS; times measured (median of 10)\n",
                prop.name, prop.multiProcessorCount);
  }
  if (cublasCreate(&ctx.blas) != CUBLAS_STATUS_SUCCESS ||
      cublasLtCreate(&ctx.lt) != CUBLAS_STATUS_SUCCESS) {
    std::printf("FAIL cublasCreate\n");
    return 1;
  }
  CHECK_CUDA(cudaMalloc(&ctx.workspace, ctx.workspace_size));
  std::printf(
      "D = 0.75 A^T B - 0.5 C, column-major (TN); FP32 compute; f16/bf16: 16-bit C and D; "
      "fp8: E4M3 A and B, BF16 C and D (cuBLASLt); naive: 16x16 shared-memory tiles\n");
  std::printf("type shape            m     n     k\n");
  for (Kind kind : {Kind::F32, Kind::F16, Kind::BF16, Kind::FP8})
    if (listed(types_arg, info(kind).name)) run_kind(ctx, kind, shapes);
  cudaFree(ctx.workspace);
  cublasLtDestroy(ctx.lt);
  cublasDestroy(ctx.blas);
  if (ctx.failures) {
    std::printf("FAIL gemm_bench: %d results outside the bound\n", ctx.failures);
    return 1;
  }
  std::printf("PASS gemm_bench\n");
  return 0;
}
