// Level-2 BLAS conformance (S, D, C, Z; LP64 and _64): gemv, gbmv, gemvBatched,
// gemvStridedBatched, symv, hemv, sbmv, hbmv, spmv, hpmv (family "mv"); trmv, tbmv, tpmv,
// trsv, tbsv, tpsv (family "tri"); ger, geru, gerc, syr, her, spr, hpr, syr2, her2, spr2,
// hpr2 (family "rank"). Every case builds the dense matrix on the host, stores it as the
// cuBLAS documentation defines (full, banded, packed) with NaN in every element the routine
// must not read, and checks against an FP64 reference computed from the dense matrix:
// |err| <= 2 (terms + 2) u sum |terms| (products), residual bounds for the solves. Both
// fills, all ops, unit / non-unit diagonals, odd sizes, negative increments, beta = 0 with
// NaN in y, device pointer mode, invalid arguments.
#include <limits>
#include <type_traits>

#include "blas_check.h"

using blas_check::Random;
using cd = std::complex<double>;

namespace {

const double kNaN = std::numeric_limits<double>::quiet_NaN();
int g_cases = 0;

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

void put(float& d, cd v) {
  d = static_cast<float>(v.real());
}
void put(double& d, cd v) {
  d = v.real();
}
void put(cuComplex& d, cd v) {
  d = make_cuComplex(static_cast<float>(v.real()), static_cast<float>(v.imag()));
}
void put(cuDoubleComplex& d, cd v) {
  d = make_cuDoubleComplex(v.real(), v.imag());
}
cd get(float v) {
  return {v, 0.0};
}
cd get(double v) {
  return {v, 0.0};
}
cd get(cuComplex v) {
  return {v.x, v.y};
}
cd get(cuDoubleComplex v) {
  return {v.x, v.y};
}

template <typename T>
cd rnd(Random& r) {
  // Values rounded to T first, so the reference sees exactly what the device sees.
  T t;
  put(t, kComplex<T> ? cd(r.next(), r.next()) : cd(r.next(), 0.0));
  return get(t);
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
  std::vector<T> back() const {
    std::vector<T> h(n);
    CHECK_CUDA(cudaDeviceSynchronize());
    if (n) CHECK_CUDA(cudaMemcpy(h.data(), p, n * sizeof(T), cudaMemcpyDeviceToHost));
    return h;
  }
};

// A strided vector of `len` logical elements (BLAS order: negative increments start at
// the far end); the gaps hold NaN.
template <typename T>
std::vector<T> strided(const std::vector<cd>& v, int64_t inc) {
  const int64_t len = v.size();
  std::vector<T> out(len == 0 ? 1 : 1 + (len - 1) * std::llabs(inc));
  for (auto& e : out) put(e, cd(kNaN, kNaN));
  for (int64_t i = 0; i < len; ++i) put(out[inc > 0 ? i * inc : (len - 1 - i) * -inc], v[i]);
  return out;
}
template <typename T>
cd at(const std::vector<T>& s, int64_t i, int64_t len, int64_t inc) {
  return get(s[inc > 0 ? i * inc : (len - 1 - i) * -inc]);
}

// A dense column-major matrix.
struct Mat {
  int64_t rows, cols;
  std::vector<cd> v;
  Mat(int64_t r, int64_t c) : rows(r), cols(c), v(r * c) {}
  cd& operator()(int64_t i, int64_t j) { return v[i + j * rows]; }
  cd operator()(int64_t i, int64_t j) const { return v[i + j * rows]; }
};

// op(A) of a dense matrix.
Mat apply_op(const Mat& a, cublasOperation_t op) {
  if (op == CUBLAS_OP_N) return a;
  Mat t(a.cols, a.rows);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t j = 0; j < a.cols; ++j) t(j, i) = op == CUBLAS_OP_C ? std::conj(a(i, j)) : a(i, j);
  return t;
}

// Checks y_dev against alpha M x + beta y0 (y0 unused when beta is 0).
template <typename T>
void check_product(const char* what, const Mat& m, const std::vector<cd>& x, cd alpha, cd beta,
                   const std::vector<cd>& y0, const std::vector<T>& ydev, int64_t incy) {
  const double u = kUnit<T> * (kComplex<T> ? 2.0 : 1.0);
  for (int64_t i = 0; i < m.rows; ++i) {
    cd sum = 0;
    double mag = 0;
    for (int64_t j = 0; j < m.cols; ++j) {
      sum += m(i, j) * x[j];
      mag += std::abs(m(i, j)) * std::abs(x[j]);
    }
    cd ref = alpha * sum;
    mag *= std::abs(alpha);
    if (beta != cd(0)) {
      ref += beta * y0[i];
      mag += std::abs(beta) * std::abs(y0[i]);
    }
    const cd got = at(ydev, i, m.rows, incy);
    const double err = std::abs(got - ref);
    const double bound = 2.0 * (m.cols + 2) * u * mag;
    EXPECT_TRUE(err <= bound, "%s%s row %lld: got (%g, %g), expected (%g, %g), err %g > %g",
                type_name<T>(), what, (long long)i, got.real(), got.imag(), ref.real(), ref.imag(),
                err, bound);
  }
  ++g_cases;
}

