// cuBLAS's batched LAPACK-like routines (cublas_api.h) for S, D, C, Z: getrfBatched,
// getrsBatched, getriBatched, matinvBatched, geqrfBatched, gelsBatched. Kernels:
// kernels/lapack.cuh, one thread block per matrix.
//
// Arguments. Each bad one is CUBLAS_STATUS_INVALID_VALUE with a log line. The routines
// with a host `info` (getrs, geqrf, gels) also set it to -i for the i-th argument counted
// without the handle, as LAPACK counts (getrs: trans 1, n 2, nrhs 3, Aarray 4, lda 5,
// devIpiv 6, Barray 7, ldb 8, info 9, batchSize 10), and to 0 when the arguments are
// valid; a null host info is INVALID_VALUE. Pointer arrays the routine must read (and
// getrf's, getri's and matinv's device info arrays) must not be null unless the problem is
// empty. gelsBatched supports what cuBLAS documents: trans N and m >= n; trans T / C and
// m < n are CUBLAS_STATUS_NOT_SUPPORTED (info -1 and -2). Device info arrays are written
// by the kernels, asynchronously on the handle's stream; host info at the call.
#include <cublas_api.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <utility>

#include "blas/kernels.h"
#include "blas/kernels/lapack_args.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::LapackArgs;

constexpr unsigned kThreads = 128;             // one block per matrix
constexpr int64_t kMaxGrid = 65535;            // blocks; each walks the batch by gridDim.x
constexpr int64_t kMaxStageBytes = 48 * 1024;  // dynamic shared memory without opt-in
constexpr int kMatinvMaxN = 32;                // cublas<t>matinvBatched's documented limit

// The kernel name, strata_blas_<routine>_<s|d|c|z>.
template <typename T>
constexpr const char* kSuffix = "";
template <>
constexpr const char* kSuffix<float> = "s";
template <>
constexpr const char* kSuffix<double> = "d";
template <>
constexpr const char* kSuffix<cuComplex> = "c";
template <>
constexpr const char* kSuffix<cuDoubleComplex> = "z";

// The bytes of a rows x cols matrix of T staged in shared memory, or 0 when it does not fit.
template <typename T>
int32_t stage_bytes(int64_t rows, int64_t cols) {
  const int64_t bytes = rows * cols * static_cast<int64_t>(sizeof(T));
  return bytes <= kMaxStageBytes ? static_cast<int32_t>(bytes) : 0;
}

template <typename T>
cublasStatus_t run(Handle& h, const char* function, const char* routine, LapackArgs p) {
  char kernel[64];
  std::snprintf(kernel, sizeof(kernel), "strata_blas_%s_%s", routine, kSuffix<T>);
  const dim3 grid(static_cast<unsigned>(std::min<int64_t>(p.batch_count, kMaxGrid)));
  return launch(h, function, kernel, grid, dim3(kThreads), static_cast<unsigned>(p.stage_bytes), p);
}

LapackArgs base_args(int n, int lda, int batch) {
  LapackArgs p{};
  p.m = n, p.n = n, p.lda = lda, p.batch_count = batch;
  return p;
}

// Sets the host info of getrs / geqrf / gels to -position and logs the argument.
template <typename... Args>
cublasStatus_t bad_arg(int* info, int position, const char* function,
                       fmt::format_string<Args...> format, Args&&... args) {
  *info = -position;
  return invalid(function, format, std::forward<Args>(args)...);
}

template <typename T>
cublasStatus_t getrf(const char* function, cublasHandle_t handle, int n, T* const a[], int lda,
                     int* pivots, int* info, int batch) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n < 0) return invalid(function, "n = {} < 0", n);
  if (lda < std::max(1, n)) return invalid(function, "lda = {} < max(1, n = {})", lda, n);
  if (batch < 0) return invalid(function, "batchSize = {} < 0", batch);
  if (batch == 0) return CUBLAS_STATUS_SUCCESS;
  if (info == nullptr) return invalid(function, "infoArray is null");
  if (n > 0 && a == nullptr) return invalid(function, "Aarray is null");
  LapackArgs p = base_args(n, lda, batch);
  p.a_array = n > 0 ? reinterpret_cast<void* const*>(a) : nullptr;
  p.pivots = n > 0 ? pivots : nullptr;
  p.info = info;
  p.stage_bytes = stage_bytes<T>(n, n);
  return run<T>(*h, function, "getrf", p);
}

