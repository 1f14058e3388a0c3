// The legacy cuBLAS v1 API (cublas.h), used the way old programs use it: cublasInit,
// cublasAlloc, cublasSetVector / SetMatrix, v1 routines with scalars by value and results
// returned, cublasGetError after each group (the last error, reset on read), bad calls,
// cublasSetKernelStream, cublasFree, cublasShutdown. Results are checked against host FP64
// references: bit-exact for integer data, the issue-7 GEMM bound otherwise.
//
// cublas.h cannot be included with cublas_v2.h, so this program does not use blas_check.h.
#include <cublas.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define EXPECT_TRUE(cond, ...)                                    \
  do {                                                            \
    if (!(cond)) {                                                \
      std::printf("FAIL %s:%d: %s: ", __FILE__, __LINE__, #cond); \
      std::printf(__VA_ARGS__);                                   \
      std::printf("\n");                                          \
      std::exit(1);                                               \
    }                                                             \
  } while (0)

// cublasGetError must return `status`, then CUBLAS_STATUS_SUCCESS (reset on read).
#define EXPECT_ERROR(status)                                                              \
  do {                                                                                    \
    const cublasStatus s1_ = cublasGetError();                                            \
    const cublasStatus s2_ = cublasGetError();                                            \
    EXPECT_TRUE(s1_ == (status) && s2_ == CUBLAS_STATUS_SUCCESS, "cublasGetError %d, %d", \
                static_cast<int>(s1_), static_cast<int>(s2_));                            \
  } while (0)

#define CHECK_CUDA(call)                                                       \
  do {                                                                         \
    const cudaError_t e_ = (call);                                             \
    EXPECT_TRUE(e_ == cudaSuccess, "%s -> %s", #call, cudaGetErrorString(e_)); \
  } while (0)

#define EXPECT_STATUS(call, status)                                                   \
  do {                                                                                \
    const cublasStatus s_ = (call);                                                   \
    EXPECT_TRUE(s_ == (status), "%s -> %d, expected %d", #call, static_cast<int>(s_), \
                static_cast<int>(status));                                            \
  } while (0)

namespace {

constexpr double kUnitF32 = 5.9604644775390625e-08;  // 2^-24
constexpr double kUnitF64 = 1.1102230246251565e-16;  // 2^-53

// Deterministic small integers in [-range, range] (exact in every type used).
struct Random {
  uint64_t state;
  explicit Random(uint64_t seed) : state(seed * 0x9E3779B97F4A7C15ull + 1) {}
  int integer(int range) {
    state ^= state >> 12, state ^= state << 25, state ^= state >> 27;
    return static_cast<int>((state * 0x2545F4914F6CDD1Dull >> 33) % (2 * range + 1)) - range;
  }
  double real() { return integer(1 << 20) / static_cast<double>(1 << 20); }
};

template <typename T>
T* device_copy(const std::vector<T>& host) {
  T* d = nullptr;
  EXPECT_STATUS(cublasAlloc(static_cast<int>(host.size()), sizeof(T), reinterpret_cast<void**>(&d)),
                CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasSetVector(static_cast<int>(host.size()), sizeof(T), host.data(), 1, d, 1),
                CUBLAS_STATUS_SUCCESS);
  return d;
}

template <typename T>
std::vector<T> host_copy(const T* d, size_t n) {
  std::vector<T> h(n);
  EXPECT_STATUS(cublasGetVector(static_cast<int>(n), sizeof(T), d, 1, h.data(), 1),
                CUBLAS_STATUS_SUCCESS);
  return h;
}

// Element access as std::complex<double> for every type.
std::complex<double> as_c(float v) {
  return v;
}
std::complex<double> as_c(double v) {
  return v;
}
std::complex<double> as_c(cuComplex v) {
  return {v.x, v.y};
}
std::complex<double> as_c(cuDoubleComplex v) {
  return {v.x, v.y};
}
template <typename T>
T from_c(std::complex<double> v);
template <>
float from_c<float>(std::complex<double> v) {
  return static_cast<float>(v.real());
}
template <>
double from_c<double>(std::complex<double> v) {
  return v.real();
}
template <>
cuComplex from_c<cuComplex>(std::complex<double> v) {
  return make_cuComplex(static_cast<float>(v.real()), static_cast<float>(v.imag()));
}
template <>
cuDoubleComplex from_c<cuDoubleComplex>(std::complex<double> v) {
  return make_cuDoubleComplex(v.real(), v.imag());
}

// The v1 GEMM of each type.
void gemm(char ta, char tb, int m, int n, int k, float alpha, const float* A, int lda,
          const float* B, int ldb, float beta, float* C, int ldc) {
  cublasSgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void gemm(char ta, char tb, int m, int n, int k, double alpha, const double* A, int lda,
          const double* B, int ldb, double beta, double* C, int ldc) {
  cublasDgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void gemm(char ta, char tb, int m, int n, int k, cuComplex alpha, const cuComplex* A, int lda,
          const cuComplex* B, int ldb, cuComplex beta, cuComplex* C, int ldc) {
  cublasCgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
void gemm(char ta, char tb, int m, int n, int k, cuDoubleComplex alpha, const cuDoubleComplex* A,
          int lda, const cuDoubleComplex* B, int ldb, cuDoubleComplex beta, cuDoubleComplex* C,
          int ldc) {
  cublasZgemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

// op(X)(i, j) of a column-major matrix with leading dimension ld.
std::complex<double> op_at(char t, const std::vector<std::complex<double>>& x, int ld, int i,
                           int j) {
  if (t == 'N' || t == 'n') return x[i + static_cast<size_t>(j) * ld];
  const std::complex<double> v = x[j + static_cast<size_t>(i) * ld];
  return (t == 'C' || t == 'c') ? std::conj(v) : v;
}

// Whether `got` is within the issue-7 bound of the FP64 reference of
// alpha op(A) op(B) + beta C (with `tb_ref` as B's operation: a wrong one is the mutation).
bool gemm_matches(char ta, char tb_ref, int m, int n, int k, std::complex<double> alpha,
                  const std::vector<std::complex<double>>& a, int lda,
                  const std::vector<std::complex<double>>& b, int ldb, std::complex<double> beta,
                  const std::vector<std::complex<double>>& c, int ldc,
                  const std::vector<std::complex<double>>& got, double unit, bool complex) {
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < m; ++i) {
      std::complex<double> sum = 0;
      double magnitude = 0;
      for (int p = 0; p < k; ++p) {
        const auto x = op_at(ta, a, lda, i, p), y = op_at(tb_ref, b, ldb, p, j);
        sum += x * y;
        magnitude += std::abs(x) * std::abs(y);
      }
      const size_t at = i + static_cast<size_t>(j) * ldc;
      const auto want = alpha * sum + beta * c[at];
      magnitude = std::abs(alpha) * magnitude + std::abs(beta) * std::abs(c[at]);
      const double bound = 2.0 * (k * unit + unit) * magnitude * (complex ? 2.0 : 1.0);
      if (std::abs(got[at] - want) > bound) return false;
    }
  }
  return true;
}

template <typename T>
void check_gemm(const char* name, double unit, bool complex) {
  Random r(11);
  struct Shape {
    char ta, tb;
    int m, n, k, pad;
  };
  const Shape shapes[] = {{'N', 'N', 17, 9, 13, 0}, {'T', 'n', 8, 33, 5, 3},
                          {'n', 'T', 1, 1, 1, 0},   {'C', 'c', 12, 7, 20, 2},
                          {'N', 'N', 0, 5, 4, 0},   {'t', 'N', 6, 4, 0, 1}};
  for (const Shape& s : shapes) {
    const bool ta = s.ta != 'N' && s.ta != 'n', tb = s.tb != 'N' && s.tb != 'n';
    const int lda = std::max(1, ta ? s.k : s.m) + s.pad, ldb = std::max(1, tb ? s.n : s.k) + s.pad;
    const int ldc = std::max(1, s.m) + s.pad;
    const int a_cols = ta ? s.m : s.k, b_cols = tb ? s.k : s.n;
    std::vector<std::complex<double>> a(std::max(1, lda * a_cols)), b(std::max(1, ldb * b_cols)),
        c(std::max(1, ldc * s.n));
    for (auto* v : {&a, &b, &c}) {
      for (auto& e : *v) e = complex ? std::complex<double>(r.real(), r.real()) : r.real();
    }
    const std::complex<double> alpha = complex ? std::complex<double>(0.75, -0.5) : 1.5;
    const std::complex<double> beta = complex ? std::complex<double>(-0.25, 1.0) : -0.5;
    std::vector<T> ha, hb, hc;
    for (auto& e : a) ha.push_back(from_c<T>(e));
    for (auto& e : b) hb.push_back(from_c<T>(e));
    for (auto& e : c) hc.push_back(from_c<T>(e));
    // The references use the values the device sees.
    for (size_t i = 0; i < a.size(); ++i) a[i] = as_c(ha[i]);
    for (size_t i = 0; i < b.size(); ++i) b[i] = as_c(hb[i]);
    for (size_t i = 0; i < c.size(); ++i) c[i] = as_c(hc[i]);
    T *da = device_copy(ha), *db = device_copy(hb), *dc = device_copy(hc);
    gemm(s.ta, s.tb, s.m, s.n, s.k, from_c<T>(alpha), da, lda, db, ldb, from_c<T>(beta), dc, ldc);
    EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
    std::vector<std::complex<double>> got;
    for (const T& e : host_copy(dc, hc.size())) got.push_back(as_c(e));
    EXPECT_TRUE(gemm_matches(s.ta, s.tb, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc, got,
                             unit, complex),
                "%s %c%c m=%d n=%d k=%d", name, s.ta, s.tb, s.m, s.n, s.k);
    // Mutation: the checker rejects a result with one element off by one.
    if (s.m > 0 && s.n > 0) {
      std::vector<std::complex<double>> wrong = got;
      wrong[0] += 1.0;
      EXPECT_TRUE(!gemm_matches(s.ta, s.tb, s.m, s.n, s.k, alpha, a, lda, b, ldb, beta, c, ldc,
                                wrong, unit, complex),
                  "%s: the checker accepts a wrong element", name);
    }
    cublasFree(da), cublasFree(db), cublasFree(dc);
    EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  }
  std::printf("ok %s\n", name);
}

void check_level1() {
  const int n = 37;
  Random r(3);
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; ++i)
    x[i] = static_cast<float>(r.integer(9)), y[i] = static_cast<float>(r.integer(9));
  float* dx = device_copy(x);
  float* dy = device_copy(y);

  // axpy, exact on integers.
  cublasSaxpy(n, 3.0f, dx, 1, dy, 1);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  std::vector<float> got = host_copy(dy, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(got[i] == 3.0f * x[i] + y[i], "saxpy[%d] = %g", i, got[i]);
    y[i] = got[i];
  }
  // dot, asum: exact integer sums.
  double dot = 0, asum = 0;
  for (int i = 0; i < n; ++i) dot += static_cast<double>(x[i]) * y[i], asum += std::fabs(x[i]);
  EXPECT_TRUE(cublasSdot(n, dx, 1, dy, 1) == static_cast<float>(dot), "sdot");
  EXPECT_TRUE(cublasSasum(n, dx, 1) == static_cast<float>(asum), "sasum");
  // nrm2 within a few ulps.
  double sq = 0;
  for (int i = 0; i < n; ++i) sq += static_cast<double>(x[i]) * x[i];
  EXPECT_TRUE(std::fabs(cublasSnrm2(n, dx, 1) - std::sqrt(sq)) <= 4 * n * kUnitF32 * std::sqrt(sq),
              "snrm2");
  // isamax: the first index (1-based) of the largest |x|.
  int want = 1;
  for (int i = 1; i < n; ++i) {
    if (std::fabs(x[i]) > std::fabs(x[want - 1])) want = i + 1;
  }
  EXPECT_TRUE(cublasIsamax(n, dx, 1) == want, "isamax");
  // scal with a stride, copy, swap.
  cublasSscal((n + 1) / 2, -2.0f, dx, 2);
  cublasScopy(n, dx, 1, dy, 1);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  got = host_copy(dy, n);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(got[i] == (i % 2 == 0 ? -2.0f : 1.0f) * x[i], "scal/copy");

  // Doubles and complex: ddot, zdotc exact on integers.
  std::vector<double> xd(n), yd(n);
  std::vector<cuDoubleComplex> xz(n), yz(n);
  for (int i = 0; i < n; ++i) {
    xd[i] = r.integer(100), yd[i] = r.integer(100);
    xz[i] = make_cuDoubleComplex(r.integer(9), r.integer(9));
    yz[i] = make_cuDoubleComplex(r.integer(9), r.integer(9));
  }
  double* dxd = device_copy(xd);
  double* dyd = device_copy(yd);
  cuDoubleComplex* dxz = device_copy(xz);
  cuDoubleComplex* dyz = device_copy(yz);
  double ddot = 0;
  std::complex<double> zdot = 0;
  for (int i = 0; i < n; ++i) ddot += xd[i] * yd[i], zdot += std::conj(as_c(xz[i])) * as_c(yz[i]);
  EXPECT_TRUE(cublasDdot(n, dxd, 1, dyd, 1) == ddot, "ddot");
  const cuDoubleComplex zd = cublasZdotc(n, dxz, 1, dyz, 1);
  EXPECT_TRUE(zd.x == zdot.real() && zd.y == zdot.imag(), "zdotc");
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);

  // n < 0 is a quick return with a zero result (the BLAS convention), not an error.
  EXPECT_TRUE(cublasSnrm2(-1, dx, 1) == 0.0f, "nrm2 of n < 0");
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  cublasFree(dx), cublasFree(dy), cublasFree(dxd), cublasFree(dyd), cublasFree(dxz),
      cublasFree(dyz);
  std::printf("ok level1\n");
}

void check_level2() {
  // sgemv 'T' with lda > m, exact on integers; then strsv of an upper triangle.
  const int m = 9, n = 6, lda = 11;
  Random r(5);
  std::vector<float> a(lda * n), x(m), y(n);
  for (auto& v : a) v = static_cast<float>(r.integer(4));
  for (auto& v : x) v = static_cast<float>(r.integer(4));
  for (auto& v : y) v = static_cast<float>(r.integer(4));
  float *da = device_copy(a), *dx = device_copy(x), *dy = device_copy(y);
  cublasSgemv('t', m, n, 2.0f, da, lda, dx, 1, -1.0f, dy, 1);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  const std::vector<float> got = host_copy(dy, n);
  for (int j = 0; j < n; ++j) {
    double s = 0;
    for (int i = 0; i < m; ++i) s += static_cast<double>(a[i + j * lda]) * x[i];
    EXPECT_TRUE(got[j] == static_cast<float>(2 * s - y[j]), "sgemv[%d]", j);
  }
  // A bad uplo character; lda < m.
  cublasStrsv('X', 'N', 'N', n, da, lda, dy, 1);
  EXPECT_ERROR(CUBLAS_STATUS_INVALID_VALUE);
  cublasSgemv('N', m, n, 1.0f, da, m - 1, dx, 1, 0.0f, dy, 1);
  EXPECT_ERROR(CUBLAS_STATUS_INVALID_VALUE);
  cublasFree(da), cublasFree(dx), cublasFree(dy);
  std::printf("ok level2\n");
}

// The v1 routines whose scalars differ from their v2 forms in type or kind: real alpha
// of a complex routine (cublasCsscal, cublasCher), a complex scalar by value
// (cublasCrotg), host scalars (cublasSrotg), real c and s (cublasZdrot); and the in-place
// v1 trmm (B = alpha op(A) B, where v2 writes a separate C) and trsm. Exact on integers,
// the rotations against the BLAS definitions.
void check_scalar_forms() {
  // cublasSrotg(3, 4): r = 5, c = 3/5, s = 4/5 (the BLAS rotg).
  float sa = 3, sb = 4, sc = 0, ss = 0;
  cublasSrotg(&sa, &sb, &sc, &ss);
  EXPECT_TRUE(std::fabs(sa - 5) <= 4 * kUnitF32 * 5 && std::fabs(sc - 0.6f) <= 4 * kUnitF32 &&
                  std::fabs(ss - 0.8f) <= 4 * kUnitF32,
              "srotg r %g c %g s %g", sa, sc, ss);
  // cublasCrotg((3, 0), (4, 0)): c = 3/5, s = 4/5, ca = 5 (LAPACK's crotg).
  cuComplex ca = make_cuComplex(3, 0), cs = make_cuComplex(0, 0);
  float cc = 0;
  cublasCrotg(&ca, make_cuComplex(4, 0), &cc, &cs);
  EXPECT_TRUE(std::fabs(ca.x - 5) <= 20 * kUnitF32 && std::fabs(ca.y) <= 20 * kUnitF32 &&
                  std::fabs(cc - 0.6f) <= 8 * kUnitF32 && std::fabs(cs.x - 0.8f) <= 8 * kUnitF32,
              "crotg r (%g, %g) c %g s (%g, %g)", ca.x, ca.y, cc, cs.x, cs.y);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);

  const int n = 5;
  Random r(17);
  std::vector<cuComplex> x(n);
  std::vector<cuDoubleComplex> zx(n), zy(n);
  for (int i = 0; i < n; ++i) {
    x[i] = make_cuComplex(r.integer(5), r.integer(5));
    zx[i] = make_cuDoubleComplex(r.integer(5), r.integer(5));
    zy[i] = make_cuDoubleComplex(r.integer(5), r.integer(5));
  }
  // cublasCsscal: a real alpha.
  cuComplex* dx = device_copy(x);
  cublasCsscal(n, -3.0f, dx, 1);
  std::vector<cuComplex> got = host_copy(dx, n);
  for (int i = 0; i < n; ++i)
    EXPECT_TRUE(got[i].x == -3 * x[i].x && got[i].y == -3 * x[i].y, "csscal[%d]", i);
  // cublasZdrot with c = 2, s = 3: x' = c x + s y, y' = c y - s x.
  cuDoubleComplex *dzx = device_copy(zx), *dzy = device_copy(zy);
  cublasZdrot(n, dzx, 1, dzy, 1, 2.0, 3.0);
  const std::vector<cuDoubleComplex> gx = host_copy(dzx, n), gy = host_copy(dzy, n);
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(gx[i].x == 2 * zx[i].x + 3 * zy[i].x && gx[i].y == 2 * zx[i].y + 3 * zy[i].y &&
                    gy[i].x == 2 * zy[i].x - 3 * zx[i].x && gy[i].y == 2 * zy[i].y - 3 * zx[i].y,
                "zdrot[%d]", i);
  }
  // cublasCher: A = alpha x x^H + A on the upper triangle, real alpha; the lower triangle
  // is not touched.
  const int lda = n + 2;
  std::vector<cuComplex> a(lda * n);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < lda; ++i)
      a[i + j * lda] = make_cuComplex(r.integer(5), i == j ? 0 : r.integer(5));
  cuComplex* da = device_copy(a);
  cublasCher('U', n, 2.0f, dx, 1, da, lda);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  const std::vector<cuComplex> xs = host_copy(dx, n), ga = host_copy(da, a.size());
  for (int j = 0; j < n; ++j) {
    for (int i = 0; i < lda; ++i) {
      const size_t at = i + j * lda;
      std::complex<double> want = as_c(a[at]);
      if (i <= j) want += 2.0 * as_c(xs[i]) * std::conj(as_c(xs[j]));
      EXPECT_TRUE(as_c(ga[at]) == want, "cher (%d, %d)", i, j);
    }
  }

  // cublasStrmm, in place: B = alpha op(A) B with A upper, non-unit (the lower triangle
  // holds NaN, never read).
  const int m = 4, nb = 3;
  std::vector<float> ta(m * m), tb(m * nb);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) ta[i + j * m] = i <= j ? static_cast<float>(r.integer(4)) : NAN;
  for (auto& v : tb) v = static_cast<float>(r.integer(4));
  float *dta = device_copy(ta), *dtb = device_copy(tb);
  cublasStrmm('L', 'U', 'N', 'N', m, nb, 2.0f, dta, m, dtb, m);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  std::vector<float> gb = host_copy(dtb, tb.size());
  for (int j = 0; j < nb; ++j) {
    for (int i = 0; i < m; ++i) {
      double want = 0;
      for (int p = i; p < m; ++p) want += ta[i + p * m] * tb[p + j * m];
      EXPECT_TRUE(gb[i + j * m] == static_cast<float>(2 * want), "strmm (%d, %d)", i, j);
    }
  }
  // cublasDtrsm, in place: solve op(A) X = alpha B with A lower, unit diagonal (the
  // diagonal and upper triangle hold NaN, never read), B = A X for an integer X.
  std::vector<double> la(m * m), xt(m * nb), lb(m * nb);
  for (int j = 0; j < m; ++j)
    for (int i = 0; i < m; ++i) la[i + j * m] = i > j ? r.integer(3) : NAN;
  for (auto& v : xt) v = r.integer(5);
  for (int j = 0; j < nb; ++j)
    for (int i = 0; i < m; ++i) {
      double s = xt[i + j * m];
      for (int p = 0; p < i; ++p) s += la[i + p * m] * xt[p + j * m];
      lb[i + j * m] = s;
    }
  double *dla = device_copy(la), *dlb = device_copy(lb);
  cublasDtrsm('l', 'l', 'n', 'u', m, nb, 1.0, dla, m, dlb, m);
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  const std::vector<double> gx2 = host_copy(dlb, lb.size());
  for (size_t i = 0; i < gx2.size(); ++i) EXPECT_TRUE(gx2[i] == xt[i], "dtrsm [%zu]", i);
  cublasFree(dx), cublasFree(dzx), cublasFree(dzy), cublasFree(da), cublasFree(dta);
  cublasFree(dtb), cublasFree(dla), cublasFree(dlb);
  std::printf("ok scalar forms, trmm, trsm\n");
}

}  // namespace

