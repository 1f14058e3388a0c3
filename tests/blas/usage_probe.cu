// The usage-weighted conformance probe (issue 7 item 7): runs every call signature of
// src/blas/usage.def once, with random inputs at a small shape of its bucket, and checks
// the result against an FP64 host reference with issue 7's bound
// |err| <= 2 (k u_compute + u_out) (|alpha| |A| |B| + |beta| |C|) (plus the epilogue's
// terms; residual bounds of the same form for the solvers). Prints one line per signature,
//   PASS|FAIL|NOT_SUPPORTED <id> <status name> <detail>
// then the score: per family the signatures passed (unweighted) and their weight, per
// framework and overall the weighted score C2, and `PASS usage_probe` once every signature
// has been run (the probe measures; it does not fail on a failing signature).
// scripts/blas_coverage.py turns the lines into docs/blas-coverage.md's tables.
//
// A signature passes only if every call returns CUBLAS_STATUS_SUCCESS and every output
// element is within its bound. Calls go through one cuBLAS handle, also used as the
// cuBLASLt handle (as PyTorch does); math and pointer modes are set per signature.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "blas_check.h"

namespace {

using cd = std::complex<double>;

struct Signature {
  const char *id, *framework, *family;
  int calls;
  const char *function, *ab, *cd, *compute, *scale, *transa, *transb, *order, *epilogue,
      *pointer_mode, *batch, *bucket, *note;
};

const Signature kSignatures[] = {
#define USAGE(...) {__VA_ARGS__},
#include "../../src/blas/usage.def"
#undef USAGE
};

// A failed call or a failed check inside a signature's run.
struct Failure {
  const char* outcome;  // "FAIL" or "NOT_SUPPORTED"
  std::string status, detail;
};

void cuda(cudaError_t e, const char* what) {
  if (e != cudaSuccess)
    throw Failure{"FAIL", "cudaError", std::string(what) + ": " + cudaGetErrorString(e)};
}
// Throws the outcome of a failed call; `what` is the call's text (its name is reported).
void blas(cublasStatus_t s, const char* what) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  const std::string call(what);
  throw Failure{s == CUBLAS_STATUS_NOT_SUPPORTED ? "NOT_SUPPORTED" : "FAIL", cublasGetStatusName(s),
                call.substr(0, call.find('('))};
}
#define CALL(x) blas((x), #x)

// --- Element types ----------------------------------------------------------------------

enum class Ty { F16, BF16, F32, F64, C32, C64, E4M3, E5M2, I8, I32 };

Ty parse_type(const std::string& s) {
  static const std::map<std::string, Ty> k = {
      {"16F", Ty::F16}, {"16BF", Ty::BF16}, {"32F", Ty::F32},      {"64F", Ty::F64},
      {"32C", Ty::C32}, {"64C", Ty::C64},   {"8F_E4M3", Ty::E4M3}, {"8F_E5M2", Ty::E5M2},
      {"8I", Ty::I8},   {"32I", Ty::I32}};
  auto it = k.find(s);
  if (it == k.end()) throw Failure{"FAIL", "probe", "unknown type " + s};
  return it->second;
}
size_t size_of(Ty t) {
  switch (t) {
    case Ty::F16:
    case Ty::BF16:
      return 2;
    case Ty::F32:
    case Ty::I32:
      return 4;
    case Ty::F64:
    case Ty::C32:
      return 8;
    case Ty::C64:
      return 16;
    default:
      return 1;
  }
}
cudaDataType cuda_type(Ty t) {
  switch (t) {
    case Ty::F16:
      return CUDA_R_16F;
    case Ty::BF16:
      return CUDA_R_16BF;
    case Ty::F32:
      return CUDA_R_32F;
    case Ty::F64:
      return CUDA_R_64F;
    case Ty::C32:
      return CUDA_C_32F;
    case Ty::C64:
      return CUDA_C_64F;
    case Ty::E4M3:
      return CUDA_R_8F_E4M3;
    case Ty::E5M2:
      return CUDA_R_8F_E5M2;
    case Ty::I8:
      return CUDA_R_8I;
    default:
      return CUDA_R_32I;
  }
}
bool is_complex(Ty t) {
  return t == Ty::C32 || t == Ty::C64;
}
// Unit roundoff of a stored value (0: integers, exact).
double unit(Ty t) {
  switch (t) {
    case Ty::F16:
      return blas_check::kUnitF16;
    case Ty::BF16:
      return blas_check::kUnitBF16;
    case Ty::F32:
    case Ty::C32:
      return blas_check::kUnitF32;
    case Ty::F64:
    case Ty::C64:
      return blas_check::kUnitF64;
    case Ty::E4M3:
      return 0.0625;
    case Ty::E5M2:
      return 0.125;
    default:
      return 0.0;
  }
}

