// cuBLAS's batched LAPACK-like routines (S, D, C, Z), one family per argument:
//   getrf  getrfBatched: pivots and info against a host ?getf2 in the same precision,
//          |A - P L U| <= 4 (n + 2) u |P||L||U| elementwise in FP64, |L| <= 1, exact ties
//          (first index of the largest |re| + |im|), singular matrices (info, the
//          factorisation continuing), no pivoting, staged (shared memory) and unstaged sizes;
//   getrs  getrsBatched for N / T / C: |op(A) X - B| <= 6 (n + 2) u (op(|P||L||U|) |X| + |B|);
//   getri  getriBatched and matinvBatched: |A X - I| <= 6 (n + 2) u |P||L||U| |X|;
//   geqrf  geqrfBatched: Q rebuilt from the reflectors is unitary and Q R = A column by
//          column, and the representation (tau, beta's sign, v) is LAPACK's (an FP64 ?geqr2);
//   gels   gelsBatched: the normal equations A^H (A X - C) = 0 within the backward-error
//          bound, rows n..m of C holding the residual, rank-deficient devInfo.
// Each family covers batch counts 0, 1 and several, leading dimensions above the minimum
// (their padding holds NaN and must survive), zero dimensions, invalid arguments (status
// and host info) and a mutation the checker must reject.
#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "lapack_test.h"

namespace {

using blas_check::Random;

#define EXPECT_OK(message)                     \
  do {                                         \
    const std::string m_ = (message);          \
    EXPECT_TRUE(m_.empty(), "%s", m_.c_str()); \
  } while (0)
#define EXPECT_REJECTED(message, what) \
  EXPECT_TRUE(!(message).empty(), "the checker accepted %s", what)

std::string fmt(const char* format, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* format, ...) {
  char buffer[512];
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  return buffer;
}

int* upload_ints(const std::vector<int>& v) {
  return upload(v);
}
std::vector<int> download_ints(const int* d, size_t n) {
  return download(d, n);
}

// A matrix whose diagonal (i < min(rows, cols)) is moved by 3 with a random sign: well
// conditioned, pivots and reflector signs of both kinds.
template <typename T>
Matrix<T> conditioned_matrix(Random& r, int rows, int cols, int ld) {
  Matrix<T> m = random_matrix<T>(r, rows, cols, ld);
  for (int i = 0; i < std::min(rows, cols); ++i)
    m.at(i, i) = Api<T>::make(m.c64(i, i) + (r.next() < 0 ? -3.0 : 3.0));
  return m;
}

// ---------------------------------------------------------------------------------------
// getrf

// Checks getrf's output `lu` (pivots null: no pivoting) for the input a0.
template <typename T>
std::string check_getrf(const Matrix<T>& a0, const Matrix<T>& lu, const int* pivots, int info) {
  using S = typename Api<T>::Host;
  const int n = a0.rows;
  // The same algorithm on the host in the same precision: the pivots and info.
  std::vector<S> ref(a0.v.size());
  for (size_t i = 0; i < ref.size(); ++i) ref[i] = Api<T>::host(a0.v[i]);
  std::vector<int> ref_pivots(n);
  const int ref_info = host_getf2(ref, a0.ld, n, pivots != nullptr ? &ref_pivots : nullptr);
  if (info != ref_info) return fmt("n %d: info %d, reference %d", n, info, ref_info);
  if (pivots != nullptr)
    for (int j = 0; j < n; ++j)
      if (pivots[j] != ref_pivots[j])
        return fmt("n %d: pivot %d is %d, reference %d", n, j, pivots[j], ref_pivots[j]);
  // The factorisation: |A - P L U| <= 4 (n + 2) u |P||L||U|.
  const LuFactors f = lu_factors(lu, pivots);
  const double u = unit<T>();
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      const double err = std::abs(a0.c64(i, j) - f.plu[i][j]);
      const double bound = 4.0 * (n + 2) * u * f.abs_plu[i][j].real();
      if (!(err <= bound)) return fmt("n %d: |A - PLU| at (%d, %d) = %g > %g", n, i, j, err, bound);
    }
  // Partial pivoting bounds the multipliers: |l| <= 1 (|re| + |im| pivoting: <= sqrt 2).
  if (pivots != nullptr) {
    const double limit = (Api<T>::complex ? std::sqrt(2.0) : 1.0) * (1 + 4 * u);
    for (int j = 0; j < n; ++j)
      for (int i = j + 1; i < n; ++i)
        if (!(std::abs(lu.c64(i, j)) <= limit))
          return fmt("n %d: |L(%d, %d)| > %g", n, i, j, limit);
  }
  if (!padding_intact(lu)) return fmt("n %d: the padding rows (lda %d) were written", n, lu.ld);
  return "";
}

struct GetrfResult {
  std::vector<int> pivots, info;
};

// Runs getrfBatched on `mats` (all n x n, same lda) and returns the factors in place.
template <typename T>
GetrfResult run_getrf(cublasHandle_t h, std::vector<Matrix<T>>& mats, bool pivoting) {
  const int batch = int(mats.size()), n = mats[0].rows, lda = mats[0].ld;
  DeviceBatch<T> d(mats);
  int* dpiv = upload_ints(std::vector<int>(std::max(n * batch, 1), -5));
  int* dinfo = upload_ints(std::vector<int>(batch, -7));
  CHECK_CUBLAS(Api<T>::getrf(h, n, d.array, lda, pivoting ? dpiv : nullptr, dinfo, batch));
  GetrfResult r{download_ints(dpiv, size_t(n) * batch), download_ints(dinfo, batch)};
  for (int i = 0; i < batch; ++i) mats[i] = d.get(i);
  CHECK_CUDA(cudaFree(dpiv));
  CHECK_CUDA(cudaFree(dinfo));
  return r;
}

