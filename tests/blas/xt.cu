// cuBLASXt: handle, device selection (a bad device id), block dim, pinning mode, CPU
// ratio / routine, boards; every BLAS-3 routine (gemm, syrk, herk, syr2k, her2k, syrkx,
// herkx, symm, hemm, spmm, trsm, trmm) for every type it has, on host pointers, with every
// op / uplo / side / diag, leading dimensions above the minimum, zero dimensions, and gemm
// also on device and mixed pointers. Inputs are small integers, so every product routine is
// exact and is compared with the FP64 host reference under the bound of issue 7 (which is
// then exact agreement); trsm is checked by its residual |op(A) X - alpha B| <=
// 4 (ka + 2) u (|op(A)| |X| + |alpha| |B|). The triangle a rank-k routine must not write
// keeps its value. A mutation check shows the comparison rejects a wrong transpose.
#include <cublasXt.h>

#include <complex>
#include <functional>
#include <limits>

#include "blas_check.h"

using C64 = std::complex<double>;

template <typename T>
struct Api;
#define XT_API(L, T, R, u, cplx)                      \
  template <>                                         \
  struct Api<T> {                                     \
    using Real = R;                                   \
    static constexpr double unit = u;                 \
    static constexpr bool complex = cplx;             \
    static constexpr const char* name = #L;           \
    static constexpr auto gemm = cublasXt##L##gemm;   \
    static constexpr auto syrk = cublasXt##L##syrk;   \
    static constexpr auto syr2k = cublasXt##L##syr2k; \
    static constexpr auto syrkx = cublasXt##L##syrkx; \
    static constexpr auto symm = cublasXt##L##symm;   \
    static constexpr auto spmm = cublasXt##L##spmm;   \
    static constexpr auto trsm = cublasXt##L##trsm;   \
    static constexpr auto trmm = cublasXt##L##trmm;   \
  };
XT_API(S, float, float, blas_check::kUnitF32, false)
XT_API(D, double, double, blas_check::kUnitF64, false)
XT_API(C, cuComplex, float, blas_check::kUnitF32, true)
XT_API(Z, cuDoubleComplex, double, blas_check::kUnitF64, true)
#undef XT_API

// The Hermitian routines (complex types only; the real types' are never called).
template <typename T>
struct Herm {
  template <typename... A>
  static cublasStatus_t herk(A...) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  template <typename... A>
  static cublasStatus_t her2k(A...) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  template <typename... A>
  static cublasStatus_t herkx(A...) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  template <typename... A>
  static cublasStatus_t hemm(A...) {
    return CUBLAS_STATUS_NOT_SUPPORTED;
  }
};
template <>
struct Herm<cuComplex> {
  static constexpr auto herk = cublasXtCherk;
  static constexpr auto her2k = cublasXtCher2k;
  static constexpr auto herkx = cublasXtCherkx;
  static constexpr auto hemm = cublasXtChemm;
};
template <>
struct Herm<cuDoubleComplex> {
  static constexpr auto herk = cublasXtZherk;
  static constexpr auto her2k = cublasXtZher2k;
  static constexpr auto herkx = cublasXtZherkx;
  static constexpr auto hemm = cublasXtZhemm;
};

C64 value(float v) {
  return {v, 0};
}
C64 value(double v) {
  return {v, 0};
}
C64 value(cuComplex v) {
  return {v.x, v.y};
}
C64 value(cuDoubleComplex v) {
  return {v.x, v.y};
}
template <typename T>
T make(C64 v);
template <>
float make<float>(C64 v) {
  return static_cast<float>(v.real());
}
template <>
double make<double>(C64 v) {
  return v.real();
}
template <>
cuComplex make<cuComplex>(C64 v) {
  return make_cuComplex(float(v.real()), float(v.imag()));
}
template <>
cuDoubleComplex make<cuDoubleComplex>(C64 v) {
  return make_cuDoubleComplex(v.real(), v.imag());
}

// A column-major host matrix of C64 values, rows x cols with leading dimension ld.
struct Mat {
  size_t rows = 0, cols = 0, ld = 1;
  std::vector<C64> v;
  C64& at(size_t i, size_t j) { return v[i + j * ld]; }
  C64 at(size_t i, size_t j) const { return v[i + j * ld]; }
};

blas_check::Random rng(11);