void store(Ty t, std::vector<unsigned char>& buf, size_t i, cd v) {
  unsigned char* p = buf.data() + i * size_of(t);
  switch (t) {
    case Ty::F16: {
      __half h = __float2half_rn(static_cast<float>(v.real()));
      std::memcpy(p, &h, 2);
      break;
    }
    case Ty::BF16: {
      __nv_bfloat16 h = __float2bfloat16_rn(static_cast<float>(v.real()));
      std::memcpy(p, &h, 2);
      break;
    }
    case Ty::F32: {
      float f = static_cast<float>(v.real());
      std::memcpy(p, &f, 4);
      break;
    }
    case Ty::F64: {
      double d = v.real();
      std::memcpy(p, &d, 8);
      break;
    }
    case Ty::C32: {
      float f[2] = {static_cast<float>(v.real()), static_cast<float>(v.imag())};
      std::memcpy(p, f, 8);
      break;
    }
    case Ty::C64: {
      double d[2] = {v.real(), v.imag()};
      std::memcpy(p, d, 16);
      break;
    }
    case Ty::E4M3: {
      __nv_fp8_e4m3 f(static_cast<float>(v.real()));
      std::memcpy(p, &f, 1);
      break;
    }
    case Ty::E5M2: {
      __nv_fp8_e5m2 f(static_cast<float>(v.real()));
      std::memcpy(p, &f, 1);
      break;
    }
    case Ty::I8: {
      int8_t x = static_cast<int8_t>(v.real());
      std::memcpy(p, &x, 1);
      break;
    }
    case Ty::I32: {
      int32_t x = static_cast<int32_t>(v.real());
      std::memcpy(p, &x, 4);
      break;
    }
  }
}
cd load(Ty t, const std::vector<unsigned char>& buf, size_t i) {
  const unsigned char* p = buf.data() + i * size_of(t);
  switch (t) {
    case Ty::F16: {
      __half h;
      std::memcpy(&h, p, 2);
      return __half2float(h);
    }
    case Ty::BF16: {
      __nv_bfloat16 h;
      std::memcpy(&h, p, 2);
      return __bfloat162float(h);
    }
    case Ty::F32: {
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    case Ty::F64: {
      double d;
      std::memcpy(&d, p, 8);
      return d;
    }
    case Ty::C32: {
      float f[2];
      std::memcpy(f, p, 8);
      return {f[0], f[1]};
    }
    case Ty::C64: {
      double d[2];
      std::memcpy(d, p, 16);
      return {d[0], d[1]};
    }
    case Ty::E4M3: {
      __nv_fp8_e4m3 f;
      std::memcpy(&f, p, 1);
      return static_cast<float>(f);
    }
    case Ty::E5M2: {
      __nv_fp8_e5m2 f;
      std::memcpy(&f, p, 1);
      return static_cast<float>(f);
    }
    case Ty::I8: {
      int8_t x;
      std::memcpy(&x, p, 1);
      return x;
    }
    case Ty::I32: {
      int32_t x;
      std::memcpy(&x, p, 4);
      return x;
    }
  }
  return 0;
}
// `v` as stored in type t (what the device sees).
cd round_to(Ty t, cd v) {
  std::vector<unsigned char> b(size_of(t));
  store(t, b, 0, v);
  return load(t, b, 0);
}

// A column- (or row-) major matrix batch held in FP64 and mirrored in device memory.
struct Mat {
  Ty type;
  int rows, cols;
  int64_t ld, stride;
  int batch;
  bool row_major = false;
  std::vector<cd> v;  // host values, exactly as stored on the device
  void* dev = nullptr;

  Mat(Ty t, int r, int c, int64_t ld_, int b, bool row = false)
      : type(t), rows(r), cols(c), ld(ld_), stride(0), batch(b), row_major(row) {
    stride = ld * (row ? r : c) + 5;  // batches apart by more than the minimum
    v.assign(static_cast<size_t>(stride * b), cd(0));
  }
  ~Mat() {
    if (dev) cudaFree(dev);
  }
  Mat(const Mat&) = delete;
  size_t index(int r, int c, int b) const {
    return static_cast<size_t>(b * stride + (row_major ? r * ld + c : r + c * ld));
  }
  cd& at(int r, int c, int b = 0) { return v[index(r, c, b)]; }
  cd at(int r, int c, int b = 0) const { return v[index(r, c, b)]; }
  template <typename F>
  void fill(F f) {
    for (int b = 0; b < batch; ++b)
      for (int c = 0; c < cols; ++c)
        for (int r = 0; r < rows; ++r) at(r, c, b) = round_to(type, f(r, c));
  }
  void upload() {
    std::vector<unsigned char> bytes(v.size() * size_of(type));
    for (size_t i = 0; i < v.size(); ++i) store(type, bytes, i, v[i]);
    if (!dev) cuda(cudaMalloc(&dev, std::max<size_t>(bytes.size(), 16)), "cudaMalloc");
    cuda(cudaMemcpy(dev, bytes.data(), bytes.size(), cudaMemcpyHostToDevice), "upload");
  }
  std::vector<cd> download() const {
    std::vector<unsigned char> bytes(v.size() * size_of(type));
    cuda(cudaMemcpy(bytes.data(), dev, bytes.size(), cudaMemcpyDeviceToHost), "download");
    std::vector<cd> out(v.size());
    for (size_t i = 0; i < v.size(); ++i) out[i] = load(type, bytes, i);
    return out;
  }
  void* batch_ptr(int b) const { return static_cast<char*>(dev) + b * stride * size_of(type); }
};

// A device array of the batch's pointers (the pointer-array batched APIs).
struct PtrArray {
  void** dev = nullptr;
  explicit PtrArray(const Mat& m) {
    std::vector<void*> p(m.batch);
    for (int b = 0; b < m.batch; ++b) p[b] = m.batch_ptr(b);
    cuda(cudaMalloc(&dev, p.size() * sizeof(void*)), "cudaMalloc");
    cuda(cudaMemcpy(dev, p.data(), p.size() * sizeof(void*), cudaMemcpyHostToDevice), "upload");
  }
  ~PtrArray() { cudaFree(dev); }
  template <typename T>
  T* const* as() const {
    return reinterpret_cast<T* const*>(dev);
  }
};

struct DevBytes {
  void* dev = nullptr;
  explicit DevBytes(size_t n) { cuda(cudaMalloc(&dev, std::max<size_t>(n, 16)), "cudaMalloc"); }
  ~DevBytes() { cudaFree(dev); }
};

// --- Shapes and operations --------------------------------------------------------------

struct Shape {
  int m, n, k, batch;
};
Shape shape_of(const std::string& bucket, const std::string& batch) {
  const int b = batch == "none" ? 1 : 3;
  if (bucket == "tiny") return {7, 6, 5, b};
  if (bucket == "gemv") return {37, 1, 45, b};
  if (bucket == "skinny") return {70, 6, 40, b};
  if (bucket == "square") return {40, 40, 40, b};
  return {136, 72, 80, b};  // large: crosses 64-wide tiles in m and n, several k steps
}

cublasOperation_t op_of(const std::string& s) {
  return s == "T" ? CUBLAS_OP_T : s == "C" ? CUBLAS_OP_C : CUBLAS_OP_N;
}
// op(X)(r, c) for a stored X.
cd op_at(const Mat& x, cublasOperation_t op, int r, int c, int b) {
  if (op == CUBLAS_OP_N) return x.at(r, c, b);
  const cd v = x.at(c, r, b);
  return op == CUBLAS_OP_C ? std::conj(v) : v;
}

double compute_unit(const std::string& compute) {
  if (compute == "64F") return blas_check::kUnitF64;
  if (compute == "32F_FAST_TF32") return blas_check::kUnitTF32;
  if (compute == "16F") return blas_check::kUnitF16;
  if (compute == "32I") return 0.0;
  return blas_check::kUnitF32;
}

blas_check::Random rng(12345);
// --mutate: the GEMM references drop their last k-tile (the last 16 terms of k, or half
// of a shorter k), so a correct result must fail the check: shows the bound is tight
// enough to catch a kernel that skips its last k step.
bool g_mutate = false;
double uniform() {
  return rng.next();
}

// Scalars exact in every type used: alpha = 0.75 (- 0.25 i), beta = -0.5 (+ 0.25 i).
cd alpha_for(Ty t) {
  return t == Ty::I32 ? cd(2) : is_complex(t) ? cd(0.75, -0.25) : cd(0.75);
}
cd beta_for(Ty t) {
  return t == Ty::I32 ? cd(-1) : is_complex(t) ? cd(-0.5, 0.25) : cd(-0.5);
}

// A scalar in the type a call takes it (host memory).
struct Scalar {
  unsigned char bytes[16];
  Scalar(Ty t, cd v) {
    std::vector<unsigned char> b(size_of(t));
    store(t, b, 0, v);
    std::memcpy(bytes, b.data(), b.size());
  }
  const void* p() const { return bytes; }
  template <typename T>
  const T* as() const {
    return reinterpret_cast<const T*>(bytes);
  }
};

// Tracks the largest error / bound ratio; a ratio above 1 (or a NaN) fails.
struct Checker {
  double worst = 0;
  std::string where;
  void check(cd got, cd want, double bound, const std::string& what) {
    const double err = std::abs(got - want);
    const double ratio = bound > 0 ? err / bound : (err == 0 ? 0 : INFINITY);
    if (!(ratio <= worst) || std::isnan(ratio)) {
      worst = std::isnan(ratio) ? INFINITY : ratio;
      char buf[160];
      std::snprintf(buf, sizeof buf, "%s got (%.9g, %.9g) want (%.9g, %.9g) bound %.3g",
                    what.c_str(), got.real(), got.imag(), want.real(), want.imag(), bound);
      where = buf;
    }
  }
  std::string finish() const {
    char buf[64];
    std::snprintf(buf, sizeof buf, "max_err/bound=%.3g", worst);
    if (!(worst <= 1.0))
      throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", std::string(buf) + " at " + where};
    return buf;
  }
};

// FP64 reference of D = alpha op(A) op(B) + beta C (per batch) and its magnitude
// |alpha| |op(A)| |op(B)| + |beta| |C|.
struct GemmRef {
  std::vector<cd> value;
  std::vector<double> mag;
};
GemmRef gemm_ref(const Mat& A, const Mat& B, const Mat& C, cublasOperation_t ta,
                 cublasOperation_t tb, Shape s, cd alpha, cd beta) {
  GemmRef r;
  r.value.resize(static_cast<size_t>(s.m) * s.n * s.batch);
  r.mag.resize(r.value.size());
  for (int b = 0; b < s.batch; ++b)
    for (int j = 0; j < s.n; ++j)
      for (int i = 0; i < s.m; ++i) {
        cd sum = 0;
        double mag = 0;
        for (int l = 0; l < s.k - (g_mutate ? std::min(16, s.k / 2) : 0); ++l) {
          const cd p = op_at(A, ta, i, l, b) * op_at(B, tb, l, j, b);
          sum += p;
          mag += std::abs(op_at(A, ta, i, l, b)) * std::abs(op_at(B, tb, l, j, b));
        }
        const cd c = beta == cd(0) ? cd(0) : C.at(i, j, b);
        const size_t o = (static_cast<size_t>(b) * s.n + j) * s.m + i;
        r.value[o] = alpha * sum + beta * c;
        r.mag[o] = std::abs(alpha) * mag + std::abs(beta) * std::abs(c);
      }
  return r;
}

// Operands of a GEMM-like signature, filled with random values of their types.
struct GemmOperands {
  Shape s;
  cublasOperation_t ta, tb;
  Mat A, B, C;
  GemmOperands(const Signature& sig, Ty ta_type, Ty tb_type, Ty c_type, int64_t pad, bool row)
      : s(shape_of(sig.bucket, sig.batch)),
        ta(op_of(sig.transa)),
        tb(op_of(sig.transb)),
        A(ta_type, ta == CUBLAS_OP_N ? s.m : s.k, ta == CUBLAS_OP_N ? s.k : s.m,
          (row ? (ta == CUBLAS_OP_N ? s.k : s.m) : (ta == CUBLAS_OP_N ? s.m : s.k)) + pad, s.batch,
          row),
        B(tb_type, tb == CUBLAS_OP_N ? s.k : s.n, tb == CUBLAS_OP_N ? s.n : s.k,
          (row ? (tb == CUBLAS_OP_N ? s.n : s.k) : (tb == CUBLAS_OP_N ? s.k : s.n)) + pad, s.batch,
          row),
        C(c_type, s.m, s.n, (row ? s.n : s.m) + pad, s.batch, row) {
    auto random = [](Ty t) {
      return [t](int, int) -> cd {
        if (t == Ty::I8) return std::floor((uniform() + 1) * 8) - 8;
        if (t == Ty::I32) return std::floor((uniform() + 1) * 50) - 50;
        if (is_complex(t)) return cd(uniform(), uniform());
        return uniform();
      };
    };
    A.fill(random(A.type));
    B.fill(random(B.type));
    C.fill(random(C.type));
    A.upload();
    B.upload();
    C.upload();
  }
};

// Compares D (stored in C's buffer) with the reference.
std::string check_gemm(const GemmOperands& g, const GemmRef& ref, double u_compute) {
  const std::vector<cd> got = g.C.download();
  const double u_out = unit(g.C.type);
  Checker ck;
  for (int b = 0; b < g.s.batch; ++b)
    for (int j = 0; j < g.s.n; ++j)
      for (int i = 0; i < g.s.m; ++i) {
        const size_t o = (static_cast<size_t>(b) * g.s.n + j) * g.s.m + i;
        ck.check(
            got[g.C.index(i, j, b)], ref.value[o],
            blas_check::gemm_bound(g.s.k, u_compute, u_out, ref.mag[o]),
            "D(" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(b) + ")");
      }
  return ck.finish();
}

cublasHandle_t handle;

// --- cuBLAS typed entry points, by element type ------------------------------------------

#define TYPED(X) X(float, S) X(double, D) X(cuComplex, C) X(cuDoubleComplex, Z)
#define GEMM(T, P)                                                                                 \
  cublasStatus_t gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* a, \
                      const T* A, int lda, const T* B, int ldb, const T* b, T* C, int ldc) {       \
    return cublas##P##gemm(handle, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc);                 \
  }                                                                                                \
  cublasStatus_t gemm_strided(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,     \
                              const T* a, const T* A, int lda, long long sa, const T* B, int ldb,  \
                              long long sb, const T* b, T* C, int ldc, long long sc, int batch) {  \
    return cublas##P##gemmStridedBatched(handle, ta, tb, m, n, k, a, A, lda, sa, B, ldb, sb, b, C, \
                                         ldc, sc, batch);                                          \
  }                                                                                                \
  cublasStatus_t gemm_batched(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,     \
                              const T* a, const T* const* A, int lda, const T* const* B, int ldb,  \
                              const T* b, T* const* C, int ldc, int batch) {                       \
    return cublas##P##gemmBatched(handle, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc, batch);   \
  }                                                                                                \
  cublasStatus_t gemv(cublasOperation_t t, int m, int n, const T* a, const T* A, int lda,          \
                      const T* x, const T* b, T* y) {                                              \
    return cublas##P##gemv(handle, t, m, n, a, A, lda, x, 1, b, y, 1);                             \
  }                                                                                                \
  cublasStatus_t trsm(cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t t,           \
                      cublasDiagType_t diag, int m, int n, const T* a, const T* A, int lda, T* B,  \
                      int ldb) {                                                                   \
    return cublas##P##trsm(handle, side, uplo, t, diag, m, n, a, A, lda, B, ldb);                  \
  }                                                                                                \
  cublasStatus_t trsm_batched(cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t t,   \
                              cublasDiagType_t diag, int m, int n, const T* a, const T* const* A,  \
                              int lda, T* const* B, int ldb, int batch) {                          \
    return cublas##P##trsmBatched(handle, side, uplo, t, diag, m, n, a, A, lda, B, ldb, batch);    \
  }                                                                                                \
  cublasStatus_t getrf_batched(int n, T* const* A, int lda, int* piv, int* info, int batch) {      \
    return cublas##P##getrfBatched(handle, n, A, lda, piv, info, batch);                           \
  }                                                                                                \
  cublasStatus_t getrs_batched(cublasOperation_t t, int n, int nrhs, const T* const* A, int lda,   \
                               const int* piv, T* const* B, int ldb, int* info, int batch) {       \
    return cublas##P##getrsBatched(handle, t, n, nrhs, A, lda, piv, B, ldb, info, batch);          \
  }                                                                                                \
  cublasStatus_t geqrf_batched(int m, int n, T* const* A, int lda, T* const* tau, int* info,       \
                               int batch) {                                                        \
    return cublas##P##geqrfBatched(handle, m, n, A, lda, tau, info, batch);                        \
  }                                                                                                \
  cublasStatus_t gels_batched(cublasOperation_t t, int m, int n, int nrhs, T* const* A, int lda,   \
                              T* const* C, int ldc, int* info, int* dev_info, int batch) {         \
    return cublas##P##gelsBatched(handle, t, m, n, nrhs, A, lda, C, ldc, info, dev_info, batch);   \
  }
