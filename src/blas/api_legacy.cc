// The legacy cuBLAS v1 API (cublas.h): cublasInit / cublasShutdown around one
// process-wide handle, cublasGetError, cublasAlloc / cublasFree, cublasSetKernelStream,
// cublasGetVersion(int*), and every v1 BLAS routine, each forwarding to its v2 entry
// point (cublas_api.h's *_v2) on that handle, in CUBLAS_POINTER_MODE_HOST: scalars are
// passed by value and results returned, so every routine is synchronous where its v2
// form is in host pointer mode.
//
// Errors (the cuBLAS documentation, "Legacy cuBLAS API"): the routines return no status;
// a failure is recorded, and cublasGetError returns the last one recorded and resets it
// to CUBLAS_STATUS_SUCCESS. A routine called before cublasInit records
// CUBLAS_STATUS_NOT_INITIALIZED; a character argument other than N/T/C, U/L, U/N or L/R
// (either case) becomes a value the v2 routine rejects with CUBLAS_STATUS_INVALID_VALUE;
// a v2 routine that is still a generated stub records CUBLAS_STATUS_NOT_SUPPORTED.
// Functions returning a value return zero when they fail.
//
// cublas.h cannot share a translation unit with cublas_v2.h (which renames the v1
// names to the _v2 entry points), so this file includes cublas.h alone and calls the
// _v2 names directly.
#include <cublas.h>
#include <cuda_runtime_api.h>

#include <atomic>
#include <mutex>

#include "blas/status.h"

namespace strata::blas {
namespace {

std::mutex& init_mutex() {
  static std::mutex mu;
  return mu;
}
std::atomic<cublasHandle_t> g_handle{nullptr};
std::atomic<int> g_error{CUBLAS_STATUS_SUCCESS};

void record(cublasStatus_t s) {
  if (s != CUBLAS_STATUS_SUCCESS) g_error.store(s);
}

// The v1 handle, or null (recorded and logged) before cublasInit.
cublasHandle_t legacy_handle(const char* function) {
  cublasHandle_t h = g_handle.load();
  if (h == nullptr) {
    record(fail(CUBLAS_STATUS_NOT_INITIALIZED, function, "cublasInit has not been called"));
  }
  return h;
}

// An enum value no v2 routine accepts, for characters v1 does not define.
template <typename E>
E invalid_enum() {
  return static_cast<E>(0x7fffffff);
}

cublasOperation_t op_of(char c) {
  switch (c) {
    case 'N':
    case 'n':
      return CUBLAS_OP_N;
    case 'T':
    case 't':
      return CUBLAS_OP_T;
    case 'C':
    case 'c':
      return CUBLAS_OP_C;
  }
  return invalid_enum<cublasOperation_t>();
}
cublasFillMode_t fill_of(char c) {
  switch (c) {
    case 'U':
    case 'u':
      return CUBLAS_FILL_MODE_UPPER;
    case 'L':
    case 'l':
      return CUBLAS_FILL_MODE_LOWER;
  }
  return invalid_enum<cublasFillMode_t>();
}
cublasDiagType_t diag_of(char c) {
  switch (c) {
    case 'U':
    case 'u':
      return CUBLAS_DIAG_UNIT;
    case 'N':
    case 'n':
      return CUBLAS_DIAG_NON_UNIT;
  }
  return invalid_enum<cublasDiagType_t>();
}
cublasSideMode_t side_of(char c) {
  switch (c) {
    case 'L':
    case 'l':
      return CUBLAS_SIDE_LEFT;
    case 'R':
    case 'r':
      return CUBLAS_SIDE_RIGHT;
  }
  return invalid_enum<cublasSideMode_t>();
}

}  // namespace
}  // namespace strata::blas

using namespace strata::blas;  // NOLINT: the entry points below are its public face

