// cublas{S,D,C,Z}tpttr and cublas{S,D,C,Z}trttp: packed <-> full triangular storage, both
// fills, n = 0 ... 45, lda > n. A host reference packs column by column as LAPACK's ?tpttr
// documents (upper: AP(i + (j-1) j / 2) = A(i, j), i <= j; lower: AP(i + (j-1)(2n-j)/2) =
// A(i, j), i >= j, 1-based). The conversion is a copy, so results must be bit-identical;
// the triangle tpttr must not write keeps its sentinel, the rows beyond n (lda > n) too,
// trttp must write every packed slot (each starts as a sentinel) and never read the other
// triangle (it holds NaN). A mutation check shows the comparison rejects a swapped fill.
#include <cstring>
#include <limits>

#include "blas_check.h"

template <typename T>
struct Api;
template <>
struct Api<float> {
  static constexpr auto tpttr = cublasStpttr;
  static constexpr auto trttp = cublasStrttp;
  static float make(double re, double) { return static_cast<float>(re); }
  static constexpr const char* name = "S";
};
template <>
struct Api<double> {
  static constexpr auto tpttr = cublasDtpttr;
  static constexpr auto trttp = cublasDtrttp;
  static double make(double re, double) { return re; }
  static constexpr const char* name = "D";
};
template <>
struct Api<cuComplex> {
  static constexpr auto tpttr = cublasCtpttr;
  static constexpr auto trttp = cublasCtrttp;
  static cuComplex make(double re, double im) { return make_cuComplex(float(re), float(im)); }
  static constexpr const char* name = "C";
};
template <>
struct Api<cuDoubleComplex> {
  static constexpr auto tpttr = cublasZtpttr;
  static constexpr auto trttp = cublasZtrttp;
  static cuDoubleComplex make(double re, double im) { return make_cuDoubleComplex(re, im); }
  static constexpr const char* name = "Z";
};