TYPED(GEMM)
#undef GEMM

// Calls f(T{}) with the C++ type of a cuBLAS element type.
template <typename F>
void with_type(Ty t, F f) {
  switch (t) {
    case Ty::F32:
      f(float{});
      break;
    case Ty::F64:
      f(double{});
      break;
    case Ty::C32:
      f(cuComplex{});
      break;
    case Ty::C64:
      f(cuDoubleComplex{});
      break;
    default:
      throw Failure{"FAIL", "probe", "no typed entry point for this type"};
  }
}

void set_math(const Signature& sig) {
  const bool tf32 = std::string(sig.compute) == "32F_FAST_TF32";
  CALL(cublasSetMathMode(handle, tf32 ? CUBLAS_TF32_TENSOR_OP_MATH : CUBLAS_DEFAULT_MATH));
}

std::string run_typed_gemm(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  GemmOperands g(sig, t, t, t, 3, false);
  const cd alpha = alpha_for(t), beta = beta_for(t);
  const GemmRef ref = gemm_ref(g.A, g.B, g.C, g.ta, g.tb, g.s, alpha, beta);
  const Scalar a(t, alpha), b(t, beta);
  const std::string f = sig.function;
  set_math(sig);
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    if (f.find("StridedBatched") != std::string::npos) {
      CALL(gemm_strided(g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.as<T>(), static_cast<T*>(g.A.dev),
                        g.A.ld, g.A.stride, static_cast<T*>(g.B.dev), g.B.ld, g.B.stride, b.as<T>(),
                        static_cast<T*>(g.C.dev), g.C.ld, g.C.stride, g.s.batch));
    } else if (f.find("Batched") != std::string::npos) {
      PtrArray pa(g.A), pb(g.B), pc(g.C);
      CALL(gemm_batched(g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.as<T>(), pa.as<const T>(), g.A.ld,
                        pb.as<const T>(), g.B.ld, b.as<T>(), pc.as<T>(), g.C.ld, g.s.batch));
    } else {
      CALL(gemm(g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.as<T>(), static_cast<T*>(g.A.dev), g.A.ld,
                static_cast<T*>(g.B.dev), g.B.ld, b.as<T>(), static_cast<T*>(g.C.dev), g.C.ld));
    }
  });
  cuda(cudaDeviceSynchronize(), "sync");
  return check_gemm(g, ref, compute_unit(sig.compute));
}