template <typename T>
void test_getrf(cublasHandle_t h, Random& r) {
  const char* t = Api<T>::name;
  // Random matrices, several per batch; the last is too large for the shared-memory stage.
  for (int n : {1, 4, 13, 32, 45, unstaged_order<T>()}) {
    const int batch = n >= 45 ? 1 : 3;
    std::vector<Matrix<T>> a0, lu;
    for (int i = 0; i < batch; ++i) a0.push_back(random_matrix<T>(r, n, n, n + 3));
    lu = a0;
    const GetrfResult res = run_getrf(h, lu, true);
    for (int i = 0; i < batch; ++i) {
      const std::string m =
          check_getrf(a0[i], lu[i], res.pivots.data() + size_t(i) * n, res.info[i]);
      EXPECT_TRUE(m.empty(), "%sgetrfBatched %s", t, m.c_str());
    }
    if (n == 13) {  // mutations: a wrong multiplier, a wrong pivot
      Matrix<T> bad = lu[0];
      bad.at(n - 1, 0) = Api<T>::make(bad.c64(n - 1, 0) + 1e-3);
      EXPECT_REJECTED(check_getrf(a0[0], bad, res.pivots.data(), res.info[0]), "a perturbed L");
      std::vector<int> piv(res.pivots.begin(), res.pivots.begin() + n);
      piv[0] = piv[0] == n ? n - 1 : n;
      EXPECT_REJECTED(check_getrf(a0[0], lu[0], piv.data(), res.info[0]), "a wrong pivot");
    }
  }
  // Exact ties and the |re| + |im| magnitude: column 0 of A is [1, -3, 3, 2] (real; the
  // first of -3 and 3 wins) or [3, 1+2i, 2+2i, -2-2i] (|re| + |im| = 3, 3, 4, 4: row 3,
  // although |3| is the largest modulus).
  {
    Matrix<T> a = random_matrix<T>(r, 4, 4, 4);
    const C64 real_col[4] = {1.0, -3.0, 3.0, 2.0};
    const C64 complex_col[4] = {3.0, {1.0, 2.0}, {2.0, 2.0}, {-2.0, -2.0}};
    for (int i = 0; i < 4; ++i)
      a.at(i, 0) = Api<T>::make(Api<T>::complex ? complex_col[i] : real_col[i]);
    std::vector<Matrix<T>> lu{a};
    const GetrfResult res = run_getrf(h, lu, true);
    const int expected = Api<T>::complex ? 3 : 2;
    EXPECT_TRUE(res.pivots[0] == expected, "%sgetrfBatched tie: pivot %d, expected %d", t,
                res.pivots[0], expected);
    EXPECT_OK(check_getrf(a, lu[0], res.pivots.data(), res.info[0]));
  }
  // Singular matrices: zero columns give the first zero pivot; the factorisation goes on.
  {
    const int n = 9;
    std::vector<Matrix<T>> a0;
    for (int i = 0; i < 3; ++i) a0.push_back(random_matrix<T>(r, n, n, n + 1));
    for (int i = 0; i < n; ++i) {
      a0[0].at(i, 2) = Api<T>::make(0.0);
      a0[1].at(i, 5) = Api<T>::make(0.0);
      a0[1].at(i, 1) = Api<T>::make(0.0);
    }
    std::vector<Matrix<T>> lu = a0;
    const GetrfResult res = run_getrf(h, lu, true);
    const int expected[3] = {3, 2, 0};
    for (int i = 0; i < 3; ++i) {
      EXPECT_TRUE(res.info[i] == expected[i], "%sgetrfBatched singular: info %d, expected %d", t,
                  res.info[i], expected[i]);
      EXPECT_OK(check_getrf(a0[i], lu[i], res.pivots.data() + i * n, res.info[i]));
    }
  }
  // No pivoting (PivotArray null), diagonally dominant matrices.
  {
    std::vector<Matrix<T>> a0;
    for (int i = 0; i < 2; ++i) {
      a0.push_back(random_matrix<T>(r, 12, 12, 14));
      for (int k = 0; k < 12; ++k) a0.back().at(k, k) = Api<T>::make(a0.back().c64(k, k) + 14.0);
    }
    std::vector<Matrix<T>> lu = a0;
    const GetrfResult res = run_getrf(h, lu, false);
    for (int i = 0; i < 2; ++i) EXPECT_OK(check_getrf(a0[i], lu[i], nullptr, res.info[i]));
  }
  // n = 0 writes info 0; batch 0 touches nothing; invalid arguments.
  {
    int* dinfo = upload_ints({-7, -7});
    CHECK_CUBLAS(Api<T>::getrf(h, 0, nullptr, 1, nullptr, dinfo, 2));
    auto info = download_ints(dinfo, 2);
    EXPECT_TRUE(info[0] == 0 && info[1] == 0, "%sgetrfBatched n = 0: info %d %d", t, info[0],
                info[1]);
    CHECK_CUDA(cudaMemcpy(dinfo, std::vector<int>{-7, -7}.data(), 2 * sizeof(int),
                          cudaMemcpyHostToDevice));
    CHECK_CUBLAS(Api<T>::getrf(h, 4, nullptr, 4, nullptr, dinfo, 0));
    info = download_ints(dinfo, 2);
    EXPECT_TRUE(info[0] == -7, "%sgetrfBatched batch 0 wrote info", t);
    std::vector<Matrix<T>> one{random_matrix<T>(r, 4, 4, 4)};
    DeviceBatch<T> d(one);
    int* dpiv = upload_ints(std::vector<int>(4, 0));
    EXPECT_STATUS(Api<T>::getrf(h, -1, d.array, 4, dpiv, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getrf(h, 4, d.array, 3, dpiv, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getrf(h, 4, d.array, 4, dpiv, dinfo, -1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getrf(h, 0, d.array, 0, dpiv, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getrf(nullptr, 4, d.array, 4, dpiv, dinfo, 1),
                  CUBLAS_STATUS_NOT_INITIALIZED);
    CHECK_CUDA(cudaFree(dpiv));
    CHECK_CUDA(cudaFree(dinfo));
  }
}

// ---------------------------------------------------------------------------------------
// getrs

// |op(A) X - B| <= 6 (n + 2) u (op(|P||L||U|) |X| + |B|), elementwise.
template <typename T>
std::string check_getrs(const Matrix<T>& a0, const LuFactors& f, cublasOperation_t trans,
                        const Matrix<T>& b0, const Matrix<T>& x) {
  const int n = a0.rows, nrhs = b0.cols;
  const double u = unit<T>();
  auto op_a = [&](int i, int k) {
    if (trans == CUBLAS_OP_N) return a0.c64(i, k);
    return trans == CUBLAS_OP_C ? std::conj(a0.c64(k, i)) : a0.c64(k, i);
  };
  auto op_m = [&](int i, int k) {
    return trans == CUBLAS_OP_N ? f.abs_plu[i][k].real() : f.abs_plu[k][i].real();
  };
  for (int j = 0; j < nrhs; ++j)
    for (int i = 0; i < n; ++i) {
      C64 sum = 0;
      double mag = 0;
      for (int k = 0; k < n; ++k) {
        sum += op_a(i, k) * x.c64(k, j);
        mag += op_m(i, k) * std::abs(x.c64(k, j));
      }
      const double err = std::abs(sum - b0.c64(i, j));
      const double bound = 6.0 * (n + 2) * u * (mag + std::abs(b0.c64(i, j)));
      if (!(err <= bound))
        return fmt("n %d trans %d: residual (%d, %d) = %g > %g", n, int(trans), i, j, err, bound);
    }
  if (!padding_intact(x)) return fmt("n %d: the padding rows of B (ldb %d) were written", n, x.ld);
  return "";
}

template <typename T>
void test_getrs(cublasHandle_t h, Random& r) {
  const char* t = Api<T>::name;
  for (int n : {1, 7, 24, 40}) {
    for (bool pivoting : {true, false}) {
      if (!pivoting && n != 24) continue;
      const int batch = 2;
      std::vector<Matrix<T>> a0, lu;
      for (int i = 0; i < batch; ++i) {
        a0.push_back(random_matrix<T>(r, n, n, n + 2));
        if (!pivoting)  // diagonally dominant: no pivoting needed
          for (int k = 0; k < n; ++k)
            a0.back().at(k, k) = Api<T>::make(a0.back().c64(k, k) + double(n));
      }
      lu = a0;
      const GetrfResult fr = run_getrf(h, lu, pivoting);
      DeviceBatch<T> dlu(lu);
      int* dpiv = upload_ints(fr.pivots);
      for (cublasOperation_t trans : {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C}) {
        const int nrhs = trans == CUBLAS_OP_T ? 1 : 3;
        std::vector<Matrix<T>> b0;
        for (int i = 0; i < batch; ++i) b0.push_back(random_matrix<T>(r, n, nrhs, n + 3));
        DeviceBatch<T> db(b0);
        int info = -99;
        CHECK_CUBLAS(Api<T>::getrs(h, trans, n, nrhs, dlu.const_array(), n + 2,
                                   pivoting ? dpiv : nullptr, db.array, n + 3, &info, batch));
        EXPECT_TRUE(info == 0, "%sgetrsBatched info %d", t, info);
        for (int i = 0; i < batch; ++i) {
          EXPECT_TRUE(fr.info[i] == 0, "%sgetrfBatched info %d", t, fr.info[i]);
          const LuFactors f =
              lu_factors(lu[i], pivoting ? fr.pivots.data() + size_t(i) * n : nullptr);
          const Matrix<T> x = db.get(i);
          const std::string m = check_getrs(a0[i], f, trans, b0[i], x);
          EXPECT_TRUE(m.empty(), "%sgetrsBatched %s", t, m.c_str());
          if (n == 7 && i == 0 && trans == CUBLAS_OP_C) {  // mutation: a perturbed solution
            Matrix<T> bad = x;
            bad.at(3, 0) = Api<T>::make(bad.c64(3, 0) * (1 + 1e-3));
            EXPECT_REJECTED(check_getrs(a0[i], f, trans, b0[i], bad), "a perturbed solution");
          }
        }
      }
      CHECK_CUDA(cudaFree(dpiv));
    }
  }
  // Host info: 0, or -i for the i-th bad argument (handle not counted); empty problems.
  std::vector<Matrix<T>> one{random_matrix<T>(r, 4, 2, 4)};
  DeviceBatch<T> d(one);
  int* dpiv = upload_ints({1, 2, 3, 4});
  const T* const* a = d.const_array();
  struct Bad {
    cublasOperation_t trans;
    int n, nrhs, lda, ldb, batch, info;
  };
  for (const Bad& b : {Bad{static_cast<cublasOperation_t>(9), 4, 2, 4, 4, 1, -1},
                       Bad{CUBLAS_OP_N, -1, 2, 4, 4, 1, -2}, Bad{CUBLAS_OP_N, 4, -1, 4, 4, 1, -3},
                       Bad{CUBLAS_OP_N, 4, 2, 3, 4, 1, -5}, Bad{CUBLAS_OP_T, 4, 2, 4, 3, 1, -8},
                       Bad{CUBLAS_OP_N, 4, 2, 4, 4, -1, -10}}) {
    int info = 0;
    EXPECT_STATUS(
        Api<T>::getrs(h, b.trans, b.n, b.nrhs, a, b.lda, dpiv, d.array, b.ldb, &info, b.batch),
        CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_TRUE(info == b.info, "%sgetrsBatched: info %d, expected %d", t, info, b.info);
  }
  EXPECT_STATUS(Api<T>::getrs(h, CUBLAS_OP_N, 4, 2, a, 4, dpiv, d.array, 4, nullptr, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  int info = -99;
  CHECK_CUBLAS(Api<T>::getrs(h, CUBLAS_OP_N, 0, 2, nullptr, 1, nullptr, nullptr, 1, &info, 3));
  EXPECT_TRUE(info == 0, "%sgetrsBatched n = 0: info %d", t, info);
  info = -99;
  CHECK_CUBLAS(Api<T>::getrs(h, CUBLAS_OP_N, 4, 0, a, 4, dpiv, nullptr, 4, &info, 1));
  EXPECT_TRUE(info == 0, "%sgetrsBatched nrhs = 0: info %d", t, info);
  CHECK_CUBLAS(Api<T>::getrs(h, CUBLAS_OP_N, 4, 2, a, 4, dpiv, d.array, 4, &info, 0));
  const Matrix<T> untouched = d.get(0);
  EXPECT_TRUE(std::memcmp(untouched.v.data(), one[0].v.data(), one[0].v.size() * sizeof(T)) == 0,
              "%sgetrsBatched nrhs = 0 / batch 0 wrote B", t);
  CHECK_CUDA(cudaFree(dpiv));
}

// ---------------------------------------------------------------------------------------
// getri, matinv

// |A X - I| <= c (n + 2) u (M |X|), M = |P||L||U|.
template <typename T>
std::string check_inverse(const Matrix<T>& a0, const Dense& m, const Matrix<T>& x, double c) {
  const int n = a0.rows;
  const double u = unit<T>();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      C64 sum = i == j ? -1.0 : 0.0;
      double mag = 0;
      for (int k = 0; k < n; ++k) {
        sum += a0.c64(i, k) * x.c64(k, j);
        mag += m[i][k].real() * std::abs(x.c64(k, j));
      }
      const double bound = c * (n + 2) * u * mag;
      if (!(std::abs(sum) <= bound))
        return fmt("n %d: |A X - I| at (%d, %d) = %g > %g", n, i, j, std::abs(sum), bound);
    }
  if (!padding_intact(x))
    return fmt("n %d: the padding rows of the inverse (ld %d) were written", n, x.ld);
  return "";
}

// |P||L||U| of A from an FP64 host ?getf2 (the bound of matinv, whose factors stay inside).
template <typename T>
Dense host_lu_magnitude(const Matrix<T>& a0) {
  const int n = a0.rows;
  std::vector<C64> a(a0.v.size());
  for (size_t i = 0; i < a.size(); ++i) a[i] = Api<T>::value(a0.v[i]);
  std::vector<int> piv(n);
  host_getf2(a, a0.ld, n, &piv);
  Matrix<cuDoubleComplex> lu(n, n, a0.ld);
  for (size_t i = 0; i < a.size(); ++i) lu.v[i] = make_cuDoubleComplex(a[i].real(), a[i].imag());
  return lu_factors(lu, piv.data()).abs_plu;
}

template <typename T>
void test_getri(cublasHandle_t h, Random& r) {
  const char* t = Api<T>::name;
  for (int n : {1, 6, 19, 33}) {
    for (bool pivoting : {true, false}) {
      if (!pivoting && n != 19) continue;
      const int batch = n == 33 ? 1 : 2;
      std::vector<Matrix<T>> a0, c;
      for (int i = 0; i < batch; ++i) {
        a0.push_back(random_matrix<T>(r, n, n, n + 1));
        if (!pivoting)
          for (int k = 0; k < n; ++k)
            a0.back().at(k, k) = Api<T>::make(a0.back().c64(k, k) + double(n));
        c.push_back(random_matrix<T>(r, n, n, n + 2));
      }
      std::vector<Matrix<T>> lu = a0;
      const GetrfResult fr = run_getrf(h, lu, pivoting);
      DeviceBatch<T> dlu(lu), dc(c);
      int* dpiv = upload_ints(fr.pivots);
      int* dinfo = upload_ints(std::vector<int>(batch, -7));
      CHECK_CUBLAS(Api<T>::getri(h, n, dlu.const_array(), n + 1, pivoting ? dpiv : nullptr,
                                 dc.array, n + 2, dinfo, batch));
      const auto info = download_ints(dinfo, batch);
      for (int i = 0; i < batch; ++i) {
        EXPECT_TRUE(info[i] == 0, "%sgetriBatched info %d", t, info[i]);
        const LuFactors f =
            lu_factors(lu[i], pivoting ? fr.pivots.data() + size_t(i) * n : nullptr);
        const Matrix<T> x = dc.get(i);
        const std::string m = check_inverse(a0[i], f.abs_plu, x, 6.0);
        EXPECT_TRUE(m.empty(), "%sgetriBatched %s", t, m.c_str());
        if (n == 6 && i == 1) {
          Matrix<T> bad = x;
          bad.at(2, 4) = Api<T>::make(bad.c64(2, 4) * (1 + 1e-3));
          EXPECT_REJECTED(check_inverse(a0[i], f.abs_plu, bad, 6.0), "a perturbed inverse");
        }
      }
      CHECK_CUDA(cudaFree(dpiv));
      CHECK_CUDA(cudaFree(dinfo));
    }
  }
  // A singular factor: info is the first zero diagonal element of U.
  {
    const int n = 8;
    std::vector<Matrix<T>> a0{random_matrix<T>(r, n, n, n), random_matrix<T>(r, n, n, n)};
    for (int i = 0; i < n; ++i) a0[1].at(i, 4) = Api<T>::make(0.0);
    std::vector<Matrix<T>> lu = a0, c = a0;
    const GetrfResult fr = run_getrf(h, lu, true);
    EXPECT_TRUE(fr.info[0] == 0 && fr.info[1] == 5, "%sgetrfBatched singular: info %d %d", t,
                fr.info[0], fr.info[1]);
    DeviceBatch<T> dlu(lu), dc(c);
    int* dpiv = upload_ints(fr.pivots);
    int* dinfo = upload_ints({-7, -7});
    CHECK_CUBLAS(Api<T>::getri(h, n, dlu.const_array(), n, dpiv, dc.array, n, dinfo, 2));
    const auto info = download_ints(dinfo, 2);
    EXPECT_TRUE(info[0] == 0 && info[1] == 5, "%sgetriBatched singular: info %d %d, expected 0 5",
                t, info[0], info[1]);
    CHECK_CUDA(cudaFree(dpiv));
    CHECK_CUDA(cudaFree(dinfo));
  }
  // matinvBatched (n <= 32): the inverse, a singular matrix's info.
  for (int n : {1, 8, 32}) {
    const int batch = n == 32 ? 1 : 3;
    std::vector<Matrix<T>> a0, x;
    for (int i = 0; i < batch; ++i) {
      a0.push_back(random_matrix<T>(r, n, n, n + 1));
      x.push_back(random_matrix<T>(r, n, n, n + 3));
    }
    if (n == 8)
      for (int i = 0; i < n; ++i) a0[2].at(i, 6) = Api<T>::make(0.0);
    DeviceBatch<T> da(a0), dx(x);
    int* dinfo = upload_ints(std::vector<int>(batch, -7));
    CHECK_CUBLAS(Api<T>::matinv(h, n, da.const_array(), n + 1, dx.array, n + 3, dinfo, batch));
    const auto info = download_ints(dinfo, batch);
    for (int i = 0; i < batch; ++i) {
      if (n == 8 && i == 2) {
        EXPECT_TRUE(info[i] == 7, "%smatinvBatched singular: info %d, expected 7", t, info[i]);
        continue;
      }
      EXPECT_TRUE(info[i] == 0, "%smatinvBatched info %d", t, info[i]);
      const std::string m = check_inverse(a0[i], host_lu_magnitude(a0[i]), dx.get(i), 8.0);
      EXPECT_TRUE(m.empty(), "%smatinvBatched %s", t, m.c_str());
      EXPECT_TRUE(padding_intact(da.get(i)), "%smatinvBatched wrote A", t);
    }
    CHECK_CUDA(cudaFree(dinfo));
  }
  // Empty problems and invalid arguments.
  {
    int* dinfo = upload_ints({-7, -7});
    CHECK_CUBLAS(Api<T>::getri(h, 0, nullptr, 1, nullptr, nullptr, 1, dinfo, 2));
    auto info = download_ints(dinfo, 2);
    EXPECT_TRUE(info[0] == 0 && info[1] == 0, "%sgetriBatched n = 0: info %d %d", t, info[0],
                info[1]);
    CHECK_CUDA(cudaMemcpy(dinfo, std::vector<int>{-7, -7}.data(), 2 * sizeof(int),
                          cudaMemcpyHostToDevice));
    CHECK_CUBLAS(Api<T>::matinv(h, 0, nullptr, 1, nullptr, 1, dinfo, 2));
    info = download_ints(dinfo, 2);
    EXPECT_TRUE(info[0] == 0 && info[1] == 0, "%smatinvBatched n = 0: info %d %d", t, info[0],
                info[1]);
    std::vector<Matrix<T>> one{random_matrix<T>(r, 4, 4, 4)};
    DeviceBatch<T> d(one), c(one);
    int* dpiv = upload_ints({1, 2, 3, 4});
    const T* const* a = d.const_array();
    // Batch 0: nothing read or written.
    CHECK_CUDA(cudaMemcpy(dinfo, std::vector<int>{-7, -7}.data(), 2 * sizeof(int),
                          cudaMemcpyHostToDevice));
    CHECK_CUBLAS(Api<T>::getri(h, 4, a, 4, dpiv, c.array, 4, dinfo, 0));
    CHECK_CUBLAS(Api<T>::matinv(h, 4, a, 4, c.array, 4, dinfo, 0));
    info = download_ints(dinfo, 2);
    EXPECT_TRUE(info[0] == -7 && std::memcmp(c.get(0).v.data(), one[0].v.data(),
                                             one[0].v.size() * sizeof(T)) == 0,
                "%sgetriBatched / matinvBatched batch 0 wrote", t);
    EXPECT_STATUS(Api<T>::getri(h, -1, a, 4, dpiv, c.array, 4, dinfo, 1),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getri(h, 4, a, 3, dpiv, c.array, 4, dinfo, 1),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getri(h, 4, a, 4, dpiv, c.array, 3, dinfo, 1),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::getri(h, 4, a, 4, dpiv, c.array, 4, dinfo, -1),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::matinv(h, 33, a, 33, c.array, 33, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::matinv(h, -1, a, 4, c.array, 4, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::matinv(h, 4, a, 3, c.array, 4, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::matinv(h, 4, a, 4, c.array, 3, dinfo, 1), CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_STATUS(Api<T>::matinv(h, 4, a, 4, c.array, 4, dinfo, -1), CUBLAS_STATUS_INVALID_VALUE);
    CHECK_CUDA(cudaFree(dpiv));
    CHECK_CUDA(cudaFree(dinfo));
  }
}

// ---------------------------------------------------------------------------------------
// geqrf

// geqrf's output `qr` (R on and above the diagonal, v below) and tau for the input a0:
// Q = H(0) ... H(k-1) unitary, Q R = A column by column, and the representation is
// LAPACK's (the FP64 host ?geqr2: tau, beta's sign, v; R's diagonal real).
template <typename T>
std::string check_geqrf(const Matrix<T>& a0, const Matrix<T>& qr, const std::vector<T>& tau) {
  const int m = a0.rows, n = a0.cols, k = std::min(m, n);
  const double u = unit<T>();
  Dense a = to_dense(qr);
  std::vector<C64> t(k);
  for (int i = 0; i < k; ++i) t[i] = Api<T>::value(tau[i]);
  const Dense q = build_q(a, t);
  const Dense qhq = matmul(adjoint(q, true), q);
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < m; ++j) {
      const double err = std::abs(qhq[i][j] - (i == j ? 1.0 : 0.0));
      if (!(err <= 4.0 * (m + 2) * u))
        return fmt("%dx%d: |Q^H Q - I| at (%d, %d) = %g", m, n, i, j, err);
    }
  Dense r = dense(m, n);
  for (int i = 0; i < k; ++i)
    for (int j = i; j < n; ++j) r[i][j] = a[i][j];
  const Dense qr_product = matmul(q, r);
  for (int j = 0; j < n; ++j) {
    double err = 0, norm = 0;
    for (int i = 0; i < m; ++i) {
      err += std::norm(qr_product[i][j] - a0.c64(i, j));
      norm += std::norm(a0.c64(i, j));
    }
    const double bound = 2.0 * (m + 2) * (n + 2) * u * std::sqrt(norm);
    if (!(std::sqrt(err) <= bound))
      return fmt("%dx%d: ||QR - A|| in column %d = %g > %g", m, n, j, std::sqrt(err), bound);
  }
  // The representation: the FP64 reference's tau, R and v.
  const HostQr ref = host_geqr2(to_dense(a0), Api<T>::complex);
  const double tol = 1000.0 * (m + n) * u;
  double scale = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) scale = std::max(scale, std::abs(a0.c64(i, j)));
  for (int i = 0; i < k; ++i) {
    if (!(std::abs(t[i] - ref.tau[i]) <= tol))
      return fmt("%dx%d: tau[%d] differs from LAPACK's", m, n, i);
    if (a[i][i].imag() != 0.0) return fmt("%dx%d: R(%d, %d) is not real", m, n, i, i);
  }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) {
      const double limit = i <= j ? tol * std::max(scale, 1.0) * std::sqrt(double(m)) : tol;
      if (i > j && j >= k) continue;
      if (!(std::abs(a[i][j] - ref.a[i][j]) <= limit))
        return fmt("%dx%d: %s(%d, %d) differs from LAPACK's", m, n, i <= j ? "R" : "v", i, j);
    }
  if (!padding_intact(qr)) return fmt("%dx%d: the padding rows (lda %d) were written", m, n, qr.ld);
  return "";
}

template <typename T>
void test_geqrf(cublasHandle_t h, Random& r) {
  const char* t = Api<T>::name;
  struct Shape {
    int m, n;
  };
  const int big = unstaged_order<T>();  // worked on in global memory
  for (const Shape s : {Shape{1, 1}, Shape{6, 4}, Shape{4, 6}, Shape{20, 20}, Shape{37, 13},
                        Shape{7, 5}, Shape{big, big}}) {
    const int m = s.m, n = s.n, k = std::min(m, n), batch = m >= 37 ? 1 : 2;
    std::vector<Matrix<T>> a0;
    std::vector<T*> taus;
    for (int i = 0; i < batch; ++i) {
      a0.push_back(conditioned_matrix<T>(r, m, n, m + 2));
      taus.push_back(upload(std::vector<T>(k, Api<T>::make(7.0))));
    }
    if (m == 7)  // a zero column: tau = 0 and R(2, 2) = 0 there
      for (int i = 0; i < m; ++i) a0[1].at(i, 2) = Api<T>::make(0.0);
    DeviceBatch<T> d(a0);
    T** dtau = upload(taus);
    int info = -99;
    CHECK_CUBLAS(Api<T>::geqrf(h, m, n, d.array, m + 2, dtau, &info, batch));
    EXPECT_TRUE(info == 0, "%sgeqrfBatched info %d", t, info);
    for (int i = 0; i < batch; ++i) {
      const Matrix<T> qr = d.get(i);
      const std::vector<T> tau = download(taus[i], k);
      const std::string msg = check_geqrf(a0[i], qr, tau);
      EXPECT_TRUE(msg.empty(), "%sgeqrfBatched %s", t, msg.c_str());
      if (m == 7 && i == 1)
        EXPECT_TRUE(Api<T>::value(tau[2]) == 0.0 && qr.c64(2, 2) == 0.0,
                    "%sgeqrfBatched zero column: tau %g", t, std::abs(Api<T>::value(tau[2])));
      if (m == 6 && i == 0) {
        // Mutations: the other sign convention (a valid QR, not LAPACK's), a perturbed tau.
        const HostQr flip = host_geqr2(to_dense(a0[i]), Api<T>::complex, /*flip=*/true);
        Matrix<T> other = qr;
        std::vector<T> other_tau(k);
        for (int c = 0; c < n; ++c)
          for (int row = 0; row < m; ++row) other.at(row, c) = Api<T>::make(flip.a[row][c]);
        for (int c = 0; c < k; ++c) other_tau[c] = Api<T>::make(flip.tau[c]);
        EXPECT_REJECTED(check_geqrf(a0[i], other, other_tau), "the opposite sign of beta");
        std::vector<T> bad_tau = tau;
        bad_tau[1] = Api<T>::make(Api<T>::value(bad_tau[1]) * (1 + 1e-3));
        EXPECT_REJECTED(check_geqrf(a0[i], qr, bad_tau), "a perturbed tau");
      }
      CHECK_CUDA(cudaFree(taus[i]));
    }
    CHECK_CUDA(cudaFree(dtau));
  }
  // Host info: -i for the i-th bad argument; empty problems.
  std::vector<Matrix<T>> one{random_matrix<T>(r, 4, 3, 4)};
  DeviceBatch<T> d(one);
  T* tau = upload(std::vector<T>(3));
  T** dtau = upload(std::vector<T*>{tau});
  struct Bad {
    int m, n, lda, batch, info;
  };
  for (const Bad& b :
       {Bad{-1, 3, 4, 1, -1}, Bad{4, -1, 4, 1, -2}, Bad{4, 3, 3, 1, -4}, Bad{4, 3, 4, -1, -7}}) {
    int info = 0;
    EXPECT_STATUS(Api<T>::geqrf(h, b.m, b.n, d.array, b.lda, dtau, &info, b.batch),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_TRUE(info == b.info, "%sgeqrfBatched: info %d, expected %d", t, info, b.info);
  }
  EXPECT_STATUS(Api<T>::geqrf(h, 4, 3, d.array, 4, dtau, nullptr, 1), CUBLAS_STATUS_INVALID_VALUE);
  int info = -99;
  CHECK_CUBLAS(Api<T>::geqrf(h, 0, 3, nullptr, 1, nullptr, &info, 2));
  EXPECT_TRUE(info == 0, "%sgeqrfBatched m = 0: info %d", t, info);
  CHECK_CUBLAS(Api<T>::geqrf(h, 4, 0, nullptr, 4, nullptr, &info, 2));
  CHECK_CUBLAS(Api<T>::geqrf(h, 4, 3, d.array, 4, dtau, &info, 0));
  EXPECT_TRUE(std::memcmp(d.get(0).v.data(), one[0].v.data(), one[0].v.size() * sizeof(T)) == 0,
              "%sgeqrfBatched batch 0 wrote A", t);
  CHECK_CUDA(cudaFree(tau));
  CHECK_CUDA(cudaFree(dtau));
}

// ---------------------------------------------------------------------------------------
// gels

// X = C(0:n, :) solves min ||A X - C0||: ||A^H (A x - c)|| and | ||C(n:m)|| - ||A x - c|| |
// <= 4 (m + 2)(n + 2) u ||A||_F (||A||_F ||x|| + ||c||) per column; A holds LAPACK's R.
template <typename T>
std::string check_gels(const Matrix<T>& a0, const Matrix<T>& c0, const Matrix<T>& a,
                       const Matrix<T>& c) {
  const int m = a0.rows, n = a0.cols, nrhs = c0.cols;
  const double u = unit<T>();
  double anorm = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < m; ++i) anorm += std::norm(a0.c64(i, j));
  anorm = std::sqrt(anorm);
  for (int j = 0; j < nrhs; ++j) {
    std::vector<C64> res(m);
    double xnorm = 0, cnorm = 0, rnorm = 0, tail = 0;
    for (int k = 0; k < n; ++k) xnorm += std::norm(c.c64(k, j));
    for (int i = 0; i < m; ++i) {
      res[i] = -c0.c64(i, j);
      for (int k = 0; k < n; ++k) res[i] += a0.c64(i, k) * c.c64(k, j);
      cnorm += std::norm(c0.c64(i, j));
      rnorm += std::norm(res[i]);
      if (i >= n) tail += std::norm(c.c64(i, j));
    }
    const double bound =
        4.0 * (m + 2) * (n + 2) * u * anorm * (anorm * std::sqrt(xnorm) + std::sqrt(cnorm));
    for (int k = 0; k < n; ++k) {
      C64 g = 0;
      for (int i = 0; i < m; ++i) g += std::conj(a0.c64(i, k)) * res[i];
      if (!(std::abs(g) <= bound))
        return fmt("%dx%d: (A^H r)(%d) in column %d = %g > %g", m, n, k, j, std::abs(g), bound);
    }
    if (!(std::abs(std::sqrt(tail) - std::sqrt(rnorm)) <= bound / std::max(anorm, 1e-300)))
      return fmt("%dx%d: rows n..m of C (%g) are not the residual (%g)", m, n, std::sqrt(tail),
                 std::sqrt(rnorm));
  }
  const HostQr ref = host_geqr2(to_dense(a0), Api<T>::complex);
  const double tol = 1000.0 * (m + n) * u * std::max(anorm, 1.0);
  for (int j = 0; j < n; ++j)
    for (int i = 0; i <= j; ++i)
      if (!(std::abs(a.c64(i, j) - ref.a[i][j]) <= tol))
        return fmt("%dx%d: R(%d, %d) differs from LAPACK's", m, n, i, j);
  if (!padding_intact(a) || !padding_intact(c))
    return fmt("%dx%d: padding rows were written", m, n);
  return "";
}

template <typename T>
void test_gels(cublasHandle_t h, Random& r) {
  const char* t = Api<T>::name;
  struct Shape {
    int m, n, nrhs;
  };
  const int big = unstaged_order<T>();  // worked on in global memory
  for (const Shape s : {Shape{1, 1, 1}, Shape{8, 5, 2}, Shape{16, 16, 1}, Shape{40, 12, 3},
                        Shape{big + 4, big, 2}}) {
    const int m = s.m, n = s.n, nrhs = s.nrhs, batch = m >= 40 ? 1 : 2;
    std::vector<Matrix<T>> a0, c0;
    for (int i = 0; i < batch; ++i) {
      a0.push_back(conditioned_matrix<T>(r, m, n, m + 1));
      c0.push_back(random_matrix<T>(r, m, nrhs, m + 3));
    }
    DeviceBatch<T> da(a0), dc(c0);
    int* dinfo = upload_ints(std::vector<int>(batch, -7));
    int info = -99;
    CHECK_CUBLAS(Api<T>::gels(h, CUBLAS_OP_N, m, n, nrhs, da.array, m + 1, dc.array, m + 3, &info,
                              dinfo, batch));
    EXPECT_TRUE(info == 0, "%sgelsBatched info %d", t, info);
    const auto dev_info = download_ints(dinfo, batch);
    for (int i = 0; i < batch; ++i) {
      EXPECT_TRUE(dev_info[i] == 0, "%sgelsBatched devInfo %d", t, dev_info[i]);
      const Matrix<T> a = da.get(i), c = dc.get(i);
      const std::string msg = check_gels(a0[i], c0[i], a, c);
      EXPECT_TRUE(msg.empty(), "%sgelsBatched %s", t, msg.c_str());
      if (m == 8 && i == 0) {
        Matrix<T> bad = c;
        bad.at(1, 1) = Api<T>::make(bad.c64(1, 1) + 1e-3);
        EXPECT_REJECTED(check_gels(a0[i], c0[i], a, bad), "a perturbed least-squares solution");
      }
    }
    CHECK_CUDA(cudaFree(dinfo));
  }
  // A rank-deficient matrix (zero column 1): devInfo 2; a null devInfoArray is accepted.
  {
    std::vector<Matrix<T>> a0{conditioned_matrix<T>(r, 6, 4, 6), conditioned_matrix<T>(r, 6, 4, 6)};
    for (int i = 0; i < 6; ++i) a0[1].at(i, 1) = Api<T>::make(0.0);
    std::vector<Matrix<T>> c0{random_matrix<T>(r, 6, 1, 6), random_matrix<T>(r, 6, 1, 6)};
    DeviceBatch<T> da(a0), dc(c0);
    int* dinfo = upload_ints({-7, -7});
    int info = -99;
    CHECK_CUBLAS(Api<T>::gels(h, CUBLAS_OP_N, 6, 4, 1, da.array, 6, dc.array, 6, &info, dinfo, 2));
    const auto dev_info = download_ints(dinfo, 2);
    EXPECT_TRUE(info == 0 && dev_info[0] == 0 && dev_info[1] == 2,
                "%sgelsBatched rank deficient: devInfo %d %d", t, dev_info[0], dev_info[1]);
    EXPECT_OK(check_gels(a0[0], c0[0], da.get(0), dc.get(0)));
    DeviceBatch<T> da2(a0), dc2(c0);
    CHECK_CUBLAS(
        Api<T>::gels(h, CUBLAS_OP_N, 6, 4, 1, da2.array, 6, dc2.array, 6, &info, nullptr, 2));
    EXPECT_OK(check_gels(a0[0], c0[0], da2.get(0), dc2.get(0)));
    CHECK_CUDA(cudaFree(dinfo));
  }
  // What cuBLAS does not support, bad arguments (host info -i), empty problems.
  std::vector<Matrix<T>> one{conditioned_matrix<T>(r, 4, 3, 4)};
  DeviceBatch<T> da(one), dc(one);
  int* dinfo = upload_ints({-7, -7});
  int info = 0;
  EXPECT_STATUS(Api<T>::gels(h, CUBLAS_OP_T, 4, 3, 3, da.array, 4, dc.array, 4, &info, dinfo, 1),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_TRUE(info == -1, "%sgelsBatched trans T: info %d", t, info);
  EXPECT_STATUS(Api<T>::gels(h, CUBLAS_OP_N, 3, 4, 3, da.array, 4, dc.array, 4, &info, dinfo, 1),
                CUBLAS_STATUS_NOT_SUPPORTED);
  EXPECT_TRUE(info == -2, "%sgelsBatched m < n: info %d", t, info);
  struct Bad {
    int m, n, nrhs, lda, ldc, batch, info;
  };
  for (const Bad& b :
       {Bad{-1, 3, 3, 4, 4, 1, -2}, Bad{4, -1, 3, 4, 4, 1, -3}, Bad{4, 3, -1, 4, 4, 1, -4},
        Bad{4, 3, 3, 3, 4, 1, -6}, Bad{4, 3, 3, 4, 3, 1, -8}, Bad{4, 3, 3, 4, 4, -1, -11}}) {
    EXPECT_STATUS(Api<T>::gels(h, CUBLAS_OP_N, b.m, b.n, b.nrhs, da.array, b.lda, dc.array, b.ldc,
                               &info, dinfo, b.batch),
                  CUBLAS_STATUS_INVALID_VALUE);
    EXPECT_TRUE(info == b.info, "%sgelsBatched: info %d, expected %d", t, info, b.info);
  }
  EXPECT_STATUS(Api<T>::gels(h, static_cast<cublasOperation_t>(5), 4, 3, 3, da.array, 4, dc.array,
                             4, &info, dinfo, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_TRUE(info == -1, "%sgelsBatched bad trans: info %d", t, info);
  EXPECT_STATUS(Api<T>::gels(h, CUBLAS_OP_N, 4, 3, 3, da.array, 4, dc.array, 4, nullptr, dinfo, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(Api<T>::gels(h, CUBLAS_OP_N, 4, 3, 0, da.array, 4, nullptr, 4, &info, dinfo, 2));
  auto dev_info = download_ints(dinfo, 2);
  EXPECT_TRUE(info == 0 && dev_info[0] == 0 && dev_info[1] == 0,
              "%sgelsBatched nrhs = 0: devInfo %d %d", t, dev_info[0], dev_info[1]);
  CHECK_CUBLAS(Api<T>::gels(h, CUBLAS_OP_N, 0, 0, 3, nullptr, 1, nullptr, 1, &info, dinfo, 2));
  CHECK_CUBLAS(Api<T>::gels(h, CUBLAS_OP_N, 4, 3, 3, da.array, 4, dc.array, 4, &info, dinfo, 0));
  EXPECT_TRUE(std::memcmp(da.get(0).v.data(), one[0].v.data(), one[0].v.size() * sizeof(T)) == 0,
              "%sgelsBatched nrhs = 0 / batch 0 wrote A", t);
  CHECK_CUDA(cudaFree(dinfo));
}

}  // namespace

int main(int argc, char** argv) {
  const std::string family = argc > 1 ? argv[1] : "";
  cublasHandle_t h;
  CHECK_CUBLAS(cublasCreate(&h));
  Random r(7);
  if (family == "getrf") {
    test_getrf<float>(h, r);
    test_getrf<double>(h, r);
    test_getrf<cuComplex>(h, r);
    test_getrf<cuDoubleComplex>(h, r);
  } else if (family == "getrs") {
    test_getrs<float>(h, r);
    test_getrs<double>(h, r);
    test_getrs<cuComplex>(h, r);
    test_getrs<cuDoubleComplex>(h, r);
  } else if (family == "getri") {
    test_getri<float>(h, r);
    test_getri<double>(h, r);
    test_getri<cuComplex>(h, r);
    test_getri<cuDoubleComplex>(h, r);
  } else if (family == "geqrf") {
    test_geqrf<float>(h, r);
    test_geqrf<double>(h, r);
    test_geqrf<cuComplex>(h, r);
    test_geqrf<cuDoubleComplex>(h, r);
  } else if (family == "gels") {
    test_gels<float>(h, r);
    test_gels<double>(h, r);
    test_gels<cuComplex>(h, r);
    test_gels<cuDoubleComplex>(h, r);
  } else {
    std::printf("FAIL usage: lapack getrf|getrs|getri|geqrf|gels\n");
    return 1;
  }
  CHECK_CUBLAS(cublasDestroy(h));
  std::printf("PASS lapack_%s\n", family.c_str());
  return 0;
}