// A v1 routine returning nothing: `call` (a v2 call on the handle h) with its status recorded.
#define STRATA_V1_VOID(name, params, call)   \
  void CUBLASWINAPI name params {            \
    cublasHandle_t h = legacy_handle(#name); \
    if (h != nullptr) record(call);          \
  }
// A v1 routine returning a value of type R: `call` writes it to r (host pointer mode).
#define STRATA_V1_RESULT(R, name, params, call) \
  R CUBLASWINAPI name params {                  \
    R r{};                                      \
    cublasHandle_t h = legacy_handle(#name);    \
    if (h != nullptr) record(call);             \
    return r;                                   \
  }

extern "C" {

cublasStatus CUBLASWINAPI cublasInit(void) {
  std::lock_guard<std::mutex> lock(init_mutex());
  if (g_handle.load() != nullptr) return CUBLAS_STATUS_SUCCESS;
  cublasHandle_t h = nullptr;
  const cublasStatus_t s = cublasCreate_v2(&h);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  g_handle.store(h);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus CUBLASWINAPI cublasShutdown(void) {
  std::lock_guard<std::mutex> lock(init_mutex());
  cublasHandle_t h = g_handle.exchange(nullptr);
  if (h == nullptr)
    return fail(CUBLAS_STATUS_NOT_INITIALIZED, "cublasShutdown", "cublasInit has not been called");
  return cublasDestroy_v2(h);
}

cublasStatus CUBLASWINAPI cublasGetError(void) {
  return static_cast<cublasStatus_t>(g_error.exchange(CUBLAS_STATUS_SUCCESS));
}

cublasStatus CUBLASWINAPI cublasGetVersion(int* version) {
  if (version == nullptr) return invalid("cublasGetVersion", "version is null");
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus CUBLASWINAPI cublasAlloc(int n, int elemSize, void** devicePtr) {
  const char* function = "cublasAlloc";
  if (g_handle.load() == nullptr)
    return fail(CUBLAS_STATUS_NOT_INITIALIZED, function, "cublasInit has not been called");
  if (n <= 0 || elemSize <= 0)
    return invalid(function, "n = {}, elemSize = {}: both must be positive", n, elemSize);
  if (devicePtr == nullptr) return invalid(function, "devicePtr is null");
  const cudaError_t e =
      cudaMalloc(devicePtr, static_cast<size_t>(n) * static_cast<size_t>(elemSize));
  if (e != cudaSuccess) {
    *devicePtr = nullptr;
    return fail(CUBLAS_STATUS_ALLOC_FAILED, function, "cudaMalloc of {} x {} bytes: {}", n,
                elemSize, cudaGetErrorName(e));
  }
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus CUBLASWINAPI cublasFree(void* devicePtr) {
  const cudaError_t e = cudaFree(devicePtr);
  if (e != cudaSuccess)
    return fail(CUBLAS_STATUS_INTERNAL_ERROR, "cublasFree", "cudaFree: {}", cudaGetErrorName(e));
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus CUBLASWINAPI cublasSetKernelStream(cudaStream_t stream) {
  cublasHandle_t h = g_handle.load();
  if (h == nullptr)
    return fail(CUBLAS_STATUS_NOT_INITIALIZED, "cublasSetKernelStream",
                "cublasInit has not been called");
  return cublasSetStream_v2(h, stream);
}

// clang-format off
STRATA_V1_RESULT(float, cublasSnrm2, (int n, const float* x, int incx), cublasSnrm2_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(double, cublasDnrm2, (int n, const double* x, int incx), cublasDnrm2_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(float, cublasScnrm2, (int n, const cuComplex* x, int incx), cublasScnrm2_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(double, cublasDznrm2, (int n, const cuDoubleComplex* x, int incx), cublasDznrm2_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(float, cublasSdot, (int n, const float* x, int incx, const float* y, int incy), cublasSdot_v2(h, n, x, incx, y, incy, &r))
STRATA_V1_RESULT(double, cublasDdot, (int n, const double* x, int incx, const double* y, int incy), cublasDdot_v2(h, n, x, incx, y, incy, &r))
STRATA_V1_RESULT(cuComplex, cublasCdotu, (int n, const cuComplex* x, int incx, const cuComplex* y, int incy), cublasCdotu_v2(h, n, x, incx, y, incy, &r))
STRATA_V1_RESULT(cuComplex, cublasCdotc, (int n, const cuComplex* x, int incx, const cuComplex* y, int incy), cublasCdotc_v2(h, n, x, incx, y, incy, &r))
STRATA_V1_RESULT(cuDoubleComplex, cublasZdotu, (int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy), cublasZdotu_v2(h, n, x, incx, y, incy, &r))
STRATA_V1_RESULT(cuDoubleComplex, cublasZdotc, (int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy), cublasZdotc_v2(h, n, x, incx, y, incy, &r))
STRATA_V1_VOID(cublasSscal, (int n, float alpha, float* x, int incx), cublasSscal_v2(h, n, &alpha, x, incx))
STRATA_V1_VOID(cublasDscal, (int n, double alpha, double* x, int incx), cublasDscal_v2(h, n, &alpha, x, incx))
STRATA_V1_VOID(cublasCscal, (int n, cuComplex alpha, cuComplex* x, int incx), cublasCscal_v2(h, n, &alpha, x, incx))
STRATA_V1_VOID(cublasZscal, (int n, cuDoubleComplex alpha, cuDoubleComplex* x, int incx), cublasZscal_v2(h, n, &alpha, x, incx))
STRATA_V1_VOID(cublasCsscal, (int n, float alpha, cuComplex* x, int incx), cublasCsscal_v2(h, n, &alpha, x, incx))
STRATA_V1_VOID(cublasZdscal, (int n, double alpha, cuDoubleComplex* x, int incx), cublasZdscal_v2(h, n, &alpha, x, incx))
STRATA_V1_VOID(cublasSaxpy, (int n, float alpha, const float* x, int incx, float* y, int incy), cublasSaxpy_v2(h, n, &alpha, x, incx, y, incy))
STRATA_V1_VOID(cublasDaxpy, (int n, double alpha, const double* x, int incx, double* y, int incy), cublasDaxpy_v2(h, n, &alpha, x, incx, y, incy))
STRATA_V1_VOID(cublasCaxpy, (int n, cuComplex alpha, const cuComplex* x, int incx, cuComplex* y, int incy), cublasCaxpy_v2(h, n, &alpha, x, incx, y, incy))
STRATA_V1_VOID(cublasZaxpy, (int n, cuDoubleComplex alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy), cublasZaxpy_v2(h, n, &alpha, x, incx, y, incy))
STRATA_V1_VOID(cublasScopy, (int n, const float* x, int incx, float* y, int incy), cublasScopy_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasDcopy, (int n, const double* x, int incx, double* y, int incy), cublasDcopy_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasCcopy, (int n, const cuComplex* x, int incx, cuComplex* y, int incy), cublasCcopy_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasZcopy, (int n, const cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy), cublasZcopy_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasSswap, (int n, float* x, int incx, float* y, int incy), cublasSswap_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasDswap, (int n, double* x, int incx, double* y, int incy), cublasDswap_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasCswap, (int n, cuComplex* x, int incx, cuComplex* y, int incy), cublasCswap_v2(h, n, x, incx, y, incy))
STRATA_V1_VOID(cublasZswap, (int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy), cublasZswap_v2(h, n, x, incx, y, incy))
STRATA_V1_RESULT(int, cublasIsamax, (int n, const float* x, int incx), cublasIsamax_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIdamax, (int n, const double* x, int incx), cublasIdamax_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIcamax, (int n, const cuComplex* x, int incx), cublasIcamax_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIzamax, (int n, const cuDoubleComplex* x, int incx), cublasIzamax_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIsamin, (int n, const float* x, int incx), cublasIsamin_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIdamin, (int n, const double* x, int incx), cublasIdamin_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIcamin, (int n, const cuComplex* x, int incx), cublasIcamin_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(int, cublasIzamin, (int n, const cuDoubleComplex* x, int incx), cublasIzamin_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(float, cublasSasum, (int n, const float* x, int incx), cublasSasum_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(double, cublasDasum, (int n, const double* x, int incx), cublasDasum_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(float, cublasScasum, (int n, const cuComplex* x, int incx), cublasScasum_v2(h, n, x, incx, &r))
STRATA_V1_RESULT(double, cublasDzasum, (int n, const cuDoubleComplex* x, int incx), cublasDzasum_v2(h, n, x, incx, &r))
STRATA_V1_VOID(cublasSrot, (int n, float* x, int incx, float* y, int incy, float sc, float ss), cublasSrot_v2(h, n, x, incx, y, incy, &sc, &ss))
STRATA_V1_VOID(cublasDrot, (int n, double* x, int incx, double* y, int incy, double sc, double ss), cublasDrot_v2(h, n, x, incx, y, incy, &sc, &ss))
STRATA_V1_VOID(cublasCrot, (int n, cuComplex* x, int incx, cuComplex* y, int incy, float c, cuComplex s), cublasCrot_v2(h, n, x, incx, y, incy, &c, &s))
STRATA_V1_VOID(cublasZrot, (int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy, double sc, cuDoubleComplex cs), cublasZrot_v2(h, n, x, incx, y, incy, &sc, &cs))
STRATA_V1_VOID(cublasCsrot, (int n, cuComplex* x, int incx, cuComplex* y, int incy, float c, float s), cublasCsrot_v2(h, n, x, incx, y, incy, &c, &s))
STRATA_V1_VOID(cublasZdrot, (int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy, double c, double s), cublasZdrot_v2(h, n, x, incx, y, incy, &c, &s))
STRATA_V1_VOID(cublasSrotg, (float* sa, float* sb, float* sc, float* ss), cublasSrotg_v2(h, sa, sb, sc, ss))
STRATA_V1_VOID(cublasDrotg, (double* sa, double* sb, double* sc, double* ss), cublasDrotg_v2(h, sa, sb, sc, ss))
STRATA_V1_VOID(cublasCrotg, (cuComplex* ca, cuComplex cb, float* sc, cuComplex* cs), cublasCrotg_v2(h, ca, &cb, sc, cs))
STRATA_V1_VOID(cublasZrotg, (cuDoubleComplex* ca, cuDoubleComplex cb, double* sc, cuDoubleComplex* cs), cublasZrotg_v2(h, ca, &cb, sc, cs))
STRATA_V1_VOID(cublasSrotm, (int n, float* x, int incx, float* y, int incy, const float* sparam), cublasSrotm_v2(h, n, x, incx, y, incy, sparam))
STRATA_V1_VOID(cublasDrotm, (int n, double* x, int incx, double* y, int incy, const double* sparam), cublasDrotm_v2(h, n, x, incx, y, incy, sparam))
STRATA_V1_VOID(cublasSrotmg, (float* sd1, float* sd2, float* sx1, const float* sy1, float* sparam), cublasSrotmg_v2(h, sd1, sd2, sx1, sy1, sparam))
STRATA_V1_VOID(cublasDrotmg, (double* sd1, double* sd2, double* sx1, const double* sy1, double* sparam), cublasDrotmg_v2(h, sd1, sd2, sx1, sy1, sparam))
STRATA_V1_VOID(cublasSgemv, (char trans, int m, int n, float alpha, const float* A, int lda, const float* x, int incx, float beta, float* y, int incy), cublasSgemv_v2(h, op_of(trans), m, n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasDgemv, (char trans, int m, int n, double alpha, const double* A, int lda, const double* x, int incx, double beta, double* y, int incy), cublasDgemv_v2(h, op_of(trans), m, n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasCgemv, (char trans, int m, int n, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* x, int incx, cuComplex beta, cuComplex* y, int incy), cublasCgemv_v2(h, op_of(trans), m, n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasZgemv, (char trans, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, cuDoubleComplex beta, cuDoubleComplex* y, int incy), cublasZgemv_v2(h, op_of(trans), m, n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasSgbmv, (char trans, int m, int n, int kl, int ku, float alpha, const float* A, int lda, const float* x, int incx, float beta, float* y, int incy), cublasSgbmv_v2(h, op_of(trans), m, n, kl, ku, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasDgbmv, (char trans, int m, int n, int kl, int ku, double alpha, const double* A, int lda, const double* x, int incx, double beta, double* y, int incy), cublasDgbmv_v2(h, op_of(trans), m, n, kl, ku, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasCgbmv, (char trans, int m, int n, int kl, int ku, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* x, int incx, cuComplex beta, cuComplex* y, int incy), cublasCgbmv_v2(h, op_of(trans), m, n, kl, ku, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasZgbmv, (char trans, int m, int n, int kl, int ku, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, cuDoubleComplex beta, cuDoubleComplex* y, int incy), cublasZgbmv_v2(h, op_of(trans), m, n, kl, ku, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasStrmv, (char uplo, char trans, char diag, int n, const float* A, int lda, float* x, int incx), cublasStrmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasDtrmv, (char uplo, char trans, char diag, int n, const double* A, int lda, double* x, int incx), cublasDtrmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasCtrmv, (char uplo, char trans, char diag, int n, const cuComplex* A, int lda, cuComplex* x, int incx), cublasCtrmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasZtrmv, (char uplo, char trans, char diag, int n, const cuDoubleComplex* A, int lda, cuDoubleComplex* x, int incx), cublasZtrmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasStbmv, (char uplo, char trans, char diag, int n, int k, const float* A, int lda, float* x, int incx), cublasStbmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasDtbmv, (char uplo, char trans, char diag, int n, int k, const double* A, int lda, double* x, int incx), cublasDtbmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasCtbmv, (char uplo, char trans, char diag, int n, int k, const cuComplex* A, int lda, cuComplex* x, int incx), cublasCtbmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasZtbmv, (char uplo, char trans, char diag, int n, int k, const cuDoubleComplex* A, int lda, cuDoubleComplex* x, int incx), cublasZtbmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasStpmv, (char uplo, char trans, char diag, int n, const float* AP, float* x, int incx), cublasStpmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasDtpmv, (char uplo, char trans, char diag, int n, const double* AP, double* x, int incx), cublasDtpmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasCtpmv, (char uplo, char trans, char diag, int n, const cuComplex* AP, cuComplex* x, int incx), cublasCtpmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasZtpmv, (char uplo, char trans, char diag, int n, const cuDoubleComplex* AP, cuDoubleComplex* x, int incx), cublasZtpmv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasStrsv, (char uplo, char trans, char diag, int n, const float* A, int lda, float* x, int incx), cublasStrsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasDtrsv, (char uplo, char trans, char diag, int n, const double* A, int lda, double* x, int incx), cublasDtrsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasCtrsv, (char uplo, char trans, char diag, int n, const cuComplex* A, int lda, cuComplex* x, int incx), cublasCtrsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasZtrsv, (char uplo, char trans, char diag, int n, const cuDoubleComplex* A, int lda, cuDoubleComplex* x, int incx), cublasZtrsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, A, lda, x, incx))
STRATA_V1_VOID(cublasStpsv, (char uplo, char trans, char diag, int n, const float* AP, float* x, int incx), cublasStpsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasDtpsv, (char uplo, char trans, char diag, int n, const double* AP, double* x, int incx), cublasDtpsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasCtpsv, (char uplo, char trans, char diag, int n, const cuComplex* AP, cuComplex* x, int incx), cublasCtpsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasZtpsv, (char uplo, char trans, char diag, int n, const cuDoubleComplex* AP, cuDoubleComplex* x, int incx), cublasZtpsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, AP, x, incx))
STRATA_V1_VOID(cublasStbsv, (char uplo, char trans, char diag, int n, int k, const float* A, int lda, float* x, int incx), cublasStbsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasDtbsv, (char uplo, char trans, char diag, int n, int k, const double* A, int lda, double* x, int incx), cublasDtbsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasCtbsv, (char uplo, char trans, char diag, int n, int k, const cuComplex* A, int lda, cuComplex* x, int incx), cublasCtbsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasZtbsv, (char uplo, char trans, char diag, int n, int k, const cuDoubleComplex* A, int lda, cuDoubleComplex* x, int incx), cublasZtbsv_v2(h, fill_of(uplo), op_of(trans), diag_of(diag), n, k, A, lda, x, incx))
STRATA_V1_VOID(cublasSsymv, (char uplo, int n, float alpha, const float* A, int lda, const float* x, int incx, float beta, float* y, int incy), cublasSsymv_v2(h, fill_of(uplo), n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasDsymv, (char uplo, int n, double alpha, const double* A, int lda, const double* x, int incx, double beta, double* y, int incy), cublasDsymv_v2(h, fill_of(uplo), n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasChemv, (char uplo, int n, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* x, int incx, cuComplex beta, cuComplex* y, int incy), cublasChemv_v2(h, fill_of(uplo), n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasZhemv, (char uplo, int n, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, cuDoubleComplex beta, cuDoubleComplex* y, int incy), cublasZhemv_v2(h, fill_of(uplo), n, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasSsbmv, (char uplo, int n, int k, float alpha, const float* A, int lda, const float* x, int incx, float beta, float* y, int incy), cublasSsbmv_v2(h, fill_of(uplo), n, k, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasDsbmv, (char uplo, int n, int k, double alpha, const double* A, int lda, const double* x, int incx, double beta, double* y, int incy), cublasDsbmv_v2(h, fill_of(uplo), n, k, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasChbmv, (char uplo, int n, int k, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* x, int incx, cuComplex beta, cuComplex* y, int incy), cublasChbmv_v2(h, fill_of(uplo), n, k, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasZhbmv, (char uplo, int n, int k, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* x, int incx, cuDoubleComplex beta, cuDoubleComplex* y, int incy), cublasZhbmv_v2(h, fill_of(uplo), n, k, &alpha, A, lda, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasSspmv, (char uplo, int n, float alpha, const float* AP, const float* x, int incx, float beta, float* y, int incy), cublasSspmv_v2(h, fill_of(uplo), n, &alpha, AP, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasDspmv, (char uplo, int n, double alpha, const double* AP, const double* x, int incx, double beta, double* y, int incy), cublasDspmv_v2(h, fill_of(uplo), n, &alpha, AP, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasChpmv, (char uplo, int n, cuComplex alpha, const cuComplex* AP, const cuComplex* x, int incx, cuComplex beta, cuComplex* y, int incy), cublasChpmv_v2(h, fill_of(uplo), n, &alpha, AP, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasZhpmv, (char uplo, int n, cuDoubleComplex alpha, const cuDoubleComplex* AP, const cuDoubleComplex* x, int incx, cuDoubleComplex beta, cuDoubleComplex* y, int incy), cublasZhpmv_v2(h, fill_of(uplo), n, &alpha, AP, x, incx, &beta, y, incy))
STRATA_V1_VOID(cublasSger, (int m, int n, float alpha, const float* x, int incx, const float* y, int incy, float* A, int lda), cublasSger_v2(h, m, n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasDger, (int m, int n, double alpha, const double* x, int incx, const double* y, int incy, double* A, int lda), cublasDger_v2(h, m, n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasCgeru, (int m, int n, cuComplex alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* A, int lda), cublasCgeru_v2(h, m, n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasCgerc, (int m, int n, cuComplex alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* A, int lda), cublasCgerc_v2(h, m, n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasZgeru, (int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* A, int lda), cublasZgeru_v2(h, m, n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasZgerc, (int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* A, int lda), cublasZgerc_v2(h, m, n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasSsyr, (char uplo, int n, float alpha, const float* x, int incx, float* A, int lda), cublasSsyr_v2(h, fill_of(uplo), n, &alpha, x, incx, A, lda))
STRATA_V1_VOID(cublasDsyr, (char uplo, int n, double alpha, const double* x, int incx, double* A, int lda), cublasDsyr_v2(h, fill_of(uplo), n, &alpha, x, incx, A, lda))
STRATA_V1_VOID(cublasCher, (char uplo, int n, float alpha, const cuComplex* x, int incx, cuComplex* A, int lda), cublasCher_v2(h, fill_of(uplo), n, &alpha, x, incx, A, lda))
STRATA_V1_VOID(cublasZher, (char uplo, int n, double alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* A, int lda), cublasZher_v2(h, fill_of(uplo), n, &alpha, x, incx, A, lda))
STRATA_V1_VOID(cublasSspr, (char uplo, int n, float alpha, const float* x, int incx, float* AP), cublasSspr_v2(h, fill_of(uplo), n, &alpha, x, incx, AP))
STRATA_V1_VOID(cublasDspr, (char uplo, int n, double alpha, const double* x, int incx, double* AP), cublasDspr_v2(h, fill_of(uplo), n, &alpha, x, incx, AP))
STRATA_V1_VOID(cublasChpr, (char uplo, int n, float alpha, const cuComplex* x, int incx, cuComplex* AP), cublasChpr_v2(h, fill_of(uplo), n, &alpha, x, incx, AP))
STRATA_V1_VOID(cublasZhpr, (char uplo, int n, double alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* AP), cublasZhpr_v2(h, fill_of(uplo), n, &alpha, x, incx, AP))
STRATA_V1_VOID(cublasSsyr2, (char uplo, int n, float alpha, const float* x, int incx, const float* y, int incy, float* A, int lda), cublasSsyr2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasDsyr2, (char uplo, int n, double alpha, const double* x, int incx, const double* y, int incy, double* A, int lda), cublasDsyr2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasCher2, (char uplo, int n, cuComplex alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* A, int lda), cublasCher2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasZher2, (char uplo, int n, cuDoubleComplex alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* A, int lda), cublasZher2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, A, lda))
STRATA_V1_VOID(cublasSspr2, (char uplo, int n, float alpha, const float* x, int incx, const float* y, int incy, float* AP), cublasSspr2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, AP))
STRATA_V1_VOID(cublasDspr2, (char uplo, int n, double alpha, const double* x, int incx, const double* y, int incy, double* AP), cublasDspr2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, AP))
STRATA_V1_VOID(cublasChpr2, (char uplo, int n, cuComplex alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* AP), cublasChpr2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, AP))
STRATA_V1_VOID(cublasZhpr2, (char uplo, int n, cuDoubleComplex alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* AP), cublasZhpr2_v2(h, fill_of(uplo), n, &alpha, x, incx, y, incy, AP))
STRATA_V1_VOID(cublasSgemm, (char transa, char transb, int m, int n, int k, float alpha, const float* A, int lda, const float* B, int ldb, float beta, float* C, int ldc), cublasSgemm_v2(h, op_of(transa), op_of(transb), m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasDgemm, (char transa, char transb, int m, int n, int k, double alpha, const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc), cublasDgemm_v2(h, op_of(transa), op_of(transb), m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasCgemm, (char transa, char transb, int m, int n, int k, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* B, int ldb, cuComplex beta, cuComplex* C, int ldc), cublasCgemm_v2(h, op_of(transa), op_of(transb), m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasZgemm, (char transa, char transb, int m, int n, int k, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, cuDoubleComplex beta, cuDoubleComplex* C, int ldc), cublasZgemm_v2(h, op_of(transa), op_of(transb), m, n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasSsyrk, (char uplo, char trans, int n, int k, float alpha, const float* A, int lda, float beta, float* C, int ldc), cublasSsyrk_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, &beta, C, ldc))
STRATA_V1_VOID(cublasDsyrk, (char uplo, char trans, int n, int k, double alpha, const double* A, int lda, double beta, double* C, int ldc), cublasDsyrk_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, &beta, C, ldc))
STRATA_V1_VOID(cublasCsyrk, (char uplo, char trans, int n, int k, cuComplex alpha, const cuComplex* A, int lda, cuComplex beta, cuComplex* C, int ldc), cublasCsyrk_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, &beta, C, ldc))
STRATA_V1_VOID(cublasZsyrk, (char uplo, char trans, int n, int k, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, cuDoubleComplex beta, cuDoubleComplex* C, int ldc), cublasZsyrk_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, &beta, C, ldc))
STRATA_V1_VOID(cublasCherk, (char uplo, char trans, int n, int k, float alpha, const cuComplex* A, int lda, float beta, cuComplex* C, int ldc), cublasCherk_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, &beta, C, ldc))
STRATA_V1_VOID(cublasZherk, (char uplo, char trans, int n, int k, double alpha, const cuDoubleComplex* A, int lda, double beta, cuDoubleComplex* C, int ldc), cublasZherk_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, &beta, C, ldc))
STRATA_V1_VOID(cublasSsyr2k, (char uplo, char trans, int n, int k, float alpha, const float* A, int lda, const float* B, int ldb, float beta, float* C, int ldc), cublasSsyr2k_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasDsyr2k, (char uplo, char trans, int n, int k, double alpha, const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc), cublasDsyr2k_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasCsyr2k, (char uplo, char trans, int n, int k, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* B, int ldb, cuComplex beta, cuComplex* C, int ldc), cublasCsyr2k_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasZsyr2k, (char uplo, char trans, int n, int k, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, cuDoubleComplex beta, cuDoubleComplex* C, int ldc), cublasZsyr2k_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasCher2k, (char uplo, char trans, int n, int k, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* B, int ldb, float beta, cuComplex* C, int ldc), cublasCher2k_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasZher2k, (char uplo, char trans, int n, int k, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, double beta, cuDoubleComplex* C, int ldc), cublasZher2k_v2(h, fill_of(uplo), op_of(trans), n, k, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasSsymm, (char side, char uplo, int m, int n, float alpha, const float* A, int lda, const float* B, int ldb, float beta, float* C, int ldc), cublasSsymm_v2(h, side_of(side), fill_of(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasDsymm, (char side, char uplo, int m, int n, double alpha, const double* A, int lda, const double* B, int ldb, double beta, double* C, int ldc), cublasDsymm_v2(h, side_of(side), fill_of(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasCsymm, (char side, char uplo, int m, int n, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* B, int ldb, cuComplex beta, cuComplex* C, int ldc), cublasCsymm_v2(h, side_of(side), fill_of(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasZsymm, (char side, char uplo, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, cuDoubleComplex beta, cuDoubleComplex* C, int ldc), cublasZsymm_v2(h, side_of(side), fill_of(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasChemm, (char side, char uplo, int m, int n, cuComplex alpha, const cuComplex* A, int lda, const cuComplex* B, int ldb, cuComplex beta, cuComplex* C, int ldc), cublasChemm_v2(h, side_of(side), fill_of(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasZhemm, (char side, char uplo, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, const cuDoubleComplex* B, int ldb, cuDoubleComplex beta, cuDoubleComplex* C, int ldc), cublasZhemm_v2(h, side_of(side), fill_of(uplo), m, n, &alpha, A, lda, B, ldb, &beta, C, ldc))
STRATA_V1_VOID(cublasStrsm, (char side, char uplo, char transa, char diag, int m, int n, float alpha, const float* A, int lda, float* B, int ldb), cublasStrsm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb))
STRATA_V1_VOID(cublasDtrsm, (char side, char uplo, char transa, char diag, int m, int n, double alpha, const double* A, int lda, double* B, int ldb), cublasDtrsm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb))
STRATA_V1_VOID(cublasCtrsm, (char side, char uplo, char transa, char diag, int m, int n, cuComplex alpha, const cuComplex* A, int lda, cuComplex* B, int ldb), cublasCtrsm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb))
STRATA_V1_VOID(cublasZtrsm, (char side, char uplo, char transa, char diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, cuDoubleComplex* B, int ldb), cublasZtrsm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb))
STRATA_V1_VOID(cublasStrmm, (char side, char uplo, char transa, char diag, int m, int n, float alpha, const float* A, int lda, float* B, int ldb), cublasStrmm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb, B, ldb))
STRATA_V1_VOID(cublasDtrmm, (char side, char uplo, char transa, char diag, int m, int n, double alpha, const double* A, int lda, double* B, int ldb), cublasDtrmm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb, B, ldb))
STRATA_V1_VOID(cublasCtrmm, (char side, char uplo, char transa, char diag, int m, int n, cuComplex alpha, const cuComplex* A, int lda, cuComplex* B, int ldb), cublasCtrmm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb, B, ldb))
STRATA_V1_VOID(cublasZtrmm, (char side, char uplo, char transa, char diag, int m, int n, cuDoubleComplex alpha, const cuDoubleComplex* A, int lda, cuDoubleComplex* B, int ldb), cublasZtrmm_v2(h, side_of(side), fill_of(uplo), op_of(transa), diag_of(diag), m, n, &alpha, A, lda, B, ldb, B, ldb))
// clang-format on

}  // extern "C"