cublasComputeType_t compute_of(const std::string& c) {
  if (c == "16F") return CUBLAS_COMPUTE_16F;
  if (c == "32F_FAST_TF32") return CUBLAS_COMPUTE_32F_FAST_TF32;
  if (c == "64F") return CUBLAS_COMPUTE_64F;
  if (c == "32I") return CUBLAS_COMPUTE_32I;
  return CUBLAS_COMPUTE_32F;
}
// The scalar type of a compute type (cublasGemmEx's rule).
Ty scalar_of(const std::string& compute, Ty cdt) {
  if (compute == "16F") return Ty::F16;
  if (compute == "64F") return is_complex(cdt) ? Ty::C64 : Ty::F64;
  if (compute == "32I") return Ty::I32;
  return is_complex(cdt) ? Ty::C32 : Ty::F32;
}

std::string run_gemm_ex(const Signature& sig) {
  const Ty tab = parse_type(sig.ab), tcd = parse_type(sig.cd);
  GemmOperands g(sig, tab, tab, tcd, 3, false);
  const Ty st = scalar_of(sig.compute, tcd);
  const cd alpha = alpha_for(st), beta = beta_for(st);
  const GemmRef ref = gemm_ref(g.A, g.B, g.C, g.ta, g.tb, g.s, alpha, beta);
  const Scalar a(st, alpha), b(st, beta);
  const std::string f = sig.function;
  CALL(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  const cudaDataType at = cuda_type(tab), ct = cuda_type(tcd);
  const cublasComputeType_t ctype = compute_of(sig.compute);
  if (f == "cublasGemmEx") {
    CALL(cublasGemmEx(handle, g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.p(), g.A.dev, at, g.A.ld, g.B.dev,
                      at, g.B.ld, b.p(), g.C.dev, ct, g.C.ld, ctype, CUBLAS_GEMM_DEFAULT));
  } else if (f == "cublasGemmStridedBatchedEx") {
    CALL(cublasGemmStridedBatchedEx(handle, g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.p(), g.A.dev, at,
                                    g.A.ld, g.A.stride, g.B.dev, at, g.B.ld, g.B.stride, b.p(),
                                    g.C.dev, ct, g.C.ld, g.C.stride, g.s.batch, ctype,
                                    CUBLAS_GEMM_DEFAULT));
  } else if (f == "cublasGemmBatchedEx") {
    PtrArray pa(g.A), pb(g.B), pc(g.C);
    CALL(cublasGemmBatchedEx(handle, g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.p(), pa.as<const void>(),
                             at, g.A.ld, pb.as<const void>(), at, g.B.ld, b.p(), pc.as<void>(), ct,
                             g.C.ld, g.s.batch, ctype, CUBLAS_GEMM_DEFAULT));
  } else {  // cublasSgemmEx: float scalars, FP32 compute
    CALL(cublasSgemmEx(handle, g.ta, g.tb, g.s.m, g.s.n, g.s.k, a.as<float>(), g.A.dev, at, g.A.ld,
                       g.B.dev, at, g.B.ld, b.as<float>(), g.C.dev, ct, g.C.ld));
  }
  cuda(cudaDeviceSynchronize(), "sync");
  return check_gemm(g, ref, compute_unit(sig.compute));
}

// --- cuBLASLt ----------------------------------------------------------------------------

double gelu(double x) {
  return 0.5 * x * (1.0 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x)));
}
double gelu_grad(double x) {
  const double c = 0.7978845608028654, t = std::tanh(c * (x + 0.044715 * x * x * x));
  return 0.5 * (1 + t) + 0.5 * x * (1 - t * t) * c * (1 + 3 * 0.044715 * x * x);
}

template <typename V>
void set_desc(cublasLtMatmulDesc_t d, cublasLtMatmulDescAttributes_t attr, const V& v,
              const char* what) {
  blas(cublasLtMatmulDescSetAttribute(d, attr, &v, sizeof(v)), what);
}

struct LtLayout {
  cublasLtMatrixLayout_t l = nullptr;
  LtLayout(const Mat& m) {
    CALL(cublasLtMatrixLayoutCreate(&l, cuda_type(m.type), m.rows, m.cols, m.ld));
    const int32_t order = m.row_major ? CUBLASLT_ORDER_ROW : CUBLASLT_ORDER_COL;
    CALL(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order, sizeof(order)));
    if (m.batch > 1) {
      const int32_t count = m.batch;
      const int64_t stride = m.stride;
      CALL(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count,
                                            sizeof(count)));
      CALL(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride,
                                            sizeof(stride)));
    }
  }
  ~LtLayout() {
    if (l) cublasLtMatrixLayoutDestroy(l);
  }
};

