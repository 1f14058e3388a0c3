// Shared harness of the GEMM conformance programs (gemm_*.cu): host data in the storage
// types, an FP64 (complex) host reference written from the BLAS definition
// C = alpha op(A) op(B) + beta C, and the elementwise bound of issue 7. Every comparison
// first proves that the comparator would catch a broken kernel: the result must FAIL
// against a reference with the last k-tile (16 terms) dropped, against a reference with
// op(A) transposed the wrong way (when that changes the product), and after one element
// is moved by twice its bound. FP32 results also have an RMS error at most twice that of an
// FP32 CPU reference.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "blas_check.h"

namespace gemm_test {

using cd = std::complex<double>;
using blas_check::Random;

// --- host element conversions ---
inline cd to_cd(float v) {
  return v;
}
inline cd to_cd(double v) {
  return v;
}
inline cd to_cd(int8_t v) {
  return static_cast<double>(v);
}
inline cd to_cd(int32_t v) {
  return static_cast<double>(v);
}
inline cd to_cd(__half v) {
  return static_cast<double>(__half2float(v));
}
inline cd to_cd(__nv_bfloat16 v) {
  return static_cast<double>(__bfloat162float(v));
}
inline cd to_cd(cuComplex v) {
  return {v.x, v.y};
}
inline cd to_cd(cuDoubleComplex v) {
  return {v.x, v.y};
}
inline cd to_cd(char2 v) {
  return {static_cast<double>(v.x), static_cast<double>(v.y)};
}

template <typename T>
T from_cd(cd v) {
  if constexpr (std::is_same_v<T, float>) return static_cast<float>(v.real());
  if constexpr (std::is_same_v<T, double>) return v.real();
  if constexpr (std::is_same_v<T, int8_t>) return static_cast<int8_t>(v.real());
  if constexpr (std::is_same_v<T, int32_t>) return static_cast<int32_t>(v.real());
  if constexpr (std::is_same_v<T, __half>) return __float2half_rn(static_cast<float>(v.real()));
  if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(v.real()));
  }
  if constexpr (std::is_same_v<T, cuComplex>) {
    return make_cuComplex(static_cast<float>(v.real()), static_cast<float>(v.imag()));
  }
  if constexpr (std::is_same_v<T, cuDoubleComplex>) return make_cuDoubleComplex(v.real(), v.imag());
  if constexpr (std::is_same_v<T, char2>) {
    return make_char2(static_cast<signed char>(v.real()), static_cast<signed char>(v.imag()));
  }
}

template <typename T>
constexpr bool kComplex =
    std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex> || std::is_same_v<T, char2>;
template <typename T>
constexpr bool kInteger =
    std::is_same_v<T, int8_t> || std::is_same_v<T, int32_t> || std::is_same_v<T, char2>;

// A value the kernel must never read (padding rows, C under beta == 0): NaN, or for
// integer types a large value that would show in the result.
template <typename T>
T poison() {
  if constexpr (kInteger<T>) return from_cd<T>(cd(100, kComplex<T> ? 100 : 0));
  const double nan = std::numeric_limits<double>::quiet_NaN();
  return from_cd<T>(cd(nan, kComplex<T> ? nan : 0.0));
}

// A random element: small integers when `integers`, else uniform in [-1, 1) per component.
template <typename T>
T random_element(Random& r, bool integers) {
  const int range = std::is_same_v<T, int8_t> || std::is_same_v<T, char2> ? 3 : 4;
  const bool whole = integers || kInteger<T>;
  auto one = [&] {  // nonzero integers, so every term shows in an exact comparison
    if (!whole) return r.next();
    const double v = r.integer(range);
    return v == 0.0 ? 1.0 : v;
  };
  const double re = one();
  const double im = kComplex<T> ? one() : 0.0;
  return from_cd<T>(cd(re, im));
}

