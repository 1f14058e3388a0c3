// cuBLAS helper functions (cublas_api.h, "CUBLAS Helper Functions"): handles, their
// settings, versions, status strings, logging and the vector / matrix copies.
#include <cublasLt.h>
#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <cstring>

#include "blas/handle.h"
#include "blas/status.h"

using strata::blas::bad_handle;
using strata::blas::Handle;
using strata::blas::handle_of;
using strata::blas::invalid;

namespace {

// The handle, or a logged CUBLAS_STATUS_NOT_INITIALIZED.
#define STRATA_BLAS_HANDLE(var, handle, function) \
  Handle* var = handle_of(handle);                \
  if (var == nullptr) return bad_handle(function, handle)

cublasStatus_t copy_error(const char* function, cudaError_t e) {
  return strata::blas::fail(CUBLAS_STATUS_MAPPING_ERROR, function, "the copy failed: {}",
                            cudaGetErrorString(e));
}

// cublasSet/GetVector: n elements of elem_size bytes, `inc_src` / `inc_dst` elements apart.
cublasStatus_t copy_vector(const char* function, int64_t n, int64_t elem_size, const void* src,
                           int64_t inc_src, void* dst, int64_t inc_dst, cudaMemcpyKind kind,
                           cudaStream_t stream, bool async) {
  if (n < 0) return invalid(function, "n = {} is negative", n);
  if (elem_size <= 0) return invalid(function, "elemSize = {} is not positive", elem_size);
  if (inc_src <= 0 || inc_dst <= 0)
    return invalid(function, "incx = {}, incy = {}: both must be positive", inc_src, inc_dst);
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  if (src == nullptr || dst == nullptr) return invalid(function, "a null pointer");
  const size_t width = static_cast<size_t>(elem_size);
  const size_t spitch = width * static_cast<size_t>(inc_src);
  const size_t dpitch = width * static_cast<size_t>(inc_dst);
  const cudaError_t e =
      async
          ? cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, static_cast<size_t>(n), kind, stream)
          : cudaMemcpy2D(dst, dpitch, src, spitch, width, static_cast<size_t>(n), kind);
  return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : copy_error(function, e);
}

// cublasSet/GetMatrix: rows x cols column-major, leading dimensions lda / ldb.
cublasStatus_t copy_matrix(const char* function, int64_t rows, int64_t cols, int64_t elem_size,
                           const void* src, int64_t lda, void* dst, int64_t ldb,
                           cudaMemcpyKind kind, cudaStream_t stream, bool async) {
  if (rows < 0 || cols < 0) return invalid(function, "rows = {}, cols = {}: negative", rows, cols);
  if (elem_size <= 0) return invalid(function, "elemSize = {} is not positive", elem_size);
  if (lda <= 0 || ldb <= 0)
    return invalid(function, "lda = {}, ldb = {}: both must be positive", lda, ldb);
  if (lda < rows || ldb < rows)
    return invalid(function, "lda = {}, ldb = {}: below rows = {}", lda, ldb, rows);
  if (rows == 0 || cols == 0) return CUBLAS_STATUS_SUCCESS;
  if (src == nullptr || dst == nullptr) return invalid(function, "a null pointer");
  const size_t width = static_cast<size_t>(rows * elem_size);
  const cudaError_t e = async ? cudaMemcpy2DAsync(dst, static_cast<size_t>(ldb * elem_size), src,
                                                  static_cast<size_t>(lda * elem_size), width,
                                                  static_cast<size_t>(cols), kind, stream)
                              : cudaMemcpy2D(dst, static_cast<size_t>(ldb * elem_size), src,
                                             static_cast<size_t>(lda * elem_size), width,
                                             static_cast<size_t>(cols), kind);
  return e == cudaSuccess ? CUBLAS_STATUS_SUCCESS : copy_error(function, e);
}

cublasLogCallback g_logger = nullptr;

}  // namespace