Mat random_mat(size_t rows, size_t cols, size_t pad, bool complex) {
  Mat m;
  m.rows = rows, m.cols = cols, m.ld = std::max<size_t>(1, rows + pad);
  m.v.resize(m.ld * std::max<size_t>(cols, 1));
  for (auto& x : m.v) x = C64(rng.integer(3), complex ? rng.integer(3) : 0);
  return m;
}

template <typename T>
std::vector<T> to_t(const Mat& m) {
  std::vector<T> out(m.v.size());
  for (size_t i = 0; i < out.size(); ++i) out[i] = make<T>(m.v[i]);
  return out;
}

// op(X)(i, j) for X stored as `m`: 'N', 'T' or 'C'.
C64 op_at(const Mat& m, char op, size_t i, size_t j) {
  if (op == 'N') return m.at(i, j);
  return op == 'T' ? m.at(j, i) : std::conj(m.at(j, i));
}
char op_char(cublasOperation_t op) {
  return op == CUBLAS_OP_N ? 'N' : op == CUBLAS_OP_T ? 'T' : 'C';
}

// Symmetric / Hermitian full matrix from the stored uplo triangle of a.
C64 sym_at(const Mat& a, bool lower, bool herm, size_t i, size_t j) {
  const bool stored = lower ? i >= j : i <= j;
  if (i == j && herm) return a.at(i, i).real();
  if (stored) return a.at(i, j);
  return herm ? std::conj(a.at(j, i)) : a.at(j, i);
}
// Triangular op(A)(i, j).
C64 tri_at(const Mat& a, bool lower, char op, bool unit, size_t i, size_t j) {
  size_t r = i, c = j;
  if (op != 'N') std::swap(r, c);
  if (r == c) return unit ? C64(1) : (op == 'C' ? std::conj(a.at(r, r)) : a.at(r, r));
  if (lower ? r < c : r > c) return 0;
  return op == 'C' ? std::conj(a.at(r, c)) : a.at(r, c);
}

using Elem = std::function<C64(size_t, size_t)>;

// ref = sum over terms of alpha_t * X_t Y_t (inner dimension k) + beta * c, with the
// magnitude |alpha| |X| |Y| + |beta| |c| per element for the bound.
struct Term {
  C64 alpha;
  Elem x, y;
};
void reference(const std::vector<Term>& terms, size_t k, C64 beta, const Mat& c, Mat* ref,
               std::vector<double>* mag) {
  *ref = c;
  mag->assign(c.v.size(), 0.0);
  for (size_t j = 0; j < c.cols; ++j)
    for (size_t i = 0; i < c.rows; ++i) {
      C64 s = beta == C64(0) ? C64(0) : beta * c.at(i, j);
      double g = std::abs(beta) * std::abs(c.at(i, j));
      for (const Term& t : terms)
        for (size_t l = 0; l < k; ++l) {
          const C64 p = t.x(i, l) * t.y(l, j);
          s += t.alpha * p;
          g += std::abs(t.alpha) * std::abs(t.x(i, l)) * std::abs(t.y(l, j));
        }
      ref->at(i, j) = s;
      (*mag)[i + j * c.ld] = g;
    }
}

// Elements of `got` that differ from `ref` by more than 2 (k u + u) mag; only (i, j) with
// mask(i, j) are compared to ref, the rest (and the padding rows) to `orig`.
template <typename T>
int wrong(const std::vector<T>& got, const Mat& ref, const std::vector<double>& mag, size_t k,
          const Mat& orig, const std::function<bool(size_t, size_t)>& mask = nullptr) {
  const double u = Api<T>::unit;
  int bad = 0;
  for (size_t j = 0; j < ref.cols; ++j)
    for (size_t i = 0; i < ref.ld; ++i) {
      const C64 g = value(got[i + j * ref.ld]);
      if (i >= ref.rows || (mask && !mask(i, j))) {
        if (g != orig.at(i, j)) ++bad;
        continue;
      }
      const double bound = 2 * (k * u + u) * mag[i + j * ref.ld];
      if (std::abs(g - ref.at(i, j)) > bound) ++bad;
    }
  return bad;
}

#define EXPECT_EXACT(count, ...) EXPECT_TRUE((count) == 0, __VA_ARGS__)