// Every v1 routine of cublas.h, one table line each (from its prototype): called with two
// sets of option characters on the same inputs as its v2 entry point on a handle of the
// test's own; the status cublasGetError reports must be the v2 call's and every output
// (device buffers, host scalars, the returned value) bit-identical, and with the first set
// (all valid) the status SUCCESS, or NOT_SUPPORTED where the v2 routine is still a stub.
// The numerics are checked against host references above; this checks that each v1 name
// reaches its v2 routine with its arguments.
namespace every {

constexpr int kSlots = 8;  // slot 7: the returned value
constexpr size_t kBytes = 4096;
void* g_dev[kSlots];
alignas(16) unsigned char g_host[kSlots][kBytes];

template <typename T>
T* P(int slot, bool host) {
  return reinterpret_cast<T*>(host ? g_host[slot] : g_dev[slot]);
}
template <typename T>
T* ref(T v) {  // a host scalar's address, valid for the call
  static T ring[8];
  static int next = 0;
  T* p = &ring[next++ % 8];
  *p = v;
  return p;
}
cublasOperation_t op_of(char c) {
  return c == 'N' ? CUBLAS_OP_N : (c == 'T' ? CUBLAS_OP_T : CUBLAS_OP_C);
}
cublasFillMode_t fill_of(char c) {
  return c == 'U' ? CUBLAS_FILL_MODE_UPPER : CUBLAS_FILL_MODE_LOWER;
}
cublasDiagType_t diag_of(char c) {
  return c == 'U' ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
}
cublasSideMode_t side_of(char c) {
  return c == 'L' ? CUBLAS_SIDE_LEFT : CUBLAS_SIDE_RIGHT;
}

// Fills the slots "<kind><d|h> ..." (kind 0 float, 1 double, 2 cuComplex, 3
// cuDoubleComplex; device or host) with small nonzero values; the rest with zeros.
void fill(const char* kinds) {
  std::memset(g_host, 0, sizeof(g_host));
  for (int slot = 0; slot < kSlots; ++slot) CHECK_CUDA(cudaMemset(g_dev[slot], 0, kBytes));
  int slot = 0;
  for (const char* k = kinds; *k != 0; k += (k[2] == ' ' ? 3 : 2), ++slot) {
    const int kind = k[0] - '0';
    const bool host = k[1] == 'h';
    unsigned char bytes[kBytes];
    const size_t count = kBytes / (kind == 0 || kind == 2 ? 4 : 8);  // float or double parts
    for (size_t i = 0; i < count; ++i) {
      const double v = static_cast<double>((i * 7) % 5 + 1) * (i % 3 == 0 ? -1 : 1) / 2;
      if (kind == 0 || kind == 2) {
        const float f = static_cast<float>(v);
        std::memcpy(bytes + i * 4, &f, 4);
      } else {
        std::memcpy(bytes + i * 8, &v, 8);
      }
    }
    if (host) {
      std::memcpy(g_host[slot], bytes, kBytes);
    } else {
      CHECK_CUDA(cudaMemcpy(g_dev[slot], bytes, kBytes, cudaMemcpyHostToDevice));
    }
  }
}

std::vector<unsigned char> snapshot() {
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned char> out(sizeof(g_host) + kSlots * kBytes);
  std::memcpy(out.data(), g_host, sizeof(g_host));
  for (int slot = 0; slot < kSlots; ++slot)
    CHECK_CUDA(cudaMemcpy(out.data() + sizeof(g_host) + slot * kBytes, g_dev[slot], kBytes,
                          cudaMemcpyDeviceToHost));
  return out;
}

struct Chars {
  char trans, transb, uplo, diag, side;
};

template <typename V1, typename V2>
void run_case(const char* name, const char* kinds, V1 v1, V2 v2, bool valid, int* unsupported) {
  fill(kinds);
  (void)cublasGetError();
  v1();
  const cublasStatus e1 = cublasGetError();
  const std::vector<unsigned char> s1 = snapshot();
  fill(kinds);
  const cublasStatus e2 = v2();
  const std::vector<unsigned char> s2 = snapshot();
  EXPECT_TRUE(e1 == e2, "%s: v1 recorded %d, v2 returned %d", name, static_cast<int>(e1),
              static_cast<int>(e2));
  size_t diff = 0;
  while (diff < s1.size() && s1[diff] == s2[diff]) ++diff;
  EXPECT_TRUE(s1 == s2, "%s: v1 and v2 outputs differ at byte %zu (slot %zu of the %s)", name,
              diff, (diff < sizeof(g_host) ? diff : diff - sizeof(g_host)) / kBytes,
              diff < sizeof(g_host) ? "host slots" : "device slots");
  if (valid) {
    EXPECT_TRUE(e1 == CUBLAS_STATUS_SUCCESS || e1 == CUBLAS_STATUS_NOT_SUPPORTED, "%s: status %d",
                name, static_cast<int>(e1));
    if (e1 == CUBLAS_STATUS_NOT_SUPPORTED) ++*unsupported;
  }
}

#define V1_CASE(name, kinds, v1call, v2call) \
  ++calls, run_case(                         \
               #name, kinds, [&] { v1call; }, [&] { return v2call; }, valid, &unsupported)

void check_every_routine() {
  for (void*& p : g_dev) CHECK_CUDA(cudaMalloc(&p, kBytes));
  cublasHandle_t h2;
  EXPECT_STATUS(cublasCreate_v2(&h2), CUBLAS_STATUS_SUCCESS);
  int unsupported = 0, calls = 0;
  for (const Chars c : {Chars{'N', 'N', 'U', 'N', 'L'}, Chars{'T', 'C', 'L', 'U', 'R'}}) {
    const bool valid = c.trans == 'N';
    // clang-format off
    V1_CASE(cublasSnrm2, "0d", *P<float>(7, true) = cublasSnrm2(4, P<float>(0, false), 1), cublasSnrm2_v2(h2, 4, P<float>(0, false), 1, P<float>(7, true)));
    V1_CASE(cublasDnrm2, "1d", *P<double>(7, true) = cublasDnrm2(4, P<double>(0, false), 1), cublasDnrm2_v2(h2, 4, P<double>(0, false), 1, P<double>(7, true)));
    V1_CASE(cublasScnrm2, "2d", *P<float>(7, true) = cublasScnrm2(4, P<cuComplex>(0, false), 1), cublasScnrm2_v2(h2, 4, P<cuComplex>(0, false), 1, P<float>(7, true)));
    V1_CASE(cublasDznrm2, "3d", *P<double>(7, true) = cublasDznrm2(4, P<cuDoubleComplex>(0, false), 1), cublasDznrm2_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<double>(7, true)));
    V1_CASE(cublasSdot, "0d 0d", *P<float>(7, true) = cublasSdot(4, P<float>(0, false), 1, P<float>(1, false), 1), cublasSdot_v2(h2, 4, P<float>(0, false), 1, P<float>(1, false), 1, P<float>(7, true)));
    V1_CASE(cublasDdot, "1d 1d", *P<double>(7, true) = cublasDdot(4, P<double>(0, false), 1, P<double>(1, false), 1), cublasDdot_v2(h2, 4, P<double>(0, false), 1, P<double>(1, false), 1, P<double>(7, true)));
    V1_CASE(cublasCdotu, "2d 2d", *P<cuComplex>(7, true) = cublasCdotu(4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1), cublasCdotu_v2(h2, 4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(7, true)));
    V1_CASE(cublasCdotc, "2d 2d", *P<cuComplex>(7, true) = cublasCdotc(4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1), cublasCdotc_v2(h2, 4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(7, true)));
    V1_CASE(cublasZdotu, "3d 3d", *P<cuDoubleComplex>(7, true) = cublasZdotu(4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1), cublasZdotu_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(7, true)));
    V1_CASE(cublasZdotc, "3d 3d", *P<cuDoubleComplex>(7, true) = cublasZdotc(4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1), cublasZdotc_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(7, true)));
    V1_CASE(cublasSscal, "0d", cublasSscal(4, 2.0f, P<float>(0, false), 1), cublasSscal_v2(h2, 4, ref(2.0f), P<float>(0, false), 1));
    V1_CASE(cublasDscal, "1d", cublasDscal(4, 2.0, P<double>(0, false), 1), cublasDscal_v2(h2, 4, ref(2.0), P<double>(0, false), 1));
    V1_CASE(cublasCscal, "2d", cublasCscal(4, make_cuComplex(2, 1), P<cuComplex>(0, false), 1), cublasCscal_v2(h2, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 1));
    V1_CASE(cublasZscal, "3d", cublasZscal(4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 1), cublasZscal_v2(h2, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 1));
    V1_CASE(cublasCsscal, "2d", cublasCsscal(4, 2.0f, P<cuComplex>(0, false), 1), cublasCsscal_v2(h2, 4, ref(2.0f), P<cuComplex>(0, false), 1));
    V1_CASE(cublasZdscal, "3d", cublasZdscal(4, 2.0, P<cuDoubleComplex>(0, false), 1), cublasZdscal_v2(h2, 4, ref(2.0), P<cuDoubleComplex>(0, false), 1));
    V1_CASE(cublasSaxpy, "0d 0d", cublasSaxpy(4, 2.0f, P<float>(0, false), 1, P<float>(1, false), 1), cublasSaxpy_v2(h2, 4, ref(2.0f), P<float>(0, false), 1, P<float>(1, false), 1));
    V1_CASE(cublasDaxpy, "1d 1d", cublasDaxpy(4, 2.0, P<double>(0, false), 1, P<double>(1, false), 1), cublasDaxpy_v2(h2, 4, ref(2.0), P<double>(0, false), 1, P<double>(1, false), 1));
    V1_CASE(cublasCaxpy, "2d 2d", cublasCaxpy(4, make_cuComplex(2, 1), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1), cublasCaxpy_v2(h2, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZaxpy, "3d 3d", cublasZaxpy(4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1), cublasZaxpy_v2(h2, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasScopy, "0d 0d", cublasScopy(4, P<float>(0, false), 1, P<float>(1, false), 1), cublasScopy_v2(h2, 4, P<float>(0, false), 1, P<float>(1, false), 1));
    V1_CASE(cublasDcopy, "1d 1d", cublasDcopy(4, P<double>(0, false), 1, P<double>(1, false), 1), cublasDcopy_v2(h2, 4, P<double>(0, false), 1, P<double>(1, false), 1));
    V1_CASE(cublasCcopy, "2d 2d", cublasCcopy(4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1), cublasCcopy_v2(h2, 4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZcopy, "3d 3d", cublasZcopy(4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1), cublasZcopy_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasSswap, "0d 0d", cublasSswap(4, P<float>(0, false), 1, P<float>(1, false), 1), cublasSswap_v2(h2, 4, P<float>(0, false), 1, P<float>(1, false), 1));
    V1_CASE(cublasDswap, "1d 1d", cublasDswap(4, P<double>(0, false), 1, P<double>(1, false), 1), cublasDswap_v2(h2, 4, P<double>(0, false), 1, P<double>(1, false), 1));
    V1_CASE(cublasCswap, "2d 2d", cublasCswap(4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1), cublasCswap_v2(h2, 4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZswap, "3d 3d", cublasZswap(4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1), cublasZswap_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasIsamax, "0d", *P<int>(7, true) = cublasIsamax(4, P<float>(0, false), 1), cublasIsamax_v2(h2, 4, P<float>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIdamax, "1d", *P<int>(7, true) = cublasIdamax(4, P<double>(0, false), 1), cublasIdamax_v2(h2, 4, P<double>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIcamax, "2d", *P<int>(7, true) = cublasIcamax(4, P<cuComplex>(0, false), 1), cublasIcamax_v2(h2, 4, P<cuComplex>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIzamax, "3d", *P<int>(7, true) = cublasIzamax(4, P<cuDoubleComplex>(0, false), 1), cublasIzamax_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIsamin, "0d", *P<int>(7, true) = cublasIsamin(4, P<float>(0, false), 1), cublasIsamin_v2(h2, 4, P<float>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIdamin, "1d", *P<int>(7, true) = cublasIdamin(4, P<double>(0, false), 1), cublasIdamin_v2(h2, 4, P<double>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIcamin, "2d", *P<int>(7, true) = cublasIcamin(4, P<cuComplex>(0, false), 1), cublasIcamin_v2(h2, 4, P<cuComplex>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasIzamin, "3d", *P<int>(7, true) = cublasIzamin(4, P<cuDoubleComplex>(0, false), 1), cublasIzamin_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<int>(7, true)));
    V1_CASE(cublasSasum, "0d", *P<float>(7, true) = cublasSasum(4, P<float>(0, false), 1), cublasSasum_v2(h2, 4, P<float>(0, false), 1, P<float>(7, true)));
    V1_CASE(cublasDasum, "1d", *P<double>(7, true) = cublasDasum(4, P<double>(0, false), 1), cublasDasum_v2(h2, 4, P<double>(0, false), 1, P<double>(7, true)));
    V1_CASE(cublasScasum, "2d", *P<float>(7, true) = cublasScasum(4, P<cuComplex>(0, false), 1), cublasScasum_v2(h2, 4, P<cuComplex>(0, false), 1, P<float>(7, true)));
    V1_CASE(cublasDzasum, "3d", *P<double>(7, true) = cublasDzasum(4, P<cuDoubleComplex>(0, false), 1), cublasDzasum_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<double>(7, true)));
    V1_CASE(cublasSrot, "0d 0d", cublasSrot(4, P<float>(0, false), 1, P<float>(1, false), 1, 0.5f, 0.5f), cublasSrot_v2(h2, 4, P<float>(0, false), 1, P<float>(1, false), 1, ref(0.5f), ref(0.5f)));
    V1_CASE(cublasDrot, "1d 1d", cublasDrot(4, P<double>(0, false), 1, P<double>(1, false), 1, 0.5, 0.5), cublasDrot_v2(h2, 4, P<double>(0, false), 1, P<double>(1, false), 1, ref(0.5), ref(0.5)));
    V1_CASE(cublasCrot, "2d 2d", cublasCrot(4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, 0.5f, make_cuComplex(0.5f, -1)), cublasCrot_v2(h2, 4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, ref(0.5f), ref(make_cuComplex(0.5f, -1))));
    V1_CASE(cublasZrot, "3d 3d", cublasZrot(4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, 0.5, make_cuDoubleComplex(0.5, -1)), cublasZrot_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, ref(0.5), ref(make_cuDoubleComplex(0.5, -1))));
    V1_CASE(cublasCsrot, "2d 2d", cublasCsrot(4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, 0.5f, 0.5f), cublasCsrot_v2(h2, 4, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, ref(0.5f), ref(0.5f)));
    V1_CASE(cublasZdrot, "3d 3d", cublasZdrot(4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, 0.5, 0.5), cublasZdrot_v2(h2, 4, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, ref(0.5), ref(0.5)));
    V1_CASE(cublasSrotg, "0h 0h 0h 0h", cublasSrotg(P<float>(0, true), P<float>(1, true), P<float>(2, true), P<float>(3, true)), cublasSrotg_v2(h2, P<float>(0, true), P<float>(1, true), P<float>(2, true), P<float>(3, true)));
    V1_CASE(cublasDrotg, "1h 1h 1h 1h", cublasDrotg(P<double>(0, true), P<double>(1, true), P<double>(2, true), P<double>(3, true)), cublasDrotg_v2(h2, P<double>(0, true), P<double>(1, true), P<double>(2, true), P<double>(3, true)));
    V1_CASE(cublasCrotg, "2h 0h 2h", cublasCrotg(P<cuComplex>(0, true), make_cuComplex(2, 1), P<float>(1, true), P<cuComplex>(2, true)), cublasCrotg_v2(h2, P<cuComplex>(0, true), ref(make_cuComplex(2, 1)), P<float>(1, true), P<cuComplex>(2, true)));
    V1_CASE(cublasZrotg, "3h 1h 3h", cublasZrotg(P<cuDoubleComplex>(0, true), make_cuDoubleComplex(2, 1), P<double>(1, true), P<cuDoubleComplex>(2, true)), cublasZrotg_v2(h2, P<cuDoubleComplex>(0, true), ref(make_cuDoubleComplex(2, 1)), P<double>(1, true), P<cuDoubleComplex>(2, true)));
    V1_CASE(cublasSrotm, "0d 0d 0h", cublasSrotm(4, P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, true)), cublasSrotm_v2(h2, 4, P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, true)));
    V1_CASE(cublasDrotm, "1d 1d 1h", cublasDrotm(4, P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, true)), cublasDrotm_v2(h2, 4, P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, true)));
    V1_CASE(cublasSrotmg, "0h 0h 0h 0h 0h", cublasSrotmg(P<float>(0, true), P<float>(1, true), P<float>(2, true), P<float>(3, true), P<float>(4, true)), cublasSrotmg_v2(h2, P<float>(0, true), P<float>(1, true), P<float>(2, true), P<float>(3, true), P<float>(4, true)));
    V1_CASE(cublasDrotmg, "1h 1h 1h 1h 1h", cublasDrotmg(P<double>(0, true), P<double>(1, true), P<double>(2, true), P<double>(3, true), P<double>(4, true)), cublasDrotmg_v2(h2, P<double>(0, true), P<double>(1, true), P<double>(2, true), P<double>(3, true), P<double>(4, true)));
    V1_CASE(cublasSgemv, "0d 0d 0d", cublasSgemv(c.trans, 4, 4, 2.0f, P<float>(0, false), 8, P<float>(1, false), 1, 0.5f, P<float>(2, false), 1), cublasSgemv_v2(h2, op_of(c.trans), 4, 4, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 1, ref(0.5f), P<float>(2, false), 1));
    V1_CASE(cublasDgemv, "1d 1d 1d", cublasDgemv(c.trans, 4, 4, 2.0, P<double>(0, false), 8, P<double>(1, false), 1, 0.5, P<double>(2, false), 1), cublasDgemv_v2(h2, op_of(c.trans), 4, 4, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 1, ref(0.5), P<double>(2, false), 1));
    V1_CASE(cublasCgemv, "2d 2d 2d", cublasCgemv(c.trans, 4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 1), cublasCgemv_v2(h2, op_of(c.trans), 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 1));
    V1_CASE(cublasZgemv, "3d 3d 3d", cublasZgemv(c.trans, 4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 1), cublasZgemv_v2(h2, op_of(c.trans), 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 1));
    V1_CASE(cublasSgbmv, "0d 0d 0d", cublasSgbmv(c.trans, 4, 4, 1, 1, 2.0f, P<float>(0, false), 8, P<float>(1, false), 1, 0.5f, P<float>(2, false), 1), cublasSgbmv_v2(h2, op_of(c.trans), 4, 4, 1, 1, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 1, ref(0.5f), P<float>(2, false), 1));
    V1_CASE(cublasDgbmv, "1d 1d 1d", cublasDgbmv(c.trans, 4, 4, 1, 1, 2.0, P<double>(0, false), 8, P<double>(1, false), 1, 0.5, P<double>(2, false), 1), cublasDgbmv_v2(h2, op_of(c.trans), 4, 4, 1, 1, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 1, ref(0.5), P<double>(2, false), 1));
    V1_CASE(cublasCgbmv, "2d 2d 2d", cublasCgbmv(c.trans, 4, 4, 1, 1, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 1), cublasCgbmv_v2(h2, op_of(c.trans), 4, 4, 1, 1, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 1));
    V1_CASE(cublasZgbmv, "3d 3d 3d", cublasZgbmv(c.trans, 4, 4, 1, 1, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 1), cublasZgbmv_v2(h2, op_of(c.trans), 4, 4, 1, 1, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 1));
    V1_CASE(cublasStrmv, "0d 0d", cublasStrmv(c.uplo, c.trans, c.diag, 4, P<float>(0, false), 8, P<float>(1, false), 1), cublasStrmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<float>(0, false), 8, P<float>(1, false), 1));
    V1_CASE(cublasDtrmv, "1d 1d", cublasDtrmv(c.uplo, c.trans, c.diag, 4, P<double>(0, false), 8, P<double>(1, false), 1), cublasDtrmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<double>(0, false), 8, P<double>(1, false), 1));
    V1_CASE(cublasCtrmv, "2d 2d", cublasCtrmv(c.uplo, c.trans, c.diag, 4, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1), cublasCtrmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZtrmv, "3d 3d", cublasZtrmv(c.uplo, c.trans, c.diag, 4, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1), cublasZtrmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasStbmv, "0d 0d", cublasStbmv(c.uplo, c.trans, c.diag, 4, 2, P<float>(0, false), 8, P<float>(1, false), 1), cublasStbmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<float>(0, false), 8, P<float>(1, false), 1));
    V1_CASE(cublasDtbmv, "1d 1d", cublasDtbmv(c.uplo, c.trans, c.diag, 4, 2, P<double>(0, false), 8, P<double>(1, false), 1), cublasDtbmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<double>(0, false), 8, P<double>(1, false), 1));
    V1_CASE(cublasCtbmv, "2d 2d", cublasCtbmv(c.uplo, c.trans, c.diag, 4, 2, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1), cublasCtbmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZtbmv, "3d 3d", cublasZtbmv(c.uplo, c.trans, c.diag, 4, 2, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1), cublasZtbmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasStpmv, "0d 0d", cublasStpmv(c.uplo, c.trans, c.diag, 4, P<float>(0, false), P<float>(1, false), 1), cublasStpmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<float>(0, false), P<float>(1, false), 1));
    V1_CASE(cublasDtpmv, "1d 1d", cublasDtpmv(c.uplo, c.trans, c.diag, 4, P<double>(0, false), P<double>(1, false), 1), cublasDtpmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<double>(0, false), P<double>(1, false), 1));
    V1_CASE(cublasCtpmv, "2d 2d", cublasCtpmv(c.uplo, c.trans, c.diag, 4, P<cuComplex>(0, false), P<cuComplex>(1, false), 1), cublasCtpmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuComplex>(0, false), P<cuComplex>(1, false), 1));
    V1_CASE(cublasZtpmv, "3d 3d", cublasZtpmv(c.uplo, c.trans, c.diag, 4, P<cuDoubleComplex>(0, false), P<cuDoubleComplex>(1, false), 1), cublasZtpmv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuDoubleComplex>(0, false), P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasStrsv, "0d 0d", cublasStrsv(c.uplo, c.trans, c.diag, 4, P<float>(0, false), 8, P<float>(1, false), 1), cublasStrsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<float>(0, false), 8, P<float>(1, false), 1));
    V1_CASE(cublasDtrsv, "1d 1d", cublasDtrsv(c.uplo, c.trans, c.diag, 4, P<double>(0, false), 8, P<double>(1, false), 1), cublasDtrsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<double>(0, false), 8, P<double>(1, false), 1));
    V1_CASE(cublasCtrsv, "2d 2d", cublasCtrsv(c.uplo, c.trans, c.diag, 4, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1), cublasCtrsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZtrsv, "3d 3d", cublasZtrsv(c.uplo, c.trans, c.diag, 4, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1), cublasZtrsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasStpsv, "0d 0d", cublasStpsv(c.uplo, c.trans, c.diag, 4, P<float>(0, false), P<float>(1, false), 1), cublasStpsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<float>(0, false), P<float>(1, false), 1));
    V1_CASE(cublasDtpsv, "1d 1d", cublasDtpsv(c.uplo, c.trans, c.diag, 4, P<double>(0, false), P<double>(1, false), 1), cublasDtpsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<double>(0, false), P<double>(1, false), 1));
    V1_CASE(cublasCtpsv, "2d 2d", cublasCtpsv(c.uplo, c.trans, c.diag, 4, P<cuComplex>(0, false), P<cuComplex>(1, false), 1), cublasCtpsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuComplex>(0, false), P<cuComplex>(1, false), 1));
    V1_CASE(cublasZtpsv, "3d 3d", cublasZtpsv(c.uplo, c.trans, c.diag, 4, P<cuDoubleComplex>(0, false), P<cuDoubleComplex>(1, false), 1), cublasZtpsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, P<cuDoubleComplex>(0, false), P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasStbsv, "0d 0d", cublasStbsv(c.uplo, c.trans, c.diag, 4, 2, P<float>(0, false), 8, P<float>(1, false), 1), cublasStbsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<float>(0, false), 8, P<float>(1, false), 1));
    V1_CASE(cublasDtbsv, "1d 1d", cublasDtbsv(c.uplo, c.trans, c.diag, 4, 2, P<double>(0, false), 8, P<double>(1, false), 1), cublasDtbsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<double>(0, false), 8, P<double>(1, false), 1));
    V1_CASE(cublasCtbsv, "2d 2d", cublasCtbsv(c.uplo, c.trans, c.diag, 4, 2, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1), cublasCtbsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1));
    V1_CASE(cublasZtbsv, "3d 3d", cublasZtbsv(c.uplo, c.trans, c.diag, 4, 2, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1), cublasZtbsv_v2(h2, fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 2, P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1));
    V1_CASE(cublasSsymv, "0d 0d 0d", cublasSsymv(c.uplo, 4, 2.0f, P<float>(0, false), 8, P<float>(1, false), 1, 0.5f, P<float>(2, false), 1), cublasSsymv_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 1, ref(0.5f), P<float>(2, false), 1));
    V1_CASE(cublasDsymv, "1d 1d 1d", cublasDsymv(c.uplo, 4, 2.0, P<double>(0, false), 8, P<double>(1, false), 1, 0.5, P<double>(2, false), 1), cublasDsymv_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 1, ref(0.5), P<double>(2, false), 1));
    V1_CASE(cublasChemv, "2d 2d 2d", cublasChemv(c.uplo, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 1), cublasChemv_v2(h2, fill_of(c.uplo), 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 1));
    V1_CASE(cublasZhemv, "3d 3d 3d", cublasZhemv(c.uplo, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 1), cublasZhemv_v2(h2, fill_of(c.uplo), 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 1));
    V1_CASE(cublasSsbmv, "0d 0d 0d", cublasSsbmv(c.uplo, 4, 2, 2.0f, P<float>(0, false), 8, P<float>(1, false), 1, 0.5f, P<float>(2, false), 1), cublasSsbmv_v2(h2, fill_of(c.uplo), 4, 2, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 1, ref(0.5f), P<float>(2, false), 1));
    V1_CASE(cublasDsbmv, "1d 1d 1d", cublasDsbmv(c.uplo, 4, 2, 2.0, P<double>(0, false), 8, P<double>(1, false), 1, 0.5, P<double>(2, false), 1), cublasDsbmv_v2(h2, fill_of(c.uplo), 4, 2, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 1, ref(0.5), P<double>(2, false), 1));
    V1_CASE(cublasChbmv, "2d 2d 2d", cublasChbmv(c.uplo, 4, 2, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 1), cublasChbmv_v2(h2, fill_of(c.uplo), 4, 2, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 1, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 1));
    V1_CASE(cublasZhbmv, "3d 3d 3d", cublasZhbmv(c.uplo, 4, 2, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 1), cublasZhbmv_v2(h2, fill_of(c.uplo), 4, 2, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 1, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 1));
    V1_CASE(cublasSspmv, "0d 0d 0d", cublasSspmv(c.uplo, 4, 2.0f, P<float>(0, false), P<float>(1, false), 1, 0.5f, P<float>(2, false), 1), cublasSspmv_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<float>(0, false), P<float>(1, false), 1, ref(0.5f), P<float>(2, false), 1));
    V1_CASE(cublasDspmv, "1d 1d 1d", cublasDspmv(c.uplo, 4, 2.0, P<double>(0, false), P<double>(1, false), 1, 0.5, P<double>(2, false), 1), cublasDspmv_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<double>(0, false), P<double>(1, false), 1, ref(0.5), P<double>(2, false), 1));
    V1_CASE(cublasChpmv, "2d 2d 2d", cublasChpmv(c.uplo, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), P<cuComplex>(1, false), 1, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 1), cublasChpmv_v2(h2, fill_of(c.uplo), 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), P<cuComplex>(1, false), 1, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 1));
    V1_CASE(cublasZhpmv, "3d 3d 3d", cublasZhpmv(c.uplo, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), P<cuDoubleComplex>(1, false), 1, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 1), cublasZhpmv_v2(h2, fill_of(c.uplo), 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), P<cuDoubleComplex>(1, false), 1, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 1));
    V1_CASE(cublasSger, "0d 0d 0d", cublasSger(4, 4, 2.0f, P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, false), 8), cublasSger_v2(h2, 4, 4, ref(2.0f), P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, false), 8));
    V1_CASE(cublasDger, "1d 1d 1d", cublasDger(4, 4, 2.0, P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, false), 8), cublasDger_v2(h2, 4, 4, ref(2.0), P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, false), 8));
    V1_CASE(cublasCgeru, "2d 2d 2d", cublasCgeru(4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false), 8), cublasCgeru_v2(h2, 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false), 8));
    V1_CASE(cublasCgerc, "2d 2d 2d", cublasCgerc(4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false), 8), cublasCgerc_v2(h2, 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false), 8));
    V1_CASE(cublasZgeru, "3d 3d 3d", cublasZgeru(4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false), 8), cublasZgeru_v2(h2, 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasZgerc, "3d 3d 3d", cublasZgerc(4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false), 8), cublasZgerc_v2(h2, 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasSsyr, "0d 0d", cublasSsyr(c.uplo, 4, 2.0f, P<float>(0, false), 1, P<float>(1, false), 8), cublasSsyr_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<float>(0, false), 1, P<float>(1, false), 8));
    V1_CASE(cublasDsyr, "1d 1d", cublasDsyr(c.uplo, 4, 2.0, P<double>(0, false), 1, P<double>(1, false), 8), cublasDsyr_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<double>(0, false), 1, P<double>(1, false), 8));
    V1_CASE(cublasCher, "2d 2d", cublasCher(c.uplo, 4, 2.0f, P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 8), cublasCher_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 8));
    V1_CASE(cublasZher, "3d 3d", cublasZher(c.uplo, 4, 2.0, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 8), cublasZher_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 8));
    V1_CASE(cublasSspr, "0d 0d", cublasSspr(c.uplo, 4, 2.0f, P<float>(0, false), 1, P<float>(1, false)), cublasSspr_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<float>(0, false), 1, P<float>(1, false)));
    V1_CASE(cublasDspr, "1d 1d", cublasDspr(c.uplo, 4, 2.0, P<double>(0, false), 1, P<double>(1, false)), cublasDspr_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<double>(0, false), 1, P<double>(1, false)));
    V1_CASE(cublasChpr, "2d 2d", cublasChpr(c.uplo, 4, 2.0f, P<cuComplex>(0, false), 1, P<cuComplex>(1, false)), cublasChpr_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<cuComplex>(0, false), 1, P<cuComplex>(1, false)));
    V1_CASE(cublasZhpr, "3d 3d", cublasZhpr(c.uplo, 4, 2.0, P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false)), cublasZhpr_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false)));
    V1_CASE(cublasSsyr2, "0d 0d 0d", cublasSsyr2(c.uplo, 4, 2.0f, P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, false), 8), cublasSsyr2_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, false), 8));
    V1_CASE(cublasDsyr2, "1d 1d 1d", cublasDsyr2(c.uplo, 4, 2.0, P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, false), 8), cublasDsyr2_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, false), 8));
    V1_CASE(cublasCher2, "2d 2d 2d", cublasCher2(c.uplo, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false), 8), cublasCher2_v2(h2, fill_of(c.uplo), 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false), 8));
    V1_CASE(cublasZher2, "3d 3d 3d", cublasZher2(c.uplo, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false), 8), cublasZher2_v2(h2, fill_of(c.uplo), 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasSspr2, "0d 0d 0d", cublasSspr2(c.uplo, 4, 2.0f, P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, false)), cublasSspr2_v2(h2, fill_of(c.uplo), 4, ref(2.0f), P<float>(0, false), 1, P<float>(1, false), 1, P<float>(2, false)));
    V1_CASE(cublasDspr2, "1d 1d 1d", cublasDspr2(c.uplo, 4, 2.0, P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, false)), cublasDspr2_v2(h2, fill_of(c.uplo), 4, ref(2.0), P<double>(0, false), 1, P<double>(1, false), 1, P<double>(2, false)));
    V1_CASE(cublasChpr2, "2d 2d 2d", cublasChpr2(c.uplo, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false)), cublasChpr2_v2(h2, fill_of(c.uplo), 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 1, P<cuComplex>(1, false), 1, P<cuComplex>(2, false)));
    V1_CASE(cublasZhpr2, "3d 3d 3d", cublasZhpr2(c.uplo, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false)), cublasZhpr2_v2(h2, fill_of(c.uplo), 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 1, P<cuDoubleComplex>(1, false), 1, P<cuDoubleComplex>(2, false)));
    V1_CASE(cublasSgemm, "0d 0d 0d", cublasSgemm(c.trans, c.transb, 4, 4, 2, 2.0f, P<float>(0, false), 8, P<float>(1, false), 8, 0.5f, P<float>(2, false), 8), cublasSgemm_v2(h2, op_of(c.trans), op_of(c.transb), 4, 4, 2, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 8, ref(0.5f), P<float>(2, false), 8));
    V1_CASE(cublasDgemm, "1d 1d 1d", cublasDgemm(c.trans, c.transb, 4, 4, 2, 2.0, P<double>(0, false), 8, P<double>(1, false), 8, 0.5, P<double>(2, false), 8), cublasDgemm_v2(h2, op_of(c.trans), op_of(c.transb), 4, 4, 2, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 8, ref(0.5), P<double>(2, false), 8));
    V1_CASE(cublasCgemm, "2d 2d 2d", cublasCgemm(c.trans, c.transb, 4, 4, 2, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 8), cublasCgemm_v2(h2, op_of(c.trans), op_of(c.transb), 4, 4, 2, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 8));
    V1_CASE(cublasZgemm, "3d 3d 3d", cublasZgemm(c.trans, c.transb, 4, 4, 2, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 8), cublasZgemm_v2(h2, op_of(c.trans), op_of(c.transb), 4, 4, 2, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasSsyrk, "0d 0d", cublasSsyrk(c.uplo, c.trans, 4, 2, 2.0f, P<float>(0, false), 8, 0.5f, P<float>(1, false), 8), cublasSsyrk_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(2.0f), P<float>(0, false), 8, ref(0.5f), P<float>(1, false), 8));
    V1_CASE(cublasDsyrk, "1d 1d", cublasDsyrk(c.uplo, c.trans, 4, 2, 2.0, P<double>(0, false), 8, 0.5, P<double>(1, false), 8), cublasDsyrk_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(2.0), P<double>(0, false), 8, ref(0.5), P<double>(1, false), 8));
    V1_CASE(cublasCsyrk, "2d 2d", cublasCsyrk(c.uplo, c.trans, 4, 2, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, make_cuComplex(0.5f, -1), P<cuComplex>(1, false), 8), cublasCsyrk_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(1, false), 8));
    V1_CASE(cublasZsyrk, "3d 3d", cublasZsyrk(c.uplo, c.trans, 4, 2, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(1, false), 8), cublasZsyrk_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(1, false), 8));
    V1_CASE(cublasCherk, "2d 2d", cublasCherk(c.uplo, c.trans, 4, 2, 2.0f, P<cuComplex>(0, false), 8, 0.5f, P<cuComplex>(1, false), 8), cublasCherk_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(2.0f), P<cuComplex>(0, false), 8, ref(0.5f), P<cuComplex>(1, false), 8));
    V1_CASE(cublasZherk, "3d 3d", cublasZherk(c.uplo, c.trans, 4, 2, 2.0, P<cuDoubleComplex>(0, false), 8, 0.5, P<cuDoubleComplex>(1, false), 8), cublasZherk_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(2.0), P<cuDoubleComplex>(0, false), 8, ref(0.5), P<cuDoubleComplex>(1, false), 8));
    V1_CASE(cublasSsyr2k, "0d 0d 0d", cublasSsyr2k(c.uplo, c.trans, 4, 2, 2.0f, P<float>(0, false), 8, P<float>(1, false), 8, 0.5f, P<float>(2, false), 8), cublasSsyr2k_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 8, ref(0.5f), P<float>(2, false), 8));
    V1_CASE(cublasDsyr2k, "1d 1d 1d", cublasDsyr2k(c.uplo, c.trans, 4, 2, 2.0, P<double>(0, false), 8, P<double>(1, false), 8, 0.5, P<double>(2, false), 8), cublasDsyr2k_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 8, ref(0.5), P<double>(2, false), 8));
    V1_CASE(cublasCsyr2k, "2d 2d 2d", cublasCsyr2k(c.uplo, c.trans, 4, 2, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 8), cublasCsyr2k_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 8));
    V1_CASE(cublasZsyr2k, "3d 3d 3d", cublasZsyr2k(c.uplo, c.trans, 4, 2, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 8), cublasZsyr2k_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasCher2k, "2d 2d 2d", cublasCher2k(c.uplo, c.trans, 4, 2, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, 0.5f, P<cuComplex>(2, false), 8), cublasCher2k_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, ref(0.5f), P<cuComplex>(2, false), 8));
    V1_CASE(cublasZher2k, "3d 3d 3d", cublasZher2k(c.uplo, c.trans, 4, 2, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, 0.5, P<cuDoubleComplex>(2, false), 8), cublasZher2k_v2(h2, fill_of(c.uplo), op_of(c.trans), 4, 2, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, ref(0.5), P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasSsymm, "0d 0d 0d", cublasSsymm(c.side, c.uplo, 4, 4, 2.0f, P<float>(0, false), 8, P<float>(1, false), 8, 0.5f, P<float>(2, false), 8), cublasSsymm_v2(h2, side_of(c.side), fill_of(c.uplo), 4, 4, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 8, ref(0.5f), P<float>(2, false), 8));
    V1_CASE(cublasDsymm, "1d 1d 1d", cublasDsymm(c.side, c.uplo, 4, 4, 2.0, P<double>(0, false), 8, P<double>(1, false), 8, 0.5, P<double>(2, false), 8), cublasDsymm_v2(h2, side_of(c.side), fill_of(c.uplo), 4, 4, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 8, ref(0.5), P<double>(2, false), 8));
    V1_CASE(cublasCsymm, "2d 2d 2d", cublasCsymm(c.side, c.uplo, 4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 8), cublasCsymm_v2(h2, side_of(c.side), fill_of(c.uplo), 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 8));
    V1_CASE(cublasZsymm, "3d 3d 3d", cublasZsymm(c.side, c.uplo, 4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 8), cublasZsymm_v2(h2, side_of(c.side), fill_of(c.uplo), 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasChemm, "2d 2d 2d", cublasChemm(c.side, c.uplo, 4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, make_cuComplex(0.5f, -1), P<cuComplex>(2, false), 8), cublasChemm_v2(h2, side_of(c.side), fill_of(c.uplo), 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, ref(make_cuComplex(0.5f, -1)), P<cuComplex>(2, false), 8));
    V1_CASE(cublasZhemm, "3d 3d 3d", cublasZhemm(c.side, c.uplo, 4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, make_cuDoubleComplex(0.5, -1), P<cuDoubleComplex>(2, false), 8), cublasZhemm_v2(h2, side_of(c.side), fill_of(c.uplo), 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, ref(make_cuDoubleComplex(0.5, -1)), P<cuDoubleComplex>(2, false), 8));
    V1_CASE(cublasStrsm, "0d 0d", cublasStrsm(c.side, c.uplo, c.trans, c.diag, 4, 4, 2.0f, P<float>(0, false), 8, P<float>(1, false), 8), cublasStrsm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 8));
    V1_CASE(cublasDtrsm, "1d 1d", cublasDtrsm(c.side, c.uplo, c.trans, c.diag, 4, 4, 2.0, P<double>(0, false), 8, P<double>(1, false), 8), cublasDtrsm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 8));
    V1_CASE(cublasCtrsm, "2d 2d", cublasCtrsm(c.side, c.uplo, c.trans, c.diag, 4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8), cublasCtrsm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8));
    V1_CASE(cublasZtrsm, "3d 3d", cublasZtrsm(c.side, c.uplo, c.trans, c.diag, 4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8), cublasZtrsm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8));
    V1_CASE(cublasStrmm, "0d 0d", cublasStrmm(c.side, c.uplo, c.trans, c.diag, 4, 4, 2.0f, P<float>(0, false), 8, P<float>(1, false), 8), cublasStrmm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(2.0f), P<float>(0, false), 8, P<float>(1, false), 8, P<float>(1, false), 8));
    V1_CASE(cublasDtrmm, "1d 1d", cublasDtrmm(c.side, c.uplo, c.trans, c.diag, 4, 4, 2.0, P<double>(0, false), 8, P<double>(1, false), 8), cublasDtrmm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(2.0), P<double>(0, false), 8, P<double>(1, false), 8, P<double>(1, false), 8));
    V1_CASE(cublasCtrmm, "2d 2d", cublasCtrmm(c.side, c.uplo, c.trans, c.diag, 4, 4, make_cuComplex(2, 1), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8), cublasCtrmm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(make_cuComplex(2, 1)), P<cuComplex>(0, false), 8, P<cuComplex>(1, false), 8, P<cuComplex>(1, false), 8));
    V1_CASE(cublasZtrmm, "3d 3d", cublasZtrmm(c.side, c.uplo, c.trans, c.diag, 4, 4, make_cuDoubleComplex(2, 1), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8), cublasZtrmm_v2(h2, side_of(c.side), fill_of(c.uplo), op_of(c.trans), diag_of(c.diag), 4, 4, ref(make_cuDoubleComplex(2, 1)), P<cuDoubleComplex>(0, false), 8, P<cuDoubleComplex>(1, false), 8, P<cuDoubleComplex>(1, false), 8));
    // clang-format on
  }
  EXPECT_STATUS(cublasDestroy_v2(h2), CUBLAS_STATUS_SUCCESS);
  for (void* p : g_dev) cudaFree(p);
  std::printf("ok every v1 routine (%d calls; %d valid ones NOT_SUPPORTED by a v2 stub)\n", calls,
              unsupported);
}