struct Shape {
  cublasOperation_t op_a = CUBLAS_OP_N, op_b = CUBLAS_OP_N;
  int64_t m = 1, n = 1, k = 1;
  int64_t lda_pad = 0, ldb_pad = 0, ldc_pad = 0;  // leading dimension beyond the minimum
  int64_t a_rows() const { return op_a == CUBLAS_OP_N ? m : k; }
  int64_t a_cols() const { return op_a == CUBLAS_OP_N ? k : m; }
  int64_t b_rows() const { return op_b == CUBLAS_OP_N ? k : n; }
  int64_t b_cols() const { return op_b == CUBLAS_OP_N ? n : k; }
  int64_t lda() const { return std::max<int64_t>(1, a_rows()) + lda_pad; }
  int64_t ldb() const { return std::max<int64_t>(1, b_rows()) + ldb_pad; }
  int64_t ldc() const { return std::max<int64_t>(1, m) + ldc_pad; }
  std::string name() const {
    const char* ops = "NTC";
    char buf[128];
    std::snprintf(buf, sizeof buf, "%c%c m=%lld n=%lld k=%lld lda=%lld ldb=%lld ldc=%lld",
                  ops[op_a], ops[op_b], (long long)m, (long long)n, (long long)k, (long long)lda(),
                  (long long)ldb(), (long long)ldc());
    return buf;
  }
};

// One matrix of `rows` x `cols` with leading dimension ld; padding rows hold poison.
template <typename T>
std::vector<T> random_matrix(Random& r, int64_t rows, int64_t cols, int64_t ld, bool integers) {
  std::vector<T> v(static_cast<size_t>(ld * std::max<int64_t>(cols, 1)), poison<T>());
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) v[i + j * ld] = random_element<T>(r, integers);
  }
  return v;
}

// Element (i, l) of op(X) for X column-major with leading dimension ld.
template <typename T>
cd op_element(const std::vector<T>& x, cublasOperation_t op, int64_t i, int64_t l, int64_t ld) {
  if (op == CUBLAS_OP_N) return to_cd(x[i + l * ld]);
  const cd v = to_cd(x[l + i * ld]);
  return op == CUBLAS_OP_C ? std::conj(v) : v;
}

// Broken kernels the comparator must catch, modelled in the reference: inputs rounded to
// TF32 (10 mantissa bits, to nearest, ties away), or the sum accumulated in FP16.
enum class Mutation { kNone, kTf32Inputs, kF16Accumulation };

inline double round_tf32(double v) {
  float f = static_cast<float>(v);
  uint32_t u;
  std::memcpy(&u, &f, 4);
  if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
  std::memcpy(&f, &u, 4);
  return f;
}
inline double round_f16(double v) {
  return __half2float(__float2half_rn(static_cast<float>(v)));
}
inline cd round_parts(cd v, double (*f)(double)) {
  return {f(v.real()), f(v.imag())};
}

// The FP64 reference and each element's magnitude |alpha| sum |a||b| + |beta||c|.
// Mutations for the comparator's self-check: terms l >= k_used are dropped; `op_a`
// overrides the shape's; `mutation` (above).
template <typename TA, typename TC>
void reference(const Shape& s, cublasOperation_t op_a, int64_t k_used, cd alpha, cd beta,
               const std::vector<TA>& a, const std::vector<TA>& b, const std::vector<TC>& c,
               std::vector<cd>* out, std::vector<double>* magnitude,
               Mutation mutation = Mutation::kNone) {
  out->assign(static_cast<size_t>(s.m * s.n), cd());
  magnitude->assign(out->size(), 0.0);
  for (int64_t j = 0; j < s.n; ++j) {
    for (int64_t i = 0; i < s.m; ++i) {
      cd sum = 0.0;
      double mag = 0.0;
      for (int64_t l = 0; l < k_used; ++l) {
        cd x = op_element(a, op_a, i, l, s.lda());
        cd y = op_element(b, s.op_b, l, j, s.ldb());
        if (mutation == Mutation::kTf32Inputs) {
          x = round_parts(x, round_tf32), y = round_parts(y, round_tf32);
        }
        sum += x * y;
        if (mutation == Mutation::kF16Accumulation) sum = round_parts(sum, round_f16);
        mag += std::abs(x) * std::abs(y);
      }
      cd v = alpha * sum;
      mag *= std::abs(alpha);
      if (beta != cd(0.0)) {
        const cd old = to_cd(c[i + j * s.ldc()]);
        v += beta * old;
        mag += std::abs(beta) * std::abs(old);
      }
      (*out)[i + j * s.m] = v;
      (*magnitude)[i + j * s.m] = mag;
    }
  }
}