const cublasOperation_t kOps[] = {CUBLAS_OP_N, CUBLAS_OP_T, CUBLAS_OP_C};
const cublasFillMode_t kFills[] = {CUBLAS_FILL_MODE_UPPER, CUBLAS_FILL_MODE_LOWER};
const cublasSideMode_t kSides[] = {CUBLAS_SIDE_LEFT, CUBLAS_SIDE_RIGHT};
const cublasDiagType_t kDiags[] = {CUBLAS_DIAG_NON_UNIT, CUBLAS_DIAG_UNIT};

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(1, v.size()) * sizeof(T)));
  CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
void gemm_tests(cublasXtHandle_t h) {
  const bool cx = Api<T>::complex;
  const C64 alpha = cx ? C64(2, -1) : C64(2), beta = cx ? C64(-1, 1) : C64(-1);
  const T a_t = make<T>(alpha), b_t = make<T>(beta);
  struct Shape {
    size_t m, n, k;
  };
  for (Shape s : {Shape{5, 7, 3}, Shape{17, 9, 12}, Shape{0, 4, 3}, Shape{4, 3, 0}}) {
    for (cublasOperation_t ta : kOps)
      for (cublasOperation_t tb : kOps) {
        const char oa = op_char(ta), ob = op_char(tb);
        const Mat A = random_mat(oa == 'N' ? s.m : s.k, oa == 'N' ? s.k : s.m, 2, cx);
        const Mat B = random_mat(ob == 'N' ? s.k : s.n, ob == 'N' ? s.n : s.k, 1, cx);
        const Mat C = random_mat(s.m, s.n, 3, cx);
        std::vector<T> a = to_t<T>(A), b = to_t<T>(B), c = to_t<T>(C);
        CHECK_CUBLAS(Api<T>::gemm(h, ta, tb, s.m, s.n, s.k, &a_t, a.data(), A.ld, b.data(), B.ld,
                                  &b_t, c.data(), C.ld));
        Mat ref;
        std::vector<double> mag;
        reference({{alpha, [&](size_t i, size_t l) { return op_at(A, oa, i, l); },
                    [&](size_t l, size_t j) { return op_at(B, ob, l, j); }}},
                  s.k, beta, C, &ref, &mag);
        EXPECT_EXACT(wrong(c, ref, mag, s.k, C), "%sgemm %c%c %zu %zu %zu", Api<T>::name, oa, ob,
                     s.m, s.n, s.k);
        // Mutation: a result computed with A's other transpose is rejected.
        if (s.m == s.k && s.m > 1 && oa == 'N' && ob == 'N') {
          Mat wrong_ref;
          reference({{alpha, [&](size_t i, size_t l) { return op_at(A, 'T', i, l); },
                      [&](size_t l, size_t j) { return op_at(B, ob, l, j); }}},
                    s.k, beta, C, &wrong_ref, &mag);
          EXPECT_TRUE(wrong(c, wrong_ref, mag, s.k, C) > 0, "the checker accepted A^T");
        }
      }
  }
  // Device pointers, and a mix of device and host pointers.
  const size_t m = 9, n = 6, k = 5;
  const Mat A = random_mat(m, k, 1, cx), B = random_mat(k, n, 0, cx), C = random_mat(m, n, 2, cx);
  std::vector<T> a = to_t<T>(A), b = to_t<T>(B), c = to_t<T>(C);
  Mat ref;
  std::vector<double> mag;
  reference({{alpha, [&](size_t i, size_t l) { return A.at(i, l); },
              [&](size_t l, size_t j) { return B.at(l, j); }}},
            k, beta, C, &ref, &mag);
  T *da = upload(a), *db = upload(b), *dc = upload(c);
  CHECK_CUBLAS(
      Api<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a_t, da, A.ld, db, B.ld, &b_t, dc, C.ld));
  std::vector<T> got(c.size());
  CHECK_CUDA(cudaMemcpy(got.data(), dc, got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  EXPECT_EXACT(wrong(got, ref, mag, k, C), "%sgemm on device pointers", Api<T>::name);
  CHECK_CUBLAS(Api<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a_t, da, A.ld, b.data(), B.ld,
                            &b_t, c.data(), C.ld));
  EXPECT_EXACT(wrong(c, ref, mag, k, C), "%sgemm on mixed pointers", Api<T>::name);
  cudaFree(da), cudaFree(db), cudaFree(dc);
  // Invalid arguments.
  EXPECT_STATUS(Api<T>::gemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &a_t, a.data(), m - 1, b.data(),
                             B.ld, &b_t, c.data(), C.ld),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::gemm(h, static_cast<cublasOperation_t>(9), CUBLAS_OP_N, m, n, k, &a_t,
                             a.data(), A.ld, b.data(), B.ld, &b_t, c.data(), C.ld),
                CUBLAS_STATUS_INVALID_VALUE);
}