template <typename T>
bool same(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// The packed index of every (i, j) of the uplo triangle (0-based), -1 outside it, built by
// walking the columns in order (the LAPACK column-wise packing).
std::vector<long> packed_index(bool lower, int n) {
  std::vector<long> index(static_cast<size_t>(n) * n, -1);
  long p = 0;
  for (int j = 0; j < n; ++j) {
    const int first = lower ? j : 0, last = lower ? n - 1 : j;
    for (int i = first; i <= last; ++i) index[i + static_cast<size_t>(j) * n] = p++;
  }
  return index;
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
  if (count) CHECK_CUDA(cudaMemcpy(v.data(), d, count * sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

// Compares tpttr's output with the reference; returns the number of wrong elements.
template <typename T>
int check_full(const std::vector<T>& got, const std::vector<T>& ap, const std::vector<long>& index,
               int n, int lda, const T& sentinel) {
  int wrong = 0;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < lda; ++i) {
      const T& g = got[i + static_cast<size_t>(j) * lda];
      const long p = i < n ? index[i + static_cast<size_t>(j) * n] : -1;
      if (!same(g, p >= 0 ? ap[p] : sentinel)) ++wrong;
    }
  return wrong;
}

template <typename T>
void run_type(cublasHandle_t handle) {
  blas_check::Random r(7);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const T sentinel = Api<T>::make(-777.0, 555.0);
  const T nan_t = Api<T>::make(nan, nan);
  for (int lower = 0; lower < 2; ++lower) {
    const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
    for (int n : {0, 1, 2, 5, 17, 45}) {
      for (int pad : {0, 3}) {
        const int lda = std::max(1, n + pad);
        const size_t packed = static_cast<size_t>(n) * (n + 1) / 2;
        const std::vector<long> index = packed_index(lower != 0, n);
        // tpttr: packed -> full.
        std::vector<T> ap(packed);
        for (auto& x : ap) x = Api<T>::make(r.next(), r.next());
        std::vector<T> full(static_cast<size_t>(lda) * std::max(n, 1), sentinel);
        T* d_ap = upload(ap);
        T* d_a = upload(full);
        CHECK_CUBLAS(Api<T>::tpttr(handle, uplo, n, d_ap, d_a, lda));
        std::vector<T> got = download(d_a, full.size());
        const int wrong = check_full(got, ap, index, n, lda, sentinel);
        EXPECT_TRUE(wrong == 0, "%stpttr uplo %d n %d lda %d: %d wrong", Api<T>::name, lower, n,
                    lda, wrong);
        // Mutation: the other fill's result is rejected (n >= 2 has off-diagonal elements).
        if (n >= 2) {
          const std::vector<long> other = packed_index(lower == 0, n);
          EXPECT_TRUE(check_full(got, ap, other, n, lda, sentinel) > 0,
                      "the checker accepted the other fill");
        }
        // trttp: full -> packed, the other triangle and padding NaN (never read).
        std::vector<T> a(static_cast<size_t>(lda) * std::max(n, 1), nan_t);
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i)
            if (index[i + static_cast<size_t>(j) * n] >= 0)
              a[i + static_cast<size_t>(j) * lda] = Api<T>::make(r.next(), r.next());
        std::vector<T> ap_out(packed, sentinel);
        T* d_a2 = upload(a);
        T* d_ap2 = upload(ap_out);
        CHECK_CUBLAS(Api<T>::trttp(handle, uplo, n, d_a2, lda, d_ap2));
        std::vector<T> got_ap = download(d_ap2, packed);
        for (int j = 0; j < n; ++j)
          for (int i = 0; i < n; ++i) {
            const long p = index[i + static_cast<size_t>(j) * n];
            if (p < 0) continue;
            EXPECT_TRUE(same(got_ap[p], a[i + static_cast<size_t>(j) * lda]),
                        "%strttp uplo %d n %d lda %d: AP[%ld] != A(%d, %d)", Api<T>::name, lower, n,
                        lda, p, i, j);
          }
        // Round trip: trttp then tpttr gives back the triangle.
        CHECK_CUDA(cudaMemcpy(d_a, full.data(), full.size() * sizeof(T), cudaMemcpyHostToDevice));
        CHECK_CUBLAS(Api<T>::tpttr(handle, uplo, n, d_ap2, d_a, lda));
        got = download(d_a, full.size());
        EXPECT_TRUE(check_full(got, got_ap, index, n, lda, sentinel) == 0, "%s round trip",
                    Api<T>::name);
        cudaFree(d_ap);
        cudaFree(d_a);
        cudaFree(d_a2);
        cudaFree(d_ap2);
      }
    }
  }
  // Invalid arguments (nothing is launched, so null pointers are fine).
  T* d = upload(std::vector<T>(16, sentinel));
  EXPECT_STATUS(Api<T>::tpttr(handle, CUBLAS_FILL_MODE_FULL, 2, d, d, 2),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::trttp(handle, static_cast<cublasFillMode_t>(7), 2, d, 2, d),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::tpttr(handle, CUBLAS_FILL_MODE_LOWER, -1, d, d, 1),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::trttp(handle, CUBLAS_FILL_MODE_UPPER, -1, d, 1, d),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::tpttr(handle, CUBLAS_FILL_MODE_UPPER, 3, d, d, 2),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::trttp(handle, CUBLAS_FILL_MODE_LOWER, 3, d, 2, d),
                CUBLAS_STATUS_INVALID_VALUE);
  EXPECT_STATUS(Api<T>::trttp(handle, CUBLAS_FILL_MODE_LOWER, 0, d, 0, d),
                CUBLAS_STATUS_INVALID_VALUE);  // lda >= max(1, n)
  EXPECT_STATUS(Api<T>::tpttr(nullptr, CUBLAS_FILL_MODE_LOWER, 2, d, d, 2),
                CUBLAS_STATUS_NOT_INITIALIZED);
  cudaFree(d);
}

int main() {
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));
  run_type<float>(handle);
  run_type<double>(handle);
  run_type<cuComplex>(handle);
  run_type<cuDoubleComplex>(handle);
  CHECK_CUBLAS(cublasDestroy(handle));
  std::printf("PASS packed\n");
  return 0;
}