extern "C" {

cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* handle) {
  if (handle == nullptr) return invalid("cublasCreate_v2", "handle is null");
  // The handle is libcublasLt's (handle.h), so it also works as a cublasLtHandle_t.
  cublasLtHandle_t lt = nullptr;
  const cublasStatus_t s = cublasLtCreate(&lt);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  Handle* h = static_cast<cublasLtContext*>(lt);
  strata::blas::register_handle(h);
  *handle = static_cast<cublasContext*>(h);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t handle) {
  STRATA_BLAS_HANDLE(h, handle, "cublasDestroy_v2");
  strata::blas::unregister_handle(h);
  // libcublasLt waits for the handle's stream (work queued with it uses its kernels).
  return cublasLtDestroy(reinterpret_cast<cublasLtHandle_t>(handle));
}

cublasStatus_t CUBLASWINAPI cublasGetVersion_v2(cublasHandle_t handle, int* version) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetVersion_v2");
  if (version == nullptr) return invalid("cublasGetVersion_v2", "version is null");
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetProperty(libraryPropertyType type, int* value) {
  if (value == nullptr) return invalid("cublasGetProperty", "value is null");
  switch (type) {
    case MAJOR_VERSION:
      *value = CUBLAS_VER_MAJOR;
      return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION:
      *value = CUBLAS_VER_MINOR;
      return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL:
      *value = CUBLAS_VER_PATCH;
      return CUBLAS_STATUS_SUCCESS;
  }
  return invalid("cublasGetProperty", "type = {} is not a libraryPropertyType",
                 static_cast<int>(type));
}

size_t CUBLASWINAPI cublasGetCudartVersion(void) {
  return CUDART_VERSION;
}

cublasStatus_t CUBLASWINAPI cublasSetWorkspace_v2(cublasHandle_t handle, void* workspace,
                                                  size_t workspaceSizeInBytes) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetWorkspace_v2");
  if (workspace == nullptr && workspaceSizeInBytes != 0)
    return invalid("cublasSetWorkspace_v2", "a null workspace of {} bytes", workspaceSizeInBytes);
  // cuBLAS requires 256-byte alignment of a user workspace.
  if (reinterpret_cast<uintptr_t>(workspace) % 256 != 0)
    return invalid("cublasSetWorkspace_v2", "workspace {} is not 256-byte aligned", workspace);
  h->workspace = workspace;
  h->workspace_bytes = workspaceSizeInBytes;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t handle, cudaStream_t streamId) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetStream_v2");
  // cuBLAS forgets a user workspace when the stream changes.
  if (h->stream != streamId) {
    h->workspace = nullptr;
    h->workspace_bytes = 0;
  }
  h->stream = streamId;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetStream_v2(cublasHandle_t handle, cudaStream_t* streamId) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetStream_v2");
  if (streamId == nullptr) return invalid("cublasGetStream_v2", "streamId is null");
  *streamId = h->stream;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetPointerMode_v2(cublasHandle_t handle,
                                                    cublasPointerMode_t* mode) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetPointerMode_v2");
  if (mode == nullptr) return invalid("cublasGetPointerMode_v2", "mode is null");
  *mode = h->pointer_mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetPointerMode_v2(cublasHandle_t handle,
                                                    cublasPointerMode_t mode) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetPointerMode_v2");
  if (mode != CUBLAS_POINTER_MODE_HOST && mode != CUBLAS_POINTER_MODE_DEVICE)
    return invalid("cublasSetPointerMode_v2", "mode = {} is not a cublasPointerMode_t",
                   static_cast<int>(mode));
  h->pointer_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t* mode) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetAtomicsMode");
  if (mode == nullptr) return invalid("cublasGetAtomicsMode", "mode is null");
  *mode = h->atomics_mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetAtomicsMode");
  if (mode != CUBLAS_ATOMICS_NOT_ALLOWED && mode != CUBLAS_ATOMICS_ALLOWED)
    return invalid("cublasSetAtomicsMode", "mode = {} is not a cublasAtomicsMode_t",
                   static_cast<int>(mode));
  h->atomics_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetMathMode(cublasHandle_t handle, cublasMath_t* mode) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetMathMode");
  if (mode == nullptr) return invalid("cublasGetMathMode", "mode is null");
  *mode = h->math_mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetMathMode");
  const int base = mode & 0xf;
  const int flags = mode & ~0xf;
  const bool known_base = base == CUBLAS_DEFAULT_MATH || base == CUBLAS_TENSOR_OP_MATH ||
                          base == CUBLAS_PEDANTIC_MATH || base == CUBLAS_TF32_TENSOR_OP_MATH ||
                          base == CUBLAS_FP32_EMULATED_BF16X9_MATH ||
                          base == CUBLAS_FP64_EMULATED_FIXEDPOINT_MATH;
  if (!known_base || (flags & ~CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION) != 0)
    return invalid("cublasSetMathMode", "mode = {:#x} is not a cublasMath_t",
                   static_cast<int>(mode));
  h->math_mode = mode;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetSmCountTarget(cublasHandle_t handle, int* smCountTarget) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetSmCountTarget");
  if (smCountTarget == nullptr) return invalid("cublasGetSmCountTarget", "smCountTarget is null");
  *smCountTarget = h->sm_count_target;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetSmCountTarget(cublasHandle_t handle, int smCountTarget) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetSmCountTarget");
  if (smCountTarget < 0)
    return invalid("cublasSetSmCountTarget", "smCountTarget = {} is negative", smCountTarget);
  h->sm_count_target = smCountTarget;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI
cublasGetEmulationStrategy(cublasHandle_t handle, cublasEmulationStrategy_t* emulationStrategy) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetEmulationStrategy");
  if (emulationStrategy == nullptr)
    return invalid("cublasGetEmulationStrategy", "emulationStrategy is null");
  *emulationStrategy = h->emulation_strategy;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI
cublasSetEmulationStrategy(cublasHandle_t handle, cublasEmulationStrategy_t emulationStrategy) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetEmulationStrategy");
  if (emulationStrategy != CUBLAS_EMULATION_STRATEGY_DEFAULT &&
      emulationStrategy != CUBLAS_EMULATION_STRATEGY_PERFORMANT &&
      emulationStrategy != CUBLAS_EMULATION_STRATEGY_EAGER)
    return invalid("cublasSetEmulationStrategy", "{} is not a cublasEmulationStrategy_t",
                   static_cast<int>(emulationStrategy));
  h->emulation_strategy = emulationStrategy;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetEmulationSpecialValuesSupport(
    cublasHandle_t handle, cudaEmulationSpecialValuesSupport* mask) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetEmulationSpecialValuesSupport");
  if (mask == nullptr) return invalid("cublasGetEmulationSpecialValuesSupport", "mask is null");
  *mask = h->emulation_special_values;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetEmulationSpecialValuesSupport(
    cublasHandle_t handle, cudaEmulationSpecialValuesSupport mask) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetEmulationSpecialValuesSupport");
  h->emulation_special_values = mask;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetFixedPointEmulationMantissaControl(
    cublasHandle_t handle, cudaEmulationMantissaControl* mantissaControl) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetFixedPointEmulationMantissaControl");
  if (mantissaControl == nullptr)
    return invalid("cublasGetFixedPointEmulationMantissaControl", "mantissaControl is null");
  *mantissaControl = h->mantissa_control;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetFixedPointEmulationMantissaControl(
    cublasHandle_t handle, cudaEmulationMantissaControl mantissaControl) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetFixedPointEmulationMantissaControl");
  if (mantissaControl != CUDA_EMULATION_MANTISSA_CONTROL_DYNAMIC &&
      mantissaControl != CUDA_EMULATION_MANTISSA_CONTROL_FIXED)
    return invalid("cublasSetFixedPointEmulationMantissaControl",
                   "{} is not a cudaEmulationMantissaControl", static_cast<int>(mantissaControl));
  h->mantissa_control = mantissaControl;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI
cublasGetFixedPointEmulationMaxMantissaBitCount(cublasHandle_t handle, int* maxMantissaBitCount) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetFixedPointEmulationMaxMantissaBitCount");
  if (maxMantissaBitCount == nullptr)
    return invalid("cublasGetFixedPointEmulationMaxMantissaBitCount", "the output is null");
  *maxMantissaBitCount = h->max_mantissa_bits;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI
cublasSetFixedPointEmulationMaxMantissaBitCount(cublasHandle_t handle, int maxMantissaBitCount) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetFixedPointEmulationMaxMantissaBitCount");
  if (maxMantissaBitCount < 0)
    return invalid("cublasSetFixedPointEmulationMaxMantissaBitCount", "{} is negative",
                   maxMantissaBitCount);
  h->max_mantissa_bits = maxMantissaBitCount;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetFixedPointEmulationMantissaBitOffset(cublasHandle_t handle,
                                                                          int* mantissaBitOffset) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetFixedPointEmulationMantissaBitOffset");
  if (mantissaBitOffset == nullptr)
    return invalid("cublasGetFixedPointEmulationMantissaBitOffset", "the output is null");
  *mantissaBitOffset = h->mantissa_bit_offset;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetFixedPointEmulationMantissaBitOffset(cublasHandle_t handle,
                                                                          int mantissaBitOffset) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetFixedPointEmulationMantissaBitOffset");
  h->mantissa_bit_offset = mantissaBitOffset;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI
cublasGetFixedPointEmulationMantissaBitCountPointer(cublasHandle_t handle, int** mantissaBitCount) {
  STRATA_BLAS_HANDLE(h, handle, "cublasGetFixedPointEmulationMantissaBitCountPointer");
  if (mantissaBitCount == nullptr)
    return invalid("cublasGetFixedPointEmulationMantissaBitCountPointer", "the output is null");
  *mantissaBitCount = h->mantissa_bit_count_pointer;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI
cublasSetFixedPointEmulationMantissaBitCountPointer(cublasHandle_t handle, int* mantissaBitCount) {
  STRATA_BLAS_HANDLE(h, handle, "cublasSetFixedPointEmulationMantissaBitCountPointer");
  h->mantissa_bit_count_pointer = mantissaBitCount;
  return CUBLAS_STATUS_SUCCESS;
}

const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status) {
  return strata::blas::status_name(status);
}

const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status) {
  return strata::blas::status_string(status);
}

