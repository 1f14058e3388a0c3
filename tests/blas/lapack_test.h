// Harness of the batched LAPACK-like conformance program (lapack.cu): per-type entry points,
// device batches (one allocation per matrix, a device array of their pointers), random
// matrices whose rows past the matrix in each column (lda > rows) hold NaN, and host
// references written from LAPACK's algorithms (?getf2, ?geqr2 / ?larfg) independently of
// the library, with FP64 matrix helpers for the residual checks.
#pragma once

#include <algorithm>
#include <cmath>
#include <complex>
#include <limits>
#include <string>
#include <vector>

#include "blas_check.h"

using C64 = std::complex<double>;

template <typename T>
struct Api;
template <>
struct Api<float> {
  using Host = float;  // the host type of the same precision (the pivot reference)
  static constexpr auto getrf = cublasSgetrfBatched;
  static constexpr auto getrs = cublasSgetrsBatched;
  static constexpr auto getri = cublasSgetriBatched;
  static constexpr auto matinv = cublasSmatinvBatched;
  static constexpr auto geqrf = cublasSgeqrfBatched;
  static constexpr auto gels = cublasSgelsBatched;
  static float make(C64 v) { return static_cast<float>(v.real()); }
  static C64 value(float v) { return {v, 0}; }
  static Host host(float v) { return v; }
  static constexpr bool complex = false;
  static constexpr double u = blas_check::kUnitF32;
  static constexpr const char* name = "S";
};
template <>
struct Api<double> {
  using Host = double;
  static constexpr auto getrf = cublasDgetrfBatched;
  static constexpr auto getrs = cublasDgetrsBatched;
  static constexpr auto getri = cublasDgetriBatched;
  static constexpr auto matinv = cublasDmatinvBatched;
  static constexpr auto geqrf = cublasDgeqrfBatched;
  static constexpr auto gels = cublasDgelsBatched;
  static double make(C64 v) { return v.real(); }
  static C64 value(double v) { return {v, 0}; }
  static Host host(double v) { return v; }
  static constexpr bool complex = false;
  static constexpr double u = blas_check::kUnitF64;
  static constexpr const char* name = "D";
};
template <>
struct Api<cuComplex> {
  using Host = std::complex<float>;
  static constexpr auto getrf = cublasCgetrfBatched;
  static constexpr auto getrs = cublasCgetrsBatched;
  static constexpr auto getri = cublasCgetriBatched;
  static constexpr auto matinv = cublasCmatinvBatched;
  static constexpr auto geqrf = cublasCgeqrfBatched;
  static constexpr auto gels = cublasCgelsBatched;
  static cuComplex make(C64 v) { return make_cuComplex(float(v.real()), float(v.imag())); }
  static C64 value(cuComplex v) { return {v.x, v.y}; }
  static Host host(cuComplex v) { return {v.x, v.y}; }
  static constexpr bool complex = true;
  static constexpr double u = blas_check::kUnitF32;
  static constexpr const char* name = "C";
};
template <>
struct Api<cuDoubleComplex> {
  using Host = std::complex<double>;
  static constexpr auto getrf = cublasZgetrfBatched;
  static constexpr auto getrs = cublasZgetrsBatched;
  static constexpr auto getri = cublasZgetriBatched;
  static constexpr auto matinv = cublasZmatinvBatched;
  static constexpr auto geqrf = cublasZgeqrfBatched;
  static constexpr auto gels = cublasZgelsBatched;
  static cuDoubleComplex make(C64 v) { return make_cuDoubleComplex(v.real(), v.imag()); }
  static C64 value(cuDoubleComplex v) { return {v.x, v.y}; }
  static Host host(cuDoubleComplex v) { return {v.x, v.y}; }
  static constexpr bool complex = true;
  static constexpr double u = blas_check::kUnitF64;
  static constexpr const char* name = "Z";
};

// The order of a square matrix too large for the kernels' shared-memory stage (48 KiB):
// it is worked on in global memory.
template <typename T>
constexpr int unstaged_order() {
  return sizeof(T) == 4 ? 112 : sizeof(T) == 8 ? 80 : 57;
}

// The unit roundoff the bounds use: complex arithmetic loses about twice as much.
template <typename T>
constexpr double unit() {
  return Api<T>::u * (Api<T>::complex ? 2.0 : 1.0);
}

// A rows x cols column-major matrix with leading dimension ld (>= rows).
template <typename T>
struct Matrix {
  int rows = 0, cols = 0, ld = 1;
  std::vector<T> v;
  Matrix() = default;
  Matrix(int r, int c, int l)
      : rows(r), cols(c), ld(std::max(l, 1)), v(size_t(ld) * std::max(c, 1)) {}
  T& at(int i, int j) { return v[i + size_t(j) * ld]; }
  const T& at(int i, int j) const { return v[i + size_t(j) * ld]; }
  C64 c64(int i, int j) const { return Api<T>::value(at(i, j)); }
};

