// Level-1 reductions: dot / dotu / dotc, nrm2, asum, iamax, iamin for S, D, C, Z (LP64 and
// _64), the Ex forms over FP16 / BF16 / FP32 / FP64 / complex, against FP64 host
// references: results in host and device memory (pointer modes), positive and negative
// increments, n = 0 and incx <= 0 quick returns, nrm2 without overflow or underflow,
// first-index ties of iamax / iamin, run-to-run determinism, the handle's workspace, and
// invalid arguments.
#include "level1_common.h"

using namespace level1;

namespace {

cublasHandle_t g_handle;

// --- typed entry points, LP64 or _64 ---
#define DOT_WRAPPER(T, dotu_fn, dotc_fn)                                                   \
  cublasStatus_t dot(bool b64, bool conj, int64_t n, const T* x, int64_t incx, const T* y, \
                     int64_t incy, T* r) {                                                 \
    if (conj) {                                                                            \
      return b64 ? dotc_fn##_64(g_handle, n, x, incx, y, incy, r)                          \
                 : dotc_fn(g_handle, int(n), x, int(incx), y, int(incy), r);               \
    }                                                                                      \
    return b64 ? dotu_fn##_64(g_handle, n, x, incx, y, incy, r)                            \
               : dotu_fn(g_handle, int(n), x, int(incx), y, int(incy), r);                 \
  }
DOT_WRAPPER(float, cublasSdot, cublasSdot)
DOT_WRAPPER(double, cublasDdot, cublasDdot)
DOT_WRAPPER(cuComplex, cublasCdotu, cublasCdotc)
DOT_WRAPPER(cuDoubleComplex, cublasZdotu, cublasZdotc)
#undef DOT_WRAPPER

#define VEC_WRAPPER(fn, T, R, nrm2_fn, asum_fn)                            \
  cublasStatus_t fn(bool b64, int64_t n, const T* x, int64_t incx, R* r) { \
    return b64 ? nrm2_fn##_64(g_handle, n, x, incx, r)                     \
               : nrm2_fn(g_handle, int(n), x, int(incx), r);               \
  }
VEC_WRAPPER(nrm2, float, float, cublasSnrm2, _)
VEC_WRAPPER(nrm2, double, double, cublasDnrm2, _)
VEC_WRAPPER(nrm2, cuComplex, float, cublasScnrm2, _)
VEC_WRAPPER(nrm2, cuDoubleComplex, double, cublasDznrm2, _)
VEC_WRAPPER(asum, float, float, cublasSasum, _)
VEC_WRAPPER(asum, double, double, cublasDasum, _)
VEC_WRAPPER(asum, cuComplex, float, cublasScasum, _)
VEC_WRAPPER(asum, cuDoubleComplex, double, cublasDzasum, _)
#undef VEC_WRAPPER

#define INDEX_WRAPPER(T, amax_fn, amin_fn)                                                      \
  cublasStatus_t iamax(bool max, int64_t n, const T* x, int64_t incx, int* r) {                 \
    return max ? amax_fn(g_handle, int(n), x, int(incx), r)                                     \
               : amin_fn(g_handle, int(n), x, int(incx), r);                                    \
  }                                                                                             \
  cublasStatus_t iamax(bool max, int64_t n, const T* x, int64_t incx, int64_t* r) {             \
    return max ? amax_fn##_64(g_handle, n, x, incx, r) : amin_fn##_64(g_handle, n, x, incx, r); \
  }
INDEX_WRAPPER(float, cublasIsamax, cublasIsamin)
INDEX_WRAPPER(double, cublasIdamax, cublasIdamin)
INDEX_WRAPPER(cuComplex, cublasIcamax, cublasIcamin)
INDEX_WRAPPER(cuDoubleComplex, cublasIzamax, cublasIzamin)
#undef INDEX_WRAPPER

// --- host references (FP64; nrm2 in long double, which neither overflows nor underflows
// for the values used) ---
template <typename T>
cd ref_dot(bool conj, int64_t n, const std::vector<T>& x, int64_t incx, const std::vector<T>& y,
           int64_t incy, double* magnitude) {
  cd sum = 0;
  *magnitude = 0;
  for (int64_t i = 0; i < n; ++i) {
    cd a = Elem<T>::value(x[at(i, n, incx)]);
    if (conj) a = std::conj(a);
    const cd b = Elem<T>::value(y[at(i, n, incy)]);
    sum += a * b;
    *magnitude += std::abs(a) * std::abs(b);
  }
  return sum;
}

template <typename T>
long double ref_nrm2(int64_t n, const std::vector<T>& x, int64_t incx) {
  long double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const cd v = Elem<T>::value(x[i * incx]);
    s += static_cast<long double>(v.real()) * v.real() +
         static_cast<long double>(v.imag()) * v.imag();
  }
  return std::sqrt(s);
}