cublasStatus_t CUBLASWINAPI cublasLoggerConfigure(int logIsOn, int logToStdOut, int logToStdErr,
                                                  const char* logFileName) {
  // Strata's log (STRATA_LOG) carries the library's messages; the cuBLAS API log of every
  // call is not produced.
  (void)logIsOn, (void)logToStdOut, (void)logToStdErr, (void)logFileName;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetLoggerCallback(cublasLogCallback userCallback) {
  g_logger = userCallback;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasGetLoggerCallback(cublasLogCallback* userCallback) {
  if (userCallback == nullptr) return invalid("cublasGetLoggerCallback", "userCallback is null");
  *userCallback = g_logger;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasSetVector(int n, int elemSize, const void* x, int incx,
                                            void* devicePtr, int incy) {
  return copy_vector("cublasSetVector", n, elemSize, x, incx, devicePtr, incy,
                     cudaMemcpyHostToDevice, nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasSetVector_64(int64_t n, int64_t elemSize, const void* x,
                                               int64_t incx, void* devicePtr, int64_t incy) {
  return copy_vector("cublasSetVector_64", n, elemSize, x, incx, devicePtr, incy,
                     cudaMemcpyHostToDevice, nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasGetVector(int n, int elemSize, const void* x, int incx, void* y,
                                            int incy) {
  return copy_vector("cublasGetVector", n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost,
                     nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasGetVector_64(int64_t n, int64_t elemSize, const void* x,
                                               int64_t incx, void* y, int64_t incy) {
  return copy_vector("cublasGetVector_64", n, elemSize, x, incx, y, incy, cudaMemcpyDeviceToHost,
                     nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasSetVectorAsync(int n, int elemSize, const void* hostPtr, int incx,
                                                 void* devicePtr, int incy, cudaStream_t stream) {
  return copy_vector("cublasSetVectorAsync", n, elemSize, hostPtr, incx, devicePtr, incy,
                     cudaMemcpyHostToDevice, stream, true);
}
cublasStatus_t CUBLASWINAPI cublasSetVectorAsync_64(int64_t n, int64_t elemSize,
                                                    const void* hostPtr, int64_t incx,
                                                    void* devicePtr, int64_t incy,
                                                    cudaStream_t stream) {
  return copy_vector("cublasSetVectorAsync_64", n, elemSize, hostPtr, incx, devicePtr, incy,
                     cudaMemcpyHostToDevice, stream, true);
}
cublasStatus_t CUBLASWINAPI cublasGetVectorAsync(int n, int elemSize, const void* devicePtr,
                                                 int incx, void* hostPtr, int incy,
                                                 cudaStream_t stream) {
  return copy_vector("cublasGetVectorAsync", n, elemSize, devicePtr, incx, hostPtr, incy,
                     cudaMemcpyDeviceToHost, stream, true);
}
cublasStatus_t CUBLASWINAPI cublasGetVectorAsync_64(int64_t n, int64_t elemSize,
                                                    const void* devicePtr, int64_t incx,
                                                    void* hostPtr, int64_t incy,
                                                    cudaStream_t stream) {
  return copy_vector("cublasGetVectorAsync_64", n, elemSize, devicePtr, incx, hostPtr, incy,
                     cudaMemcpyDeviceToHost, stream, true);
}

cublasStatus_t CUBLASWINAPI cublasSetMatrix(int rows, int cols, int elemSize, const void* A,
                                            int lda, void* B, int ldb) {
  return copy_matrix("cublasSetMatrix", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyHostToDevice, nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasSetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize,
                                               const void* A, int64_t lda, void* B, int64_t ldb) {
  return copy_matrix("cublasSetMatrix_64", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyHostToDevice, nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasGetMatrix(int rows, int cols, int elemSize, const void* A,
                                            int lda, void* B, int ldb) {
  return copy_matrix("cublasGetMatrix", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyDeviceToHost, nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasGetMatrix_64(int64_t rows, int64_t cols, int64_t elemSize,
                                               const void* A, int64_t lda, void* B, int64_t ldb) {
  return copy_matrix("cublasGetMatrix_64", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyDeviceToHost, nullptr, false);
}
cublasStatus_t CUBLASWINAPI cublasSetMatrixAsync(int rows, int cols, int elemSize, const void* A,
                                                 int lda, void* B, int ldb, cudaStream_t stream) {
  return copy_matrix("cublasSetMatrixAsync", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyHostToDevice, stream, true);
}
cublasStatus_t CUBLASWINAPI cublasSetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize,
                                                    const void* A, int64_t lda, void* B,
                                                    int64_t ldb, cudaStream_t stream) {
  return copy_matrix("cublasSetMatrixAsync_64", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyHostToDevice, stream, true);
}
cublasStatus_t CUBLASWINAPI cublasGetMatrixAsync(int rows, int cols, int elemSize, const void* A,
                                                 int lda, void* B, int ldb, cudaStream_t stream) {
  return copy_matrix("cublasGetMatrixAsync", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyDeviceToHost, stream, true);
}
cublasStatus_t CUBLASWINAPI cublasGetMatrixAsync_64(int64_t rows, int64_t cols, int64_t elemSize,
                                                    const void* A, int64_t lda, void* B,
                                                    int64_t ldb, cudaStream_t stream) {
  return copy_matrix("cublasGetMatrixAsync_64", rows, cols, elemSize, A, lda, B, ldb,
                     cudaMemcpyDeviceToHost, stream, true);
}

}  // extern "C"