// Uniform entries in [-1, 1) (both parts for complex types); the padding rows hold NaN.
template <typename T>
Matrix<T> random_matrix(blas_check::Random& r, int rows, int cols, int ld) {
  Matrix<T> m(rows, cols, ld);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (int j = 0; j < cols; ++j)
    for (int i = 0; i < m.ld; ++i)
      m.at(i, j) = i < rows ? Api<T>::make({r.next(), Api<T>::complex ? r.next() : 0.0})
                            : Api<T>::make({nan, nan});
  return m;
}

// Every padding element (rows past `rows` in each column) is still NaN.
template <typename T>
bool padding_intact(const Matrix<T>& m) {
  for (int j = 0; j < m.cols; ++j)
    for (int i = m.rows; i < m.ld; ++i) {
      const C64 v = m.c64(i, j);
      if (!std::isnan(v.real())) return false;
    }
  return true;
}

template <typename T>
T* upload(const std::vector<T>& v) {
  T* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, std::max<size_t>(v.size(), 1) * sizeof(T)));
  if (!v.empty()) CHECK_CUDA(cudaMemcpy(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

template <typename T>
std::vector<T> download(const T* d, size_t count) {
  std::vector<T> v(count);
  if (count != 0) CHECK_CUDA(cudaMemcpy(v.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

// Matrices on the device and the device array of their pointers.
template <typename T>
struct DeviceBatch {
  std::vector<T*> ptrs;
  T** array = nullptr;
  std::vector<Matrix<T>> shapes;
  explicit DeviceBatch(const std::vector<Matrix<T>>& ms) : shapes(ms) {
    for (const auto& m : ms) ptrs.push_back(upload(m.v));
    array = upload(ptrs);
  }
  ~DeviceBatch() {
    for (T* p : ptrs) CHECK_CUDA(cudaFree(p));
    CHECK_CUDA(cudaFree(array));
  }
  DeviceBatch(const DeviceBatch&) = delete;
  DeviceBatch& operator=(const DeviceBatch&) = delete;
  Matrix<T> get(size_t i) const {
    Matrix<T> m = shapes[i];
    m.v = download(ptrs[i], m.v.size());
    return m;
  }
  const T* const* const_array() const { return array; }
};

// |re| + |im| (LAPACK's i?amax magnitude).
inline double abs1(double v) {
  return std::fabs(v);
}
inline float abs1(float v) {
  return std::fabs(v);
}
template <typename R>
R abs1(std::complex<R> v) {
  return std::fabs(v.real()) + std::fabs(v.imag());
}

// LAPACK's ?getf2 in the host type S: pivot = first row of largest |re| + |im| (no
// pivoting when pivots is null), rows swapped across the whole matrix, the column divided
// by the pivot, a zero pivot recorded (1-based) and skipped. Returns info.
template <typename S>
int host_getf2(std::vector<S>& a, int lda, int n, std::vector<int>* pivots) {
  int info = 0;
  for (int j = 0; j < n; ++j) {
    int p = j;
    if (pivots != nullptr) {
      auto best = abs1(a[j + size_t(j) * lda]);
      for (int i = j + 1; i < n; ++i)
        if (abs1(a[i + size_t(j) * lda]) > best) best = abs1(a[i + size_t(j) * lda]), p = i;
      (*pivots)[j] = p + 1;
    }
    const S pivot = a[p + size_t(j) * lda];
    if (pivot != S(0)) {
      if (p != j)
        for (int c = 0; c < n; ++c) std::swap(a[j + size_t(c) * lda], a[p + size_t(c) * lda]);
      for (int i = j + 1; i < n; ++i) a[i + size_t(j) * lda] /= pivot;
    } else if (info == 0) {
      info = j + 1;
    }
    for (int c = j + 1; c < n; ++c)
      for (int i = j + 1; i < n; ++i)
        a[i + size_t(c) * lda] -= a[i + size_t(j) * lda] * a[j + size_t(c) * lda];
  }
  return info;
}

// FP64 dense helpers.
using Dense = std::vector<std::vector<C64>>;  // [row][col]
inline Dense dense(int rows, int cols) {
  return Dense(rows, std::vector<C64>(cols, 0.0));
}
inline Dense matmul(const Dense& a, const Dense& b) {
  Dense c = dense(int(a.size()), b.empty() ? 0 : int(b[0].size()));
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t k = 0; k < b.size(); ++k)
      for (size_t j = 0; j < c[i].size(); ++j) c[i][j] += a[i][k] * b[k][j];
  return c;
}
inline Dense abs_of(const Dense& a) {
  Dense r = a;
  for (auto& row : r)
    for (auto& v : row) v = std::abs(v);
  return r;
}
inline Dense adjoint(const Dense& a, bool conj) {
  Dense r = dense(a.empty() ? 0 : int(a[0].size()), int(a.size()));
  for (size_t i = 0; i < a.size(); ++i)
    for (size_t j = 0; j < a[i].size(); ++j) r[j][i] = conj ? std::conj(a[i][j]) : a[i][j];
  return r;
}
template <typename T>
Dense to_dense(const Matrix<T>& m) {
  Dense d = dense(m.rows, m.cols);
  for (int i = 0; i < m.rows; ++i)
    for (int j = 0; j < m.cols; ++j) d[i][j] = m.c64(i, j);
  return d;
}

// P, L, U of getrf's output (pivots null: P = I) as FP64 matrices, and P L U.
struct LuFactors {
  Dense l, u, plu, abs_plu;  // abs_plu = |P| |L| |U|
};
template <typename T>
LuFactors lu_factors(const Matrix<T>& lu, const int* pivots) {
  const int n = lu.rows;
  LuFactors f{dense(n, n), dense(n, n), {}, {}};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      if (i > j) f.l[i][j] = lu.c64(i, j);
      if (i == j) f.l[i][j] = 1.0;
      if (i <= j) f.u[i][j] = lu.c64(i, j);
    }
  f.plu = matmul(f.l, f.u);
  f.abs_plu = matmul(abs_of(f.l), abs_of(f.u));
  if (pivots != nullptr)
    for (int i = n - 1; i >= 0; --i) {  // A = P_0 P_1 ... P_{n-1} L U
      const int p = pivots[i] - 1;
      std::swap(f.plu[i], f.plu[p]);
      std::swap(f.abs_plu[i], f.abs_plu[p]);
    }
  return f;
}

// LAPACK's ?larfg / ?geqr2 in FP64 (the reference of the reflector representation):
// beta = -sign(re(alpha)) ||(alpha; x)||, tau = (beta - alpha) / beta, v = x / (alpha -
// beta); tau = 0 when x = 0 and alpha is real (for real types: also when x is empty).
// `flip` builds the other sign convention (beta = +sign(...)), which is a valid QR too:
// the mutation the representation check must reject.
struct HostQr {
  Dense a;               // R above the diagonal, v below
  std::vector<C64> tau;  // min(m, n)
};
inline HostQr host_geqr2(Dense a, bool complex, bool flip = false) {
  const int m = int(a.size()), n = m == 0 ? 0 : int(a[0].size()), k = std::min(m, n);
  HostQr qr{{}, std::vector<C64>(k, 0.0)};
  for (int i = 0; i < k; ++i) {
    double xnorm2 = 0;
    for (int r = i + 1; r < m; ++r) xnorm2 += std::norm(a[r][i]);
    const C64 alpha = a[i][i];
    if (xnorm2 == 0 && (!complex || alpha.imag() == 0)) continue;  // tau = 0, H = I
    const double norm = std::sqrt(std::norm(alpha) + xnorm2);
    const double beta = (std::signbit(alpha.real()) ? norm : -norm) * (flip ? -1 : 1);
    const C64 tau((beta - alpha.real()) / beta, -alpha.imag() / beta);
    const C64 scale = 1.0 / (alpha - beta);
    for (int r = i + 1; r < m; ++r) a[r][i] *= scale;
    a[i][i] = beta;
    qr.tau[i] = tau;
    // A(i:m, i+1:n) := (I - conj(tau) v v^H) A(i:m, i+1:n), v = (1; a(i+1:m, i)).
    for (int c = i + 1; c < n; ++c) {
      C64 w = a[i][c];
      for (int r = i + 1; r < m; ++r) w += std::conj(a[r][i]) * a[r][c];
      const C64 tw = std::conj(tau) * w;
      a[i][c] -= tw;
      for (int r = i + 1; r < m; ++r) a[r][c] -= a[r][i] * tw;
    }
  }
  qr.a = a;
  return qr;
}

// Q = H(0) H(1) ... H(k-1) (m x m) from reflectors below the diagonal of `a` and tau.
inline Dense build_q(const Dense& a, const std::vector<C64>& tau) {
  const int m = int(a.size());
  Dense q = dense(m, m);
  for (int i = 0; i < m; ++i) q[i][i] = 1.0;
  for (int i = int(tau.size()) - 1; i >= 0; --i) {  // Q := H(i) Q, from the last
    std::vector<C64> v(m, 0.0);
    v[i] = 1.0;
    for (int r = i + 1; r < m; ++r) v[r] = a[r][i];
    for (int c = 0; c < m; ++c) {
      C64 w = 0;
      for (int r = i; r < m; ++r) w += std::conj(v[r]) * q[r][c];
      for (int r = i; r < m; ++r) q[r][c] -= tau[i] * v[r] * w;
    }
  }
  return q;
}