// cuBLAS has no such routine for the type (complex spr, spr2).
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
DISPATCH(gemv, cublasSgemv, cublasDgemv, cublasCgemv, cublasZgemv)
DISPATCH(gemv64, cublasSgemv_64, cublasDgemv_64, cublasCgemv_64, cublasZgemv_64)
DISPATCH(gbmv, cublasSgbmv, cublasDgbmv, cublasCgbmv, cublasZgbmv)
DISPATCH(gemv_batched, cublasSgemvBatched, cublasDgemvBatched, cublasCgemvBatched,
         cublasZgemvBatched)
DISPATCH(gemv_strided, cublasSgemvStridedBatched, cublasDgemvStridedBatched,
         cublasCgemvStridedBatched, cublasZgemvStridedBatched)
DISPATCH(symv, cublasSsymv, cublasDsymv, cublasCsymv, cublasZsymv)
DISPATCH(hemv, cublasSsymv, cublasDsymv, cublasChemv, cublasZhemv)
DISPATCH(hbmv, cublasSsbmv, cublasDsbmv, cublasChbmv, cublasZhbmv)
DISPATCH(hpmv, cublasSspmv, cublasDspmv, cublasChpmv, cublasZhpmv)
DISPATCH(trmv, cublasStrmv, cublasDtrmv, cublasCtrmv, cublasZtrmv)
DISPATCH(tbmv, cublasStbmv, cublasDtbmv, cublasCtbmv, cublasZtbmv)
DISPATCH(tpmv, cublasStpmv, cublasDtpmv, cublasCtpmv, cublasZtpmv)
DISPATCH(trsv, cublasStrsv, cublasDtrsv, cublasCtrsv, cublasZtrsv)
DISPATCH(trsv64, cublasStrsv_64, cublasDtrsv_64, cublasCtrsv_64, cublasZtrsv_64)
DISPATCH(tbsv, cublasStbsv, cublasDtbsv, cublasCtbsv, cublasZtbsv)
DISPATCH(tpsv, cublasStpsv, cublasDtpsv, cublasCtpsv, cublasZtpsv)
DISPATCH(ger, cublasSger, cublasDger, cublasCgeru, cublasZgeru)
DISPATCH(ger64, cublasSger_64, cublasDger_64, cublasCgeru_64, cublasZgeru_64)
DISPATCH(gerc, cublasSger, cublasDger, cublasCgerc, cublasZgerc)
DISPATCH(syr, cublasSsyr, cublasDsyr, cublasCsyr, cublasZsyr)
DISPATCH(syr2, cublasSsyr2, cublasDsyr2, cublasCsyr2, cublasZsyr2)
DISPATCH(spr, cublasSspr, cublasDspr, none, none)
DISPATCH(spr2, cublasSspr2, cublasDspr2, none, none)
DISPATCH(her, cublasSsyr, cublasDsyr, cublasCher, cublasZher)
DISPATCH(her2, cublasSsyr2, cublasDsyr2, cublasCher2, cublasZher2)
DISPATCH(hpr, cublasSspr, cublasDspr, cublasChpr, cublasZhpr)
DISPATCH(hpr2, cublasSspr2, cublasDspr2, cublasChpr2, cublasZhpr2)
#undef DISPATCH

template <typename T>
T scalar(cd v) {
  T t;
  put(t, v);
  return t;
}

