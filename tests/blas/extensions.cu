// geam and dgmm (S, D, C, Z): every op combination, in place on A and on B, beta = 0 with a
// null B and NaN where B would be, alpha = 0, device scalars, dgmm left / right with
// positive, negative and zero increments, and the INVALID_VALUE cases. Small integer
// inputs make every result exact, so the comparison is exact.
#include <complex>
#include <limits>

#include "blas_check.h"

template <typename T> struct Api;
template <> struct Api<float> {
  static constexpr auto geam = cublasSgeam;
  static constexpr auto dgmm = cublasSdgmm;
  static float make(double re, double) { return static_cast<float>(re); }
  static std::complex<double> value(float v) { return {v, 0}; }
  static constexpr bool complex = false;
};
template <> struct Api<double> {
  static constexpr auto geam = cublasDgeam;
  static constexpr auto dgmm = cublasDdgmm;
  static double make(double re, double) { return re; }
  static std::complex<double> value(double v) { return {v, 0}; }
  static constexpr bool complex = false;
};
template <> struct Api<cuComplex> {
  static constexpr auto geam = cublasCgeam;
  static constexpr auto dgmm = cublasCdgmm;
  static cuComplex make(double re, double im) { return make_cuComplex(float(re), float(im)); }
  static std::complex<double> value(cuComplex v) { return {v.x, v.y}; }
  static constexpr bool complex = true;
};
template <> struct Api<cuDoubleComplex> {
  static constexpr auto geam = cublasZgeam;
  static constexpr auto dgmm = cublasZdgmm;
  static cuDoubleComplex make(double re, double im) { return make_cuDoubleComplex(re, im); }
  static std::complex<double> value(cuDoubleComplex v) { return {v.x, v.y}; }
  static constexpr bool complex = true;
};

using C64 = std::complex<double>;

template <typename T>
std::vector<T> random_matrix(blas_check::Random& r, size_t count) {
  std::vector<T> v(count);
  for (auto& x : v) x = Api<T>::make(r.integer(4), Api<T>::complex ? r.integer(4) : 0);
  return v;
}

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)));
  if (!v.empty()) CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
std::vector<T> download(const T* d, size_t count) {
  std::vector<T> v(count);
  CHECK_CUDA(cudaMemcpy(v.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

C64 op_of(cublasOperation_t op, C64 v) { return op == CUBLAS_OP_C ? std::conj(v) : v; }

template <typename T>
C64 op_elem(const std::vector<T>& a, cublasOperation_t op, int i, int j, int ld) {
  return op == CUBLAS_OP_N ? Api<T>::value(a[i + j * ld]) : op_of(op, Api<T>::value(a[j + i * ld]));
}

template <typename T>
void check_equal(const std::vector<T>& got, const std::vector<C64>& want, int m, int n, int ld,
                 const char* what) {
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const C64 g = Api<T>::value(got[i + j * ld]);
      EXPECT_TRUE(g == want[i + j * ld], "%s: C(%d, %d) = (%g, %g), want (%g, %g)", what, i, j,
                  g.real(), g.imag(), want[i + j * ld].real(), want[i + j * ld].imag());
    }
}

template <typename T>
void test_geam(cublasHandle_t h, blas_check::Random& r) {
  const cublasOperation_t ops[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
  const int m = 37, n = 23, ldc = 41;
  const T alpha = Api<T>::make(2, Api<T>::complex ? -1 : 0), beta = Api<T>::make(-3, Api<T>::complex ? 1 : 0);
  for (cublasOperation_t oa : ops) {
    for (cublasOperation_t ob : ops) {
      const int lda = (oa == CUBLAS_OP_N ? m : n) + 3, ldb = (ob == CUBLAS_OP_N ? m : n) + 1;
      const int acols = oa == CUBLAS_OP_N ? n : m, bcols = ob == CUBLAS_OP_N ? n : m;
      auto a = random_matrix<T>(r, lda * acols), b = random_matrix<T>(r, ldb * bcols);
      std::vector<T> c0(ldc * n, Api<T>::make(99, 99));
      T *da = upload(a), *db = upload(b), *dc = upload(c0);
      CHECK_CUBLAS(Api<T>::geam(h, oa, ob, m, n, &alpha, da, lda, &beta, db, ldb, dc, ldc));
      std::vector<C64> want(ldc * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < ldc; ++i)
          want[i + j * ldc] = i < m ? Api<T>::value(alpha) * op_elem(a, oa, i, j, lda) +
                                          Api<T>::value(beta) * op_elem(b, ob, i, j, ldb)
                                    : Api<T>::value(c0[i + j * ldc]);
      check_equal(download(dc, ldc * n), want, ldc, n, ldc, "geam");
      CHECK_CUDA(cudaFree(da));
      CHECK_CUDA(cudaFree(db));
      CHECK_CUDA(cudaFree(dc));
    }
  }
  // beta = 0: B is null and never read; alpha = 0 with NaN in A: A is not read.
  {
    const int lda = m;
    auto a = random_matrix<T>(r, lda * n);
    T *da = upload(a), *dc = nullptr;
    CHECK_CUDA(cudaMalloc(&dc, ldc * n * sizeof(T)));
    const T zero = Api<T>::make(0, 0);
    CHECK_CUBLAS(Api<T>::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, da, lda, &zero, nullptr, m, dc, ldc));
    std::vector<C64> want(ldc * n);
    auto got = download(dc, ldc * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < ldc; ++i)
        want[i + j * ldc] = i < m ? Api<T>::value(alpha) * Api<T>::value(a[i + j * lda])
                                  : Api<T>::value(got[i + j * ldc]);
    check_equal(got, want, ldc, n, ldc, "geam beta = 0, B null");
    // Transpose of A into C (the use ONNX Runtime makes of geam).
    const int tm = n, tn = m;
    std::vector<T> t(tm * tn);
    T* dt = upload(t);
    const T one = Api<T>::make(1, 0);
    CHECK_CUBLAS(Api<T>::geam(h, CUBLAS_OP_T, CUBLAS_OP_N, tm, tn, &one, da, lda, &zero, nullptr, tm, dt, tm));
    auto tt = download(dt, tm * tn);
    for (int j = 0; j < tn; ++j)
      for (int i = 0; i < tm; ++i)
        EXPECT_TRUE(Api<T>::value(tt[i + j * tm]) == Api<T>::value(a[j + i * lda]), "transpose (%d, %d)", i, j);
    // In place on A: C = alpha C + beta op(B).
    auto b = random_matrix<T>(r, m * n);
    T* db = upload(b);
    CHECK_CUBLAS(Api<T>::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, da, lda, &beta, db, m, da, lda));
    auto inplace = download(da, lda * n);
    std::vector<C64> want2(lda * n);
    for (int i = 0; i < lda * n; ++i)
      want2[i] = Api<T>::value(alpha) * Api<T>::value(a[i]) + Api<T>::value(beta) * Api<T>::value(b[i]);
    check_equal(inplace, want2, m, n, lda, "geam in place on A");
    // In place with a transpose, or lda != ldc: INVALID_VALUE.
    EXPECT_STATUS(Api<T>::geam(h, CUBLAS_OP_T, CUBLAS_OP_N, m, m, &alpha, da, lda, &beta, db, m, da, lda),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, db, m, &beta, da, lda, db, m + 1),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, n, &alpha, da, lda, &beta, db, m, dc, ldc),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, &alpha, da, m - 1, &beta, db, m, dc, ldc),
                  CUBLAS_STATUS_INVALID_VALUE);
    // Device scalars.
    T *dalpha = upload(std::vector<T>{alpha}), *dbeta = upload(std::vector<T>{beta});
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_CUBLAS(Api<T>::geam(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, dalpha, db, m, dbeta, db, m, dc, ldc));
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    auto dev = download(dc, ldc * n);
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < m; ++i)
        EXPECT_TRUE(Api<T>::value(dev[i + j * ldc]) ==
                        (Api<T>::value(alpha) + Api<T>::value(beta)) * Api<T>::value(b[i + j * m]),
                    "device scalars (%d, %d)", i, j);
    for (T* p : {da, db, dc, dt, dalpha, dbeta}) CHECK_CUDA(cudaFree(p));
  }
}

