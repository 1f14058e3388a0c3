// Level-1 vector updates: axpy, scal, copy, swap, rot, rotm for S, D, C, Z and the mixed
// forms (LP64 and _64), rotg and rotmg on the host and on the device (pointer modes), and
// the Ex forms over FP16 / BF16 / FP32 / FP64 / complex, against FP64 host references and
// the properties the BLAS documentation states (rotg: [c s; -conj(s) c] [a; b] = [r; 0];
// rotmg: H zeroes the second component and preserves the d-weighted norm); positive and
// negative increments, elements between the strides untouched, n = 0, invalid arguments.
#include "level1_common.h"

using namespace level1;

namespace {

cublasHandle_t g_handle;

void set_mode(bool device) {
  CHECK_CUBLAS(cublasSetPointerMode(
      g_handle, device ? CUBLAS_POINTER_MODE_DEVICE : CUBLAS_POINTER_MODE_HOST));
}

// A scalar argument by pointer mode: host memory or a device copy.
template <typename S>
struct ScalarArg {
  S host;
  Device<S> device;
  bool on_device;
  ScalarArg(S v, bool on_device_) : host(v), device(std::vector<S>{v}), on_device(on_device_) {}
  const S* ptr() const { return on_device ? device.ptr : &host; }
};

// --- typed entry points, LP64 or _64 ---
#define AXPY_WRAPPER(T, fn)                                                                \
  cublasStatus_t axpy(bool b64, int64_t n, const T* alpha, const T* x, int64_t incx, T* y, \
                      int64_t incy) {                                                      \
    return b64 ? fn##_64(g_handle, n, alpha, x, incx, y, incy)                             \
               : fn(g_handle, int(n), alpha, x, int(incx), y, int(incy));                  \
  }
AXPY_WRAPPER(float, cublasSaxpy)
AXPY_WRAPPER(double, cublasDaxpy)
AXPY_WRAPPER(cuComplex, cublasCaxpy)
AXPY_WRAPPER(cuDoubleComplex, cublasZaxpy)
#undef AXPY_WRAPPER

#define MOVE_WRAPPER(T, copy_fn, swap_fn)                                                  \
  cublasStatus_t copy(bool b64, int64_t n, const T* x, int64_t incx, T* y, int64_t incy) { \
    return b64 ? copy_fn##_64(g_handle, n, x, incx, y, incy)                               \
               : copy_fn(g_handle, int(n), x, int(incx), y, int(incy));                    \
  }                                                                                        \
  cublasStatus_t swap(bool b64, int64_t n, T* x, int64_t incx, T* y, int64_t incy) {       \
    return b64 ? swap_fn##_64(g_handle, n, x, incx, y, incy)                               \
               : swap_fn(g_handle, int(n), x, int(incx), y, int(incy));                    \
  }
MOVE_WRAPPER(float, cublasScopy, cublasSswap)
MOVE_WRAPPER(double, cublasDcopy, cublasDswap)
MOVE_WRAPPER(cuComplex, cublasCcopy, cublasCswap)
MOVE_WRAPPER(cuDoubleComplex, cublasZcopy, cublasZswap)
#undef MOVE_WRAPPER

#define SCAL_WRAPPER(A, T, fn)                                                                     \
  cublasStatus_t scal(bool b64, int64_t n, const A* alpha, T* x, int64_t incx) {                   \
    return b64 ? fn##_64(g_handle, n, alpha, x, incx) : fn(g_handle, int(n), alpha, x, int(incx)); \
  }
SCAL_WRAPPER(double, double, cublasDscal)
SCAL_WRAPPER(cuComplex, cuComplex, cublasCscal)
SCAL_WRAPPER(float, cuComplex, cublasCsscal)
SCAL_WRAPPER(cuDoubleComplex, cuDoubleComplex, cublasZscal)
SCAL_WRAPPER(double, cuDoubleComplex, cublasZdscal)
#undef SCAL_WRAPPER

#define ROT_WRAPPER(T, R, S, fn)                                                              \
  cublasStatus_t rot(bool b64, int64_t n, T* x, int64_t incx, T* y, int64_t incy, const R* c, \
                     const S* s) {                                                            \
    return b64 ? fn##_64(g_handle, n, x, incx, y, incy, c, s)                                 \
               : fn(g_handle, int(n), x, int(incx), y, int(incy), c, s);                      \
  }
ROT_WRAPPER(float, float, float, cublasSrot)
ROT_WRAPPER(double, double, double, cublasDrot)
ROT_WRAPPER(cuComplex, float, cuComplex, cublasCrot)
ROT_WRAPPER(cuComplex, float, float, cublasCsrot)
ROT_WRAPPER(cuDoubleComplex, double, cuDoubleComplex, cublasZrot)
ROT_WRAPPER(cuDoubleComplex, double, double, cublasZdrot)
#undef ROT_WRAPPER

cublasStatus_t rotm(bool b64, int64_t n, float* x, int64_t incx, float* y, int64_t incy,
                    const float* p) {
  return b64 ? cublasSrotm_64(g_handle, n, x, incx, y, incy, p)
             : cublasSrotm(g_handle, int(n), x, int(incx), y, int(incy), p);
}
cublasStatus_t rotm(bool b64, int64_t n, double* x, int64_t incx, double* y, int64_t incy,
                    const double* p) {
  return b64 ? cublasDrotm_64(g_handle, n, x, incx, y, incy, p)
             : cublasDrotm(g_handle, int(n), x, int(incx), y, int(incy), p);
}
cublasStatus_t rotg(float* a, float* b, float* c, float* s) {
  return cublasSrotg(g_handle, a, b, c, s);
}
cublasStatus_t rotg(double* a, double* b, double* c, double* s) {
  return cublasDrotg(g_handle, a, b, c, s);
}
cublasStatus_t rotg(cuComplex* a, cuComplex* b, float* c, cuComplex* s) {
  return cublasCrotg(g_handle, a, b, c, s);
}
cublasStatus_t rotg(cuDoubleComplex* a, cuDoubleComplex* b, double* c, cuDoubleComplex* s) {
  return cublasZrotg(g_handle, a, b, c, s);
}
cublasStatus_t rotmg(float* d1, float* d2, float* x1, const float* y1, float* p) {
  return cublasSrotmg(g_handle, d1, d2, x1, y1, p);
}
cublasStatus_t rotmg(double* d1, double* d2, double* x1, const double* y1, double* p) {
  return cublasDrotmg(g_handle, d1, d2, x1, y1, p);
}

struct Case {
  int64_t n, incx, incy;
};
const Case kCases[] = {{0, 1, 1}, {1, 1, 1}, {37, 1, 1}, {37, 2, -3}, {300, -1, 2}, {1000, -2, -1}};

// Checks got against want element by element: the elements the operation updates (the
// strided ones) within bound(i), the others bit for bit unchanged.
template <typename T, typename Bound>
void expect_vector(const char* what, const std::vector<T>& got, const std::vector<T>& original,
                   const std::vector<cd>& want, int64_t n, int64_t inc, Bound bound) {
  std::vector<char> updated(got.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = at(i, n, inc);
    updated[k] = 1;
    const double err = std::abs(Elem<T>::value(got[k]) - want[i]);
    EXPECT_TRUE(err <= bound(i), "%s: element %lld (n %lld inc %lld): err %g > %g", what,
                (long long)i, (long long)n, (long long)inc, err, bound(i));
  }
  for (size_t k = 0; k < got.size(); ++k) {
    EXPECT_TRUE(updated[k] || same_bits(&got[k], &original[k], sizeof(T)),
                "%s: storage %zu outside the vector changed", what, k);
  }
}

template <typename T>
void test_axpy(uint64_t seed) {
  Random rng(seed);
  const double u = Elem<T>::kUnit;
  for (const Case& c : kCases) {
    const auto x = random_vector<T>(storage(c.n, c.incx), rng);
    const auto y = random_vector<T>(storage(c.n, c.incy), rng);
    const T alpha = Elem<T>::make(cd(rng.next() * 2, Elem<T>::kComplex ? rng.next() : 0.0));
    const cd a = Elem<T>::value(alpha);
    std::vector<cd> want(c.n);
    std::vector<double> mag(c.n);
    for (int64_t i = 0; i < c.n; ++i) {
      const cd xi = Elem<T>::value(x[at(i, c.n, c.incx)]),
               yi = Elem<T>::value(y[at(i, c.n, c.incy)]);
      want[i] = yi + a * xi;
      mag[i] = std::abs(a) * std::abs(xi) + std::abs(yi);
    }
    for (int mode = 0; mode < 2; ++mode) {
      for (int b64 = 0; b64 < 2; ++b64) {
        Device<T> dx(x), dy(y);
        const ScalarArg<T> alpha_arg(alpha, mode);
        set_mode(mode);
        CHECK_CUBLAS(axpy(b64, c.n, alpha_arg.ptr(), dx.ptr, c.incx, dy.ptr, c.incy));
        set_mode(false);
        expect_vector("axpy", dy.get(), y, want, c.n, c.incy,
                      [&](int64_t i) { return 4 * u * mag[i]; });
        EXPECT_TRUE(same_bits(dx.get().data(), x.data(), x.size() * sizeof(T)), "axpy changed x");
      }
    }
  }
  // alpha = 0 leaves y alone.
  const auto x = random_vector<T>(50, rng), y = random_vector<T>(50, rng);
  Device<T> dx(x), dy(y);
  const T zero = Elem<T>::make(0.0);
  CHECK_CUBLAS(axpy(false, 50, &zero, dx.ptr, 1, dy.ptr, 1));
  EXPECT_TRUE(same_bits(dy.get().data(), y.data(), y.size() * sizeof(T)), "%saxpy alpha 0",
              Elem<T>::name());
  // Integer-valued inputs give bit-exact results.
  const auto xi = random_vector<T>(500, rng, 100), yi = random_vector<T>(500, rng, 100);
  const T alpha = Elem<T>::make(cd(-3, Elem<T>::kComplex ? 2 : 0));
  Device<T> dxi(xi), dyi(yi);
  CHECK_CUBLAS(axpy(true, 500, &alpha, dxi.ptr, 1, dyi.ptr, 1));
  const auto got = dyi.get();
  for (int64_t i = 0; i < 500; ++i) {
    const cd want = Elem<T>::value(yi[i]) + Elem<T>::value(alpha) * Elem<T>::value(xi[i]);
    EXPECT_TRUE(Elem<T>::value(got[i]) == want, "%saxpy of integers, element %lld", Elem<T>::name(),
                (long long)i);
  }
}

template <typename T>
void test_copy_swap(uint64_t seed) {
  Random rng(seed);
  for (const Case& c : kCases) {
    const auto x = random_vector<T>(storage(c.n, c.incx), rng);
    const auto y = random_vector<T>(storage(c.n, c.incy), rng);
    for (int b64 = 0; b64 < 2; ++b64) {
      Device<T> dx(x), dy(y);
      CHECK_CUBLAS(copy(b64, c.n, dx.ptr, c.incx, dy.ptr, c.incy));
      std::vector<T> want = y;
      for (int64_t i = 0; i < c.n; ++i) want[at(i, c.n, c.incy)] = x[at(i, c.n, c.incx)];
      EXPECT_TRUE(same_bits(dy.get().data(), want.data(), want.size() * sizeof(T)),
                  "%scopy n %lld incx %lld incy %lld", Elem<T>::name(), (long long)c.n,
                  (long long)c.incx, (long long)c.incy);
    }
    Device<T> dx(x), dy(y);
    CHECK_CUBLAS(swap(c.n > 100, c.n, dx.ptr, c.incx, dy.ptr, c.incy));
    std::vector<T> want_x = x, want_y = y;
    for (int64_t i = 0; i < c.n; ++i) {
      want_y[at(i, c.n, c.incy)] = x[at(i, c.n, c.incx)];
      want_x[at(i, c.n, c.incx)] = y[at(i, c.n, c.incy)];
    }
    EXPECT_TRUE(same_bits(dx.get().data(), want_x.data(), x.size() * sizeof(T)) &&
                    same_bits(dy.get().data(), want_y.data(), y.size() * sizeof(T)),
                "%sswap n %lld", Elem<T>::name(), (long long)c.n);
  }
}

// scal for the forms helpers.cu does not cover (Sscal is there).
template <typename A, typename T>
void test_scal(uint64_t seed) {
  Random rng(seed);
  for (int64_t inc : {1, 3}) {
    const int64_t n = 300;
    const auto x = random_vector<T>(storage(n, inc), rng);
    const A alpha = Elem<A>::make(cd(rng.next() * 3, Elem<A>::kComplex ? rng.next() : 0.0));
    std::vector<cd> want(n);
    for (int64_t i = 0; i < n; ++i) want[i] = Elem<A>::value(alpha) * Elem<T>::value(x[i * inc]);
    for (int mode = 0; mode < 2; ++mode) {
      Device<T> dx(x);
      const ScalarArg<A> alpha_arg(alpha, mode);
      set_mode(mode);
      CHECK_CUBLAS(scal(mode == 1, n, alpha_arg.ptr(), dx.ptr, inc));
      set_mode(false);
      expect_vector("scal", dx.get(), x, want, n, inc,
                    [&](int64_t i) { return 4 * Elem<T>::kUnit * std::abs(want[i]); });
    }
  }
}

// rot: x' = c x + s y, y' = c y - conj(s) x.
template <typename T, typename S>
void test_rot(uint64_t seed) {
  using R = typename Elem<T>::Real;
  Random rng(seed);
  const double u = Elem<T>::kUnit;
  for (const Case& c : kCases) {
    const auto x = random_vector<T>(storage(c.n, c.incx), rng);
    const auto y = random_vector<T>(storage(c.n, c.incy), rng);
    const R cv = static_cast<R>(rng.next());
    const S sv = Elem<S>::make(cd(rng.next(), Elem<S>::kComplex ? rng.next() : 0.0));
    const cd s = Elem<S>::value(sv);
    std::vector<cd> want_x(c.n), want_y(c.n);
    std::vector<double> mag(c.n);
    for (int64_t i = 0; i < c.n; ++i) {
      const cd xi = Elem<T>::value(x[at(i, c.n, c.incx)]),
               yi = Elem<T>::value(y[at(i, c.n, c.incy)]);
      want_x[i] = double(cv) * xi + s * yi;
      want_y[i] = double(cv) * yi - std::conj(s) * xi;
      mag[i] = std::fabs(cv) * (std::abs(xi) + std::abs(yi)) +
               std::abs(s) * (std::abs(xi) + std::abs(yi));
    }
    for (int mode = 0; mode < 2; ++mode) {
      Device<T> dx(x), dy(y);
      const ScalarArg<R> c_arg(cv, mode);
      const ScalarArg<S> s_arg(sv, mode);
      set_mode(mode);
      CHECK_CUBLAS(rot(mode == 0, c.n, dx.ptr, c.incx, dy.ptr, c.incy, c_arg.ptr(), s_arg.ptr()));
      set_mode(false);
      auto bound = [&](int64_t i) { return 6 * u * mag[i]; };
      expect_vector("rot x", dx.get(), x, want_x, c.n, c.incx, bound);
      expect_vector("rot y", dy.get(), y, want_y, c.n, c.incy, bound);
    }
  }
}

// rotm with each flag: param = {flag, h11, h21, h12, h22}.
template <typename T>
void test_rotm(uint64_t seed) {
  Random rng(seed);
  const double u = Elem<T>::kUnit;
  for (double flag : {-1.0, 0.0, 1.0, -2.0}) {
    for (const Case& c : kCases) {
      const auto x = random_vector<T>(storage(c.n, c.incx), rng);
      const auto y = random_vector<T>(storage(c.n, c.incy), rng);
      T param[5] = {T(flag), T(rng.next()), T(rng.next()), T(rng.next()), T(rng.next())};
      double h11 = param[1], h21 = param[2], h12 = param[3], h22 = param[4];
      if (flag == 0) h11 = h22 = 1;
      if (flag == 1) h12 = 1, h21 = -1;
      if (flag == -2) h11 = h22 = 1, h12 = h21 = 0;
      std::vector<cd> want_x(c.n), want_y(c.n);
      std::vector<double> mag(c.n);
      for (int64_t i = 0; i < c.n; ++i) {
        const double xi = x[at(i, c.n, c.incx)], yi = y[at(i, c.n, c.incy)];
        want_x[i] = h11 * xi + h12 * yi;
        want_y[i] = h21 * xi + h22 * yi;
        mag[i] = 2 * (std::fabs(xi) + std::fabs(yi));
      }
      for (int mode = 0; mode < 2; ++mode) {
        Device<T> dx(x), dy(y), dparam(std::vector<T>(param, param + 5));
        set_mode(mode);
        CHECK_CUBLAS(
            rotm(mode == 1, c.n, dx.ptr, c.incx, dy.ptr, c.incy, mode ? dparam.ptr : param));
        set_mode(false);
        auto bound = [&](int64_t i) { return 4 * u * mag[i]; };
        expect_vector("rotm x", dx.get(), x, want_x, c.n, c.incx, bound);
        expect_vector("rotm y", dy.get(), y, want_y, c.n, c.incy, bound);
      }
    }
  }
}

// Runs rotg on (a, b) in the pointer mode; returns a (r), b, c, s.
template <typename T, typename R>
void run_rotg(bool device, T* a, T* b, R* c, T* s) {
  if (!device) {
    CHECK_CUBLAS(rotg(a, b, c, s));
    return;
  }
  Device<T> da(std::vector<T>{*a}), db(std::vector<T>{*b}), ds(1);
  Device<R> dc(1);
  set_mode(true);
  CHECK_CUBLAS(rotg(da.ptr, db.ptr, dc.ptr, ds.ptr));
  set_mode(false);
  CHECK_CUDA(cudaDeviceSynchronize());
  *a = da.one(), *b = db.one(), *c = dc.one(), *s = ds.one();
}

template <typename R>
void test_rotg_real(uint64_t seed) {
  Random rng(seed);
  const double u = Elem<R>::kUnit;
  const double pairs[][2] = {{3, 4},
                             {-4, 3},
                             {5, -1},
                             {0, 2},
                             {2, 0},
                             {0, 0},
                             {-1e-3, 7},
                             {rng.next(), rng.next()},
                             {rng.next(), rng.next()}};
  for (const auto& p : pairs) {
    for (int mode = 0; mode < 2; ++mode) {
      R a = R(p[0]), b = R(p[1]), c = -7, s = -7;
      run_rotg(mode, &a, &b, &c, &s);
      const double a0 = R(p[0]), b0 = R(p[1]);
      const double r = a, z = b;
      const char* name = Elem<R>::name();
      if (a0 == 0 && b0 == 0) {
        EXPECT_TRUE(c == 1 && s == 0 && r == 0 && z == 0, "%srotg(0, 0): c %g s %g r %g z %g", name,
                    (double)c, (double)s, r, z);
        continue;
      }
      const double norm = std::hypot(a0, b0);
      const double roe = std::fabs(a0) > std::fabs(b0) ? a0 : b0;
      EXPECT_TRUE(std::fabs(std::fabs(r) - norm) <= 4 * u * norm && (roe >= 0) == (r >= 0),
                  "%srotg(%g, %g): r %g", name, a0, b0, r);
      EXPECT_TRUE(std::fabs(c * a0 + s * b0 - r) <= 8 * u * norm &&
                      std::fabs(-s * a0 + c * b0) <= 8 * u * norm,
                  "%srotg(%g, %g): c %g s %g do not rotate (a, b) onto (r, 0)", name, a0, b0,
                  (double)c, (double)s);
      const double want_z =
          std::fabs(a0) > std::fabs(b0) ? double(s) : (c != 0 ? 1 / double(c) : 1.0);
      EXPECT_TRUE(std::fabs(z - want_z) <= 8 * u * std::fabs(want_z),
                  "%srotg(%g, %g): z %g, want %g", name, a0, b0, z, want_z);
    }
  }
}

template <typename T>
void test_rotg_complex(uint64_t seed) {
  using R = typename Elem<T>::Real;
  Random rng(seed);
  const double u = Elem<T>::kUnit;
  const cd pairs[][2] = {{{3, 4}, {1, -2}},
                         {{0, 0}, {2, 5}},
                         {{-1, 0.5}, {0, 0}},
                         {{rng.next(), rng.next()}, {rng.next(), rng.next()}}};
  for (const auto& p : pairs) {
    for (int mode = 0; mode < 2; ++mode) {
      T a = Elem<T>::make(p[0]), b = Elem<T>::make(p[1]), s;
      R c = -7;
      run_rotg(mode, &a, &b, &c, &s);
      const cd a0 = Elem<T>::value(Elem<T>::make(p[0])), b0 = Elem<T>::value(Elem<T>::make(p[1]));
      const cd r = Elem<T>::value(a), sv = Elem<T>::value(s);
      EXPECT_TRUE(Elem<T>::value(b) == b0, "%srotg changed b", Elem<T>::name());
      if (a0 == 0.0) {
        EXPECT_TRUE(c == 0 && sv == 1.0 && r == b0, "%srotg(0, b)", Elem<T>::name());
        continue;
      }
      const double norm = std::sqrt(std::norm(a0) + std::norm(b0));
      const cd want_r = a0 / std::abs(a0) * norm;
      EXPECT_TRUE(std::abs(r - want_r) <= 8 * u * norm, "%srotg: r", Elem<T>::name());
      EXPECT_TRUE(std::abs(double(c) * a0 + sv * b0 - r) <= 8 * u * norm &&
                      std::abs(-std::conj(sv) * a0 + double(c) * b0) <= 8 * u * norm &&
                      std::fabs(c * c + std::norm(sv) - 1) <= 8 * u,
                  "%srotg: c %g s (%g, %g) do not rotate (a, b) onto (r, 0)", Elem<T>::name(),
                  (double)c, sv.real(), sv.imag());
    }
  }
}

// The H of rotmg's param.
void rotmg_h(const double* p, double h[2][2]) {
  if (p[0] == -1) h[0][0] = p[1], h[1][0] = p[2], h[0][1] = p[3], h[1][1] = p[4];
  if (p[0] == 0) h[0][0] = 1, h[1][0] = p[2], h[0][1] = p[3], h[1][1] = 1;
  if (p[0] == 1) h[0][0] = p[1], h[1][0] = -1, h[0][1] = 1, h[1][1] = p[4];
  if (p[0] == -2) h[0][0] = 1, h[1][0] = 0, h[0][1] = 0, h[1][1] = 1;
}

template <typename R>
void test_rotmg(uint64_t seed) {
  Random rng(seed);
  const double tol = 64 * Elem<R>::kUnit;
  // (d1, d2, x1, y1): both orderings of |d1 x1^2| vs |d2 y1^2|, and d1 out of
  // [2^-24, 2^24] (rescaling).
  const double cases[][4] = {{2, 3, 1, 0.5},
                             {0.5, 4, 0.25, 2},
                             {1e-10, 1, 3, 1e-6},
                             {1, 3e9, 2, 1},
                             {rng.next() + 1.5, rng.next() + 1.5, rng.next(), rng.next()}};
  for (const auto& k : cases) {
    for (int mode = 0; mode < 2; ++mode) {
      R d1 = R(k[0]), d2 = R(k[1]), x1 = R(k[2]), y1 = R(k[3]);
      R param[5] = {R(9), R(9), R(9), R(9), R(9)};
      const double D1 = d1, D2 = d2, X1 = x1, Y1 = y1;
      if (mode == 0) {
        CHECK_CUBLAS(rotmg(&d1, &d2, &x1, &y1, param));
      } else {
        Device<R> dd1(std::vector<R>{d1}), dd2(std::vector<R>{d2}), dx1(std::vector<R>{x1}),
            dy1(std::vector<R>{y1}), dp(std::vector<R>(param, param + 5));
        set_mode(true);
        CHECK_CUBLAS(rotmg(dd1.ptr, dd2.ptr, dx1.ptr, dy1.ptr, dp.ptr));
        set_mode(false);
        CHECK_CUDA(cudaDeviceSynchronize());
        d1 = dd1.one(), d2 = dd2.one(), x1 = dx1.one();
        const auto p = dp.get();
        std::copy(p.begin(), p.end(), param);
      }
      double p[5];
      for (int i = 0; i < 5; ++i) p[i] = param[i];
      EXPECT_TRUE(p[0] == -1 || p[0] == 0 || p[0] == 1, "%srotmg flag %g", Elem<R>::name(), p[0]);
      double h[2][2];
      rotmg_h(p, h);
      // H (x1, y1) = (x1', 0).
      const double first = h[0][0] * X1 + h[0][1] * Y1, second = h[1][0] * X1 + h[1][1] * Y1;
      const double scale =
          (std::fabs(h[0][0]) + std::fabs(h[0][1]) + std::fabs(h[1][0]) + std::fabs(h[1][1])) *
          (std::fabs(X1) + std::fabs(Y1));
      EXPECT_TRUE(std::fabs(first - double(x1)) <= tol * scale && std::fabs(second) <= tol * scale,
                  "%srotmg(%g, %g, %g, %g): H (x1, y1) = (%g, %g), x1' %g", Elem<R>::name(), D1, D2,
                  X1, Y1, first, second, (double)x1);
      // The d-weighted norm is preserved: d1' (Hv)_1^2 + d2' (Hv)_2^2 = d1 v_1^2 + d2 v_2^2.
      const double vs[][2] = {{1, 0}, {0, 1}, {1, -1}};
      for (const auto& v : vs) {
        const double a = h[0][0] * v[0] + h[0][1] * v[1], b = h[1][0] * v[0] + h[1][1] * v[1];
        const double got = double(d1) * a * a + double(d2) * b * b,
                     want = D1 * v[0] * v[0] + D2 * v[1] * v[1];
        EXPECT_TRUE(std::fabs(got - want) <= tol * (std::fabs(double(d1)) * a * a +
                                                    std::fabs(double(d2)) * b * b + want),
                    "%srotmg(%g, %g, %g, %g): weighted norm %g, want %g", Elem<R>::name(), D1, D2,
                    X1, Y1, got, want);
      }
    }
  }
  // d1 < 0: flag -1, H, d1, d2, x1 all zero.
  R d1 = -1, d2 = 2, x1 = 3, y1 = 4, param[5] = {9, 9, 9, 9, 9};
  CHECK_CUBLAS(rotmg(&d1, &d2, &x1, &y1, param));
  EXPECT_TRUE(param[0] == -1 && param[1] == 0 && param[2] == 0 && param[3] == 0 && param[4] == 0 &&
                  d1 == 0 && d2 == 0 && x1 == 0,
              "%srotmg with d1 < 0", Elem<R>::name());
  // d2 y1 = 0: flag -2, nothing else changes.
  d1 = 2, d2 = 3, x1 = 4, y1 = 0;
  for (int i = 0; i < 5; ++i) param[i] = 9;
  CHECK_CUBLAS(rotmg(&d1, &d2, &x1, &y1, param));
  EXPECT_TRUE(param[0] == -2 && d1 == 2 && d2 == 3 && x1 == 4, "%srotmg with y1 = 0",
              Elem<R>::name());
}

// The Ex forms over FP16 / BF16 (FP32 compute), and equal to the typed forms for FP32.
template <typename T>
void test_ex_half(uint64_t seed) {
  Random rng(seed);
  const cudaDataType type = Elem<T>::kType;
  const double u = Elem<T>::kUnit;
  for (const Case& c : kCases) {
    const auto x = random_vector<T>(storage(c.n, c.incx), rng);
    const auto y = random_vector<T>(storage(c.n, c.incy), rng);
    const float alpha = static_cast<float>(rng.next() * 2), cv = 0.6f, sv = -0.8f;
    std::vector<cd> want_axpy(c.n), want_x(c.n), want_y(c.n), want_scal(c.n);
    for (int64_t i = 0; i < c.n; ++i) {
      const double xi = Elem<T>::value(x[at(i, c.n, c.incx)]).real();
      const double yi = Elem<T>::value(y[at(i, c.n, c.incy)]).real();
      want_axpy[i] = yi + double(alpha) * xi;
      want_x[i] = double(cv) * xi + double(sv) * yi;
      want_y[i] = double(cv) * yi - double(sv) * xi;
    }
    for (int mode = 0; mode < 2; ++mode) {
      const ScalarArg<float> alpha_arg(alpha, mode), c_arg(cv, mode), s_arg(sv, mode);
      {
        Device<T> dx(x), dy(y);
        set_mode(mode);
        CHECK_CUBLAS(cublasAxpyEx(g_handle, c.n, alpha_arg.ptr(), CUDA_R_32F, dx.ptr, type, c.incx,
                                  dy.ptr, type, c.incy, CUDA_R_32F));
        set_mode(false);
        expect_vector("AxpyEx", dy.get(), y, want_axpy, c.n, c.incy, [&](int64_t i) {
          return 2 * u * std::abs(want_axpy[i]) + 1e-6 * (std::fabs(alpha) + 1);
        });
      }
      {
        Device<T> dx(x), dy(y);
        set_mode(mode);
        CHECK_CUBLAS(cublasRotEx_64(g_handle, c.n, dx.ptr, type, c.incx, dy.ptr, type, c.incy,
                                    c_arg.ptr(), s_arg.ptr(), CUDA_R_32F, CUDA_R_32F));
        set_mode(false);
        expect_vector("RotEx x", dx.get(), x, want_x, c.n, c.incx,
                      [&](int64_t i) { return 2 * u * std::abs(want_x[i]) + 1e-6; });
        expect_vector("RotEx y", dy.get(), y, want_y, c.n, c.incy,
                      [&](int64_t i) { return 2 * u * std::abs(want_y[i]) + 1e-6; });
      }
      {
        // c and s in the element type (0.75 and -0.5 are exact in FP16 and BF16).
        const ScalarArg<T> c16(Elem<T>::make(0.75), mode), s16(Elem<T>::make(-0.5), mode);
        std::vector<cd> wx(c.n), wy(c.n);
        for (int64_t i = 0; i < c.n; ++i) {
          const cd xi = Elem<T>::value(x[at(i, c.n, c.incx)]),
                   yi = Elem<T>::value(y[at(i, c.n, c.incy)]);
          wx[i] = 0.75 * xi - 0.5 * yi;
          wy[i] = 0.75 * yi + 0.5 * xi;
        }
        Device<T> dx(x), dy(y);
        set_mode(mode);
        CHECK_CUBLAS(cublasRotEx(g_handle, c.n, dx.ptr, type, c.incx, dy.ptr, type, c.incy,
                                 c16.ptr(), s16.ptr(), type, CUDA_R_32F));
        set_mode(false);
        expect_vector("RotEx x, 16-bit c and s", dx.get(), x, wx, c.n, c.incx,
                      [&](int64_t i) { return 2 * u * std::abs(wx[i]) + 1e-6; });
        expect_vector("RotEx y, 16-bit c and s", dy.get(), y, wy, c.n, c.incy,
                      [&](int64_t i) { return 2 * u * std::abs(wy[i]) + 1e-6; });
      }
    }
    // ScalEx (incx > 0 only), CopyEx, SwapEx.
    if (c.incx > 0) {
      for (int64_t i = 0; i < c.n; ++i)
        want_scal[i] = double(alpha) * Elem<T>::value(x[i * c.incx]);
      Device<T> dx(x);
      CHECK_CUBLAS(
          cublasScalEx(g_handle, c.n, &alpha, CUDA_R_32F, dx.ptr, type, c.incx, CUDA_R_32F));
      expect_vector("ScalEx", dx.get(), x, want_scal, c.n, c.incx,
                    [&](int64_t i) { return 2 * u * std::abs(want_scal[i]) + 1e-7; });
    }
    Device<T> dx(x), dy(y);
    CHECK_CUBLAS(cublasCopyEx(g_handle, c.n, dx.ptr, type, c.incx, dy.ptr, type, c.incy));
    std::vector<T> want = y;
    for (int64_t i = 0; i < c.n; ++i) want[at(i, c.n, c.incy)] = x[at(i, c.n, c.incx)];
    EXPECT_TRUE(same_bits(dy.get().data(), want.data(), want.size() * sizeof(T)), "%s CopyEx",
                Elem<T>::name());
    Device<T> sx(x), sy(y);
    CHECK_CUBLAS(cublasSwapEx_64(g_handle, c.n, sx.ptr, type, c.incx, sy.ptr, type, c.incy));
    EXPECT_TRUE(same_bits(sy.get().data(), want.data(), want.size() * sizeof(T)), "%s SwapEx",
                Elem<T>::name());
  }
  // RotmEx with FP32 parameters.
  const int64_t n = 100;
  const auto x = random_vector<T>(n, rng), y = random_vector<T>(n, rng);
  const float param[5] = {-1, 0.5f, -0.25f, 2, 1.5f};
  Device<T> dx(x), dy(y);
  CHECK_CUBLAS(
      cublasRotmEx(g_handle, n, dx.ptr, type, 1, dy.ptr, type, 1, param, CUDA_R_32F, CUDA_R_32F));
  std::vector<cd> want_x(n), want_y(n);
  for (int64_t i = 0; i < n; ++i) {
    const double xi = Elem<T>::value(x[i]).real(), yi = Elem<T>::value(y[i]).real();
    want_x[i] = 0.5 * xi + 2 * yi;
    want_y[i] = -0.25 * xi + 1.5 * yi;
  }
  expect_vector("RotmEx x", dx.get(), x, want_x, n, 1,
                [&](int64_t i) { return 2 * u * std::abs(want_x[i]) + 1e-6; });
  expect_vector("RotmEx y", dy.get(), y, want_y, n, 1,
                [&](int64_t i) { return 2 * u * std::abs(want_y[i]) + 1e-6; });
  // The same with param in the element type, from device memory.
  std::vector<T> param16(5);
  for (int k = 0; k < 5; ++k) param16[k] = Elem<T>::make(double(param[k]));
  Device<T> dparam16(param16), ex(x), ey(y);
  set_mode(true);
  CHECK_CUBLAS(cublasRotmEx_64(g_handle, n, ex.ptr, type, 1, ey.ptr, type, 1, dparam16.ptr, type,
                               CUDA_R_32F));
  set_mode(false);
  expect_vector("RotmEx x, 16-bit param", ex.get(), x, want_x, n, 1,
                [&](int64_t i) { return 2 * u * std::abs(want_x[i]) + 1e-6; });
  expect_vector("RotmEx y, 16-bit param", ey.get(), y, want_y, n, 1,
                [&](int64_t i) { return 2 * u * std::abs(want_y[i]) + 1e-6; });
}

// The Ex forms with standard types give the typed results bit for bit.
void test_ex_standard() {
  Random rng(77);
  const int64_t n = 200;
  {
    const auto x = random_vector<cuComplex>(n, rng), y = random_vector<cuComplex>(n, rng);
    const cuComplex alpha = make_cuComplex(0.5f, -1.25f);
    Device<cuComplex> dx(x), dy1(y), dy2(y);
    CHECK_CUBLAS(cublasCaxpy(g_handle, n, &alpha, dx.ptr, 1, dy1.ptr, -1));
    CHECK_CUBLAS(cublasAxpyEx(g_handle, n, &alpha, CUDA_C_32F, dx.ptr, CUDA_C_32F, 1, dy2.ptr,
                              CUDA_C_32F, -1, CUDA_C_32F));
    EXPECT_TRUE(same_bits(dy1.get().data(), dy2.get().data(), n * sizeof(cuComplex)), "AxpyEx C");
    // ScalEx: complex alpha, and real alpha on complex x (Csscal's form).
    const float real_alpha = -2.5f;
    Device<cuComplex> a1(x), a2(x), b1(x), b2(x);
    CHECK_CUBLAS(cublasCscal(g_handle, n, &alpha, a1.ptr, 1));
    CHECK_CUBLAS(cublasScalEx(g_handle, n, &alpha, CUDA_C_32F, a2.ptr, CUDA_C_32F, 1, CUDA_C_32F));
    CHECK_CUBLAS(cublasCsscal(g_handle, n, &real_alpha, b1.ptr, 1));
    CHECK_CUBLAS(
        cublasScalEx(g_handle, n, &real_alpha, CUDA_R_32F, b2.ptr, CUDA_C_32F, 1, CUDA_C_32F));
    EXPECT_TRUE(same_bits(a1.get().data(), a2.get().data(), n * sizeof(cuComplex)) &&
                    same_bits(b1.get().data(), b2.get().data(), n * sizeof(cuComplex)),
                "ScalEx C");
    // RotEx: complex s (Crot) and real s (Csrot).
    const float c = 0.8f, rs = 0.6f;
    const cuComplex s = make_cuComplex(0.36f, 0.48f);
    Device<cuComplex> x1(x), y1(y), x2(x), y2(y), x3(x), y3(y), x4(x), y4(y);
    CHECK_CUBLAS(cublasCrot(g_handle, n, x1.ptr, 1, y1.ptr, 1, &c, &s));
    CHECK_CUBLAS(cublasRotEx(g_handle, n, x2.ptr, CUDA_C_32F, 1, y2.ptr, CUDA_C_32F, 1, &c, &s,
                             CUDA_C_32F, CUDA_C_32F));
    CHECK_CUBLAS(cublasCsrot(g_handle, n, x3.ptr, 1, y3.ptr, 1, &c, &rs));
    CHECK_CUBLAS(cublasRotEx(g_handle, n, x4.ptr, CUDA_C_32F, 1, y4.ptr, CUDA_C_32F, 1, &c, &rs,
                             CUDA_R_32F, CUDA_C_32F));
    EXPECT_TRUE(same_bits(x1.get().data(), x2.get().data(), n * sizeof(cuComplex)) &&
                    same_bits(y1.get().data(), y2.get().data(), n * sizeof(cuComplex)) &&
                    same_bits(x3.get().data(), x4.get().data(), n * sizeof(cuComplex)) &&
                    same_bits(y3.get().data(), y4.get().data(), n * sizeof(cuComplex)),
                "RotEx C");
  }
  {
    const auto x = random_vector<double>(n, rng), y = random_vector<double>(n, rng);
    const double param[5] = {0, 9, 0.125, -0.5, 9};
    Device<double> x1(x), y1(y), x2(x), y2(y);
    CHECK_CUBLAS(cublasDrotm(g_handle, n, x1.ptr, 1, y1.ptr, -1, param));
    CHECK_CUBLAS(cublasRotmEx(g_handle, n, x2.ptr, CUDA_R_64F, 1, y2.ptr, CUDA_R_64F, -1, param,
                              CUDA_R_64F, CUDA_R_64F));
    EXPECT_TRUE(same_bits(x1.get().data(), x2.get().data(), n * sizeof(double)) &&
                    same_bits(y1.get().data(), y2.get().data(), n * sizeof(double)),
                "RotmEx D");
  }
  {
    float a1 = 3, b1 = -4, c1, s1, a2 = 3, b2 = -4, c2, s2;
    CHECK_CUBLAS(cublasSrotg(g_handle, &a1, &b1, &c1, &s1));
    CHECK_CUBLAS(cublasRotgEx(g_handle, &a2, &b2, CUDA_R_32F, &c2, &s2, CUDA_R_32F, CUDA_R_32F));
    EXPECT_TRUE(a1 == a2 && b1 == b2 && c1 == c2 && s1 == s2, "RotgEx S");
    cuDoubleComplex za = make_cuDoubleComplex(1, 2), zb = make_cuDoubleComplex(-3, 0.5), zs;
    cuDoubleComplex wa = za, wb = zb, ws;
    double zc, wc;
    CHECK_CUBLAS(cublasZrotg(g_handle, &za, &zb, &zc, &zs));
    CHECK_CUBLAS(cublasRotgEx(g_handle, &wa, &wb, CUDA_C_64F, &wc, &ws, CUDA_R_64F, CUDA_C_64F));
    EXPECT_TRUE(same_bits(&za, &wa, sizeof(za)) && zc == wc && same_bits(&zs, &ws, sizeof(zs)),
                "RotgEx Z");
    double d1 = 2, d2 = 3, x1 = 1, y1 = 0.5, p1[5] = {}, e1 = 2, e2 = 3, u1 = 1, p2[5] = {};
    CHECK_CUBLAS(cublasDrotmg(g_handle, &d1, &d2, &x1, &y1, p1));
    CHECK_CUBLAS(cublasRotmgEx(g_handle, &e1, CUDA_R_64F, &e2, CUDA_R_64F, &u1, CUDA_R_64F, &y1,
                               CUDA_R_64F, p2, CUDA_R_64F, CUDA_R_64F));
    EXPECT_TRUE(d1 == e1 && d2 == e2 && x1 == u1 && same_bits(p1, p2, sizeof(p1)), "RotmgEx D");
  }
}

void test_invalid() {
  Device<float> dx(std::vector<float>(8, 1.0f)), dy(std::vector<float>(8, 2.0f));
  const float one = 1.0f;
  float c = 1, s = 0, param[5] = {-2, 0, 0, 0, 0};
  EXPECT_STATUS(cublasSaxpy(g_handle, 8, nullptr, dx.ptr, 1, dy.ptr, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSrot(g_handle, 8, dx.ptr, 1, dy.ptr, 1, nullptr, &s),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSrot(g_handle, 8, dx.ptr, 1, dy.ptr, 1, &c, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSrotm(g_handle, 8, dx.ptr, 1, dy.ptr, 1, nullptr),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasSaxpy(nullptr, 8, &one, dx.ptr, 1, dy.ptr, 1), CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasScopy(nullptr, 8, dx.ptr, 1, dy.ptr, 1), CUBLAS_STATUS_NOT_INITIALIZED);
  EXPECT_STATUS(cublasSrotg(nullptr, &c, &s, &c, &s), CUBLAS_STATUS_NOT_INITIALIZED);
  // n <= 0: nothing happens, whatever the pointers.
  CHECK_CUBLAS(cublasSaxpy(g_handle, 0, &one, nullptr, 1, nullptr, 1));
  CHECK_CUBLAS(cublasScopy(g_handle, -1, nullptr, 1, nullptr, 1));
  CHECK_CUBLAS(cublasSswap(g_handle, 0, nullptr, 1, nullptr, 1));
  CHECK_CUBLAS(cublasSrot(g_handle, 0, nullptr, 1, nullptr, 1, &c, &s));
  CHECK_CUBLAS(cublasSrotm(g_handle, 0, nullptr, 1, nullptr, 1, param));
  // Type combinations the Ex forms do not support.
  EXPECT_STATUS(cublasAxpyEx(g_handle, 8, &one, CUDA_R_32F, dx.ptr, CUDA_R_32F, 1, dy.ptr,
                             CUDA_R_64F, 1, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasScalEx(g_handle, 8, &one, CUDA_R_8I, dx.ptr, CUDA_R_32F, 1, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasCopyEx(g_handle, 8, dx.ptr, CUDA_R_32F, 1, dy.ptr, CUDA_R_16F, 1),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasRotmEx(g_handle, 8, dx.ptr, CUDA_C_32F, 1, dy.ptr, CUDA_C_32F, 1, param,
                             CUDA_R_32F, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_STATUS(cublasRotgEx(g_handle, &c, &s, CUDA_R_16F, &c, &s, CUDA_R_16F, CUDA_R_32F),
                CUBLAS_STATUS_NOT_SUPPORTED);
}

}  // namespace

int main() {
  CHECK_CUBLAS(cublasCreate(&g_handle));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUBLAS(cublasSetStream(g_handle, stream));
  test_axpy<float>(1);
  test_axpy<double>(2);
  test_axpy<cuComplex>(3);
  test_axpy<cuDoubleComplex>(4);
  test_copy_swap<float>(5);
  test_copy_swap<double>(6);
  test_copy_swap<cuComplex>(7);
  test_copy_swap<cuDoubleComplex>(8);
  test_scal<double, double>(9);
  test_scal<cuComplex, cuComplex>(10);
  test_scal<float, cuComplex>(11);
  test_scal<cuDoubleComplex, cuDoubleComplex>(12);
  test_scal<double, cuDoubleComplex>(13);
  test_rot<float, float>(14);
  test_rot<double, double>(15);
  test_rot<cuComplex, cuComplex>(16);
  test_rot<cuComplex, float>(17);
  test_rot<cuDoubleComplex, cuDoubleComplex>(18);
  test_rot<cuDoubleComplex, double>(19);
  test_rotm<float>(20);
  test_rotm<double>(21);
  test_rotg_real<float>(22);
  test_rotg_real<double>(23);
  test_rotg_complex<cuComplex>(24);
  test_rotg_complex<cuDoubleComplex>(25);
  test_rotmg<float>(26);
  test_rotmg<double>(27);
  test_ex_half<__half>(28);
  test_ex_half<__nv_bfloat16>(29);
  test_ex_standard();
  test_invalid();
  CHECK_CUBLAS(cublasDestroy(g_handle));
  CHECK_CUDA(cudaStreamDestroy(stream));
  std::printf("PASS level1_update\n");
  return 0;
}