// Precision of a comparison: unit roundoffs of the compute and the output type, and the
// number of accumulated terms the bound charges (k, plus two for complex arithmetic,
// whose products round twice: a complex product is two FMAs per component).
struct Precision {
  double u_compute;
  double u_out;
  bool exact = false;  // integer-valued inputs: results bit-exact
};

// Whether `got` (ldc-strided, m x n) is within the bound of `want` everywhere, and its
// padding rows equal `before`'s. The first failure goes to *why.
template <typename TC>
bool within(const Shape& s, const Precision& p, bool complex, const std::vector<TC>& got,
            const std::vector<TC>& before, const std::vector<cd>& want,
            const std::vector<double>& magnitude, std::string* why) {
  const int64_t terms = s.k + (complex ? 2 : 0);
  for (int64_t j = 0; j < s.n; ++j) {
    for (int64_t i = 0; i < s.ldc(); ++i) {
      const size_t idx = static_cast<size_t>(i + j * s.ldc());
      const cd g = to_cd(got[idx]);
      if (i >= s.m) {
        const cd b = to_cd(before[idx]);
        const bool same = (g == b) || (std::isnan(g.real()) && std::isnan(b.real()));
        if (!same) {
          *why = "padding row " + std::to_string(i) + " of column " + std::to_string(j) +
                 " was written";
          return false;
        }
        continue;
      }
      const cd w = want[i + j * s.m];
      const double bound =
          p.exact ? 0.0
                  : blas_check::gemm_bound(terms, p.u_compute, p.u_out, magnitude[i + j * s.m]);
      const double err = std::abs(g - w);
      if (!(err <= bound)) {
        char buf[256];
        std::snprintf(buf, sizeof buf,
                      "C(%lld,%lld) = (%.17g, %.17g), reference (%.17g, %.17g), "
                      "|err| %.3g > bound %.3g",
                      (long long)i, (long long)j, g.real(), g.imag(), w.real(), w.imag(), err,
                      bound);
        *why = buf;
        return false;
      }
    }
  }
  return true;
}