template <typename T>
double ref_asum(int64_t n, const std::vector<T>& x, int64_t incx) {
  double s = 0;
  for (int64_t i = 0; i < n; ++i) {
    const cd v = Elem<T>::value(x[i * incx]);
    s += std::fabs(v.real()) + std::fabs(v.imag());
  }
  return s;
}

// 1-based index of the first largest (smallest) |re| + |im|; 0 when n <= 0.
template <typename T>
int64_t ref_index(bool max, int64_t n, const std::vector<T>& x, int64_t incx) {
  int64_t best = 0;
  double best_value = 0;
  for (int64_t i = 0; i < n; ++i) {
    const cd v = Elem<T>::value(x[i * incx]);
    const double a = std::fabs(v.real()) + std::fabs(v.imag());
    if (best == 0 || (max ? a > best_value : a < best_value)) best = i + 1, best_value = a;
  }
  return best;
}

void set_mode(bool device) {
  CHECK_CUBLAS(cublasSetPointerMode(
      g_handle, device ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
}

// Calls f(result pointer) in the pointer mode and returns the result read back.
template <typename R, typename F>
R run_reduction(bool device, F f) {
  set_mode(device);
  R r;
  poison(&r, sizeof(R));
  if (device) {
    Device<R> d(1);
    d.set_one(r);
    CHECK_CUBLAS(f(d.ptr));
    CHECK_CUDA(cudaDeviceSynchronize());
    r = d.one();
  } else {
    CHECK_CUBLAS(f(&r));
  }
  set_mode(false);
  return r;
}

struct Case {
  int64_t n, incx, incy;
};
const Case kCases[] = {{0, 1, 1},    {1, 1, 1},    {37, 1, 1},    {37, 2, -3},
                       {300, -1, 2}, {1000, 1, 1}, {1000, -2, -1}};

template <typename T>
void test_dot(uint64_t seed) {
  using R = typename Elem<T>::Real;
  Random rng(seed);
  for (const Case& c : kCases) {
    const auto x = random_vector<T>(storage(c.n, c.incx), rng);
    const auto y = random_vector<T>(storage(c.n, c.incy), rng);
    const Device<T> dx(x), dy(y);
    for (int conj = 0; conj < (Elem<T>::kComplex ? 2 : 1); ++conj) {
      double magnitude;
      const cd want = ref_dot(conj, c.n, x, c.incx, y, c.incy, &magnitude);
      const double bound = 4.0 * (c.n + 1) * Elem<T>::kUnit * magnitude;
      for (int mode = 0; mode < 2; ++mode) {
        for (int b64 = 0; b64 < 2; ++b64) {
          const T got = run_reduction<T>(
              mode, [&](T* r) { return dot(b64, conj, c.n, dx.ptr, c.incx, dy.ptr, c.incy, r); });
          const double err = std::abs(Elem<T>::value(got) - want);
          EXPECT_TRUE(err <= bound,
                      "%sdot%s n %lld incx %lld incy %lld mode %d b64 %d: err %g > %g",
                      Elem<T>::name(), conj ? "c" : "u", (long long)c.n, (long long)c.incx,
                      (long long)c.incy, mode, b64, err, bound);
        }
      }
    }
  }
  (void)sizeof(R);
}

template <typename T>
void test_nrm2_asum(uint64_t seed) {
  using R = typename Elem<T>::Real;
  Random rng(seed);
  const int64_t incs[] = {1, 3};
  const int64_t ns[] = {0, 1, 37, 1000};
  for (int64_t n : ns) {
    for (int64_t inc : incs) {
      auto x = random_vector<T>(storage(n, inc), rng);
      const Device<T> dx(x);
      const double nrm2_want = static_cast<double>(ref_nrm2(n, x, inc));
      const double asum_want = ref_asum(n, x, inc);
      for (int mode = 0; mode < 2; ++mode) {
        for (int b64 = 0; b64 < 2; ++b64) {
          const R nrm = run_reduction<R>(mode, [&](R* r) { return nrm2(b64, n, dx.ptr, inc, r); });
          const R sum = run_reduction<R>(mode, [&](R* r) { return asum(b64, n, dx.ptr, inc, r); });
          const double nrm_bound = 4.0 * (n + 2) * Elem<T>::kUnit * nrm2_want;
          const double sum_bound = 2.0 * (n + 1) * Elem<T>::kUnit * asum_want;
          EXPECT_TRUE(std::fabs(nrm - nrm2_want) <= nrm_bound,
                      "%snrm2 n %lld inc %lld: %.17g vs %.17g", Elem<T>::name(), (long long)n,
                      (long long)inc, (double)nrm, nrm2_want);
          EXPECT_TRUE(std::fabs(sum - asum_want) <= sum_bound,
                      "%sasum n %lld inc %lld: %.17g vs %.17g", Elem<T>::name(), (long long)n,
                      (long long)inc, (double)sum, asum_want);
        }
      }
    }
  }
  // incx <= 0: the result is 0, in both pointer modes.
  const auto x = random_vector<T>(10, rng);
  const Device<T> dx(x);
  for (int mode = 0; mode < 2; ++mode) {
    for (int64_t inc : {0, -1}) {
      const R nrm = run_reduction<R>(mode, [&](R* r) { return nrm2(false, 10, dx.ptr, inc, r); });
      const R sum = run_reduction<R>(mode, [&](R* r) { return asum(true, 10, dx.ptr, inc, r); });
      EXPECT_TRUE(nrm == R(0) && sum == R(0), "%s incx %lld: nrm2 %g asum %g", Elem<T>::name(),
                  (long long)inc, (double)nrm, (double)sum);
    }
  }
  // nrm2 neither overflows nor underflows: elements whose squares are out of range.
  const double big = sizeof(R) == 4 ? 1e30 : 1e200, tiny = sizeof(R) == 4 ? 1e-30 : 1e-200;
  for (double scale : {big, tiny}) {
    std::vector<T> v(300);
    for (size_t i = 0; i < v.size(); ++i) {
      v[i] = Elem<T>::make(cd(scale * (1.0 + i % 5), Elem<T>::kComplex ? -scale * (i % 3) : 0.0));
    }
    const Device<T> dv(v);
    const double want = static_cast<double>(ref_nrm2(300, v, 1));
    const R got = run_reduction<R>(false, [&](R* r) { return nrm2(false, 300, dv.ptr, 1, r); });
    EXPECT_TRUE(std::isfinite(static_cast<double>(got)) &&
                    std::fabs(got - want) <= 4.0 * 302 * Elem<T>::kUnit * want,
                "%snrm2 of elements ~%g: %.17g vs %.17g", Elem<T>::name(), scale, (double)got,
                want);
  }
}

template <typename T>
void test_index(uint64_t seed) {
  Random rng(seed);
  const int64_t ns[] = {0, 1, 37, 1000, 5000};
  for (int64_t n : ns) {
    for (int64_t inc : {1, 2}) {
      // Small integers: many ties, which the first index must win.
      const auto x = random_vector<T>(storage(n, inc), rng, 20);
      const Device<T> dx(x);
      for (int max = 0; max < 2; ++max) {
        const int64_t want = ref_index(max, n, x, inc);
        for (int mode = 0; mode < 2; ++mode) {
          const int got32 =
              run_reduction<int>(mode, [&](int* r) { return iamax(max, n, dx.ptr, inc, r); });
          const int64_t got64 = run_reduction<int64_t>(
              mode, [&](int64_t* r) { return iamax(max, n, dx.ptr, inc, r); });
          EXPECT_TRUE(got32 == want && got64 == want,
                      "I%sa%s n %lld inc %lld mode %d: %d / %lld, want %lld", Elem<T>::name(),
                      max ? "max" : "min", (long long)n, (long long)inc, mode, got32,
                      (long long)got64, (long long)want);
        }
      }
    }
  }
  // incx <= 0 gives 0.
  const auto x = random_vector<T>(8, rng);
  const Device<T> dx(x);
  for (int mode = 0; mode < 2; ++mode) {
    const int got = run_reduction<int>(mode, [&](int* r) { return iamax(true, 8, dx.ptr, 0, r); });
    const int64_t got64 =
        run_reduction<int64_t>(mode, [&](int64_t* r) { return iamax(false, 8, dx.ptr, -1, r); });
    EXPECT_TRUE(got == 0 && got64 == 0, "I%samax incx <= 0: %d %lld", Elem<T>::name(), got,
                (long long)got64);
  }
}

// The Ex forms over FP16 / BF16 (computed in FP32), and FP32 / complex through the Ex path.
template <typename T>
void test_ex_half(uint64_t seed) {
  Random rng(seed);
  const cudaDataType type = Elem<T>::kType;
  for (const Case& c : kCases) {
    const auto x = random_vector<T>(storage(c.n, c.incx), rng);
    const auto y = random_vector<T>(storage(c.n, c.incy), rng);
    const Device<T> dx(x), dy(y);
    double magnitude;
    const double want = ref_dot(false, c.n, x, c.incx, y, c.incy, &magnitude).real();
    for (int mode = 0; mode < 2; ++mode) {
      // Result in the element type (rounded once) and in FP32.
      const T got = run_reduction<T>(mode, [&](T* r) {
        return cublasDotEx(g_handle, int(c.n), dx.ptr, type, int(c.incx), dy.ptr, type, int(c.incy),
                           r, type, CUDA_R_32F);
      });
      const float got32 = run_reduction<float>(mode, [&](float* r) {
        return cublasDotEx_64(g_handle, c.n, dx.ptr, type, c.incx, dy.ptr, type, c.incy, r,
                              CUDA_R_32F, CUDA_R_32F);
      });
      const double bound32 = 4.0 * (c.n + 1) * blas_check::kUnitF32 * magnitude;
      const double bound = bound32 + Elem<T>::kUnit * (std::fabs(want) + bound32);
      EXPECT_TRUE(std::fabs(got32 - want) <= bound32, "%s DotEx FP32 result n %lld: %.9g vs %.9g",
                  Elem<T>::name(), (long long)c.n, got32, want);
      EXPECT_TRUE(std::fabs(Elem<T>::value(got).real() - want) <= bound,
                  "%s DotEx n %lld: %.9g vs %.9g", Elem<T>::name(), (long long)c.n,
                  Elem<T>::value(got).real(), want);
    }
  }
  const int64_t n = 500;
  const auto x = random_vector<T>(n, rng);
  const Device<T> dx(x);
  const double nrm = static_cast<double>(ref_nrm2(n, x, 1)), sum = ref_asum(n, x, 1);
  for (int mode = 0; mode < 2; ++mode) {
    const float got_nrm = run_reduction<float>(mode, [&](float* r) {
      return cublasNrm2Ex(g_handle, n, dx.ptr, type, 1, r, CUDA_R_32F, CUDA_R_32F);
    });
    const T got_nrm_t = run_reduction<T>(mode, [&](T* r) {
      return cublasNrm2Ex_64(g_handle, n, dx.ptr, type, 1, r, type, CUDA_R_32F);
    });
    const float got_sum = run_reduction<float>(mode, [&](float* r) {
      return cublasAsumEx(g_handle, n, dx.ptr, type, 1, r, CUDA_R_32F, CUDA_R_32F);
    });
    const int got_max = run_reduction<int>(
        mode, [&](int* r) { return cublasIamaxEx(g_handle, n, dx.ptr, type, 1, r); });
    const int64_t got_min = run_reduction<int64_t>(
        mode, [&](int64_t* r) { return cublasIaminEx_64(g_handle, n, dx.ptr, type, 1, r); });
    const double b32 = 4.0 * (n + 2) * blas_check::kUnitF32;
    EXPECT_TRUE(std::fabs(got_nrm - nrm) <= b32 * nrm, "%s Nrm2Ex %.9g vs %.9g", Elem<T>::name(),
                got_nrm, nrm);
    EXPECT_TRUE(
        std::fabs(Elem<T>::value(got_nrm_t).real() - nrm) <= (b32 + 2 * Elem<T>::kUnit) * nrm,
        "%s Nrm2Ex in the element type", Elem<T>::name());
    EXPECT_TRUE(std::fabs(got_sum - sum) <= b32 * sum, "%s AsumEx %.9g vs %.9g", Elem<T>::name(),
                got_sum, sum);
    EXPECT_TRUE(got_max == ref_index(true, n, x, 1), "%s IamaxEx %d vs %lld", Elem<T>::name(),
                got_max, (long long)ref_index(true, n, x, 1));
    EXPECT_TRUE(got_min == ref_index(false, n, x, 1), "%s IaminEx %lld vs %lld", Elem<T>::name(),
                (long long)got_min, (long long)ref_index(false, n, x, 1));
  }
}

// The Ex forms with the standard types equal the typed entry points bit for bit.
template <typename T>
void test_ex_standard(uint64_t seed) {
  using R = typename Elem<T>::Real;
  Random rng(seed);
  const cudaDataType type = Elem<T>::kType, exec = type;
  const cudaDataType real = sizeof(R) == 4 ? CUDA_R_32F : CUDA_R_64F;
  const int64_t n = 700;
  const auto x = random_vector<T>(2 * n, rng), y = random_vector<T>(n, rng);
  const Device<T> dx(x), dy(y);
  for (int conj = 0; conj < 2; ++conj) {
    T typed, ex;
    CHECK_CUBLAS(dot(false, conj && Elem<T>::kComplex, n, dx.ptr, -2, dy.ptr, 1, &typed));
    CHECK_CUBLAS((conj ? cublasDotcEx : cublasDotEx)(g_handle, n, dx.ptr, type, -2, dy.ptr, type, 1,
                                                     &ex, type, exec));
    EXPECT_TRUE(same_bits(&typed, &ex, sizeof(T)), "%s Dot%sEx differs from the typed dot",
                Elem<T>::name(), conj ? "c" : "");
  }
  R typed, ex;
  CHECK_CUBLAS(nrm2(false, n, dx.ptr, 2, &typed));
  CHECK_CUBLAS(cublasNrm2Ex(g_handle, n, dx.ptr, type, 2, &ex, real, real));
  EXPECT_TRUE(same_bits(&typed, &ex, sizeof(R)), "%s Nrm2Ex", Elem<T>::name());
  CHECK_CUBLAS(asum(false, n, dx.ptr, 2, &typed));
  CHECK_CUBLAS(cublasAsumEx(g_handle, n, dx.ptr, type, 2, &ex, real, real));
  EXPECT_TRUE(same_bits(&typed, &ex, sizeof(R)), "%s AsumEx", Elem<T>::name());
}

// The same call gives the same bits every time, with and without a workspace.
void test_determinism() {
  Random rng(99);
  const int64_t n = 20000;  // more blocks than the pass-1 grid: grid-stride partials
  const auto x = random_vector<float>(n, rng), y = random_vector<float>(n, rng);
  const Device<float> dx(x), dy(y);
  float first;
  CHECK_CUBLAS(cublasSdot(g_handle, n, dx.ptr, 1, dy.ptr, 1, &first));
  double magnitude;
  const double want = ref_dot(false, n, x, 1, y, 1, &magnitude).real();
  EXPECT_TRUE(std::fabs(first - want) <= 2.0 * n * blas_check::kUnitF32 * magnitude, "Sdot n %lld",
              (long long)n);
  void* workspace;
  CHECK_CUDA(cudaMalloc(&workspace, 1 << 16));
  for (int i = 0; i < 4; ++i) {
    if (i == 2) CHECK_CUBLAS(cublasSetWorkspace(g_handle, workspace, 1 << 16));
    float again;
    CHECK_CUBLAS(cublasSdot(g_handle, n, dx.ptr, 1, dy.ptr, 1, &again));
    EXPECT_TRUE(same_bits(&first, &again, sizeof(float)), "Sdot run %d: %.9g vs %.9g", i, again,
                first);
  }
  // Device pointer mode with a workspace, then the workspace removed.
  const float got = run_reduction<float>(
      true, [&](float* r) { return cublasSdot(g_handle, n, dx.ptr, 1, dy.ptr, 1, r); });
  EXPECT_TRUE(same_bits(&first, &got, sizeof(float)), "Sdot, device result");
  CHECK_CUBLAS(cublasSetWorkspace(g_handle, nullptr, 0));
  CHECK_CUDA(cudaFree(workspace));
}

// Integer-valued inputs whose sums stay exactly representable give bit-exact results.
template <typename T>
void test_exact(uint64_t seed) {
  using R = typename Elem<T>::Real;
  Random rng(seed);
  const int64_t n = 3000;
  const auto x = random_vector<T>(n, rng, 20), y = random_vector<T>(n, rng, 20);
  const Device<T> dx(x), dy(y);
  for (int conj = 0; conj < 2; ++conj) {
    double magnitude;
    const cd want = ref_dot(conj && Elem<T>::kComplex, n, x, -1, y, 1, &magnitude);
    for (int mode = 0; mode < 2; ++mode) {
      const T got = run_reduction<T>(mode, [&](T* r) {
        return dot(false, conj && Elem<T>::kComplex, n, dx.ptr, -1, dy.ptr, 1, r);
      });
      EXPECT_TRUE(Elem<T>::value(got) == want,
                  "%sdot of integers: (%.17g, %.17g), want (%.17g, %.17g)", Elem<T>::name(),
                  Elem<T>::value(got).real(), Elem<T>::value(got).imag(), want.real(), want.imag());
    }
  }
  const R sum = run_reduction<R>(false, [&](R* r) { return asum(true, n, dx.ptr, 1, r); });
  EXPECT_TRUE(sum == ref_asum(n, x, 1), "%sasum of integers: %.17g", Elem<T>::name(), (double)sum);
  // nrm2 of (3, 4) multiples: 5 k exactly.
  std::vector<T> v(2);
  v[0] = Elem<T>::make(cd(48, 0)), v[1] = Elem<T>::make(cd(0, 0));
  v[1] = Elem<T>::make(Elem<T>::kComplex ? cd(0, 64) : cd(64, 0));
  const Device<T> dv(v);
  const R nrm = run_reduction<R>(true, [&](R* r) { return nrm2(false, 2, dv.ptr, 1, r); });
  EXPECT_TRUE(nrm == R(80), "%snrm2(48, 64) = %.17g", Elem<T>::name(), (double)nrm);
}

// RMS error against FP64 within 2x that of a sequential CPU computation in the same
// precision (issue 7), for FP32 dot, nrm2 and asum.
void test_rms() {
  Random rng(4242);
  const int trials = 16;
  const int64_t n = 4000;
  double dot_err = 0, dot_cpu = 0, nrm_err = 0, nrm_cpu = 0, sum_err = 0, sum_cpu = 0;
  for (int t = 0; t < trials; ++t) {
    const auto x = random_vector<float>(n, rng), y = random_vector<float>(n, rng);
    const Device<float> dx(x), dy(y);
    double magnitude;
    const double want_dot = ref_dot(false, n, x, 1, y, 1, &magnitude).real();
    const double want_nrm = static_cast<double>(ref_nrm2(n, x, 1)), want_sum = ref_asum(n, x, 1);
    float cpu_dot = 0, cpu_ssq = 0, cpu_sum = 0;
    for (int64_t i = 0; i < n; ++i) {
      cpu_dot += x[i] * y[i];
      cpu_ssq += x[i] * x[i];
      cpu_sum += std::fabs(x[i]);
    }
    float got_dot, got_nrm, got_sum;
    CHECK_CUBLAS(cublasSdot(g_handle, n, dx.ptr, 1, dy.ptr, 1, &got_dot));
    CHECK_CUBLAS(cublasSnrm2(g_handle, n, dx.ptr, 1, &got_nrm));
    CHECK_CUBLAS(cublasSasum(g_handle, n, dx.ptr, 1, &got_sum));
    auto sq = [](double v) { return v * v; };
    dot_err += sq(got_dot - want_dot), dot_cpu += sq(cpu_dot - want_dot);
    nrm_err += sq(got_nrm - want_nrm), nrm_cpu += sq(std::sqrt(cpu_ssq) - want_nrm);
    sum_err += sq(got_sum - want_sum), sum_cpu += sq(cpu_sum - want_sum);
  }
  EXPECT_TRUE(dot_err <= 4 * dot_cpu, "Sdot RMS error %g, CPU %g", std::sqrt(dot_err / trials),
              std::sqrt(dot_cpu / trials));
  EXPECT_TRUE(nrm_err <= 4 * nrm_cpu, "Snrm2 RMS error %g, CPU %g", std::sqrt(nrm_err / trials),
              std::sqrt(nrm_cpu / trials));
  EXPECT_TRUE(sum_err <= 4 * sum_cpu, "Sasum RMS error %g, CPU %g", std::sqrt(sum_err / trials),
              std::sqrt(sum_cpu / trials));
}

void test_invalid() {
  float x[4] = {1, 2, 3, 4};
  Device<float> dx(std::vector<float>(x, x + 4));
  float r = 0;
  int ir = 0;
  EXPECT_STATUS(cublasSdot(g_handle, 4, dx.ptr, 1, dx.ptr, 1, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSnrm2(g_handle, 4, dx.ptr, 1, nullptr), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSasum_64(g_handle, 4, dx.ptr, 1, nullptr), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasIsamax(g_handle, 4, dx.ptr, 1, nullptr), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSdot(nullptr, 4, dx.ptr, 1, dx.ptr, 1, &r), CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasIsamin(nullptr, 4, dx.ptr, 1, &ir), CUBLAS_STATUS_NOT_INITIALIZED);
  // n = 0: success and a zero result, without touching x.
  r = 5;
  CHECK_CUBLAS(cublasSdot(g_handle, 0, nullptr, 1, nullptr, 1, &r));
  EXPECT_TRUE(r == 0, "Sdot n = 0 gives %g", r);
  ir = 5;
  CHECK_CUBLAS(cublasIsamax(g_handle, -3, nullptr, 1, &ir));
  EXPECT_TRUE(ir == 0, "Isamax n < 0 gives %d", ir);
  // Type combinations the Ex forms do not support.
  EXPECT_STATUS(cublasDotEx(g_handle, 4, dx.ptr, CUDA_R_8I, 1, dx.ptr, CUDA_R_8I, 1, &r, CUDA_R_32F,
                            CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasDotEx(g_handle, 4, dx.ptr, CUDA_R_32F, 1, dx.ptr, CUDA_R_64F, 1, &r,
                            CUDA_R_32F, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasNrm2Ex(g_handle, 4, dx.ptr, CUDA_R_32F, 1, &r, CUDA_C_32F, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasIamaxEx(g_handle, 4, dx.ptr, CUDA_R_8U, 1, &ir), CUBLAS_STATUS_NOT_SUPPORTED);
}

}  // namespace

int main() {
  CHECK_CUBLAS(cublasCreate(&g_handle));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  test_dot<float>(1);
  test_dot<double>(2);
  test_dot<cuComplex>(3);
  test_dot<cuDoubleComplex>(4);
  // The rest on a non-default stream.
  CHECK_CUBLAS(cublasSetStream(g_handle, stream));
  test_nrm2_asum<float>(5);
  test_nrm2_asum<double>(6);
  test_nrm2_asum<cuComplex>(7);
  test_nrm2_asum<cuDoubleComplex>(8);
  test_index<float>(9);
  test_index<double>(10);
  test_index<cuComplex>(11);
  test_index<cuDoubleComplex>(12);
  test_ex_half<__half>(13);
  test_ex_half<__nv_bfloat16>(14);
  test_ex_standard<float>(15);
  test_ex_standard<double>(16);
  test_ex_standard<cuComplex>(17);
  test_ex_standard<cuDoubleComplex>(18);
  test_exact<float>(19);
  test_exact<double>(20);
  test_exact<cuComplex>(21);
  test_exact<cuDoubleComplex>(22);
  test_rms();
  test_determinism();
  test_invalid();
  CHECK_CUBLAS(cublasDestroy(g_handle));
  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("PASS level1_reduce\n");
  return 0;
}