template <typename T>
cublasStatus_t getrs(const char* function, cublasHandle_t handle, cublasOperation_t trans, int n,
                     int nrhs, const T* const a[], int lda, const int* pivots, T* const b[],
                     int ldb, int* info, int batch) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (info == nullptr) return invalid(function, "info is null");
  if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C)
    return bad_arg(info, 1, function, "trans = {}", static_cast<int>(trans));
  if (n < 0) return bad_arg(info, 2, function, "n = {} < 0", n);
  if (nrhs < 0) return bad_arg(info, 3, function, "nrhs = {} < 0", nrhs);
  const bool empty = n == 0 || nrhs == 0 || batch == 0;
  if (!empty && a == nullptr) return bad_arg(info, 4, function, "Aarray is null");
  if (lda < std::max(1, n)) return bad_arg(info, 5, function, "lda = {} < max(1, n = {})", lda, n);
  if (!empty && b == nullptr) return bad_arg(info, 7, function, "Barray is null");
  if (ldb < std::max(1, n)) return bad_arg(info, 8, function, "ldb = {} < max(1, n = {})", ldb, n);
  if (batch < 0) return bad_arg(info, 10, function, "batchSize = {} < 0", batch);
  *info = 0;
  if (empty) return CUBLAS_STATUS_SUCCESS;
  LapackArgs p = base_args(n, lda, batch);
  p.nrhs = nrhs;
  p.op = static_cast<int32_t>(trans);
  p.a_array = reinterpret_cast<void* const*>(const_cast<T* const*>(a));
  p.pivots = const_cast<int*>(pivots);
  p.b_array = reinterpret_cast<void* const*>(b);
  p.ldb = ldb;
  return run<T>(*h, function, "getrs", p);
}

template <typename T>
cublasStatus_t getri(const char* function, cublasHandle_t handle, int n, const T* const a[],
                     int lda, const int* pivots, T* const c[], int ldc, int* info, int batch) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n < 0) return invalid(function, "n = {} < 0", n);
  if (lda < std::max(1, n)) return invalid(function, "lda = {} < max(1, n = {})", lda, n);
  if (ldc < std::max(1, n)) return invalid(function, "ldc = {} < max(1, n = {})", ldc, n);
  if (batch < 0) return invalid(function, "batchSize = {} < 0", batch);
  if (batch == 0) return CUBLAS_STATUS_SUCCESS;
  if (info == nullptr) return invalid(function, "infoArray is null");
  if (n > 0 && a == nullptr) return invalid(function, "Aarray is null");
  if (n > 0 && c == nullptr) return invalid(function, "Carray is null");
  LapackArgs p = base_args(n, lda, batch);
  if (n > 0) {
    p.a_array = reinterpret_cast<void* const*>(const_cast<T* const*>(a));
    p.b_array = reinterpret_cast<void* const*>(c);
    p.pivots = const_cast<int*>(pivots);
  }
  p.ldb = ldc;
  p.info = info;
  return run<T>(*h, function, "getri", p);
}

template <typename T>
cublasStatus_t matinv(const char* function, cublasHandle_t handle, int n, const T* const a[],
                      int lda, T* const ainv[], int lda_inv, int* info, int batch) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (n < 0 || n > kMatinvMaxN) return invalid(function, "n = {}: not in [0, {}]", n, kMatinvMaxN);
  if (lda < std::max(1, n)) return invalid(function, "lda = {} < max(1, n = {})", lda, n);
  if (lda_inv < std::max(1, n))
    return invalid(function, "lda_inv = {} < max(1, n = {})", lda_inv, n);
  if (batch < 0) return invalid(function, "batchSize = {} < 0", batch);
  if (batch == 0) return CUBLAS_STATUS_SUCCESS;
  if (info == nullptr) return invalid(function, "info is null");
  if (n > 0 && a == nullptr) return invalid(function, "A is null");
  if (n > 0 && ainv == nullptr) return invalid(function, "Ainv is null");
  LapackArgs p = base_args(n, lda, batch);
  if (n > 0) {
    p.a_array = reinterpret_cast<void* const*>(const_cast<T* const*>(a));
    p.b_array = reinterpret_cast<void* const*>(ainv);
  }
  p.ldb = lda_inv;
  p.info = info;
  p.stage_bytes = stage_bytes<T>(n, n);  // n <= 32: always fits
  return run<T>(*h, function, "matinv", p);
}

template <typename T>
cublasStatus_t geqrf(const char* function, cublasHandle_t handle, int m, int n, T* const a[],
                     int lda, T* const tau[], int* info, int batch) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (info == nullptr) return invalid(function, "info is null");
  if (m < 0) return bad_arg(info, 1, function, "m = {} < 0", m);
  if (n < 0) return bad_arg(info, 2, function, "n = {} < 0", n);
  const bool empty = m == 0 || n == 0 || batch == 0;
  if (!empty && a == nullptr) return bad_arg(info, 3, function, "Aarray is null");
  if (lda < std::max(1, m)) return bad_arg(info, 4, function, "lda = {} < max(1, m = {})", lda, m);
  if (!empty && tau == nullptr) return bad_arg(info, 5, function, "TauArray is null");
  if (batch < 0) return bad_arg(info, 7, function, "batchSize = {} < 0", batch);
  *info = 0;
  if (empty) return CUBLAS_STATUS_SUCCESS;
  LapackArgs p = base_args(n, lda, batch);
  p.m = m;
  p.a_array = reinterpret_cast<void* const*>(a);
  p.b_array = reinterpret_cast<void* const*>(tau);
  p.stage_bytes = stage_bytes<T>(m, n);
  return run<T>(*h, function, "geqrf", p);
}