// Checks the device result against the reference after proving the comparison would
// reject the mutations (header comment). Exits with FAIL on a failure.
template <typename TA, typename TC>
void check(const char* what, const Shape& s, const Precision& p, cd alpha, cd beta,
           const std::vector<TA>& a, const std::vector<TA>& b, const std::vector<TC>& c_before,
           const std::vector<TC>& got) {
  constexpr bool complex = kComplex<TA> || kComplex<TC>;
  std::vector<cd> want, mutated;
  std::vector<double> mag, mag_mutated;
  std::string why;
  // The mutations are visible through the bound only when the compute precision is FP32
  // or finer (a dropped FP16 term can hide inside an FP16 bound).
  const bool uses_ab = alpha != cd(0.0) && s.k > 0;
  if (uses_ab && (p.exact || p.u_compute <= blas_check::kUnitF32)) {
    // A dropped last k-tile.
    const int64_t k_dropped = ((s.k - 1) / 16) * 16;
    reference(s, s.op_a, k_dropped, alpha, beta, a, b, c_before, &mutated, &mag_mutated);
    EXPECT_TRUE(!within(s, p, complex, got, c_before, mutated, mag_mutated, &why),
                "%s %s: the comparison accepts a reference without the last k-tile", what,
                s.name().c_str());
    // A wrong transpose of A (only meaningful when op(A) stays m x k: square A).
    if (s.m == s.k && s.m > 1) {
      const cublasOperation_t wrong = s.op_a == CUBLAS_OP_N ? CUBLAS_OP_T : CUBLAS_OP_N;
      reference(s, wrong, s.k, alpha, beta, a, b, c_before, &mutated, &mag_mutated);
      bool differs = false;  // symmetric data would make the mutation invisible
      std::vector<cd> right;
      std::vector<double> mag_right;
      reference(s, s.op_a, s.k, alpha, beta, a, b, c_before, &right, &mag_right);
      for (size_t i = 0; i < right.size(); ++i) differs |= std::abs(right[i] - mutated[i]) > 0.5;
      if (differs) {
        EXPECT_TRUE(!within(s, p, complex, got, c_before, mutated, mag_mutated, &why),
                    "%s %s: the comparison accepts a wrongly transposed A", what, s.name().c_str());
      }
    }
  }
  // TF32 inputs and FP16 accumulation, where the inputs and the output carry more
  // precision than those formats (else the mutation changes nothing visible).
  constexpr bool wide_inputs = std::is_same_v<TA, float> || std::is_same_v<TA, double> ||
                               std::is_same_v<TA, cuComplex> || std::is_same_v<TA, cuDoubleComplex>;
  if (uses_ab && wide_inputs && !p.exact && p.u_compute <= blas_check::kUnitF32 &&
      p.u_out <= blas_check::kUnitF32) {
    for (Mutation m : {Mutation::kTf32Inputs, Mutation::kF16Accumulation}) {
      reference(s, s.op_a, s.k, alpha, beta, a, b, c_before, &mutated, &mag_mutated, m);
      EXPECT_TRUE(!within(s, p, complex, got, c_before, mutated, mag_mutated, &why),
                  "%s %s: the comparison accepts a reference with %s", what, s.name().c_str(),
                  m == Mutation::kTf32Inputs ? "TF32 inputs" : "FP16 accumulation");
    }
  }
  reference(s, s.op_a, s.k, alpha, beta, a, b, c_before, &want, &mag);
  // One element moved by twice its bound (at least one unit of the output's precision).
  if (s.m > 0 && s.n > 0) {
    std::vector<TC> perturbed = got;
    const int64_t i = s.m / 2, j = s.n / 2;
    const size_t idx = static_cast<size_t>(i + j * s.ldc());
    const double bound =
        blas_check::gemm_bound(s.k + (complex ? 2 : 0), p.u_compute, p.u_out, mag[i + j * s.m]);
    const double delta = std::max(2.0 * bound + 4.0 * p.u_out * std::abs(want[i + j * s.m]), 1.0);
    perturbed[idx] = from_cd<TC>(to_cd(got[idx]) + cd(delta, 0.0));
    EXPECT_TRUE(!within(s, p, complex, perturbed, c_before, want, mag, &why),
                "%s %s: the comparison accepts a perturbed element", what, s.name().c_str());
  }
  EXPECT_TRUE(within(s, p, complex, got, c_before, want, mag, &why), "%s %s: %s", what,
              s.name().c_str(), why.c_str());
  // Real FP32 results of FP32 compute: the RMS error against the FP64 reference is at most
  // twice that of a CPU reference in the same precision (FP32 products and sums, k in
  // order), so no kernel accumulates worse than plain FP32 does on average.
  if constexpr (std::is_same_v<TC, float> && !complex) {
    if (uses_ab && !p.exact && p.u_compute == blas_check::kUnitF32 && s.m * s.n >= 16) {
      double err_gpu = 0.0, err_cpu = 0.0, norm = 0.0;
      const float fa = static_cast<float>(alpha.real()), fb = static_cast<float>(beta.real());
      for (int64_t j = 0; j < s.n; ++j) {
        for (int64_t i = 0; i < s.m; ++i) {
          float sum = 0.0f;
          for (int64_t l = 0; l < s.k; ++l) {
            const auto x = static_cast<float>(op_element(a, s.op_a, i, l, s.lda()).real());
            const auto y = static_cast<float>(op_element(b, s.op_b, l, j, s.ldb()).real());
            sum = std::fma(x, y, sum);
          }
          float v = fa * sum;
          if (fb != 0.0f)
            v = std::fma(fb, static_cast<float>(to_cd(c_before[i + j * s.ldc()]).real()), v);
          const double w = want[i + j * s.m].real();
          err_cpu += (v - w) * (v - w);
          const double g = to_cd(got[i + j * s.ldc()]).real();
          err_gpu += (g - w) * (g - w);
          norm += w * w;
        }
      }
      const double floor =
          0.25 * blas_check::kUnitF32 * blas_check::kUnitF32 * norm;  // rounding D alone
      EXPECT_TRUE(err_gpu <= 4.0 * std::max(err_cpu, floor),
                  "%s %s: RMS error %.3g is more than twice the FP32 CPU reference's %.3g", what,
                  s.name().c_str(), std::sqrt(err_gpu / (s.m * s.n)),
                  std::sqrt(err_cpu / (s.m * s.n)));
    }
  }
}

