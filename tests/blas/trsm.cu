// trsm and trsmBatched (S, D, C, Z): every side, fill mode, operation and diagonal type on
// diagonally dominant triangular matrices whose other triangle holds NaN (never read), a
// unit diagonal holding NaN too; checked by the residual |op(A) X - alpha B| against
// 4 (order + 2) u (|op(A)| |X| + |alpha B|), elementwise. Also alpha = 0 (B becomes 0),
// device alpha, the batched form, and the INVALID_VALUE cases.
#include <complex>
#include <limits>

#include "blas_check.h"

using C64 = std::complex<double>;

template <typename T> struct Api;
template <> struct Api<float> {
  static constexpr auto trsm = cublasStrsm;
  static constexpr auto batched = cublasStrsmBatched;
  static float make(C64 v) { return static_cast<float>(v.real()); }
  static C64 value(float v) { return {v, 0}; }
  static constexpr bool complex = false;
  static constexpr double u = blas_check::kUnitF32;
};
template <> struct Api<double> {
  static constexpr auto trsm = cublasDtrsm;
  static constexpr auto batched = cublasDtrsmBatched;
  static double make(C64 v) { return v.real(); }
  static C64 value(double v) { return {v, 0}; }
  static constexpr bool complex = false;
  static constexpr double u = blas_check::kUnitF64;
};
template <> struct Api<cuComplex> {
  static constexpr auto trsm = cublasCtrsm;
  static constexpr auto batched = cublasCtrsmBatched;
  static cuComplex make(C64 v) { return make_cuComplex(float(v.real()), float(v.imag())); }
  static C64 value(cuComplex v) { return {v.x, v.y}; }
  static constexpr bool complex = true;
  static constexpr double u = blas_check::kUnitF32;
};
template <> struct Api<cuDoubleComplex> {
  static constexpr auto trsm = cublasZtrsm;
  static constexpr auto batched = cublasZtrsmBatched;
  static cuDoubleComplex make(C64 v) { return make_cuDoubleComplex(v.real(), v.imag()); }
  static C64 value(cuDoubleComplex v) { return {v.x, v.y}; }
  static constexpr bool complex = true;
  static constexpr double u = blas_check::kUnitF64;
};

template <typename T>
struct Problem {
  int m, n, order, lda, ldb;
  std::vector<T> a, b;
};

template <typename T>
Problem<T> make_problem(blas_check::Random& r, cublasSideMode_t side, cublasFillMode_t uplo,
                        cublasDiagType_t diag, int m, int n) {
  Problem<T> p;
  p.m = m, p.n = n;
  p.order = side == CUBLAS_SIDE_LEFT ? m : n;
  p.lda = p.order + 2, p.ldb = m + 1;
  const double nan = std::numeric_limits<double>::quiet_NaN();
  p.a.assign(p.lda * p.order, Api<T>::make({nan, nan}));
  for (int j = 0; j < p.order; ++j)
    for (int i = 0; i < p.order; ++i) {
      const bool stored = uplo == CUBLAS_FILL_MODE_LOWER ? i >= j : i <= j;
      if (!stored) continue;
      C64 v(r.next(), Api<T>::complex ? r.next() : 0.0);
      if (i == j) v = diag == CUBLAS_DIAG_UNIT ? C64(nan, nan) : v + C64(p.order + 2.0, 0.0);
      p.a[i + j * p.lda] = Api<T>::make(v);
    }
  p.b.resize(p.ldb * n);
  for (auto& x : p.b) x = Api<T>::make({r.next(), Api<T>::complex ? r.next() : 0.0});
  return p;
}

// Element (i, k) of op(A) as the routine sees it (unit diagonal: 1; other triangle: 0).
template <typename T>
C64 op_a(const Problem<T>& p, cublasFillMode_t uplo, cublasOperation_t trans,
         cublasDiagType_t diag, int i, int k) {
  int r = i, c = k;
  if (trans != CUBLAS_OP_N) std::swap(r, c);
  const bool stored = uplo == CUBLAS_FILL_MODE_LOWER ? r >= c : r <= c;
  if (!stored) return 0.0;
  if (r == c && diag == CUBLAS_DIAG_UNIT) return 1.0;
  const C64 v = Api<T>::value(p.a[r + c * p.lda]);
  return trans == CUBLAS_OP_C ? std::conj(v) : v;
}