template <typename T>
cublasStatus_t gels(const char* function, cublasHandle_t handle, cublasOperation_t trans, int m,
                    int n, int nrhs, T* const a[], int lda, T* const c[], int ldc, int* info,
                    int* dev_info, int batch) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (info == nullptr) return invalid(function, "info is null");
  if (trans != CUBLAS_OP_N && trans != CUBLAS_OP_T && trans != CUBLAS_OP_C)
    return bad_arg(info, 1, function, "trans = {}", static_cast<int>(trans));
  if (m < 0) return bad_arg(info, 2, function, "m = {} < 0", m);
  if (n < 0) return bad_arg(info, 3, function, "n = {} < 0", n);
  if (nrhs < 0) return bad_arg(info, 4, function, "nrhs = {} < 0", nrhs);
  const bool empty = m == 0 || n == 0 || nrhs == 0 || batch == 0;
  if (!empty && a == nullptr) return bad_arg(info, 5, function, "Aarray is null");
  if (lda < std::max(1, m)) return bad_arg(info, 6, function, "lda = {} < max(1, m = {})", lda, m);
  if (!empty && c == nullptr) return bad_arg(info, 7, function, "Carray is null");
  if (ldc < std::max(1, m)) return bad_arg(info, 8, function, "ldc = {} < max(1, m = {})", ldc, m);
  if (batch < 0) return bad_arg(info, 11, function, "batchSize = {} < 0", batch);
  if (trans != CUBLAS_OP_N) {
    *info = -1;
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "trans = {}: only CUBLAS_OP_N is supported",
                static_cast<int>(trans));
  }
  if (m < n) {
    *info = -2;
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "m = {} < n = {}: only m >= n is supported",
                m, n);
  }
  *info = 0;
  if (batch == 0) return CUBLAS_STATUS_SUCCESS;
  LapackArgs p = base_args(n, lda, batch);
  p.m = m;
  p.ldb = ldc;
  p.info = dev_info;
  if (empty) {
    if (dev_info == nullptr) return CUBLAS_STATUS_SUCCESS;
    p.m = p.n = 0;  // the kernel only writes devInfoArray (LAPACK returns before touching A)
  } else {
    p.nrhs = nrhs;
    p.a_array = reinterpret_cast<void* const*>(a);
    p.b_array = reinterpret_cast<void* const*>(c);
    p.stage_bytes = stage_bytes<T>(m, n);
  }
  return run<T>(*h, function, "gels", p);
}

}  // namespace
}  // namespace strata::blas

extern "C" {

#define STRATA_BLAS_LAPACK_ENTRIES(L, T)                                                           \
  cublasStatus_t CUBLASWINAPI cublas##L##getrfBatched(cublasHandle_t handle, int n, T* const A[],  \
                                                      int lda, int* P, int* info, int batchSize) { \
    return strata::blas::getrf<T>("cublas" #L "getrfBatched", handle, n, A, lda, P, info,          \
                                  batchSize);                                                      \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##getrsBatched(                                             \
      cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs, const T* const Aarray[],    \
      int lda, const int* devIpiv, T* const Barray[], int ldb, int* info, int batchSize) {         \
    return strata::blas::getrs<T>("cublas" #L "getrsBatched", handle, trans, n, nrhs, Aarray, lda, \
                                  devIpiv, Barray, ldb, info, batchSize);                          \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##getriBatched(                                             \
      cublasHandle_t handle, int n, const T* const A[], int lda, const int* P, T* const C[],       \
      int ldc, int* info, int batchSize) {                                                         \
    return strata::blas::getri<T>("cublas" #L "getriBatched", handle, n, A, lda, P, C, ldc, info,  \
                                  batchSize);                                                      \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##matinvBatched(                                            \
      cublasHandle_t handle, int n, const T* const A[], int lda, T* const Ainv[], int lda_inv,     \
      int* info, int batchSize) {                                                                  \
    return strata::blas::matinv<T>("cublas" #L "matinvBatched", handle, n, A, lda, Ainv, lda_inv,  \
                                   info, batchSize);                                               \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##geqrfBatched(                                             \
      cublasHandle_t handle, int m, int n, T* const Aarray[], int lda, T* const TauArray[],        \
      int* info, int batchSize) {                                                                  \
    return strata::blas::geqrf<T>("cublas" #L "geqrfBatched", handle, m, n, Aarray, lda, TauArray, \
                                  info, batchSize);                                                \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##gelsBatched(                                              \
      cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs, T* const Aarray[],   \
      int lda, T* const Carray[], int ldc, int* info, int* devInfoArray, int batchSize) {          \
    return strata::blas::gels<T>("cublas" #L "gelsBatched", handle, trans, m, n, nrhs, Aarray,     \
                                 lda, Carray, ldc, info, devInfoArray, batchSize);                 \
  }
STRATA_BLAS_LAPACK_ENTRIES(S, float)
STRATA_BLAS_LAPACK_ENTRIES(D, double)
STRATA_BLAS_LAPACK_ENTRIES(C, cuComplex)
STRATA_BLAS_LAPACK_ENTRIES(Z, cuDoubleComplex)
#undef STRATA_BLAS_LAPACK_ENTRIES

}  // extern "C"