// Device memory for a vector; freed at scope exit.
template <typename T>
struct Device {
  T* p = nullptr;
  size_t n = 0;
  explicit Device(const std::vector<T>& host) : n(host.size()) {
    CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(n, 1) * sizeof(T)));
    if (n > 0) CHECK_CUDA(cudaMemcpy(p, host.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Device() { cudaFree(p); }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
  std::vector<T> get() const {
    std::vector<T> host(n);
    if (n > 0) CHECK_CUDA(cudaMemcpy(host.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return host;
  }
};

// Runs one GEMM case: random A, B, C (C poison when beta == 0), `call(A, B, C, lda, ldb,
// ldc)` issues the cuBLAS call, then check(). Returns nothing; exits on failure.
template <typename TA, typename TC>
void run_case(const char* what, Random& r, const Shape& s, const Precision& p, cd alpha, cd beta,
              const std::function<cublasStatus_t(const TA*, const TA*, TC*)>& call,
              bool integers = false) {
  const auto a = random_matrix<TA>(r, s.a_rows(), s.a_cols(), s.lda(), integers);
  const auto b = random_matrix<TA>(r, s.b_rows(), s.b_cols(), s.ldb(), integers);
  auto c = random_matrix<TC>(r, s.m, s.n, s.ldc(), integers);
  if (beta == cd(0.0)) std::fill(c.begin(), c.end(), poison<TC>());
  Device<TA> da(a), db(b);
  Device<TC> dc(c);
  CHECK_CUBLAS(call(da.p, db.p, dc.p));
  CHECK_CUDA(cudaDeviceSynchronize());
  check(what, s, p, alpha, beta, a, b, c, dc.get());
}

// Device views of a batch for one call: the strided base pointers and strides, and the
// device arrays of per-batch pointers into the same memory.
template <typename TA, typename TC>
struct BatchView {
  const TA* a;
  const TA* b;
  TC* c;
  long long stride_a, stride_b, stride_c;
  const TA* const* a_array;
  const TA* const* b_array;
  TC* const* c_array;
  int count;
};

// Runs a batch of `count` GEMMs of shape s: A with stride 0 (one A shared by every batch)
// when `shared_a`, C's stride padded beyond ldc * n. `call` issues the cuBLAS call on the
// view; each batch is checked as a GEMM of its own.
template <typename TA, typename TC>
void run_batched(const char* what, Random& r, const Shape& s, const Precision& p, cd alpha, cd beta,
                 int count, bool shared_a,
                 const std::function<cublasStatus_t(const BatchView<TA, TC>&)>& call,
                 bool integers = false) {
  const long long sa = shared_a ? 0 : s.lda() * s.a_cols() + 3;
  const long long sb = s.ldb() * s.b_cols() + 1;
  const long long sc = s.ldc() * s.n + 5;
  std::vector<TA> a(static_cast<size_t>(shared_a ? s.lda() * s.a_cols() : sa * count),
                    poison<TA>());
  std::vector<TA> b(static_cast<size_t>(sb * count), poison<TA>());
  std::vector<TC> c(static_cast<size_t>(sc * count), poison<TC>());
  for (int i = 0; i < count; ++i) {
    if (!shared_a || i == 0) {
      const auto ai = random_matrix<TA>(r, s.a_rows(), s.a_cols(), s.lda(), integers);
      std::copy(ai.begin(), ai.end(), a.begin() + sa * i);
    }
    const auto bi = random_matrix<TA>(r, s.b_rows(), s.b_cols(), s.ldb(), integers);
    std::copy(bi.begin(), bi.end(), b.begin() + sb * i);
    if (beta != cd(0.0)) {
      const auto ci = random_matrix<TC>(r, s.m, s.n, s.ldc(), integers);
      std::copy(ci.begin(), ci.end(), c.begin() + sc * i);
    }
  }
  Device<TA> da(a), db(b);
  Device<TC> dc(c);
  std::vector<const TA*> ap, bp;
  std::vector<TC*> cp;
  for (int i = 0; i < count; ++i) {
    ap.push_back(da.p + sa * i), bp.push_back(db.p + sb * i), cp.push_back(dc.p + sc * i);
  }
  Device<const TA*> dap(ap), dbp(bp);
  Device<TC*> dcp(cp);
  const BatchView<TA, TC> view{da.p, db.p, dc.p, sa, sb, sc, dap.p, dbp.p, dcp.p, count};
  CHECK_CUBLAS(call(view));
  CHECK_CUDA(cudaDeviceSynchronize());
  const auto got = dc.get();
  for (int i = 0; i < count; ++i) {
    const auto slice = [&](const auto& v, long long stride, long long len) {
      return std::vector<typename std::decay_t<decltype(v)>::value_type>(
          v.begin() + stride * i, v.begin() + stride * i + len);
    };
    const std::string name = std::string(what) + " batch " + std::to_string(i);
    check(name.c_str(), s, p, alpha, beta, slice(a, sa, s.lda() * s.a_cols()),
          slice(b, sb, s.ldb() * s.b_cols()), slice(c, sc, s.ldc() * s.n),
          slice(got, sc, s.ldc() * s.n));
    // The gap between batches is never written.
    for (long long j = s.ldc() * s.n; j < sc; ++j) {
      const cd g = to_cd(got[sc * i + j]);
      EXPECT_TRUE(std::isnan(g.real()) || g == to_cd(poison<TC>()), "%s: gap written",
                  name.c_str());
    }
  }
}

// The typed entry points by element type.
#define GEMM_TEST_OVERLOADS(T, gemm, batched, strided)                                             \
  inline cublasStatus_t xgemm(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, \
                              int n, int k, const T* alpha, const T* a, int lda, const T* b,       \
                              int ldb, const T* beta, T* c, int ldc) {                             \
    return gemm(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                          \
  }                                                                                                \
  inline cublasStatus_t xgemm_64(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb,     \
                                 int64_t m, int64_t n, int64_t k, const T* alpha, const T* a,      \
                                 int64_t lda, const T* b, int64_t ldb, const T* beta, T* c,        \
                                 int64_t ldc) {                                                    \
    return gemm##_64(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);                     \
  }                                                                                                \
  inline cublasStatus_t xgemm_batched(cublasHandle_t h, cublasOperation_t ta,                      \
                                      cublasOperation_t tb, int m, int n, int k, const T* alpha,   \
                                      const T* const a[], int lda, const T* const b[], int ldb,    \
                                      const T* beta, T* const c[], int ldc, int count) {           \
    return batched(h, ta, tb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc, count);                \
  }                                                                                                \
  inline cublasStatus_t xgemm_strided(                                                             \
      cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,           \
      const T* alpha, const T* a, int lda, long long sa, const T* b, int ldb, long long sb,        \
      const T* beta, T* c, int ldc, long long sc, int count) {                                     \
    return strided(h, ta, tb, m, n, k, alpha, a, lda, sa, b, ldb, sb, beta, c, ldc, sc, count);    \
  }
GEMM_TEST_OVERLOADS(__half, cublasHgemm, cublasHgemmBatched, cublasHgemmStridedBatched)
GEMM_TEST_OVERLOADS(float, cublasSgemm, cublasSgemmBatched, cublasSgemmStridedBatched)
GEMM_TEST_OVERLOADS(double, cublasDgemm, cublasDgemmBatched, cublasDgemmStridedBatched)
GEMM_TEST_OVERLOADS(cuComplex, cublasCgemm, cublasCgemmBatched, cublasCgemmStridedBatched)
GEMM_TEST_OVERLOADS(cuDoubleComplex, cublasZgemm, cublasZgemmBatched, cublasZgemmStridedBatched)
#undef GEMM_TEST_OVERLOADS

template <typename T>
Precision precision_of() {
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, cuComplex>) {
    return {blas_check::kUnitF32, blas_check::kUnitF32};
  } else if constexpr (std::is_same_v<T, __half>) {
    return {blas_check::kUnitF16, blas_check::kUnitF16};
  } else {
    return {blas_check::kUnitF64, blas_check::kUnitF64};
  }
}

// The typed GEMM (cublas<t>gemm and _64) over every op combination, odd sizes, padded
// leading dimensions, beta == 0 over NaN, alpha == 0 over NaN inputs, k == 0, integer
// inputs (bit-exact), device pointer mode, and the invalid arguments.
template <typename T>
void typed_suite(const char* type_name, cublasHandle_t h, uint64_t seed) {
  Random r(seed);
  const Precision p = precision_of<T>();
  constexpr bool complex = kComplex<T>;
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  struct Size {
    int64_t m, n, k;
  };
  const Size sizes[] = {{1, 1, 1}, {7, 33, 65}, {65, 7, 33}, {33, 100, 17}};
  const cd alpha = complex ? cd(1.5, -0.5) : cd(1.5), beta = complex ? cd(-0.75, 0.25) : cd(-0.75);
  const T alpha_t = from_cd<T>(alpha), beta_t = from_cd<T>(beta), zero_t = from_cd<T>(0.0);
  std::string what;
  for (auto op_a : ops) {
    for (auto op_b : ops) {
      for (const Size& z : sizes) {
        Shape s;
        s.op_a = op_a, s.op_b = op_b, s.m = z.m, s.n = z.n, s.k = z.k;
        s.lda_pad = z.m % 3, s.ldb_pad = z.n % 2, s.ldc_pad = z.k % 4;
        what = std::string(type_name) + " gemm";
        run_case<T, T>(what.c_str(), r, s, p, alpha, beta, [&](const T* a, const T* b, T* c) {
          return xgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_t, a, s.lda(), b, s.ldb(), &beta_t,
                       c, s.ldc());
        });
      }
    }
  }
  // beta == 0 over a NaN C (run_case poisons C), the _64 entry point.
  Shape s;
  s.op_a = CUBLAS_OP_T, s.op_b = CUBLAS_OP_N, s.m = 65, s.n = 66, s.k = 40, s.ldc_pad = 3;
  what = std::string(type_name) + " gemm_64 beta=0";
  run_case<T, T>(what.c_str(), r, s, p, alpha, 0.0, [&](const T* a, const T* b, T* c) {
    return xgemm_64(h, s.op_a, s.op_b, s.m, s.n, s.k, &alpha_t, a, s.lda(), b, s.ldb(), &zero_t, c,
                    s.ldc());
  });
  // alpha == 0: A and B are never read (NaN there is ignored); k == 0 scales C by beta.
  s = Shape();
  s.m = 20, s.n = 9, s.k = 30;
  {
    const auto c = random_matrix<T>(r, s.m, s.n, s.ldc(), false);
    Device<T> da(std::vector<T>(s.lda() * s.k, poison<T>()));
    Device<T> db(std::vector<T>(s.ldb() * s.n, poison<T>()));
    Device<T> dc(c);
    CHECK_CUBLAS(xgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, &zero_t, da.p, s.lda(), db.p, s.ldb(),
                       &beta_t, dc.p, s.ldc()));
    CHECK_CUBLAS(xgemm(h, s.op_a, s.op_b, s.m, s.n, 0, &alpha_t, da.p, s.lda(), db.p, s.ldb(),
                       &beta_t, dc.p, s.ldc()));
    const auto got = dc.get();
    for (size_t i = 0; i < c.size(); ++i) {
      const cd want = beta * beta * to_cd(c[i]);
      EXPECT_TRUE(std::abs(to_cd(got[i]) - want) <= 8 * p.u_out * std::abs(want),
                  "%s alpha=0 / k=0: element %zu", type_name, i);
    }
  }
  // Integer-valued inputs: bit-exact.
  s = Shape();
  s.op_a = CUBLAS_OP_N, s.op_b = CUBLAS_OP_T, s.m = 37, s.n = 29, s.k = 100;
  Precision exact = p;
  exact.exact = true;
  const T two = from_cd<T>(2.0), minus_one = from_cd<T>(-1.0);
  what = std::string(type_name) + " gemm integers";
  run_case<T, T>(
      what.c_str(), r, s, exact, 2.0, -1.0,
      [&](const T* a, const T* b, T* c) {
        return xgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, &two, a, s.lda(), b, s.ldb(), &minus_one, c,
                     s.ldc());
      },
      /*integers=*/true);
  // Device pointer mode: alpha and beta read by the kernel.
  s = Shape();
  s.op_a = CUBLAS_OP_C, s.op_b = CUBLAS_OP_C, s.m = 31, s.n = 45, s.k = 19;
  {
    Device<T> scalars(std::vector<T>{alpha_t, beta_t});
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    what = std::string(type_name) + " gemm device scalars";
    run_case<T, T>(what.c_str(), r, s, p, alpha, beta, [&](const T* a, const T* b, T* c) {
      return xgemm(h, s.op_a, s.op_b, s.m, s.n, s.k, scalars.p, a, s.lda(), b, s.ldb(),
                   scalars.p + 1, c, s.ldc());
    });
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  }
  // Invalid arguments; zero dimensions return at once without touching memory.
  T* null = nullptr;
  const auto N = CUBLAS_OP_N, T_ = CUBLAS_OP_T;
  EXPECT_STATUS(xgemm(h, N, N, -1, 4, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm(h, N, N, 4, -1, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm(h, N, N, 4, 4, -1, &alpha_t, null, 4, null, 4, &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm(h, N, N, 5, 4, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 5),
                CUBLAS_STATUS_INVALID_VALUE);  // lda < m
  EXPECT_STATUS(xgemm(h, T_, N, 5, 4, 6, &alpha_t, null, 5, null, 6, &beta_t, null, 5),
                CUBLAS_STATUS_INVALID_VALUE);  // lda < k for op T
  EXPECT_STATUS(xgemm(h, N, N, 4, 4, 6, &alpha_t, null, 4, null, 5, &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);  // ldb < k
  EXPECT_STATUS(xgemm(h, N, T_, 4, 7, 3, &alpha_t, null, 4, null, 6, &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);  // ldb < n for op T
  EXPECT_STATUS(xgemm(h, N, N, 4, 4, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 3),
                CUBLAS_STATUS_INVALID_VALUE);  // ldc < m
  EXPECT_STATUS(xgemm(h, N, N, 0, 4, 4, &alpha_t, null, 0, null, 4, &beta_t, null, 0),
                CUBLAS_STATUS_INVALID_VALUE);  // lda < max(1, m) with m == 0
  EXPECT_STATUS(xgemm(h, static_cast<cublasOperation_t>(7), N, 4, 4, 4, &alpha_t, null, 4, null, 4,
                      &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm_64(h, N, N, -5, 4, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 4),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(xgemm(nullptr, N, N, 4, 4, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 4),
                CUBLAS_STATUS_NOT_INITIALIZED);
  CHECK_CUBLAS(xgemm(h, N, N, 0, 4, 4, &alpha_t, null, 1, null, 4, &beta_t, null, 1));
  CHECK_CUBLAS(xgemm(h, N, N, 4, 0, 4, &alpha_t, null, 4, null, 4, &beta_t, null, 4));
}

}  // namespace gemm_test