std::string run_lt(const Signature& sig) {
  const std::string ab = sig.ab, epi = sig.epilogue, note = sig.note;
  const bool fp8 = ab.rfind("8F_", 0) == 0;
  const bool mixed_fp8 = ab == "8F_E5M2xE4M3";  // A E5M2, B E4M3
  const Ty ta_type = mixed_fp8 ? Ty::E5M2 : parse_type(ab);
  const Ty tb_type = mixed_fp8 ? Ty::E4M3 : ta_type;
  const Ty tcd = parse_type(sig.cd);
  const bool row = std::string(sig.order) == "ROW";
  GemmOperands g(sig, ta_type, tb_type, tcd, fp8 ? 16 : 8, row);
  const Ty st = parse_type(sig.scale);
  const bool dgelu = epi == "DGELU", bgradb = epi == "BGRADB";
  const bool bias_in = epi.find("BIAS") != std::string::npos;
  const bool gelu_fwd = epi.find("GELU") != std::string::npos && !dgelu;
  const bool relu = epi.find("RELU") != std::string::npos;
  const bool aux_out = epi.find("AUX") != std::string::npos;
  const cd alpha = alpha_for(st), beta = (dgelu ? cd(0) : beta_for(st));
  // FP8: per-tensor scales (device pointers), D = alpha scale_a scale_b A B + beta C.
  const float scale_a = 0.5f, scale_b = 2.0f;
  const double ab_scale = fp8 ? scale_a * scale_b : 1.0;
  GemmRef ref = gemm_ref(g.A, g.B, g.C, g.ta, g.tb, g.s, alpha * ab_scale, beta);

  cublasLtMatmulDesc_t desc;
  CALL(cublasLtMatmulDescCreate(&desc, compute_of(sig.compute), cuda_type(st)));
  struct DescGuard {
    cublasLtMatmulDesc_t d;
    ~DescGuard() { cublasLtMatmulDescDestroy(d); }
  } guard{desc};
  const int32_t opa = g.ta, opb = g.tb;
  set_desc(desc, CUBLASLT_MATMUL_DESC_TRANSA, opa, "TRANSA");
  set_desc(desc, CUBLASLT_MATMUL_DESC_TRANSB, opb, "TRANSB");
  static const std::map<std::string, cublasLtEpilogue_t> kEpilogues = {
      {"DEFAULT", CUBLASLT_EPILOGUE_DEFAULT},
      {"BIAS", CUBLASLT_EPILOGUE_BIAS},
      {"RELU_BIAS", CUBLASLT_EPILOGUE_RELU_BIAS},
      {"GELU_BIAS", CUBLASLT_EPILOGUE_GELU_BIAS},
      {"GELU_AUX", CUBLASLT_EPILOGUE_GELU_AUX},
      {"GELU_AUX_BIAS", CUBLASLT_EPILOGUE_GELU_AUX_BIAS},
      {"DGELU", CUBLASLT_EPILOGUE_DGELU},
      {"BGRADB", CUBLASLT_EPILOGUE_BGRADB}};
  const cublasLtEpilogue_t e = kEpilogues.at(epi);
  set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, e, "EPILOGUE");

  // Bias: the epilogue's input (length m) or BGRADB's output (length n), in D's type.
  const int bias_len = bgradb ? g.s.n : g.s.m;
  Mat bias(tcd, bias_len, 1, bias_len, 1);
  if (bias_in) bias.fill([](int, int) -> cd { return uniform(); });
  bias.upload();
  if (bias_in || bgradb) {
    const void* p = bias.dev;
    set_desc(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, p, "BIAS_POINTER");
    const int32_t bt = cuda_type(tcd);
    set_desc(desc, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, bt, "BIAS_DATA_TYPE");
  }
  // Aux: GELU_AUX* writes the pre-activation; DGELU reads it.
  const int64_t aux_ld = (g.s.m + 7) / 8 * 8;
  Mat aux(tcd, g.s.m, g.s.n, aux_ld, 1);
  if (dgelu) aux.fill([](int, int) -> cd { return 2 * uniform(); });
  aux.upload();
  if (aux_out || dgelu) {
    void* p = aux.dev;
    set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, p, "EPILOGUE_AUX_POINTER");
    set_desc(desc, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, aux_ld, "EPILOGUE_AUX_LD");
  }
  DevBytes scales(2 * sizeof(float));
  if (fp8) {
    const float sc[2] = {scale_a, scale_b};
    cuda(cudaMemcpy(scales.dev, sc, sizeof sc, cudaMemcpyHostToDevice), "scales");
    const void* pa = scales.dev;
    const void* pb = static_cast<float*>(scales.dev) + 1;
    set_desc(desc, CUBLASLT_MATMUL_DESC_A_SCALE_POINTER, pa, "A_SCALE_POINTER");
    set_desc(desc, CUBLASLT_MATMUL_DESC_B_SCALE_POINTER, pb, "B_SCALE_POINTER");
  }
  if (note.find("fast_accum") != std::string::npos) {
    const int8_t fast = 1;
    set_desc(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, fast, "FAST_ACCUM");
  }
  LtLayout la(g.A), lb(g.B), lc(g.C);
  const Scalar a(st, alpha), b(st, beta);
  auto lt = reinterpret_cast<cublasLtHandle_t>(handle);
  const bool null_algo = note.find("null algo") != std::string::npos;
  const size_t workspace_size = null_algo ? 0 : (4u << 20);
  DevBytes workspace(workspace_size);
  cublasLtMatmulHeuristicResult_t heuristic{};
  if (!null_algo) {
    cublasLtMatmulPreference_t pref;
    CALL(cublasLtMatmulPreferenceCreate(&pref));
    const uint64_t ws = workspace_size;
    CALL(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws,
                                              sizeof(ws)));
    int found = 0;
    const cublasStatus_t hs = cublasLtMatmulAlgoGetHeuristic(lt, desc, la.l, lb.l, lc.l, lc.l, pref,
                                                             1, &heuristic, &found);
    cublasLtMatmulPreferenceDestroy(pref);
    blas(hs, "cublasLtMatmulAlgoGetHeuristic");
    if (found < 1)
      throw Failure{"NOT_SUPPORTED", "CUBLAS_STATUS_NOT_SUPPORTED", "heuristic found no algorithm"};
  }
  CALL(cublasLtMatmul(lt, desc, a.p(), g.A.dev, la.l, g.B.dev, lb.l, b.p(), g.C.dev, lc.l, g.C.dev,
                      lc.l, null_algo ? nullptr : &heuristic.algo, workspace.dev, workspace_size,
                      0));
  cuda(cudaDeviceSynchronize(), "sync");

  const std::vector<cd> got = g.C.download();
  const std::vector<cd> got_aux = aux.download(), got_bias = bias.download();
  const double uc = compute_unit(sig.compute), uo = unit(tcd);
  Checker ck;
  for (int bt = 0; bt < g.s.batch; ++bt)
    for (int j = 0; j < g.s.n; ++j)
      for (int i = 0; i < g.s.m; ++i) {
        const size_t o = (static_cast<size_t>(bt) * g.s.n + j) * g.s.m + i;
        double pre = ref.value[o].real(), mag = ref.mag[o];
        if (bias_in) pre += bias.at(i, 0).real(), mag += std::abs(bias.at(i, 0));
        double bound = blas_check::gemm_bound(g.s.k, uc, uo, mag);
        double want = pre;
        if (gelu_fwd) want = gelu(pre), bound = 1.2 * bound + 2 * uo * std::abs(want) + 1e-6 * mag;
        if (relu) want = pre > 0 ? pre : 0;
        if (dgelu) {
          const double gg = gelu_grad(aux.at(i, j).real());
          want = pre * gg;
          bound = std::abs(gg) * bound + 2 * uo * std::abs(want) + 1e-6 * mag;
        }
        const std::string at =
            "(" + std::to_string(i) + "," + std::to_string(j) + "," + std::to_string(bt) + ")";
        ck.check(got[g.C.index(i, j, bt)], want, bound, "D" + at);
        if (aux_out)
          ck.check(got_aux[aux.index(i, j, 0)], pre, blas_check::gemm_bound(g.s.k, uc, uo, mag),
                   "aux" + at);
      }
  if (bgradb) {  // bias[j] = sum over k of op(B)(k, j)
    for (int j = 0; j < g.s.n; ++j) {
      cd sum = 0;
      double mag = 0;
      for (int l = 0; l < g.s.k; ++l)
        sum += op_at(g.B, g.tb, l, j, 0), mag += std::abs(op_at(g.B, g.tb, l, j, 0));
      ck.check(got_bias[j], sum, blas_check::gemm_bound(g.s.k, uc, uo, mag),
               "bgrad(" + std::to_string(j) + ")");
    }
  }
  return ck.finish();
}

// --- Level 1 and 2, extensions -----------------------------------------------------------

std::string run_gemv(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const Shape s = shape_of(sig.bucket, sig.batch);
  const cublasOperation_t op = op_of(sig.transa);
  const int rows = s.m, cols = s.k;  // A is rows x cols
  const int xn = op == CUBLAS_OP_N ? cols : rows, yn = op == CUBLAS_OP_N ? rows : cols;
  Mat A(t, rows, cols, rows + 3, 1), x(t, xn, 1, xn, 1), y(t, yn, 1, yn, 1);
  auto r = [t](int, int) -> cd { return is_complex(t) ? cd(uniform(), uniform()) : cd(uniform()); };
  A.fill(r), x.fill(r), y.fill(r);
  A.upload(), x.upload(), y.upload();
  const cd alpha = alpha_for(t), beta = beta_for(t);
  const Scalar a(t, alpha), b(t, beta);
  CALL(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    CALL(gemv(op, rows, cols, a.as<T>(), static_cast<T*>(A.dev), A.ld, static_cast<T*>(x.dev),
              b.as<T>(), static_cast<T*>(y.dev)));
  });
  const std::vector<cd> got = y.download();
  Checker ck;
  for (int i = 0; i < yn; ++i) {
    cd sum = 0;
    double mag = 0;
    for (int l = 0; l < xn; ++l) {
      const cd av = op_at(A, op, i, l, 0);
      sum += av * x.at(l, 0), mag += std::abs(av) * std::abs(x.at(l, 0));
    }
    const cd want = alpha * sum + beta * y.at(i, 0);
    ck.check(got[i], want,
             blas_check::gemm_bound(xn, unit(t), unit(t),
                                    std::abs(alpha) * mag + std::abs(beta) * std::abs(y.at(i, 0))),
             "y(" + std::to_string(i) + ")");
  }
  return ck.finish();
}