// syrk, syr2k, syrkx (and with herm the Hermitian forms through Herm<T>).
template <typename T>
void rankk_tests(cublasXtHandle_t h, bool herm) {
  const bool cx = Api<T>::complex;
  using R = typename Api<T>::Real;
  const C64 alpha = herm ? C64(2) : (cx ? C64(2, -1) : C64(2));
  const C64 alpha2 = cx ? C64(1, 2) : C64(3);  // syr2k / her2k
  const C64 beta = herm ? C64(-1) : (cx ? C64(-1, 1) : C64(-1));
  const T alpha_t = make<T>(alpha), alpha2_t = make<T>(alpha2), beta_t = make<T>(beta);
  const R alpha_r = static_cast<R>(alpha.real()), beta_r = static_cast<R>(beta.real());
  for (size_t n : {0, 6, 13})
    for (size_t k : {0, 4})
      for (cublasFillMode_t uplo : kFills)
        for (cublasOperation_t trans : kOps) {
          const char ot = op_char(trans);
          if (herm ? ot == 'T' : ot == 'C') continue;  // the ops each routine documents
          const bool lower = uplo == CUBLAS_FILL_MODE_LOWER;
          const auto mask = [&](size_t i, size_t j) { return lower ? i >= j : i <= j; };
          const size_t ar = ot == 'N' ? n : k, ac = ot == 'N' ? k : n;
          const Mat A = random_mat(ar, ac, 1, cx), C = random_mat(n, n, 2, cx);
          Mat B = random_mat(ar, ac, 2, cx);
          // herkx needs alpha op(A) op(B)^H Hermitian: op(B) = op(A) D with D real diagonal.
          Mat Bx = A;
          for (size_t j = 0; j < ac; ++j)
            for (size_t i = 0; i < ar; ++i) Bx.at(i, j) *= double(1 + (ot == 'N' ? j : i) % 3);
          const auto opA = [&](size_t i, size_t l) { return op_at(A, ot, i, l); };
          const auto opB = [&](size_t i, size_t l) { return op_at(B, ot, i, l); };
          const auto opBx = [&](size_t i, size_t l) { return op_at(Bx, ot, i, l); };
          const auto tr = [&](std::function<C64(size_t, size_t)> f) -> Elem {
            return [=](size_t l, size_t j) { return herm ? std::conj(f(j, l)) : f(j, l); };
          };
          Mat ref;
          std::vector<double> mag;
          const std::vector<T> a = to_t<T>(A), b = to_t<T>(B), bx = to_t<T>(Bx);
          const auto fix_diag = [&](Mat* r) {
            if (herm)
              for (size_t i = 0; i < n; ++i) r->at(i, i) = r->at(i, i).real();
          };
          // syrk / herk
          std::vector<T> c = to_t<T>(C);
          if (herm) {
            CHECK_CUBLAS(Herm<T>::herk(h, uplo, trans, n, k, &alpha_r, a.data(), A.ld, &beta_r,
                                       c.data(), C.ld));
          } else {
            CHECK_CUBLAS(Api<T>::syrk(h, uplo, trans, n, k, &alpha_t, a.data(), A.ld, &beta_t,
                                      c.data(), C.ld));
          }
          reference({{alpha, opA, tr(opA)}}, k, beta, C, &ref, &mag);
          fix_diag(&ref);
          EXPECT_EXACT(wrong(c, ref, mag, k, C, mask), "%s%s uplo %d trans %c n %zu k %zu",
                       Api<T>::name, herm ? "herk" : "syrk", lower, ot, n, k);
          // syr2k / her2k
          c = to_t<T>(C);
          if (herm) {
            CHECK_CUBLAS(Herm<T>::her2k(h, uplo, trans, n, k, &alpha2_t, a.data(), A.ld, b.data(),
                                        B.ld, &beta_r, c.data(), C.ld));
          } else {
            CHECK_CUBLAS(Api<T>::syr2k(h, uplo, trans, n, k, &alpha2_t, a.data(), A.ld, b.data(),
                                       B.ld, &beta_t, c.data(), C.ld));
          }
          reference({{alpha2, opA, tr(opB)}, {herm ? std::conj(alpha2) : alpha2, opB, tr(opA)}}, k,
                    beta, C, &ref, &mag);
          fix_diag(&ref);
          EXPECT_EXACT(wrong(c, ref, mag, 2 * k, C, mask), "%s%s uplo %d trans %c n %zu k %zu",
                       Api<T>::name, herm ? "her2k" : "syr2k", lower, ot, n, k);
          // syrkx / herkx
          c = to_t<T>(C);
          const std::vector<T>& bk = herm ? bx : b;
          if (herm) {
            CHECK_CUBLAS(Herm<T>::herkx(h, uplo, trans, n, k, &alpha_t, a.data(), A.ld, bk.data(),
                                        Bx.ld, &beta_r, c.data(), C.ld));
          } else {
            CHECK_CUBLAS(Api<T>::syrkx(h, uplo, trans, n, k, &alpha_t, a.data(), A.ld, bk.data(),
                                       B.ld, &beta_t, c.data(), C.ld));
          }
          reference({{alpha, opA, tr(herm ? Elem(opBx) : Elem(opB))}}, k, beta, C, &ref, &mag);
          fix_diag(&ref);
          EXPECT_EXACT(wrong(c, ref, mag, k, C, mask), "%s%s uplo %d trans %c n %zu k %zu",
                       Api<T>::name, herm ? "herkx" : "syrkx", lower, ot, n, k);
        }
}