#undef V1_CASE

}  // namespace every

int main() {
  // Before cublasInit: routines record NOT_INITIALIZED; shutdown fails.
  EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
  cublasSscal(4, 2.0f, nullptr, 1);
  EXPECT_ERROR(CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasShutdown(), CUBLAS_STATUS_NOT_INITIALIZED);
  void* p = nullptr;
  EXPECT_STATUS(cublasAlloc(4, 4, &p), CUBLAS_STATUS_NOT_INITIALIZED);

  EXPECT_STATUS(cublasInit(), CUBLAS_STATUS_SUCCESS);
  int version = 0;
  EXPECT_STATUS(cublasGetVersion(&version), CUBLAS_STATUS_SUCCESS);
  EXPECT_TRUE(version == CUBLAS_VERSION, "version %d", version);
  EXPECT_STATUS(cublasAlloc(0, 4, &p), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasAlloc(4, -1, &p), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasAlloc(4, 4, &p), CUBLAS_STATUS_SUCCESS);
  EXPECT_STATUS(cublasFree(p), CUBLAS_STATUS_SUCCESS);

  check_level1();
  check_level2();
  check_scalar_forms();
  every::check_every_routine();
  check_gemm<float>("sgemm", kUnitF32, false);
  check_gemm<double>("dgemm", kUnitF64, false);
  check_gemm<cuComplex>("cgemm", kUnitF32, true);
  check_gemm<cuDoubleComplex>("zgemm", kUnitF64, true);

  // Bad GEMM arguments: a transpose character v1 does not define, a negative size.
  cublasSgemm('X', 'N', 2, 2, 2, 1.0f, nullptr, 2, nullptr, 2, 0.0f, nullptr, 2);
  EXPECT_ERROR(CUBLAS_STATUS_INVALID_VALUE);
  cublasDgemm('N', 'N', -1, 2, 2, 1.0, nullptr, 2, nullptr, 2, 0.0, nullptr, 2);
  EXPECT_ERROR(CUBLAS_STATUS_INVALID_VALUE);

  // A v1 Level-3 routine beyond GEMM: its v2 counterpart's result (or, while that is a
  // stub, its CUBLAS_STATUS_NOT_SUPPORTED) reaches cublasGetError. ssyrk on 2x2 integers.
  {
    const std::vector<float> a = {1, 2, 3, 4};  // A = [1 3; 2 4]
    std::vector<float> c = {0, 0, 0, 0};
    float *da = device_copy(a), *dc = device_copy(c);
    cublasSsyrk('U', 'N', 2, 2, 1.0f, da, 2, 0.0f, dc, 2);
    const cublasStatus s = cublasGetError();
    if (s == CUBLAS_STATUS_SUCCESS) {
      c = host_copy(dc, 4);  // A A^T upper: [10 14; . 20]
      EXPECT_TRUE(c[0] == 10 && c[2] == 14 && c[3] == 20, "ssyrk %g %g %g", c[0], c[2], c[3]);
    } else {
      EXPECT_TRUE(s == CUBLAS_STATUS_NOT_SUPPORTED, "ssyrk -> %d", static_cast<int>(s));
    }
    cublasFree(da), cublasFree(dc);
  }

  // cublasSetKernelStream: later routines run on the stream.
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  EXPECT_STATUS(cublasSetKernelStream(stream), CUBLAS_STATUS_SUCCESS);
  {
    std::vector<double> x = {1, 2, 3}, y = {4, 5, 6};
    double *dx = device_copy(x), *dy = device_copy(y);
    cublasDaxpy(3, -1.0, dx, 1, dy, 1);
    cudaStreamSynchronize(stream);
    EXPECT_ERROR(CUBLAS_STATUS_SUCCESS);
    const std::vector<double> got = host_copy(dy, 3);
    EXPECT_TRUE(got[0] == 3 && got[1] == 3 && got[2] == 3, "daxpy on the stream");
    cublasFree(dx), cublasFree(dy);
  }
  EXPECT_STATUS(cublasSetKernelStream(nullptr), CUBLAS_STATUS_SUCCESS);
  cudaStreamDestroy(stream);

  EXPECT_STATUS(cublasShutdown(), CUBLAS_STATUS_SUCCESS);
  cublasSscal(4, 2.0f, nullptr, 1);
  EXPECT_ERROR(CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasShutdown(), CUBLAS_STATUS_NOT_INITIALIZED);
  std::printf("PASS legacy\n");
  return 0;
}
