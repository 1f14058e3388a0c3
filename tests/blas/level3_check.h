// Shared harness of tests/blas/level3.cu: FP64 complex host matrices, storage with
// NaN (must not be read) and sentinel (must not be written) elements, the FP64 reference
// of a sum of products, the elementwise comparison with the bound of issue 7, and the
// typed dispatch of the Level-3 entry points.
#pragma once

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cstring>
#include <limits>
#include <memory>
#include <type_traits>

#include "blas_check.h"

namespace level3_check {

using blas_check::Random;
using cd = std::complex<double>;

const double kNaN = std::numeric_limits<double>::quiet_NaN();
const cd kSentinel(1234.5, -321.25);
inline int g_cases = 0;  // cases checked

template <typename T>
constexpr bool kComplex = std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>;
template <typename T>
constexpr double kUnit =
    std::is_same_v<T, float> || std::is_same_v<T, cuComplex> ? blas_check::kUnitF32
                                                             : blas_check::kUnitF64;
template <typename T>
const char* type_name() {
  if constexpr (std::is_same_v<T, float>) return "S";
  if constexpr (std::is_same_v<T, double>) return "D";
  if constexpr (std::is_same_v<T, cuComplex>) return "C";
  return "Z";
}

inline void put(float& d, cd v) {
  d = static_cast<float>(v.real());
}
inline void put(double& d, cd v) {
  d = v.real();
}
inline void put(cuComplex& d, cd v) {
  d = make_cuComplex(static_cast<float>(v.real()), static_cast<float>(v.imag()));
}
inline void put(cuDoubleComplex& d, cd v) {
  d = make_cuDoubleComplex(v.real(), v.imag());
}
inline void put(__half& d, cd v) {
  d = __float2half_rn(static_cast<float>(v.real()));
}
inline void put(__nv_bfloat16& d, cd v) {
  d = __float2bfloat16_rn(static_cast<float>(v.real()));
}
inline void put(char2& d, cd v) {
  d.x = static_cast<signed char>(v.real()), d.y = static_cast<signed char>(v.imag());
}
inline cd get(float v) {
  return {v, 0.0};
}
inline cd get(double v) {
  return {v, 0.0};
}
inline cd get(cuComplex v) {
  return {v.x, v.y};
}
inline cd get(cuDoubleComplex v) {
  return {v.x, v.y};
}
inline cd get(__half v) {
  return {__half2float(v), 0.0};
}
inline cd get(__nv_bfloat16 v) {
  return {__bfloat162float(v), 0.0};
}
inline cd get(char2 v) {
  return {static_cast<double>(v.x), static_cast<double>(v.y)};
}

template <typename T>
T scalar(cd v) {
  T t;
  put(t, v);
  return t;
}

// A random value as T holds it (so the reference sees what the device sees); integers in
// [-4, 4] when `exact`.
template <typename T>
cd rnd(Random& r, bool exact = false) {
  const bool complex = kComplex<T> || std::is_same_v<T, char2>;
  cd v = exact ? cd(r.integer(4), complex ? r.integer(4) : 0.0)
               : cd(r.next(), complex ? r.next() : 0.0);
  return get(scalar<T>(v));
}

// Device copy of host data.
template <typename T>
struct Dev {
  T* p = nullptr;
  size_t n = 0;
  explicit Dev(const std::vector<T>& h) : n(h.size()) {
    CHECK_CUDA(cudaMalloc(&p, std::max<size_t>(1, n) * sizeof(T)));
    if (n) CHECK_CUDA(cudaMemcpy(p, h.data(), n * sizeof(T), cudaMemcpyHostToDevice));
  }
  ~Dev() { cudaFree(p); }
  Dev(const Dev&) = delete;
  std::vector<T> back() const {
    std::vector<T> h(n);
    CHECK_CUDA(cudaDeviceSynchronize());
    if (n) CHECK_CUDA(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// A dense column-major matrix of FP64 complex values.
struct Mat {
  int64_t rows = 0, cols = 0;
  std::vector<cd> v;
  Mat() = default;
  Mat(int64_t r, int64_t c) : rows(r), cols(c), v(r * c) {}
  cd& operator()(int64_t i, int64_t j) { return v[i + j * rows]; }
  cd operator()(int64_t i, int64_t j) const { return v[i + j * rows]; }
};

template <typename T>
Mat random_mat(Random& r, int64_t rows, int64_t cols, bool exact = false) {
  Mat m(rows, cols);
  for (auto& e : m.v) e = rnd<T>(r, exact);
  return m;
}

// op(X): N, T or C (conjugate transpose).
inline Mat apply_op(const Mat& a, cublasOperation_t op) {
  if (op == CUBLAS_OP_N) return a;
  Mat t(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < a.cols; ++j) t(j, i) = op == CUBLAS_OP_C ? std::conj(a(i, j)) : a(i, j);
  return t;
}

// Column-major storage with leading dimension ld; padding and `hidden(i, j)` elements
// hold `fill` (NaN: must not be read; kSentinel: must not be written).
template <typename T, typename Hidden>
std::vector<T> store(const Mat& m, int64_t ld, cd fill, Hidden hidden) {
  std::vector<T> s(std::max<int64_t>(1, ld * m.cols));
  for (auto& e : s) put(e, fill);
  for (int64_t j = 0; j < m.cols; ++j)
    for (int64_t i = 0; i < m.rows; ++i)
      if (!hidden(i, j)) put(s[i + j * ld], m(i, j));
  return s;
}
template <typename T>
std::vector<T> store(const Mat& m, int64_t ld, cd fill = cd(kNaN, kNaN)) {
  return store<T>(m, ld, fill, [](int64_t, int64_t) { return false; });
}

// One product term: coef * X (m x k) * Y (k x n).
struct Term {
  cd coef;
  Mat x, y;
};

// The expected result: value and magnitude per element of C.
struct Expected {
  Mat value, mag;
  double terms;  // the number of rounded operations per element, for the bound
};

inline Expected reference(const std::vector<Term>& terms, cd beta, const Mat& c0, int64_t m,
                          int64_t n) {
  Expected e{Mat(m, n), Mat(m, n), 0.0};
  for (int64_t j = 0; j < n; ++j)
    for (int64_t i = 0; i < m; ++i) {
      cd sum = 0;
      double mag = 0;
      for (const Term& t : terms) {
        cd s = 0;
        double a = 0;
        for (int64_t l = 0; l < t.x.cols; ++l) {
          s += t.x(i, l) * t.y(l, j);
          a += std::abs(t.x(i, l)) * std::abs(t.y(l, j));
        }
        sum += t.coef * s;
        mag += std::abs(t.coef) * a;
      }
      if (beta != cd(0)) {
        sum += beta * c0(i, j);
        mag += std::abs(beta) * std::abs(c0(i, j));
      }
      e.value(i, j) = sum;
      e.mag(i, j) = mag;
    }
  for (const Term& t : terms) e.terms += t.x.cols + 1;
  e.terms += 1;
  return e;
}

// Checks C as the device left it: elements where `written(i, j)` against `e` (exactly
// when `exact`; imaginary parts of the diagonal exactly zero when `real_diag`), every
// other stored element (padding rows, the other triangle) bit for bit against `before`.
// Returns an empty string or the first failure.
template <typename T, typename Written>
std::string compare(const std::vector<T>& got, const std::vector<T>& before, const Expected& e,
                    int64_t ldc, Written written, bool exact, bool real_diag, double u_out = 0) {
  const double u = kUnit<T> * (kComplex<T> ? 2.0 : 1.0);
  if (u_out == 0) u_out = kUnit<T>;
  char buf[256];
  for (int64_t j = 0; j < e.value.cols; ++j)
    for (int64_t i = 0; i < ldc; ++i) {
      const size_t at = i + j * ldc;
      if (i < e.value.rows && written(i, j)) {
        const cd g = get(got[at]), ref = e.value(i, j);
        const double err = std::abs(g - ref);
        const double bound = exact ? 0.0 : 2.0 * (e.terms * u + u_out) * e.mag(i, j).real();
        if (!(err <= bound)) {
          std::snprintf(buf, sizeof buf,
                        "(%lld, %lld): got (%.9g, %.9g), expected (%.9g, %.9g), "
                        "err %g > %g",
                        (long long)i, (long long)j, g.real(), g.imag(), ref.real(), ref.imag(), err,
                        bound);
          return buf;
        }
        if (real_diag && i == j && g.imag() != 0.0) {
          std::snprintf(buf, sizeof buf, "(%lld, %lld): diagonal imaginary part %g", (long long)i,
                        (long long)j, g.imag());
          return buf;
        }
      } else if (std::memcmp(&got[at], &before[at], sizeof(T)) != 0) {
        std::snprintf(buf, sizeof buf, "(%lld, %lld) must not be written", (long long)i,
                      (long long)j);
        return buf;
      }
    }
  return "";
}

#define EXPECT_OK(what, message)                                              \
  do {                                                                        \
    const std::string m_ = (message);                                         \
    EXPECT_TRUE(m_.empty(), "%s: %s", std::string(what).c_str(), m_.c_str()); \
    ++g_cases;                                                                \
  } while (0)

template <typename... A>
cublasStatus_t none(A...) {
  return CUBLAS_STATUS_NOT_SUPPORTED;
}

#define DISPATCH(wrap, S, D, C, Z)                       \
  template <typename T, typename... A>                   \
  cublasStatus_t wrap(A... a) {                          \
    if constexpr (std::is_same_v<T, float>) {            \
      return S(a...);                                    \
    } else if constexpr (std::is_same_v<T, double>) {    \
      return D(a...);                                    \
    } else if constexpr (std::is_same_v<T, cuComplex>) { \
      return C(a...);                                    \
    } else {                                             \
      return Z(a...);                                    \
    }                                                    \
  }
DISPATCH(syrk, cublasSsyrk, cublasDsyrk, cublasCsyrk, cublasZsyrk)
DISPATCH(syrk64, cublasSsyrk_64, cublasDsyrk_64, cublasCsyrk_64, cublasZsyrk_64)
DISPATCH(syrkx, cublasSsyrkx, cublasDsyrkx, cublasCsyrkx, cublasZsyrkx)
DISPATCH(syrkx64, cublasSsyrkx_64, cublasDsyrkx_64, cublasCsyrkx_64, cublasZsyrkx_64)
DISPATCH(syr2k, cublasSsyr2k, cublasDsyr2k, cublasCsyr2k, cublasZsyr2k)
DISPATCH(syr2k64, cublasSsyr2k_64, cublasDsyr2k_64, cublasCsyr2k_64, cublasZsyr2k_64)
DISPATCH(herk, none, none, cublasCherk, cublasZherk)
DISPATCH(herk64, none, none, cublasCherk_64, cublasZherk_64)
DISPATCH(herkx, none, none, cublasCherkx, cublasZherkx)
DISPATCH(herkx64, none, none, cublasCherkx_64, cublasZherkx_64)
DISPATCH(her2k, none, none, cublasCher2k, cublasZher2k)
DISPATCH(her2k64, none, none, cublasCher2k_64, cublasZher2k_64)
DISPATCH(symm, cublasSsymm, cublasDsymm, cublasCsymm, cublasZsymm)
DISPATCH(symm64, cublasSsymm_64, cublasDsymm_64, cublasCsymm_64, cublasZsymm_64)
DISPATCH(hemm, none, none, cublasChemm, cublasZhemm)
DISPATCH(hemm64, none, none, cublasChemm_64, cublasZhemm_64)
DISPATCH(trmm, cublasStrmm, cublasDtrmm, cublasCtrmm, cublasZtrmm)
DISPATCH(trmm64, cublasStrmm_64, cublasDtrmm_64, cublasCtrmm_64, cublasZtrmm_64)
#undef DISPATCH

const cublasOperation_t kOps[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
const cublasFillMode_t kFills[] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};
const cublasSideMode_t kSides[] = {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT};
const cublasDiagType_t kDiags[] = {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT};

// The written triangle of an n x n C.
struct InFill {
  cublasFillMode_t uplo;
  bool operator()(int64_t i, int64_t j) const {
    return uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
  }
};

}  // namespace level3_check