// symm / hemm and spmm (symmetric packed A, unpacked as LAPACK packs: column by column).
template <typename T>
void symm_tests(cublasXtHandle_t h, bool herm) {
  const bool cx = Api<T>::complex;
  const C64 alpha = cx ? C64(2, -1) : C64(2), beta = cx ? C64(-1, 1) : C64(-1);
  const T alpha_t = make<T>(alpha), beta_t = make<T>(beta);
  struct Shape {
    size_t m, n;
  };
  for (Shape s : {Shape{6, 9}, Shape{11, 4}, Shape{0, 5}, Shape{5, 0}})
    for (cublasSideMode_t side : kSides)
      for (cublasFillMode_t uplo : kFills) {
        const bool left = side == CUBLAS_SIDE_LEFT, lower = uplo == CUBLAS_FILL_MODE_LOWER;
        const size_t ka = left ? s.m : s.n;
        Mat A = random_mat(ka, ka, 2, cx);
        const Mat B = random_mat(s.m, s.n, 1, cx), C = random_mat(s.m, s.n, 3, cx);
        const auto symA = [&](size_t i, size_t j) { return sym_at(A, lower, herm, i, j); };
        const auto matB = [&](size_t i, size_t j) { return B.at(i, j); };
        Mat ref;
        std::vector<double> mag;
        if (left) {
          reference({{alpha, symA, matB}}, ka, beta, C, &ref, &mag);
        } else {
          reference({{alpha, matB, symA}}, ka, beta, C, &ref, &mag);
        }
        // The triangle not stored holds NaN (never read) for symm / hemm.
        Mat An = A;
        for (size_t j = 0; j < ka; ++j)
          for (size_t i = 0; i < ka; ++i)
            if (lower ? i < j : i > j) An.at(i, j) = std::numeric_limits<double>::quiet_NaN();
        const std::vector<T> a = to_t<T>(An), b = to_t<T>(B);
        std::vector<T> c = to_t<T>(C);
        if (herm) {
          CHECK_CUBLAS(Herm<T>::hemm(h, side, uplo, s.m, s.n, &alpha_t, a.data(), A.ld, b.data(),
                                     B.ld, &beta_t, c.data(), C.ld));
        } else {
          CHECK_CUBLAS(Api<T>::symm(h, side, uplo, s.m, s.n, &alpha_t, a.data(), A.ld, b.data(),
                                    B.ld, &beta_t, c.data(), C.ld));
        }
        EXPECT_EXACT(wrong(c, ref, mag, ka, C), "%s%s side %d uplo %d %zu x %zu", Api<T>::name,
                     herm ? "hemm" : "symm", left, lower, s.m, s.n);
        if (herm) continue;
        std::vector<T> ap;
        for (size_t j = 0; j < ka; ++j)
          for (size_t i = lower ? j : 0; i <= (lower ? ka - 1 : j); ++i)
            ap.push_back(make<T>(A.at(i, j)));
        c = to_t<T>(C);
        CHECK_CUBLAS(Api<T>::spmm(h, side, uplo, s.m, s.n, &alpha_t, ap.data(), b.data(), B.ld,
                                  &beta_t, c.data(), C.ld));
        EXPECT_EXACT(wrong(c, ref, mag, ka, C), "%sspmm side %d uplo %d %zu x %zu", Api<T>::name,
                     left, lower, s.m, s.n);
      }
}