std::string run_dot(const Signature& sig) {
  const Ty t = parse_type(sig.ab), rt = parse_type(sig.cd);
  const int n = shape_of(sig.bucket, sig.batch).k;
  Mat x(t, n, 1, n, 1), y(t, n, 1, n, 1), result(rt, 1, 1, 1, 1);
  auto r = [t](int, int) -> cd { return is_complex(t) ? cd(uniform(), uniform()) : cd(uniform()); };
  x.fill(r), y.fill(r);
  x.upload(), y.upload(), result.upload();
  const std::string f = sig.function;
  const bool device = std::string(sig.pointer_mode) == "device";
  CALL(
      cublasSetPointerMode(handle, device ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
  struct Restore {
    ~Restore() { cublasSetPointerMode(handle, CUBLAS_POINTER_MODE_HOST); }
  } restore;
  unsigned char host_result[16] = {};
  void* out = device ? result.dev : static_cast<void*>(host_result);
  const bool conj = f.back() == 'c';
  if (f == "cublasSdot")
    CALL(cublasSdot(handle, n, (float*)x.dev, 1, (float*)y.dev, 1, (float*)out));
  else if (f == "cublasDdot")
    CALL(cublasDdot(handle, n, (double*)x.dev, 1, (double*)y.dev, 1, (double*)out));
  else if (f == "cublasCdotu")
    CALL(cublasCdotu(handle, n, (cuComplex*)x.dev, 1, (cuComplex*)y.dev, 1, (cuComplex*)out));
  else if (f == "cublasZdotu")
    CALL(cublasZdotu(handle, n, (cuDoubleComplex*)x.dev, 1, (cuDoubleComplex*)y.dev, 1,
                     (cuDoubleComplex*)out));
  else if (f == "cublasCdotc")
    CALL(cublasCdotc(handle, n, (cuComplex*)x.dev, 1, (cuComplex*)y.dev, 1, (cuComplex*)out));
  else if (f == "cublasZdotc")
    CALL(cublasZdotc(handle, n, (cuDoubleComplex*)x.dev, 1, (cuDoubleComplex*)y.dev, 1,
                     (cuDoubleComplex*)out));
  else
    CALL(cublasDotEx(handle, n, x.dev, cuda_type(t), 1, y.dev, cuda_type(t), 1, out, cuda_type(rt),
                     CUDA_R_32F));
  cuda(cudaDeviceSynchronize(), "sync");
  cd got;
  if (device) {
    got = result.download()[0];
  } else {
    std::vector<unsigned char> b(host_result, host_result + size_of(rt));
    got = load(rt, b, 0);
  }
  cd want = 0;
  double mag = 0;
  for (int i = 0; i < n; ++i) {
    want += (conj ? std::conj(x.at(i, 0)) : x.at(i, 0)) * y.at(i, 0);
    mag += std::abs(x.at(i, 0)) * std::abs(y.at(i, 0));
  }
  Checker ck;
  ck.check(got, want, blas_check::gemm_bound(n, compute_unit(sig.compute), unit(rt), mag),
           "result");
  return ck.finish();
}

std::string run_geam(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const Shape s = shape_of(sig.bucket, sig.batch);
  const cublasOperation_t ta = op_of(sig.transa), tb = op_of(sig.transb);
  const int m = s.m, n = s.n + 3;
  Mat A(t, ta == CUBLAS_OP_N ? m : n, ta == CUBLAS_OP_N ? n : m, (ta == CUBLAS_OP_N ? m : n) + 2,
        1);
  Mat B(t, tb == CUBLAS_OP_N ? m : n, tb == CUBLAS_OP_N ? n : m, (tb == CUBLAS_OP_N ? m : n) + 1,
        1);
  Mat C(t, m, n, m + 3, 1);
  auto r = [](int, int) -> cd { return uniform(); };
  A.fill(r), B.fill(r);
  A.upload(), B.upload(), C.upload();
  const cd alpha = 1.0, beta = 0.0;  // ORT's transpose: C = op(A)
  const Scalar a(t, alpha), b(t, beta);
  if (t == Ty::F32)
    CALL(cublasSgeam(handle, ta, tb, m, n, a.as<float>(), (float*)A.dev, A.ld, b.as<float>(),
                     (float*)B.dev, B.ld, (float*)C.dev, C.ld));
  else
    CALL(cublasDgeam(handle, ta, tb, m, n, a.as<double>(), (double*)A.dev, A.ld, b.as<double>(),
                     (double*)B.dev, B.ld, (double*)C.dev, C.ld));
  const std::vector<cd> got = C.download();
  Checker ck;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i)
      ck.check(got[C.index(i, j, 0)], alpha * op_at(A, ta, i, j, 0), 0,
               "C(" + std::to_string(i) + "," + std::to_string(j) + ")");
  return ck.finish();
}

std::string run_copy(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const int n = shape_of(sig.bucket, sig.batch).k;
  Mat x(t, n, 1, n, 1), y(t, n, 1, n, 1);
  x.fill([](int, int) -> cd { return uniform(); });
  x.upload(), y.upload();
  if (t == Ty::F32)
    CALL(cublasScopy(handle, n, (float*)x.dev, 1, (float*)y.dev, 1));
  else
    CALL(cublasDcopy(handle, n, (double*)x.dev, 1, (double*)y.dev, 1));
  const std::vector<cd> got = y.download();
  Checker ck;
  for (int i = 0; i < n; ++i) ck.check(got[i], x.at(i, 0), 0, "y(" + std::to_string(i) + ")");
  return ck.finish();
}

// --- Triangular solves -------------------------------------------------------------------

// `note` holds "side=L uplo=U diag=N".
char option(const std::string& note, const char* key) {
  const size_t at = note.find(key);
  return at == std::string::npos ? '?' : note[at + std::strlen(key)];
}

// A well-conditioned triangular matrix: diagonal in [1.5, 2.5], other entries of its
// triangle in [-1, 1] / n; the other triangle NaN (never read); unit-diagonal slots NaN.
void fill_triangular(Mat& A, bool upper, bool unit_diag) {
  const int n = A.rows;
  const bool cplx = is_complex(A.type);
  for (int b = 0; b < A.batch; ++b)
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) {
        cd v;
        if (r == c)
          v = unit_diag ? cd(NAN) : cd(2 + 0.5 * uniform(), cplx ? 0.3 * uniform() : 0);
        else if ((r < c) == upper)
          v = cd(uniform(), cplx ? uniform() : 0) / double(n);
        else
          v = NAN;
        A.at(r, c, b) = round_to(A.type, v);
      }
}
// op(A)(r, c) of a triangular A as the solver must read it.
cd tri_at(const Mat& A, cublasOperation_t op, bool upper, bool unit_diag, int r, int c, int b) {
  const int sr = op == CUBLAS_OP_N ? r : c, sc = op == CUBLAS_OP_N ? c : r;
  if (sr == sc && unit_diag) return 1.0;
  if (sr != sc && (sr < sc) != upper) return 0.0;
  return op_at(A, op, r, c, b);
}

std::string run_trsm(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const std::string note = sig.note;
  const Shape s = shape_of(sig.bucket, sig.batch);
  const bool left = option(note, "side=") == 'L', upper = option(note, "uplo=") == 'U',
             unit_diag = option(note, "diag=") == 'U';
  const cublasOperation_t op = op_of(sig.transa);
  const int m = s.m, n = s.n, an = left ? m : n;
  Mat A(t, an, an, an + 2, s.batch), B(t, m, n, m + 3, s.batch);
  fill_triangular(A, upper, unit_diag);
  B.fill([t](int, int) -> cd { return is_complex(t) ? cd(uniform(), uniform()) : cd(uniform()); });
  A.upload(), B.upload();
  const std::vector<cd> rhs = B.v;  // the right-hand sides before the solve
  const cd alpha = alpha_for(t);
  const Scalar a(t, alpha);
  const cublasSideMode_t side = left ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
  const cublasFillMode_t uplo = upper ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
  const cublasDiagType_t diag = unit_diag ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
  CALL(cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH));
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    if (std::string(sig.batch) == "pointer") {
      PtrArray pa(A), pb(B);
      CALL(trsm_batched(side, uplo, op, diag, m, n, a.as<T>(), pa.as<const T>(), A.ld, pb.as<T>(),
                        B.ld, s.batch));
    } else {
      CALL(trsm(side, uplo, op, diag, m, n, a.as<T>(), static_cast<T*>(A.dev), A.ld,
                static_cast<T*>(B.dev), B.ld));
    }
  });
  const std::vector<cd> X = B.download();
  // Residual op(A) X - alpha B (left) or X op(A) - alpha B (right), bound c n u |op(A)| |X|.
  const double u = unit(t);
  Checker ck;
  for (int b = 0; b < s.batch; ++b)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i) {
        cd sum = 0;
        double mag = 0;
        for (int l = 0; l < an; ++l) {
          const cd av = left ? tri_at(A, op, upper, unit_diag, i, l, b)
                             : tri_at(A, op, upper, unit_diag, l, j, b);
          const cd xv = left ? X[B.index(l, j, b)] : X[B.index(i, l, b)];
          sum += av * xv, mag += std::abs(av) * std::abs(xv);
        }
        const cd target = alpha * rhs[B.index(i, j, b)];
        ck.check(sum, target, 4.0 * (an + 2) * u * (mag + std::abs(target)),
                 "residual(" + std::to_string(i) + "," + std::to_string(j) + ")");
      }
  return ck.finish();
}