template <typename T>
void check(const Problem<T>& p, const std::vector<T>& x, C64 alpha, cublasSideMode_t side,
           cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag,
           const char* what) {
  const double u = Api<T>::u * (Api<T>::complex ? 2.0 : 1.0);
  for (int j = 0; j < p.n; ++j)
    for (int i = 0; i < p.m; ++i) {
      C64 sum = 0.0;
      double mag = 0.0;
      for (int k = 0; k < p.order; ++k) {
        const C64 term = side == CUBLAS_SIDE_LEFT
                             ? op_a(p, uplo, trans, diag, i, k) * Api<T>::value(x[k + j * p.ldb])
                             : Api<T>::value(x[i + k * p.ldb]) * op_a(p, uplo, trans, diag, k, j);
        sum += term;
        mag += std::abs(term);
      }
      const C64 rhs = alpha * Api<T>::value(p.b[i + j * p.ldb]);
      const double err = std::abs(sum - rhs);
      const double bound = 4.0 * (p.order + 2) * u * (mag + std::abs(rhs));
      EXPECT_TRUE(err <= bound, "%s side %d uplo %d trans %d diag %d: residual (%d, %d) = %g > %g",
                  what, side, uplo, trans, diag, i, j, err, bound);
    }
}

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, v.size() * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
std::vector<T> download(const T* d, size_t count) {
  std::vector<T> v(count);
  CHECK_CUDA(cudaMemcpy(v.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

template <typename T>
void run(cublasHandle_t h, blas_check::Random& r) {
  const C64 alpha_v(1.5, Api<T>::complex ? -0.5 : 0.0);
  const T alpha = Api<T>::make(alpha_v);
  for (cublasSideMode_t side : {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT})
    for (cublasFillMode_t uplo : {CUBLAS_FILL_MODE_LOWER, CUBLAS_FILL_MODE_UPPER})
      for (cublasOperation_t trans : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C})
        for (cublasDiagType_t diag : {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT}) {
          Problem<T> p = make_problem<T>(r, side, uplo, diag, 37, 23);
          T *da = upload(p.a), *db = upload(p.b);
          CHECK_CUBLAS(Api<T>::trsm(h, side, uplo, trans, diag, p.m, p.n, &alpha, da, p.lda, db, p.ldb));
          check(p, download(db, p.b.size()), alpha_v, side, uplo, trans, diag, "trsm");
          CHECK_CUDA(cudaFree(da));
          CHECK_CUDA(cudaFree(db));
        }
  // Batched, device alpha.
  {
    const int batch = 3;
    std::vector<Problem<T>> ps;
    std::vector<T*> as, bs;
    for (int i = 0; i < batch; ++i) {
      ps.push_back(make_problem<T>(r, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_DIAG_NON_UNIT, 9, 14));
      as.push_back(upload(ps.back().a));
      bs.push_back(upload(ps.back().b));
    }
    T** das = nullptr;
    T** dbs = nullptr;
    CHECK_CUDA(cudaMalloc(&das, batch * sizeof(T*)));
    CHECK_CUDA(cudaMalloc(&dbs, batch * sizeof(T*)));
    CHECK_CUDA(cudaMemcpy(das, as.data(), batch * sizeof(T*), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dbs, bs.data(), batch * sizeof(T*), cudaMemcpyHostToDevice));
    T* dalpha = upload(std::vector<T>{alpha});
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    CHECK_CUBLAS(Api<T>::batched(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_C, CUBLAS_DIAG_NON_UNIT,
                                 9, 14, dalpha, das, ps[0].lda, dbs, ps[0].ldb, batch));
    CHECK_CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    for (int i = 0; i < batch; ++i) {
      check(ps[i], download(bs[i], ps[i].b.size()), alpha_v, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_UPPER,
            CUBLAS_OP_C, CUBLAS_DIAG_NON_UNIT, "trsmBatched");
      CHECK_CUDA(cudaFree(as[i]));
      CHECK_CUDA(cudaFree(bs[i]));
    }
    CHECK_CUDA(cudaFree(das));
    CHECK_CUDA(cudaFree(dbs));
    CHECK_CUDA(cudaFree(dalpha));
  }
  // alpha = 0: B becomes zero and A is not read.
  {
    Problem<T> p = make_problem<T>(r, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_DIAG_NON_UNIT, 5, 4);
    T* db = upload(p.b);
    const T zero = Api<T>::make(0.0);
    CHECK_CUBLAS(Api<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, 5, 4,
                              &zero, nullptr, 5, db, p.ldb));
    auto got = download(db, p.b.size());
    for (int j = 0; j < 4; ++j)
      for (int i = 0; i < 5; ++i) EXPECT_TRUE(Api<T>::value(got[i + j * p.ldb]) == C64(0.0), "alpha 0 (%d, %d)", i, j);
    // Invalid arguments.
    EXPECT_STATUS(Api<T>::trsm(h, static_cast<cublasSideMode_t>(7), CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, 5, 4, &alpha, nullptr, 5, db, p.ldb), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_FULL, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, 5, 4, &alpha, nullptr, 5, db, p.ldb), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::trsm(h, CUBLAS_SIDE_RIGHT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, 5, 4, &alpha, nullptr, 3, db, p.ldb), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, 5, 4, &alpha, nullptr, 5, db, 4), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                               CUBLAS_DIAG_NON_UNIT, -1, 4, &alpha, nullptr, 5, db, p.ldb), CUBLAS_STATUS_INVALID_VALUE);
    CHECK_CUBLAS(Api<T>::trsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N,
                              CUBLAS_DIAG_NON_UNIT, 0, 4, &alpha, nullptr, 1, nullptr, 1));
    CHECK_CUDA(cudaFree(db));
  }
}

int main() {
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  blas_check::Random r(5);
  run<float>(h, r);
  run<double>(h, r);
  run<cuComplex>(h, r);
  run<cuDoubleComplex>(h, r);
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS trsm\n");
  return 0;
}