// trmm (out of place) and trsm (by the residual), every side, fill, op and diagonal.
template <typename T>
void tri_tests(cublasXtHandle_t h) {
  const bool cx = Api<T>::complex;
  const C64 alpha = cx ? C64(2, -1) : C64(2);
  const T alpha_t = make<T>(alpha);
  const double u = Api<T>::unit;
  struct Shape {
    size_t m, n;
  };
  for (Shape s : {Shape{7, 5}, Shape{4, 10}, Shape{0, 3}})
    for (cublasSideMode_t side : kSides)
      for (cublasFillMode_t uplo : kFills)
        for (cublasOperation_t trans : kOps)
          for (cublasDiagType_t diag : kDiags) {
            const bool left = side == CUBLAS_SIDE_LEFT, lower = uplo == CUBLAS_FILL_MODE_LOWER;
            const bool unit = diag == CUBLAS_DIAG_UNIT;
            const char ot = op_char(trans);
            const size_t ka = left ? s.m : s.n;
            Mat A = random_mat(ka, ka, 1, cx);
            // A diagonally dominant triangle keeps trsm well conditioned.
            for (size_t i = 0; i < ka; ++i) A.at(i, i) = C64(8 + i % 3, cx ? 1 : 0);
            const Mat B = random_mat(s.m, s.n, 2, cx), C = random_mat(s.m, s.n, 1, cx);
            const auto opA = [&](size_t i, size_t j) { return tri_at(A, lower, ot, unit, i, j); };
            const auto matB = [&](size_t i, size_t j) { return B.at(i, j); };
            const std::vector<T> a = to_t<T>(A), b = to_t<T>(B);
            // trmm: C = alpha op(A) B or alpha B op(A).
            std::vector<T> c = to_t<T>(C);
            CHECK_CUBLAS(Api<T>::trmm(h, side, uplo, trans, diag, s.m, s.n, &alpha_t, a.data(),
                                      A.ld, b.data(), B.ld, c.data(), C.ld));
            Mat ref;
            std::vector<double> mag;
            if (left) {
              reference({{alpha, opA, matB}}, ka, 0, C, &ref, &mag);
            } else {
              reference({{alpha, matB, opA}}, ka, 0, C, &ref, &mag);
            }
            EXPECT_EXACT(wrong(c, ref, mag, ka, C), "%strmm side %d uplo %d %c diag %d",
                         Api<T>::name, left, lower, ot, unit);
            // trsm: X overwrites B; op(A) X = alpha B (left) or X op(A) = alpha B.
            std::vector<T> x = b;
            CHECK_CUBLAS(Api<T>::trsm(h, side, uplo, trans, diag, s.m, s.n, &alpha_t, a.data(),
                                      A.ld, x.data(), B.ld));
            Mat X = B;
            for (size_t i = 0; i < X.v.size(); ++i) X.v[i] = value(x[i]);
            int bad = 0;
            for (size_t j = 0; j < s.n; ++j)
              for (size_t i = 0; i < s.m; ++i) {
                C64 r = -alpha * B.at(i, j);
                double g = std::abs(alpha) * std::abs(B.at(i, j));
                for (size_t l = 0; l < ka; ++l) {
                  const C64 p = left ? opA(i, l) * X.at(l, j) : X.at(i, l) * opA(l, j);
                  r += p;
                  g += std::abs(p);
                }
                if (std::abs(r) > 4 * (ka + 2) * u * g) ++bad;
              }
            for (size_t j = 0; j < s.n; ++j)  // padding rows untouched
              for (size_t i = s.m; i < B.ld; ++i)
                if (X.at(i, j) != B.at(i, j)) ++bad;
            EXPECT_EXACT(bad, "%strsm side %d uplo %d %c diag %d", Api<T>::name, left, lower, ot,
                         unit);
          }
}