const cublasOperation_t kOps[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
const cublasFillMode_t kFills[] = {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER};

// ---------------------------------------------------------------- gemv, gbmv, batched
template <typename T>
void test_gemv(cublasHandle_t h, Random& r) {
  const int64_t m = 37, n = 29, kl = 3, ku = 6;
  const int64_t incs[][2] = {{1, 1}, {-2, 3}};
  for (int banded = 0; banded < 2; ++banded)
    for (cublasOperation_t op : kOps)
      for (const auto& inc : incs)
        for (int beta_zero = 0; beta_zero < 2; ++beta_zero) {
          Mat a(m, n);
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i)
              a(i, j) = !banded || (i - j <= kl && j - i <= ku) ? rnd<T>(r) : cd(0);
          const int64_t lda = banded ? kl + ku + 3 : m + 3;
          std::vector<T> store(lda * n);
          for (auto& e : store) put(e, cd(kNaN, kNaN));
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
              if (!banded) {
                put(store[i + j * lda], a(i, j));
              } else if (i - j <= kl && j - i <= ku) {
                put(store[ku + i - j + j * lda], a(i, j));  // cuBLAS gbmv band storage
              }
            }
          const Mat opa = apply_op(a, op);
          std::vector<cd> x(opa.cols), y0(opa.rows);
          for (auto& e : x) e = rnd<T>(r);
          for (auto& e : y0) e = beta_zero ? cd(kNaN, kNaN) : rnd<T>(r);
          const cd alpha = rnd<T>(r), beta = beta_zero ? cd(0) : rnd<T>(r);
          Dev<T> da(store), dx(strided<T>(x, inc[0])), dy(strided<T>(y0, inc[1]));
          const T al = scalar<T>(alpha), be = scalar<T>(beta);
          if (banded) {
            CHECK_CUBLAS(gbmv<T>(h, op, (int)m, (int)n, (int)kl, (int)ku, &al, da.p, (int)lda, dx.p,
                                 (int)inc[0], &be, dy.p, (int)inc[1]));
          } else if (inc[0] < 0) {
            CHECK_CUBLAS(gemv64<T>(h, op, m, n, &al, da.p, lda, dx.p, inc[0], &be, dy.p, inc[1]));
          } else {
            CHECK_CUBLAS(gemv<T>(h, op, (int)m, (int)n, &al, da.p, (int)lda, dx.p, (int)inc[0], &be,
                                 dy.p, (int)inc[1]));
          }
          check_product<T>(banded ? "gbmv" : "gemv", opa, x, alpha, beta, y0, dy.back(), inc[1]);
        }

  // Batched and strided batched: 3 problems, op T, device pointer mode for the strided one.
  const int batch = 3;
  for (cublasOperation_t op : kOps) {
    std::vector<Mat> mats;
    std::vector<std::vector<cd>> xs, ys;
    const int64_t lda = m + 1, stride_a = lda * n + 5, stride_x = 64, stride_y = 70;
    std::vector<T> store(stride_a * batch), xv(stride_x * batch), yv(stride_y * batch);
    for (auto& e : store) put(e, cd(kNaN, kNaN));
    for (int b = 0; b < batch; ++b) {
      Mat a(m, n);
      for (auto& e : a.v) e = rnd<T>(r);
      for (int64_t j = 0; j < n; ++j)
        for (int64_t i = 0; i < m; ++i) put(store[b * stride_a + i + j * lda], a(i, j));
      mats.push_back(apply_op(a, op));
      std::vector<cd> x(mats.back().cols), y(mats.back().rows);
      for (auto& e : x) e = rnd<T>(r);
      for (auto& e : y) e = rnd<T>(r);
      for (size_t i = 0; i < x.size(); ++i) put(xv[b * stride_x + i], x[i]);
      for (size_t i = 0; i < y.size(); ++i) put(yv[b * stride_y + i], y[i]);
      xs.push_back(x), ys.push_back(y);
    }
    const cd alpha = rnd<T>(r), beta = rnd<T>(r);
    const T al = scalar<T>(alpha), be = scalar<T>(beta);
    for (int strided_form = 0; strided_form < 2; ++strided_form) {
      Dev<T> da(store), dx(xv), dy(yv);
      if (strided_form) {
        Dev<T> dal(std::vector<T>{al}), dbe(std::vector<T>{be});
        CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
        CHECK_CUBLAS(gemv_strided<T>(h, op, (int)m, (int)n, dal.p, da.p, (int)lda,
                                     (long long)stride_a, dx.p, 1, (long long)stride_x, dbe.p, dy.p,
                                     1, (long long)stride_y, batch));
        CHECK_CUDA(cudaDeviceSynchronize());
        CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
      } else {
        std::vector<const T*> pa, px;
        std::vector<T*> py;
        for (int b = 0; b < batch; ++b) {
          pa.push_back(da.p + b * stride_a), px.push_back(dx.p + b * stride_x);
          py.push_back(dy.p + b * stride_y);
        }
        Dev<const T*> dpa(pa), dpx(px);
        Dev<T*> dpy(py);
        CHECK_CUBLAS(gemv_batched<T>(h, op, (int)m, (int)n, &al, dpa.p, (int)lda, dpx.p, 1, &be,
                                     dpy.p, 1, batch));
        CHECK_CUDA(cudaDeviceSynchronize());
      }
      const std::vector<T> yb = dy.back();
      for (int b = 0; b < batch; ++b) {
        std::vector<T> one(yb.begin() + b * stride_y, yb.begin() + b * stride_y + ys[b].size());
        check_product<T>(strided_form ? "gemvStridedBatched" : "gemvBatched", mats[b], xs[b], alpha,
                         beta, ys[b], one, 1);
      }
    }
  }

  // Several blocks of rows (op N over a tall matrix, op C over a wide one), scalars in
  // device memory.
  for (int wide = 0; wide < 2; ++wide) {
    const int64_t rows_a = wide ? 5 : 301, cols_a = wide ? 290 : 6, lda = rows_a;
    const cublasOperation_t op = wide ? CUBLAS_OP_C : CUBLAS_OP_N;
    Mat a(rows_a, cols_a);
    for (auto& e : a.v) e = rnd<T>(r);
    std::vector<T> store(lda * cols_a);
    for (int64_t i = 0; i < rows_a * cols_a; ++i) put(store[i], a.v[i]);
    const Mat opa = apply_op(a, op);
    std::vector<cd> x(opa.cols), y0(opa.rows);
    for (auto& e : x) e = rnd<T>(r);
    for (auto& e : y0) e = rnd<T>(r);
    const cd alpha = rnd<T>(r), beta = rnd<T>(r);
    Dev<T> da(store), dx(strided<T>(x, 1)), dy(strided<T>(y0, -1));
    Dev<T> dal(std::vector<T>{scalar<T>(alpha)}), dbe(std::vector<T>{scalar<T>(beta)});
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_CUBLAS(
        gemv<T>(h, op, (int)rows_a, (int)cols_a, dal.p, da.p, (int)lda, dx.p, 1, dbe.p, dy.p, -1));
    CHECK_CUDA(cudaDeviceSynchronize());
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    check_product<T>("gemv (device scalars)", opa, x, alpha, beta, y0, dy.back(), -1);
  }

  // Invalid arguments and quick returns.
  Dev<T> d(std::vector<T>(64));
  const T one = scalar<T>(1);
  EXPECT_STATUS(gemv<T>(h, CUBLAS_OP_CONJG, 2, 2, &one, d.p, 2, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(gemv<T>(h, CUBLAS_OP_N, -1, 2, &one, d.p, 2, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(gemv<T>(h, CUBLAS_OP_N, 4, 2, &one, d.p, 3, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(gemv<T>(h, CUBLAS_OP_N, 2, 2, &one, d.p, 2, d.p, 0, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(gemv<T>(h, CUBLAS_OP_N, 2, 2, &one, d.p, 2, d.p, 1, &one, d.p, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(gbmv<T>(h, CUBLAS_OP_N, 4, 4, 1, 2, &one, d.p, 3, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(gbmv<T>(h, CUBLAS_OP_N, 4, 4, -1, 2, &one, d.p, 5, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(
      gemv_strided<T>(h, CUBLAS_OP_N, 2, 2, &one, d.p, 2, 0ll, d.p, 1, 0ll, &one, d.p, 1, 0ll, -1),
      CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(gemv<T>(h, CUBLAS_OP_N, 0, 2, &one, d.p, 1, d.p, 1, &one, d.p, 1));
  CHECK_CUBLAS(gemv<T>(h, CUBLAS_OP_T, 3, 0, &one, d.p, 3, d.p, 1, &one, d.p, 1));
}

// ------------------------------------------------- symv, hemv, sbmv, hbmv, spmv, hpmv
// storage 0 full (symv / hemv), 1 band (sbmv / hbmv), 2 packed (spmv / hpmv).
template <typename T>
void test_symmetric(cublasHandle_t h, Random& r) {
  const int64_t n = 41, k = 4;
  for (int hermitian = 0; hermitian < 2; ++hermitian)
    for (int storage = 0; storage < 3; ++storage) {
      if (!hermitian && storage != 0 && kComplex<T>) continue;  // no csbmv / cspmv in cuBLAS
      for (cublasFillMode_t uplo : kFills)
        for (int variant = 0; variant < 2; ++variant) {
          const bool upper = uplo == CUBLAS_FILL_MODE_UPPER;
          const int64_t incx = variant ? -3 : 1, incy = variant ? 2 : 1;
          const bool beta_zero = variant == 1;
          Mat a(n, n);
          const bool herm = hermitian && kComplex<T>;
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = j; i < n; ++i) {
              cd v = (storage == 1 && i - j > k) ? cd(0) : rnd<T>(r);
              if (i == j && herm) v = cd(v.real(), 0);
              a(i, j) = v;
              a(j, i) = herm ? std::conj(v) : v;
            }
          const int64_t lda = storage == 0 ? n + 2 : storage == 1 ? k + 2 : 1;
          std::vector<T> store(storage == 2 ? n * (n + 1) / 2 : lda * n);
          for (auto& e : store) put(e, cd(kNaN, kNaN));
          int64_t packed = 0;
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < n; ++i) {
              if (upper ? i > j : i < j) continue;
              cd v = a(i, j);
              // The imaginary parts of a Hermitian diagonal are not read: store garbage.
              if (i == j && herm) v = cd(v.real(), 7.0);
              if (storage == 0) {
                put(store[i + j * lda], v);
              } else if (storage == 1) {
                if (std::llabs(i - j) > k) continue;
                put(store[(upper ? k + i - j : i - j) + j * lda], v);
              } else {
                put(store[packed++], v);  // column by column
              }
            }
          std::vector<cd> x(n), y0(n);
          for (auto& e : x) e = rnd<T>(r);
          for (auto& e : y0) e = beta_zero ? cd(kNaN, kNaN) : rnd<T>(r);
          const cd alpha = rnd<T>(r), beta = beta_zero ? cd(0) : rnd<T>(r);
          const T alv = scalar<T>(alpha), bev = scalar<T>(beta);
          Dev<T> da(store), dx(strided<T>(x, incx)), dy(strided<T>(y0, incy));
          // Variant 1: alpha and beta in device memory.
          Dev<T> dal(std::vector<T>{alv}), dbe(std::vector<T>{bev});
          const T* pal = &alv;
          const T* pbe = &bev;
          if (variant) {
            CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
            pal = dal.p, pbe = dbe.p;
          }
          const char* what = nullptr;
          if (storage == 0) {
            what = hermitian ? "hemv" : "symv";
            CHECK_CUBLAS(hermitian ? hemv<T>(h, uplo, (int)n, pal, da.p, (int)lda, dx.p, (int)incx,
                                             pbe, dy.p, (int)incy)
                                   : symv<T>(h, uplo, (int)n, pal, da.p, (int)lda, dx.p, (int)incx,
                                             pbe, dy.p, (int)incy));
          } else if (storage == 1) {
            what = hermitian ? "hbmv" : "sbmv";
            CHECK_CUBLAS(hbmv<T>(h, uplo, (int)n, (int)k, pal, da.p, (int)lda, dx.p, (int)incx, pbe,
                                 dy.p, (int)incy));
          } else {
            what = hermitian ? "hpmv" : "spmv";
            CHECK_CUBLAS(
                hpmv<T>(h, uplo, (int)n, pal, da.p, dx.p, (int)incx, pbe, dy.p, (int)incy));
          }
          CHECK_CUDA(cudaDeviceSynchronize());
          CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
          check_product<T>(what, a, x, alpha, beta, y0, dy.back(), incy);
        }
    }
  Dev<T> d(std::vector<T>(64));
  const T one = scalar<T>(1);
  EXPECT_STATUS(symv<T>(h, CUBLAS_FILL_MODE_FULL, 2, &one, d.p, 2, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(hemv<T>(h, CUBLAS_FILL_MODE_LOWER, 3, &one, d.p, 2, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(hbmv<T>(h, CUBLAS_FILL_MODE_LOWER, 3, 2, &one, d.p, 2, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(hpmv<T>(h, CUBLAS_FILL_MODE_LOWER, -1, &one, d.p, d.p, 1, &one, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(hpmv<T>(h, CUBLAS_FILL_MODE_LOWER, 2, &one, d.p, d.p, 1, &one, d.p, 0),
                CUBLAS_STATUS_INVALID_VALUE);
}

// ------------------------------------------- trmv, tbmv, tpmv, trsv, tbsv, tpsv
// storage 0 full, 1 band, 2 packed. n crosses the kernel's 64-row blocks.
template <typename T>
void test_triangular(cublasHandle_t h, Random& r) {
  const int64_t n = 75;
  const double u = kUnit<T> * (kComplex<T> ? 2.0 : 1.0);
  for (int storage = 0; storage < 3; ++storage)
    for (int solve = 0; solve < 2; ++solve)
      for (cublasFillMode_t uplo : kFills)
        for (cublasOperation_t op : kOps)
          for (int unit = 0; unit < 2; ++unit) {
            const bool upper = uplo == CUBLAS_FILL_MODE_UPPER;
            // Band width: a narrow band, and once a band wider than the matrix.
            const int64_t k = storage != 1 ? n - 1 : (unit ? 5 : n + 4);
            const int64_t incx = (op == CUBLAS_OP_T) ? -2 : 1;
            Mat a(n, n);  // the triangle, unit diagonal included
            for (int64_t j = 0; j < n; ++j)
              for (int64_t i = 0; i < n; ++i) {
                const bool in = (upper ? i <= j : i >= j) && std::llabs(i - j) <= k;
                if (!in) continue;
                if (i == j) {
                  // Diagonally dominant: well conditioned solves.
                  a(i, j) = unit ? cd(1) : rnd<T>(r) + cd(r.next() < 0 ? -4.0 : 4.0);
                  T t;
                  put(t, a(i, j));
                  a(i, j) = get(t);
                } else {
                  a(i, j) = rnd<T>(r) * (1.0 / std::sqrt(double(std::min(k, n))));
                  T t;
                  put(t, a(i, j));
                  a(i, j) = get(t);
                }
              }
            const int64_t lda = storage == 0 ? n + 1 : storage == 1 ? k + 2 : 1;
            std::vector<T> store(storage == 2 ? n * (n + 1) / 2 : lda * n);
            for (auto& e : store) put(e, cd(kNaN, kNaN));
            int64_t packed = 0;
            for (int64_t j = 0; j < n; ++j)
              for (int64_t i = 0; i < n; ++i) {
                if (upper ? i > j : i < j) continue;
                // A unit diagonal is not read: NaN stays there.
                const cd v = (i == j && unit) ? cd(kNaN, kNaN) : a(i, j);
                if (storage == 0) {
                  put(store[i + j * lda], v);
                } else if (storage == 1) {
                  if (std::llabs(i - j) <= k) put(store[(upper ? k + i - j : i - j) + j * lda], v);
                } else {
                  put(store[packed++], v);
                }
              }
            const Mat m = apply_op(a, op);
            std::vector<cd> b(n);
            for (auto& e : b) e = rnd<T>(r);
            Dev<T> da(store), dx(strided<T>(b, incx));
            const int ni = (int)n, ki = (int)k, li = (int)lda, ii = (int)incx;
            const char* what;
            if (storage == 0) {
              what = solve ? "trsv" : "trmv";
              if (solve && unit) {
                CHECK_CUBLAS(trsv64<T>(h, uplo, op, CUBLAS_DIAG_UNIT, n, da.p, lda, dx.p, incx));
              } else if (solve) {
                CHECK_CUBLAS(trsv<T>(h, uplo, op, CUBLAS_DIAG_NON_UNIT, ni, da.p, li, dx.p, ii));
              } else {
                CHECK_CUBLAS(trmv<T>(h, uplo, op, unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT,
                                     ni, da.p, li, dx.p, ii));
              }
            } else if (storage == 1) {
              what = solve ? "tbsv" : "tbmv";
              const cublasDiagType_t diag = unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
              CHECK_CUBLAS(solve ? tbsv<T>(h, uplo, op, diag, ni, ki, da.p, li, dx.p, ii)
                                 : tbmv<T>(h, uplo, op, diag, ni, ki, da.p, li, dx.p, ii));
            } else {
              what = solve ? "tpsv" : "tpmv";
              const cublasDiagType_t diag = unit ? CUBLAS_DIAG_UNIT : CUBLAS_DIAG_NON_UNIT;
              CHECK_CUBLAS(solve ? tpsv<T>(h, uplo, op, diag, ni, da.p, dx.p, ii)
                                 : tpmv<T>(h, uplo, op, diag, ni, da.p, dx.p, ii));
            }
            const std::vector<T> xd = dx.back();
            std::vector<cd> x(n);
            for (int64_t i = 0; i < n; ++i) x[i] = at(xd, i, n, incx);
            if (!solve) {
              check_product<T>(what, m, b, 1.0, 0.0, b, xd, incx);
              continue;
            }
            // Residual of the solve: |op(A) x - b| <= 4 n u (|op(A)| |x| + |b|).
            for (int64_t i = 0; i < n; ++i) {
              cd res = -b[i];
              double mag = std::abs(b[i]);
              for (int64_t j = 0; j < n; ++j) {
                res += m(i, j) * x[j];
                mag += std::abs(m(i, j)) * std::abs(x[j]);
              }
              const double bound = 4.0 * (n + 2) * u * mag;
              EXPECT_TRUE(std::abs(res) <= bound,
                          "%s%s uplo %d op %d unit %d row %lld: residual %g > %g", type_name<T>(),
                          what, uplo, op, unit, (long long)i, std::abs(res), bound);
            }
            ++g_cases;
          }
  Dev<T> d(std::vector<T>(64));
  EXPECT_STATUS(trsv<T>(h, CUBLAS_FILL_MODE_FULL, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 2, d.p, 2, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(
      trmv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_CONJG, CUBLAS_DIAG_UNIT, 2, d.p, 2, d.p, 1),
      CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(trsv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, static_cast<cublasDiagType_t>(5), 2,
                        d.p, 2, d.p, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(
      trsv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 3, d.p, 2, d.p, 1),
      CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(
      tbsv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 3, -1, d.p, 2, d.p, 1),
      CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(
      tbmv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 3, 2, d.p, 2, d.p, 1),
      CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(tpsv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 3, d.p, d.p, 0),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(tpsv<T>(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_UNIT, 0, d.p, d.p, 1));
}

// ------------------------------------------------------------ rank-1 and rank-2 updates
enum Update { kGer, kGerc, kSyr, kHer, kSyr2, kHer2 };

template <typename T>
void test_update(cublasHandle_t h, Random& r) {
  for (int kind = kGer; kind <= kHer2; ++kind)
    for (int packed = 0; packed < 2; ++packed)
      for (cublasFillMode_t uplo : kFills)
        for (int variant = 0; variant < 2; ++variant) {
          const bool general = kind <= kGerc;
          if (general && (packed || uplo == CUBLAS_FILL_MODE_UPPER)) continue;
          const bool herm = (kind == kHer || kind == kHer2) && kComplex<T>;
          const bool two = general || kind == kSyr2 || kind == kHer2;
          // cuBLAS has no complex spr / spr2 (packed symmetric): skip.
          if (packed && kComplex<T> && (kind == kSyr || kind == kSyr2)) continue;
          const bool upper = uplo == CUBLAS_FILL_MODE_UPPER;
          const int64_t m = general ? 33 : 27, n = 27;
          const int64_t incx = variant ? -2 : 1, incy = variant ? 3 : 1;
          const int64_t lda = packed ? 1 : m + 2;
          Mat a(m, n);
          for (auto& e : a.v) e = rnd<T>(r);
          if (herm)
            for (int64_t i = 0; i < n; ++i) a(i, i) = cd(a(i, i).real(), 0.5);  // imag: dropped
          std::vector<cd> x(m), y(two ? (general ? n : m) : 1);
          for (auto& e : x) e = rnd<T>(r);
          for (auto& e : y) e = rnd<T>(r);
          cd alpha = rnd<T>(r);
          if (kind == kHer) alpha = alpha.real();
          std::vector<T> store(packed ? n * (n + 1) / 2 : lda * n);
          for (auto& e : store) put(e, cd(kNaN, kNaN));
          auto stored = [&](int64_t i, int64_t j) { return general || (upper ? i <= j : i >= j); };
          auto index = [&](int64_t i, int64_t j) {
            if (!packed) return i + j * lda;
            return upper ? i + j * (j + 1) / 2 : i + j * (2 * n - j - 1) / 2;
          };
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
              if (stored(i, j)) {
                put(store[index(i, j)], a(i, j));
              } else if (!packed) {
                put(store[index(i, j)], cd(-99.0, 3.0));  // the other triangle: untouched
              }
            }
          Dev<T> da(store), dx(strided<T>(x, incx)), dy(strided<T>(y, two ? incy : 1));
          T al = scalar<T>(alpha);
          using R = std::conditional_t<std::is_same_v<T, float> || std::is_same_v<T, cuComplex>,
                                       float, double>;
          R alr = static_cast<R>(alpha.real());
          // Variant 1 passes alpha in device memory.
          Dev<T> dal(std::vector<T>{al});
          Dev<R> dalr(std::vector<R>{alr});
          const T* alp = &al;
          const R* alrp = &alr;
          if (variant) {
            CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
            alp = dal.p, alrp = dalr.p;
          }
          const int mi = (int)m, ni = (int)n, xi = (int)incx, yi = (int)incy, li = (int)lda;
          const char* what = "";
          switch (kind) {
            case kGer:
              what = "ger";
              if (variant)
                CHECK_CUBLAS(ger64<T>(h, m, n, alp, dx.p, incx, dy.p, incy, da.p, lda));
              else
                CHECK_CUBLAS(ger<T>(h, mi, ni, alp, dx.p, xi, dy.p, yi, da.p, li));
              break;
            case kGerc:
              what = "gerc";
              CHECK_CUBLAS(gerc<T>(h, mi, ni, alp, dx.p, xi, dy.p, yi, da.p, li));
              break;
            case kSyr:
              what = packed ? "spr" : "syr";
              CHECK_CUBLAS(packed ? spr<T>(h, uplo, ni, alp, dx.p, xi, da.p)
                                  : syr<T>(h, uplo, ni, alp, dx.p, xi, da.p, li));
              break;
            case kHer:
              what = packed ? "hpr" : "her";
              if constexpr (kComplex<T>) {
                CHECK_CUBLAS(packed ? hpr<T>(h, uplo, ni, alrp, dx.p, xi, da.p)
                                    : her<T>(h, uplo, ni, alrp, dx.p, xi, da.p, li));
              } else {
                CHECK_CUBLAS(packed ? hpr<T>(h, uplo, ni, alp, dx.p, xi, da.p)
                                    : her<T>(h, uplo, ni, alp, dx.p, xi, da.p, li));
              }
              break;
            case kSyr2:
              what = packed ? "spr2" : "syr2";
              CHECK_CUBLAS(packed ? spr2<T>(h, uplo, ni, alp, dx.p, xi, dy.p, yi, da.p)
                                  : syr2<T>(h, uplo, ni, alp, dx.p, xi, dy.p, yi, da.p, li));
              break;
            default:
              what = packed ? "hpr2" : "her2";
              CHECK_CUBLAS(packed ? hpr2<T>(h, uplo, ni, alp, dx.p, xi, dy.p, yi, da.p)
                                  : her2<T>(h, uplo, ni, alp, dx.p, xi, dy.p, yi, da.p, li));
              break;
          }
          CHECK_CUDA(cudaDeviceSynchronize());
          CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
          const std::vector<T> out = da.back();
          const double u = kUnit<T> * (kComplex<T> ? 2.0 : 1.0);
          for (int64_t j = 0; j < n; ++j)
            for (int64_t i = 0; i < m; ++i) {
              if (!stored(i, j)) {
                if (!packed) {
                  const cd got = get(out[index(i, j)]);
                  EXPECT_TRUE(got == get(scalar<T>(cd(-99.0, 3.0))),
                              "%s%s wrote (%lld, %lld) outside its triangle", type_name<T>(), what,
                              (long long)i, (long long)j);
                }
                continue;
              }
              cd ref = a(i, j), t1, t2 = 0;
              switch (kind) {
                case kGer:
                  t1 = alpha * x[i] * y[j];
                  break;
                case kGerc:
                  t1 = alpha * x[i] * std::conj(y[j]);
                  break;
                case kSyr:
                  t1 = alpha * x[i] * x[j];
                  break;
                case kHer:
                  t1 = alpha * x[i] * (herm ? std::conj(x[j]) : x[j]);
                  break;
                case kSyr2:
                  t1 = alpha * x[i] * y[j], t2 = alpha * y[i] * x[j];
                  break;
                default:
                  t1 = alpha * x[i] * (herm ? std::conj(y[j]) : y[j]);
                  t2 = (herm ? std::conj(alpha) : alpha) * y[i] * (herm ? std::conj(x[j]) : x[j]);
              }
              ref += t1 + t2;
              if (herm && i == j) ref = cd(ref.real(), 0.0);
              const cd got = get(out[index(i, j)]);
              const double bound = 8.0 * u * (std::abs(a(i, j)) + std::abs(t1) + std::abs(t2));
              EXPECT_TRUE(std::abs(got - ref) <= bound,
                          "%s%s uplo %d (%lld, %lld): got (%g, %g), expected (%g, %g)",
                          type_name<T>(), what, uplo, (long long)i, (long long)j, got.real(),
                          got.imag(), ref.real(), ref.imag());
              if (herm && i == j) {
                EXPECT_TRUE(got.imag() == 0.0, "%s%s: diagonal imaginary part %g", type_name<T>(),
                            what, got.imag());
              }
            }
          ++g_cases;
        }
  Dev<T> d(std::vector<T>(64));
  const T one = scalar<T>(1);
  EXPECT_STATUS(ger<T>(h, 2, 2, &one, d.p, 1, d.p, 0, d.p, 2), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(ger<T>(h, 3, 2, &one, d.p, 1, d.p, 1, d.p, 2), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(syr<T>(h, CUBLAS_FILL_MODE_FULL, 2, &one, d.p, 1, d.p, 2),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(syr2<T>(h, CUBLAS_FILL_MODE_LOWER, -2, &one, d.p, 1, d.p, 1, d.p, 2),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(hpr2<T>(h, CUBLAS_FILL_MODE_LOWER, 2, &one, d.p, 0, d.p, 1, d.p),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(ger<T>(h, 0, 2, &one, d.p, 1, d.p, 1, d.p, 1));
}

// ------------------------------------ HSH, HSS, TST, TSS gemvBatched / StridedBatched
double to_double(__half v) {
  return __half2float(v);
}
double to_double(__nv_bfloat16 v) {
  return __bfloat162float(v);
}
double to_double(float v) {
  return v;
}
void from_double(double v, __half* out) {
  *out = __float2half_rn(static_cast<float>(v));
}
void from_double(double v, __nv_bfloat16* out) {
  *out = __float2bfloat16_rn(static_cast<float>(v));
}
void from_double(double v, float* out) {
  *out = static_cast<float>(v);
}

template <typename TA, typename TY, typename Batched, typename Strided>
void test_mixed(cublasHandle_t h, Random& r, const char* name, double u_out, Batched batched,
                Strided strided) {
  const int64_t m = 37, n = 23, lda = m + 2, batch = 2;
  const int64_t sa = lda * n, sx = 40, sy = 41;
  for (cublasOperation_t op : kOps)
    for (int form = 0; form < 2; ++form) {
      const bool beta_zero = op == CUBLAS_OP_T;
      const int64_t rows = op == CUBLAS_OP_N ? m : n, cols = op == CUBLAS_OP_N ? n : m;
      std::vector<TA> a(sa * batch), x(sx * batch);
      std::vector<TY> y(sy * batch);
      for (auto& e : a) from_double(r.next(), &e);
      for (auto& e : x) from_double(r.next(), &e);
      for (auto& e : y) from_double(beta_zero ? kNaN : r.next(), &e);
      const float alpha = static_cast<float>(r.next()), beta = beta_zero ? 0.0f : 0.75f;
      Dev<TA> da(a), dx(x);
      Dev<TY> dy(y);
      if (form == 0) {
        std::vector<const TA*> pa, px;
        std::vector<TY*> py;
        for (int b = 0; b < batch; ++b) {
          pa.push_back(da.p + b * sa), px.push_back(dx.p + b * sx), py.push_back(dy.p + b * sy);
        }
        Dev<const TA*> dpa(pa), dpx(px);
        Dev<TY*> dpy(py);
        CHECK_CUBLAS(batched(h, op, (int)m, (int)n, &alpha, dpa.p, (int)lda, dpx.p, 1, &beta, dpy.p,
                             1, (int)batch));
        CHECK_CUDA(cudaDeviceSynchronize());
      } else {
        CHECK_CUBLAS(strided(h, op, (int)m, (int)n, &alpha, da.p, (int)lda, (long long)sa, dx.p, 1,
                             (long long)sx, &beta, dy.p, 1, (long long)sy, (int)batch));
      }
      const std::vector<TY> out = dy.back();
      for (int64_t b = 0; b < batch; ++b)
        for (int64_t i = 0; i < rows; ++i) {
          double sum = 0, mag = 0;
          for (int64_t j = 0; j < cols; ++j) {
            const double e =
                to_double(op == CUBLAS_OP_N ? a[b * sa + i + j * lda] : a[b * sa + j + i * lda]);
            sum += e * to_double(x[b * sx + j]);
            mag += std::abs(e * to_double(x[b * sx + j]));
          }
          double ref = alpha * sum;
          mag *= std::abs(alpha);
          if (!beta_zero) {
            ref += beta * to_double(y[b * sy + i]);
            mag += std::abs(beta * to_double(y[b * sy + i]));
          }
          const double got = to_double(out[b * sy + i]);
          const double bound = 2.0 * ((cols + 2) * blas_check::kUnitF32 + u_out) * mag;
          EXPECT_TRUE(std::abs(got - ref) <= bound,
                      "%s op %d form %d batch %lld row %lld: got %g, expected %g", name, op, form,
                      (long long)b, (long long)i, got, ref);
        }
      ++g_cases;
    }
}

void test_mixed_all(cublasHandle_t h) {
  Random r(77);
  test_mixed<__half, __half>(h, r, "HSHgemv", blas_check::kUnitF16, cublasHSHgemvBatched,
                             cublasHSHgemvStridedBatched);
  test_mixed<__half, float>(h, r, "HSSgemv", blas_check::kUnitF32, cublasHSSgemvBatched,
                            cublasHSSgemvStridedBatched);
  test_mixed<__nv_bfloat16, __nv_bfloat16>(h, r, "TSTgemv", blas_check::kUnitBF16,
                                           cublasTSTgemvBatched, cublasTSTgemvStridedBatched);
  test_mixed<__nv_bfloat16, float>(h, r, "TSSgemv", blas_check::kUnitF32, cublasTSSgemvBatched,
                                   cublasTSSgemvStridedBatched);
}

template <typename T>
void run_family(const std::string& family, cublasHandle_t h) {
  Random r(family.size() * 131 + sizeof(T));
  if (family == "mv") {
    test_gemv<T>(h, r);
    test_symmetric<T>(h, r);
  } else if (family == "tri") {
    test_triangular<T>(h, r);
  } else {
    test_update<T>(h, r);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string family = argc > 1 ? argv[1] : "mv";
  cublasHandle_t h = nullptr;
  CHECK_CUBLAS(cublasCreate(&h));
  run_family<float>(family, h);
  run_family<double>(family, h);
  run_family<cuComplex>(family, h);
  run_family<cuDoubleComplex>(family, h);
  if (family == "mv") test_mixed_all(h);
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("%d cases\nPASS level2_%s\n", g_cases, family.c_str());
  return 0;
}