template <typename T>
void test_dgmm(cublasHandle_t h, blas_check::Random& r) {
  const int m = 19, n = 31, lda = 23, ldc = 20;
  for (cublasSideMode_t mode : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT}) {
    for (int incx : {1, 3, -2, 0}) {
      const int len = mode == CUBLAS_SIDE_LEFT ? m : n;
      auto a = random_matrix<T>(r, lda * n);
      auto x = random_matrix<T>(r, 1 + (len - 1) * std::abs(incx));
      T *da = upload(a), *dx = upload(x), *dc = nullptr;
      CHECK_CUDA(cudaMalloc(&dc, ldc * n * sizeof(T)));
      CHECK_CUBLAS(Api<T>::dgmm(h, mode, m, n, da, lda, dx, incx, dc, ldc));
      auto got = download(dc, ldc * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i) {
          const int k = mode == CUBLAS_SIDE_LEFT ? i : j;
          const int at = incx >= 0 ? k * incx : (len - 1 - k) * -incx;
          const C64 want = Api<T>::value(a[i + j * lda]) * Api<T>::value(x[at]);
          EXPECT_TRUE(Api<T>::value(got[i + j * ldc]) == want, "dgmm mode %d incx %d (%d, %d)",
                      static_cast<int>(mode), incx, i, j);
        }
      // In place (ldc == lda).
      CHECK_CUBLAS(Api<T>::dgmm(h, mode, m, n, da, lda, dx, incx, da, lda));
      auto inplace = download(da, lda * n);
      for (int j = 0; j < n; ++j)
        for (int i = 0; i < m; ++i)
          EXPECT_TRUE(Api<T>::value(inplace[i + j * lda]) == Api<T>::value(got[i + j * ldc]),
                      "dgmm in place (%d, %d)", i, j);
      EXPECT_STATUS(Api<T>::dgmm(h, mode, m, n, da, lda, dx, incx, da, lda + 1),
                    CUBLAS_STATUS_INVALID_VALUE);
      for (T* p : {da, dx, dc}) CHECK_CUDA(cudaFree(p));
    }
  }
  EXPECT_STATUS(Api<T>::dgmm(h, static_cast<cublasSideMode_t>(5), m, n, nullptr, lda, nullptr, 1, nullptr, ldc),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::dgmm(h, CUBLAS_SIDE_LEFT, m, n, nullptr, m - 1, nullptr, 1, nullptr, ldc),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(Api<T>::dgmm(h, CUBLAS_SIDE_LEFT, 0, n, nullptr, 1, nullptr, 1, nullptr, 1));
}

int main() {
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  blas_check::Random r(11);
  test_geam<float>(h, r);
  test_geam<double>(h, r);
  test_geam<cuComplex>(h, r);
  test_geam<cuDoubleComplex>(h, r);
  test_dgmm<float>(h, r);
  test_dgmm<double>(h, r);
  test_dgmm<cuComplex>(h, r);
  test_dgmm<cuDoubleComplex>(h, r);
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS extensions\n");
  return 0;
}