template <typename T>
void run_type(cublasXtHandle_t h) {
  gemm_tests<T>(h);
  rankk_tests<T>(h, false);
  symm_tests<T>(h, false);
  tri_tests<T>(h);
}

int main() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  cublasXtHandle_t h;
  CHECK_CUBLAS(cublasXtCreate(&h));
  // Settings.
  int boards = -1;
  CHECK_CUBLAS(cublasXtMaxBoards(&boards));
  EXPECT_TRUE(boards == count, "MaxBoards %d, %d devices", boards, count);
  int ids[2] = {0, count};
  CHECK_CUBLAS(cublasXtGetNumBoards(1, ids, &boards));
  EXPECT_TRUE(boards == 1, "GetNumBoards %d", boards);
  EXPECT_STATUS(cublasXtDeviceSelect(h, 1, ids + 1), CUBLAS_STATUS_INVALID_VALUE);  // id = count
  int neg = -1;
  EXPECT_STATUS(cublasXtDeviceSelect(h, 1, &neg), CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(cublasXtDeviceSelect(h, 0, ids), CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasXtDeviceSelect(h, 1, ids));
  int dim = 0;
  CHECK_CUBLAS(cublasXtGetBlockDim(h, &dim));
  EXPECT_TRUE(dim > 0, "block dim %d", dim);
  CHECK_CUBLAS(cublasXtSetBlockDim(h, 64));
  CHECK_CUBLAS(cublasXtGetBlockDim(h, &dim));
  EXPECT_TRUE(dim == 64, "block dim %d after setting 64", dim);
  EXPECT_STATUS(cublasXtSetBlockDim(h, 0), CUBLAS_STATUS_INVALID_VALUE);
  cublasXtPinnedMemMode_t mode;
  CHECK_CUBLAS(cublasXtGetPinningMemMode(h, &mode));
  EXPECT_TRUE(mode == CUBLASXT_PINNING_DISABLED, "default pinning %d", int(mode));
  CHECK_CUBLAS(cublasXtSetPinningMemMode(h, CUBLASXT_PINNING_ENABLED));
  CHECK_CUBLAS(cublasXtGetPinningMemMode(h, &mode));
  EXPECT_TRUE(mode == CUBLASXT_PINNING_ENABLED, "pinning %d", int(mode));
  CHECK_CUBLAS(cublasXtSetPinningMemMode(h, CUBLASXT_PINNING_DISABLED));
  CHECK_CUBLAS(cublasXtSetCpuRatio(h, CUBLASXT_GEMM, CUBLASXT_FLOAT, 0.0f));
  EXPECT_STATUS(cublasXtSetCpuRatio(h, CUBLASXT_GEMM, CUBLASXT_FLOAT, 2.0f),
                CUBLAS_STATUS_INVALID_VALUE);
  CHECK_CUBLAS(cublasXtSetCpuRoutine(h, CUBLASXT_GEMM, CUBLASXT_DOUBLE, nullptr));
  // gemm tile by tile (blockDim 4: up to 5 x 3 tiles of C) and symm / hemm / spmm / trsm /
  // trmm in panels of 4 columns (side left) or rows (side right); then whole (blockDim 64).
  CHECK_CUBLAS(cublasXtSetBlockDim(h, 4));
  gemm_tests<float>(h);
  gemm_tests<cuDoubleComplex>(h);
  symm_tests<double>(h, false);
  symm_tests<cuComplex>(h, true);
  tri_tests<float>(h);
  tri_tests<cuDoubleComplex>(h);
  CHECK_CUBLAS(cublasXtSetBlockDim(h, 64));
  run_type<float>(h);
  run_type<double>(h);
  run_type<cuComplex>(h);
  run_type<cuDoubleComplex>(h);
  rankk_tests<cuComplex>(h, true);
  rankk_tests<cuDoubleComplex>(h, true);
  symm_tests<cuComplex>(h, true);
  symm_tests<cuDoubleComplex>(h, true);
  CHECK_CUBLAS(cublasXtDestroy(h));
  std::printf("PASS xt\n");
  return 0;
}