// --- Batched LAPACK-like -----------------------------------------------------------------

// Applies LAPACK-style row interchanges (1-based pivots, in order) to a copy of A.
std::vector<cd> permute_rows(const Mat& A, const std::vector<int>& piv, int b) {
  const int n = A.rows;
  std::vector<cd> pa(static_cast<size_t>(n) * n);
  for (int c = 0; c < n; ++c)
    for (int r = 0; r < n; ++r) pa[r + c * n] = A.at(r, c, b);
  for (int i = 0; i < n; ++i) {
    const int p = piv[b * n + i] - 1;
    if (p < 0 || p >= n) throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", "pivot out of range"};
    if (p != i)
      for (int c = 0; c < n; ++c) std::swap(pa[i + c * n], pa[p + c * n]);
  }
  return pa;
}

std::string run_getrf(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const Shape s = shape_of(sig.bucket, sig.batch);
  const int n = s.m;
  Mat A(t, n, n, n + 2, s.batch);
  A.fill([t](int, int) -> cd { return is_complex(t) ? cd(uniform(), uniform()) : cd(uniform()); });
  A.upload();
  DevBytes piv(sizeof(int) * n * s.batch), info(sizeof(int) * s.batch);
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    PtrArray pa(A);
    CALL(getrf_batched(n, pa.as<T>(), A.ld, static_cast<int*>(piv.dev), static_cast<int*>(info.dev),
                       s.batch));
  });
  std::vector<int> hp(n * s.batch), hi(s.batch);
  cuda(cudaMemcpy(hp.data(), piv.dev, hp.size() * sizeof(int), cudaMemcpyDeviceToHost), "pivots");
  cuda(cudaMemcpy(hi.data(), info.dev, hi.size() * sizeof(int), cudaMemcpyDeviceToHost), "info");
  const std::vector<cd> lu = A.download();
  const double u = unit(t);
  Checker ck;
  for (int b = 0; b < s.batch; ++b) {
    if (hi[b] != 0)
      throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", "info = " + std::to_string(hi[b])};
    const std::vector<cd> pa = permute_rows(A, hp, b);
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r) {
        cd sum = 0;
        double mag = 0;
        for (int l = 0; l <= std::min(r, c); ++l) {
          const cd lv = l == r ? cd(1) : lu[A.index(r, l, b)], uv = lu[A.index(l, c, b)];
          sum += lv * uv, mag += std::abs(lv) * std::abs(uv);
        }
        ck.check(sum, pa[r + c * n], 4.0 * (n + 2) * u * mag,
                 "LU(" + std::to_string(r) + "," + std::to_string(c) + ")");
      }
  }
  return ck.finish();
}

std::string run_getrs(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const Shape s = shape_of(sig.bucket, sig.batch);
  const int n = s.m, nrhs = 3;
  const cublasOperation_t op = op_of(sig.transa);
  const bool cplx = is_complex(t);
  // Factors given directly: unit lower L and upper U (diagonal dominant) in one matrix,
  // pivots a valid interchange sequence.
  Mat F(t, n, n, n + 1, s.batch), B(t, n, nrhs, n + 2, s.batch);
  for (int b = 0; b < s.batch; ++b)
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r)
        F.at(r, c, b) = round_to(t, r == c ? cd(2 + 0.5 * uniform(), cplx ? 0.2 * uniform() : 0)
                                           : cd(uniform(), cplx ? uniform() : 0) / double(n));
  B.fill([cplx](int, int) -> cd { return cd(uniform(), cplx ? uniform() : 0); });
  std::vector<int> piv(n * s.batch);
  for (int b = 0; b < s.batch; ++b)
    for (int i = 0; i < n; ++i)
      piv[b * n + i] = i + 1 + static_cast<int>((uniform() + 1) * 0.5 * (n - i)) % (n - i);
  F.upload(), B.upload();
  const std::vector<cd> rhs = B.v;
  DevBytes dpiv(sizeof(int) * piv.size());
  cuda(cudaMemcpy(dpiv.dev, piv.data(), sizeof(int) * piv.size(), cudaMemcpyHostToDevice),
       "pivots");
  int info = -1;
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    PtrArray pf(F), pb(B);
    CALL(getrs_batched(op, n, nrhs, pf.as<const T>(), F.ld, static_cast<int*>(dpiv.dev), pb.as<T>(),
                       B.ld, &info, s.batch));
  });
  if (info != 0) throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", "info = " + std::to_string(info)};
  const std::vector<cd> X = B.download();
  const double u = unit(t);
  Checker ck;
  for (int b = 0; b < s.batch; ++b) {
    // A = P L U (P from the interchanges), dense in FP64, and |P| |L| |U|.
    std::vector<cd> lu(static_cast<size_t>(n) * n);
    std::vector<double> lu_mag(lu.size());
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < n; ++r)
        for (int l = 0; l <= std::min(r, c); ++l) {
          const cd lv = l == r ? cd(1) : F.at(r, l, b), uv = F.at(l, c, b);
          lu[r + c * n] += lv * uv, lu_mag[r + c * n] += std::abs(lv) * std::abs(uv);
        }
    for (int i = n - 1; i >= 0; --i) {  // apply P: undo the interchanges in reverse order
      const int p = piv[b * n + i] - 1;
      if (p != i)
        for (int c = 0; c < n; ++c)
          std::swap(lu[i + c * n], lu[p + c * n]), std::swap(lu_mag[i + c * n], lu_mag[p + c * n]);
    }
    for (int j = 0; j < nrhs; ++j)
      for (int i = 0; i < n; ++i) {
        cd sum = 0;
        double mag = 0;
        for (int l = 0; l < n; ++l) {
          const cd av = op == CUBLAS_OP_N   ? lu[i + l * n]
                        : op == CUBLAS_OP_T ? lu[l + i * n]
                                            : std::conj(lu[l + i * n]);
          const double am = op == CUBLAS_OP_N ? lu_mag[i + l * n] : lu_mag[l + i * n];
          sum += av * X[B.index(l, j, b)], mag += am * std::abs(X[B.index(l, j, b)]);
        }
        ck.check(sum, rhs[B.index(i, j, b)],
                 4.0 * (2 * n + 2) * u * (mag + std::abs(rhs[B.index(i, j, b)])),
                 "residual(" + std::to_string(i) + "," + std::to_string(j) + ")");
      }
  }
  return ck.finish();
}

std::string run_geqrf(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const Shape s = shape_of(sig.bucket, sig.batch);
  const int m = s.m + 2, n = s.n, k = std::min(m, n);
  Mat A(t, m, n, m + 1, s.batch), tau(t, k, 1, k, s.batch);
  A.fill([](int, int) -> cd { return uniform(); });
  A.upload(), tau.upload();
  const std::vector<cd> a0 = A.v;
  int info = -1;
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    PtrArray pa(A), pt(tau);
    CALL(geqrf_batched(m, n, pa.as<T>(), A.ld, pt.as<T>(), &info, s.batch));
  });
  if (info != 0) throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", "info = " + std::to_string(info)};
  const std::vector<cd> qr = A.download(), taus = tau.download();
  const double u = unit(t);
  Checker ck;
  for (int b = 0; b < s.batch; ++b) {
    // Q R with Q = H_1 ... H_k, H_i = I - tau_i v_i v_i^T: apply the reflectors to R.
    std::vector<cd> w(static_cast<size_t>(m) * n);
    double amax = 0;
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < m; ++r) {
        w[r + c * m] = r <= c ? qr[A.index(r, c, b)] : cd(0);
        amax = std::max(amax, std::abs(a0[A.index(r, c, b)]));
      }
    for (int i = k - 1; i >= 0; --i) {
      const cd ti = taus[tau.index(i, 0, b)];
      for (int c = 0; c < n; ++c) {
        cd dot = w[i + c * m];
        for (int r = i + 1; r < m; ++r) dot += std::conj(qr[A.index(r, i, b)]) * w[r + c * m];
        w[i + c * m] -= ti * dot;
        for (int r = i + 1; r < m; ++r) w[r + c * m] -= ti * qr[A.index(r, i, b)] * dot;
      }
    }
    for (int c = 0; c < n; ++c)
      for (int r = 0; r < m; ++r)
        ck.check(w[r + c * m], a0[A.index(r, c, b)], 8.0 * m * n * u * amax,
                 "QR(" + std::to_string(r) + "," + std::to_string(c) + ")");
  }
  return ck.finish();
}

std::string run_gels(const Signature& sig) {
  const Ty t = parse_type(sig.ab);
  const Shape s = shape_of(sig.bucket, sig.batch);
  const int m = s.m + 3, n = s.n - 2, nrhs = 2;
  Mat A(t, m, n, m + 1, s.batch), C(t, m, nrhs, m + 2, s.batch);
  A.fill([](int r, int c) -> cd { return uniform() + (r == c ? 2.0 : 0.0); });  // well conditioned
  C.fill([](int, int) -> cd { return uniform(); });
  A.upload(), C.upload();
  const std::vector<cd> a0 = A.v, c0 = C.v;
  int info = -1;
  DevBytes dev_info(sizeof(int) * s.batch);
  with_type(t, [&](auto tag) {
    using T = decltype(tag);
    PtrArray pa(A), pc(C);
    CALL(gels_batched(CUBLAS_OP_N, m, n, nrhs, pa.as<T>(), A.ld, pc.as<T>(), C.ld, &info,
                      static_cast<int*>(dev_info.dev), s.batch));
  });
  if (info != 0) throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", "info = " + std::to_string(info)};
  std::vector<int> hi(s.batch);
  cuda(cudaMemcpy(hi.data(), dev_info.dev, hi.size() * sizeof(int), cudaMemcpyDeviceToHost),
       "devInfo");
  const std::vector<cd> X = C.download();
  const double u = unit(t);
  Checker ck;
  for (int b = 0; b < s.batch; ++b) {
    if (hi[b] != 0)
      throw Failure{"FAIL", "CUBLAS_STATUS_SUCCESS", "devInfo = " + std::to_string(hi[b])};
    // The normal equations' residual A^T (A x - c) vanishes at the least-squares solution;
    // bound c m n u |A|^T (|A| |x| + |c|).
    for (int j = 0; j < nrhs; ++j) {
      std::vector<cd> r(m);
      std::vector<double> rm(m);
      for (int i = 0; i < m; ++i) {
        r[i] = -c0[C.index(i, j, b)], rm[i] = std::abs(c0[C.index(i, j, b)]);
        for (int l = 0; l < n; ++l)
          r[i] += a0[A.index(i, l, b)] * X[C.index(l, j, b)],
              rm[i] += std::abs(a0[A.index(i, l, b)] * X[C.index(l, j, b)]);
      }
      for (int l = 0; l < n; ++l) {
        cd g = 0;
        double mag = 0;
        for (int i = 0; i < m; ++i)
          g += a0[A.index(i, l, b)] * r[i],
              mag += std::abs(a0[A.index(i, l, b)]) * (rm[i] + std::abs(r[i]));
        ck.check(g, 0.0, 16.0 * m * n * u * mag,
                 "A^T r(" + std::to_string(l) + "," + std::to_string(j) + ")");
      }
    }
  }
  return ck.finish();
}

// --- Dispatch and the score --------------------------------------------------------------

std::string run(const Signature& sig) {
  const std::string f = sig.function;
  auto has = [&](const char* s) { return f.find(s) != std::string::npos; };
  if (f == "cublasLtMatmul") return run_lt(sig);
  if (has("GemmEx") || has("GemmStridedBatchedEx") || has("GemmBatchedEx") || f == "cublasSgemmEx")
    return run_gemm_ex(sig);
  if (has("getrfBatched")) return run_getrf(sig);
  if (has("getrsBatched")) return run_getrs(sig);
  if (has("geqrfBatched")) return run_geqrf(sig);
  if (has("gelsBatched")) return run_gels(sig);
  if (has("trsm")) return run_trsm(sig);
  if (has("gemv")) return run_gemv(sig);
  if (has("gemm")) return run_typed_gemm(sig);
  if (has("dot") || has("Dot")) return run_dot(sig);
  if (has("geam")) return run_geam(sig);
  if (has("copy")) return run_copy(sig);
  throw Failure{"FAIL", "probe", "no runner for " + f};
}

}  // namespace

// usage_probe [--mutate] [FILTER[,FILTER...]]: runs the signatures whose id contains one
// of the filters (all by default). With --mutate (GEMM-like signatures only) it prints
// `PASS usage_probe_mutation` when every signature run FAILed its check.
int main(int argc, char** argv) {
  std::vector<std::string> filters;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--mutate") {
      g_mutate = true;
      continue;
    }
    for (size_t at = 0; at <= arg.size();) {
      const size_t comma = std::min(arg.find(',', at), arg.size());
      filters.push_back(arg.substr(at, comma - at));
      at = comma + 1;
    }
  }
  auto selected = [&](const char* id) {
    if (filters.empty()) return true;
    for (const std::string& f : filters)
      if (std::string(id).find(f) != std::string::npos) return true;
    return false;
  };
  int mutants_caught = 0, mutants_run = 0;
  CHECK_CUBLAS(cublasCreate(&handle));
  std::map<std::string, double> framework_calls;
  for (const Signature& s : kSignatures) framework_calls[s.framework] += s.calls;
  const double frameworks = static_cast<double>(framework_calls.size());
  struct Tally {
    int passed = 0, total = 0;
    double w_passed = 0, w_total = 0;
  };
  std::map<std::string, Tally> by_family, by_framework;
  Tally all;
  for (const Signature& s : kSignatures) {
    if (!selected(s.id)) continue;
    std::string outcome = "PASS", status = "CUBLAS_STATUS_SUCCESS", detail;
    try {
      detail = run(s);
    } catch (const Failure& f) {
      outcome = f.outcome, status = f.status, detail = f.detail;
    }
    cudaGetLastError();
    cublasSetMathMode(handle, CUBLAS_DEFAULT_MATH);
    std::printf("%s %s %s %s\n", outcome.c_str(), s.id, status.c_str(), detail.c_str());
    std::fflush(stdout);
    mutants_run += 1;
    mutants_caught += outcome == "FAIL" && detail.rfind("max_err/bound=", 0) == 0;
    const double w = s.calls / framework_calls[s.framework] / frameworks;
    const bool pass = outcome == "PASS";
    for (Tally* t : {&by_family[s.family], &by_framework[s.framework], &all}) {
      t->total += 1, t->w_total += w;
      if (pass) t->passed += 1, t->w_passed += w;
    }
  }
  for (const auto& [name, t] : by_family)
    std::printf(
        "FAMILY %s: %d of %d signatures pass (unweighted %.1f%%); weight %.4f of %.4f (C2 "
        "%.1f%%)\n",
        name.c_str(), t.passed, t.total, 100.0 * t.passed / t.total, t.w_passed, t.w_total,
        100.0 * t.w_passed / t.w_total);
  for (const auto& [name, t] : by_framework)
    std::printf("FRAMEWORK %s: %d of %d signatures pass; C2 %.1f%%\n", name.c_str(), t.passed,
                t.total, 100.0 * t.w_passed / t.w_total);
  std::printf("C2 %.1f%% (weighted), %.1f%% unweighted (%d of %d signatures)\n",
              100.0 * all.w_passed / std::max(all.w_total, 1e-300),
              100.0 * all.passed / std::max(all.total, 1), all.passed, all.total);
  CHECK_CUBLAS(cublasDestroy(handle));
  if (g_mutate) {
    std::printf("mutation: %d of %d results rejected\n", mutants_caught, mutants_run);
    if (mutants_run > 0 && mutants_caught == mutants_run)
      std::printf("PASS usage_probe_mutation\n");
    return 0;
  }
  std::printf("PASS usage_probe\n");
  return 0;
}
