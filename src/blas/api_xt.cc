// cuBLASXt (cublasXt.h): handles, device selection and settings, and the BLAS-3 routines
// on host or device pointers. A routine stages every host operand in device memory of the
// first selected device (cudaMemcpy2D keeps the leading dimension), runs the cuBLAS v2
// `_64` routine there with one whole-matrix call (pointer mode host, the Xt handle's own
// cublasHandle_t on that device), copies the output back and returns when the result is in
// place, as cuBLASXt's routines are blocking. Device (or managed) operands are used where
// they are. spmm (a symmetric packed A) unpacks A with tpttr and runs symm.
//
// Only cublasXt* names are defined here: cublasXt.h includes cublas_v2.h, whose macros
// rename the v2 entry points this file calls (gen_exports.py's "xt" family).
#include <cublasXt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "blas/status.h"

struct cublasXtContext {
  std::vector<int> devices;             // selected by cublasXtDeviceSelect (default: 1)
  std::vector<cublasHandle_t> handles;  // a v2 handle per selected device, made lazily
  int block_dim = 2048;
  cublasXtPinnedMemMode_t pinning = CUBLASXT_PINNING_DISABLED;
  float cpu_ratio[CUBLASXT_ROUTINE_MAX][4] = {};
  std::mutex mu;  // one routine at a time per handle
  void* cpu_routine[CUBLASXT_ROUTINE_MAX][4] = {};
};

namespace strata::blas {
namespace {

std::mutex& xt_mutex() {
  static std::mutex mu;
  return mu;
}
std::unordered_set<cublasXtHandle_t>& xt_handles() {
  static std::unordered_set<cublasXtHandle_t> handles;
  return handles;
}

bool live(cublasXtHandle_t h) {
  std::lock_guard<std::mutex> lock(xt_mutex());
  return h != nullptr && xt_handles().count(h) != 0;
}

void destroy_handles(cublasXtHandle_t h) {
  int current = 0;
  cudaGetDevice(&current);
  for (size_t i = 0; i < h->handles.size(); ++i) {
    if (h->handles[i] == nullptr) continue;
    cudaSetDevice(h->devices[i]);
    cublasDestroy(h->handles[i]);
  }
  cudaSetDevice(current);
  h->handles.assign(h->devices.size(), nullptr);
}

// A column-major operand: rows x cols elements of `elem` bytes, leading dimension ld.
struct Mat {
  const void* p;
  size_t rows, cols, ld;
  bool output;
  const char* name;
};

bool op_ok(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}
bool uplo_ok(cublasFillMode_t u) {
  return u == CUBLAS_FILL_MODE_UPPER || u == CUBLAS_FILL_MODE_LOWER;
}
bool side_ok(cublasSideMode_t s) {
  return s == CUBLAS_SIDE_LEFT || s == CUBLAS_SIDE_RIGHT;
}
bool diag_ok(cublasDiagType_t d) {
  return d == CUBLAS_DIAG_UNIT || d == CUBLAS_DIAG_NON_UNIT;
}

bool device_accessible(const void* p) {
  cudaPointerAttributes attributes{};
  if (cudaPointerGetAttributes(&attributes, p) != cudaSuccess) {
    cudaGetLastError();
    return false;
  }
  return attributes.type == cudaMemoryTypeDevice || attributes.type == cudaMemoryTypeManaged;
}

// Stages `mats` on the handle's device number `slot` (modulo the number selected), runs
// call(v2 handle, device pointers), copies the outputs back and synchronises. Each ld must be >=
// max(1, rows) and every size fit in int64_t (CUBLAS_STATUS_INVALID_VALUE); the v2 routine checks
// the rest.
template <size_t N, typename Call>
cublasStatus_t run(const char* function, cublasXtHandle_t h, size_t elem,
                   const std::array<Mat, N>& mats, Call call, size_t slot = 0) {
  if (!live(h)) return bad_handle(function, h);
  constexpr size_t kMax = static_cast<size_t>(std::numeric_limits<int64_t>::max());
  for (const Mat& m : mats) {
    if (m.rows > kMax || m.cols > kMax || m.ld > kMax)
      return invalid(function, "{}: a size exceeds INT64_MAX", m.name);
    if (m.ld < std::max<size_t>(1, m.rows))
      return invalid(function, "ld{} = {} < max(1, {})", m.name, m.ld, m.rows);
  }
  std::lock_guard<std::mutex> lock(h->mu);
  int current = 0;
  cudaGetDevice(&current);
  slot %= h->devices.size();
  const int device = h->devices[slot];
  if (cudaSetDevice(device) != cudaSuccess) {
    cudaGetLastError();
    return invalid(function, "device {} cannot be made current", device);
  }
  if (h->handles[slot] == nullptr) {
    const cublasStatus_t s = cublasCreate(&h->handles[slot]);
    if (s != CUBLAS_STATUS_SUCCESS) {
      h->handles[slot] = nullptr;
      cudaSetDevice(current);
      return fail(s, function, "no cuBLAS handle on device {}", device);
    }
  }
  cublasHandle_t v2 = h->handles[slot];
  cublasSetPointerMode(v2, CUBLAS_POINTER_MODE_HOST);
  std::array<void*, N> dev{};
  std::array<bool, N> staged{};
  cublasStatus_t status = CUBLAS_STATUS_SUCCESS;
  for (size_t i = 0; i < N && status == CUBLAS_STATUS_SUCCESS; ++i) {
    const Mat& m = mats[i];
    dev[i] = const_cast<void*>(m.p);
    if (m.rows == 0 || m.cols == 0 || m.p == nullptr || device_accessible(m.p)) continue;
    const size_t span = (m.ld * (m.cols - 1) + m.rows) * elem;
    if (cudaMalloc(&dev[i], span) != cudaSuccess) {
      cudaGetLastError();
      dev[i] = nullptr;
      status =
          fail(CUBLAS_STATUS_ALLOC_FAILED, function, "{}: {} bytes of device memory", m.name, span);
      break;
    }
    staged[i] = true;
    if (cudaMemcpy2D(dev[i], m.ld * elem, m.p, m.ld * elem, m.rows * elem, m.cols,
                     cudaMemcpyHostToDevice) != cudaSuccess) {
      cudaGetLastError();
      status =
          fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "copying {} to device {}", m.name, device);
    }
  }
  if (status == CUBLAS_STATUS_SUCCESS) status = call(v2, dev);
  if (status == CUBLAS_STATUS_SUCCESS && cudaDeviceSynchronize() != cudaSuccess) {
    cudaGetLastError();
    status =
        fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "the routine failed on device {}", device);
  }
  for (size_t i = 0; i < N; ++i) {
    const Mat& m = mats[i];
    if (!staged[i]) continue;
    if (status == CUBLAS_STATUS_SUCCESS && m.output &&
        cudaMemcpy2D(const_cast<void*>(m.p), m.ld * elem, dev[i], m.ld * elem, m.rows * elem,
                     m.cols, cudaMemcpyDeviceToHost) != cudaSuccess) {
      cudaGetLastError();
      status = fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "copying {} back", m.name);
    }
    cudaFree(dev[i]);
  }
  cudaSetDevice(current);
  return status;
}

template <typename T>
T* as(void* p) {
  return static_cast<T*>(p);
}

// The side routines (symm, hemm, trsm, trmm) in panels: the columns of B and C (side
// left) or their rows (side right) are independent, so they run blockDim at a time, dealt
// round-robin over the selected devices, each with the whole of A.
// call(offset, rows, cols, slot) runs one panel; ldb and ldc are checked first.
template <typename Call>
cublasStatus_t panels(const char* function, cublasXtHandle_t h, bool left, size_t m, size_t n,
                      size_t ldb, size_t ldc, Call call) {
  if (!live(h)) return bad_handle(function, h);
  if (ldb < std::max<size_t>(1, m)) return invalid(function, "ldb = {} < max(1, {})", ldb, m);
  if (ldc < std::max<size_t>(1, m)) return invalid(function, "ldc = {} < max(1, {})", ldc, m);
  const size_t len = left ? n : m, bd = static_cast<size_t>(h->block_dim);
  const size_t count = len == 0 ? 1 : (len + bd - 1) / bd;
  for (size_t p = 0; p < count; ++p) {
    const size_t offset = p * bd, size = std::min(bd, len - offset);
    const cublasStatus_t s = call(offset, left ? m : size, left ? size : n, p);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
  }
  return CUBLAS_STATUS_SUCCESS;
}

bool ratio_args_ok(cublasXtBlasOp_t op, cublasXtOpType_t type) {
  return op >= 0 && op < CUBLASXT_ROUTINE_MAX && type >= CUBLASXT_FLOAT &&
         type <= CUBLASXT_DOUBLECOMPLEX;
}

}  // namespace
}  // namespace strata::blas

using strata::blas::as;
using strata::blas::diag_ok;
using strata::blas::invalid;
using strata::blas::Mat;
using strata::blas::op_ok;
using strata::blas::panels;
using strata::blas::run;
using strata::blas::side_ok;
using strata::blas::uplo_ok;

extern "C" {

cublasStatus_t CUBLASWINAPI cublasXtCreate(cublasXtHandle_t* handle) {
  if (handle == nullptr) return invalid("cublasXtCreate", "handle is null");
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count < 1) {
    cudaGetLastError();
    return strata::blas::fail(CUBLAS_STATUS_NOT_INITIALIZED, "cublasXtCreate", "no device");
  }
  auto* h = new cublasXtContext;
  int current = 0;
  cudaGetDevice(&current);
  h->devices = {current};
  h->handles = {nullptr};
  std::lock_guard<std::mutex> lock(strata::blas::xt_mutex());
  strata::blas::xt_handles().insert(h);
  *handle = h;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtDestroy(cublasXtHandle_t handle) {
  {
    std::lock_guard<std::mutex> lock(strata::blas::xt_mutex());
    if (handle == nullptr || strata::blas::xt_handles().erase(handle) == 0)
      return strata::blas::bad_handle("cublasXtDestroy", handle);
  }
  strata::blas::destroy_handles(handle);
  delete handle;
  return CUBLAS_STATUS_SUCCESS;
}

// Each device Strata presents is its own board.
cublasStatus_t CUBLASWINAPI cublasXtGetNumBoards(int nbDevices, int deviceId[], int* nbBoards) {
  if (nbBoards == nullptr || nbDevices < 0 || (nbDevices > 0 && deviceId == nullptr))
    return invalid("cublasXtGetNumBoards", "nbDevices = {}, deviceId or nbBoards null", nbDevices);
  int count = 0;
  cudaGetDeviceCount(&count);
  for (int i = 0; i < nbDevices; ++i)
    if (deviceId[i] < 0 || deviceId[i] >= count)
      return invalid("cublasXtGetNumBoards", "deviceId[{}] = {}: {} devices", i, deviceId[i],
                     count);
  *nbBoards = nbDevices;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtMaxBoards(int* nbGpuBoards) {
  if (nbGpuBoards == nullptr) return invalid("cublasXtMaxBoards", "nbGpuBoards is null");
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    count = 0;
  }
  *nbGpuBoards = count;
  return CUBLAS_STATUS_SUCCESS;
}

// The devices the routines run on (the first of them: docs/blas.md "cuBLASXt"); every id
// must name a device and appear once.
cublasStatus_t CUBLASWINAPI cublasXtDeviceSelect(cublasXtHandle_t handle, int nbDevices,
                                                 int deviceId[]) {
  const char* f = "cublasXtDeviceSelect";
  if (!strata::blas::live(handle)) return strata::blas::bad_handle(f, handle);
  if (nbDevices <= 0 || deviceId == nullptr)
    return invalid(f, "nbDevices = {} (or deviceId null)", nbDevices);
  int count = 0;
  cudaGetDeviceCount(&count);
  std::vector<int> devices;
  for (int i = 0; i < nbDevices; ++i) {
    if (deviceId[i] < 0 || deviceId[i] >= count)
      return invalid(f, "deviceId[{}] = {}: Strata presents {} device(s)", i, deviceId[i], count);
    for (int d : devices)
      if (d == deviceId[i]) return invalid(f, "deviceId[{}] = {} is listed twice", i, d);
    devices.push_back(deviceId[i]);
  }
  std::lock_guard<std::mutex> lock(handle->mu);
  strata::blas::destroy_handles(handle);
  handle->devices = devices;
  handle->handles.assign(devices.size(), nullptr);
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtSetBlockDim(cublasXtHandle_t handle, int blockDim) {
  if (!strata::blas::live(handle)) return strata::blas::bad_handle("cublasXtSetBlockDim", handle);
  if (blockDim <= 0) return invalid("cublasXtSetBlockDim", "blockDim = {}", blockDim);
  handle->block_dim = blockDim;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtGetBlockDim(cublasXtHandle_t handle, int* blockDim) {
  if (!strata::blas::live(handle)) return strata::blas::bad_handle("cublasXtGetBlockDim", handle);
  if (blockDim == nullptr) return invalid("cublasXtGetBlockDim", "blockDim is null");
  *blockDim = handle->block_dim;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtGetPinningMemMode(cublasXtHandle_t handle,
                                                      cublasXtPinnedMemMode_t* mode) {
  if (!strata::blas::live(handle))
    return strata::blas::bad_handle("cublasXtGetPinningMemMode", handle);
  if (mode == nullptr) return invalid("cublasXtGetPinningMemMode", "mode is null");
  *mode = handle->pinning;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtSetPinningMemMode(cublasXtHandle_t handle,
                                                      cublasXtPinnedMemMode_t mode) {
  if (!strata::blas::live(handle))
    return strata::blas::bad_handle("cublasXtSetPinningMemMode", handle);
  if (mode != CUBLASXT_PINNING_DISABLED && mode != CUBLASXT_PINNING_ENABLED)
    return invalid("cublasXtSetPinningMemMode", "mode = {}", static_cast<int>(mode));
  handle->pinning = mode;
  return CUBLAS_STATUS_SUCCESS;
}

// Recorded; every routine runs wholly on the device (a CPU share is a performance split,
// not a result the caller can observe), so the routine is never called.
cublasStatus_t CUBLASWINAPI cublasXtSetCpuRoutine(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp,
                                                  cublasXtOpType_t type, void* blasFunctor) {
  if (!strata::blas::live(handle)) return strata::blas::bad_handle("cublasXtSetCpuRoutine", handle);
  if (!strata::blas::ratio_args_ok(blasOp, type))
    return invalid("cublasXtSetCpuRoutine", "blasOp = {}, type = {}", static_cast<int>(blasOp),
                   static_cast<int>(type));
  handle->cpu_routine[blasOp][type] = blasFunctor;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t CUBLASWINAPI cublasXtSetCpuRatio(cublasXtHandle_t handle, cublasXtBlasOp_t blasOp,
                                                cublasXtOpType_t type, float ratio) {
  if (!strata::blas::live(handle)) return strata::blas::bad_handle("cublasXtSetCpuRatio", handle);
  if (!strata::blas::ratio_args_ok(blasOp, type) || !(ratio >= 0.0f && ratio <= 1.0f))
    return invalid("cublasXtSetCpuRatio", "blasOp = {}, type = {}, ratio = {}",
                   static_cast<int>(blasOp), static_cast<int>(type), ratio);
  handle->cpu_ratio[blasOp][type] = ratio;
  return CUBLAS_STATUS_SUCCESS;
}

// --- BLAS-3 routines ---
#define XT_CHECK(cond, ...) \
  if (!(cond)) return invalid(__VA_ARGS__)

// gemm runs tile by tile: each blockDim x blockDim tile of C with its panels of op(A) and
// op(B) (all of k), tiles dealt round-robin over the selected devices.
#define STRATA_XT_GEMM(L, T)                                                                       \
  cublasStatus_t CUBLASWINAPI cublasXt##L##gemm(                                                   \
      cublasXtHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, size_t m,       \
      size_t n, size_t k, const T* alpha, const T* A, size_t lda, const T* B, size_t ldb,          \
      const T* beta, T* C, size_t ldc) {                                                           \
    const char* f = "cublasXt" #L "gemm";                                                          \
    if (!strata::blas::live(handle)) return strata::blas::bad_handle(f, handle);                   \
    XT_CHECK(op_ok(transa) && op_ok(transb), f, "transa = {}, transb = {}", (int)transa,           \
             (int)transb);                                                                         \
    const bool na = transa == CUBLAS_OP_N, nb = transb == CUBLAS_OP_N;                             \
    XT_CHECK(lda >= std::max<size_t>(1, na ? m : k), f, "lda = {} < max(1, {})", lda, na ? m : k); \
    XT_CHECK(ldb >= std::max<size_t>(1, nb ? k : n), f, "ldb = {} < max(1, {})", ldb, nb ? k : n); \
    XT_CHECK(ldc >= std::max<size_t>(1, m), f, "ldc = {} < max(1, {})", ldc, m);                   \
    const size_t bd = static_cast<size_t>(handle->block_dim);                                      \
    size_t slot = 0;                                                                               \
    const size_t mt = m == 0 ? 1 : (m + bd - 1) / bd, nt = n == 0 ? 1 : (n + bd - 1) / bd;         \
    for (size_t tj = 0; tj < nt; ++tj)                                                             \
      for (size_t ti = 0; ti < mt; ++ti) {                                                         \
        const size_t i0 = ti * bd, j0 = tj * bd;                                                   \
        const size_t tm = std::min(bd, m - i0), tn = std::min(bd, n - j0);                         \
        const T* a = A == nullptr ? A : na ? A + i0 : A + i0 * lda;                                \
        const T* b = B == nullptr ? B : nb ? B + j0 * ldb : B + j0;                                \
        T* c = C == nullptr ? C : C + i0 + j0 * ldc;                                               \
        const cublasStatus_t s = run<3>(                                                           \
            f, handle, sizeof(T),                                                                  \
            {Mat{a, na ? tm : k, na ? k : tm, lda, false, "a"},                                    \
             Mat{b, nb ? k : tn, nb ? tn : k, ldb, false, "b"}, Mat{c, tm, tn, ldc, true, "c"}},   \
            [&](cublasHandle_t v2, const std::array<void*, 3>& d) {                                \
              return cublas##L##gemm_64(v2, transa, transb, tm, tn, k, alpha, as<T>(d[0]), lda,    \
                                        as<T>(d[1]), ldb, beta, as<T>(d[2]), ldc);                 \
            },                                                                                     \
            slot++);                                                                               \
        if (s != CUBLAS_STATUS_SUCCESS) return s;                                                  \
      }                                                                                            \
    return CUBLAS_STATUS_SUCCESS;                                                                  \
  }

// syrk / herk (S = scalar type of alpha, beta).
#define STRATA_XT_RANKK(name, L, T, S)                                                             \
  cublasStatus_t CUBLASWINAPI cublasXt##L##name(                                                   \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, size_t n, size_t k, \
      const S* alpha, const T* A, size_t lda, const S* beta, T* C, size_t ldc) {                   \
    const char* f = "cublasXt" #L#name;                                                            \
    XT_CHECK(uplo_ok(uplo) && op_ok(trans), f, "uplo = {}, trans = {}", (int)uplo, (int)trans);    \
    const bool nt = trans == CUBLAS_OP_N;                                                          \
    return run<2>(f, handle, sizeof(T),                                                            \
                  {Mat{A, nt ? n : k, nt ? k : n, lda, false, "a"}, Mat{C, n, n, ldc, true, "c"}}, \
                  [&](cublasHandle_t v2, const std::array<void*, 2>& d) {                          \
                    return cublas##L##name##_64(v2, uplo, trans, n, k, alpha, as<T>(d[0]), lda,    \
                                                beta, as<T>(d[1]), ldc);                           \
                  });                                                                              \
  }

// syr2k / her2k / syrkx / herkx (A = alpha type, B = beta type).
#define STRATA_XT_RANK2K(name, L, T, SA, SB)                                                       \
  cublasStatus_t CUBLASWINAPI cublasXt##L##name(                                                   \
      cublasXtHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, size_t n, size_t k, \
      const SA* alpha, const T* A, size_t lda, const T* B, size_t ldb, const SB* beta, T* C,       \
      size_t ldc) {                                                                                \
    const char* f = "cublasXt" #L#name;                                                            \
    XT_CHECK(uplo_ok(uplo) && op_ok(trans), f, "uplo = {}, trans = {}", (int)uplo, (int)trans);    \
    const bool nt = trans == CUBLAS_OP_N;                                                          \
    return run<3>(f, handle, sizeof(T),                                                            \
                  {Mat{A, nt ? n : k, nt ? k : n, lda, false, "a"},                                \
                   Mat{B, nt ? n : k, nt ? k : n, ldb, false, "b"}, Mat{C, n, n, ldc, true, "c"}}, \
                  [&](cublasHandle_t v2, const std::array<void*, 3>& d) {                          \
                    return cublas##L##name##_64(v2, uplo, trans, n, k, alpha, as<T>(d[0]), lda,    \
                                                as<T>(d[1]), ldb, beta, as<T>(d[2]), ldc);         \
                  });                                                                              \
  }

// symm / hemm.
#define STRATA_XT_SYMM(name, L, T)                                                               \
  cublasStatus_t CUBLASWINAPI cublasXt##L##name(                                                 \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, size_t m, size_t n, \
      const T* alpha, const T* A, size_t lda, const T* B, size_t ldb, const T* beta, T* C,       \
      size_t ldc) {                                                                              \
    const char* f = "cublasXt" #L#name;                                                          \
    XT_CHECK(side_ok(side) && uplo_ok(uplo), f, "side = {}, uplo = {}", (int)side, (int)uplo);   \
    const bool left = side == CUBLAS_SIDE_LEFT;                                                  \
    const size_t ka = left ? m : n;                                                              \
    return panels(                                                                               \
        f, handle, left, m, n, ldb, ldc, [&](size_t o, size_t tm, size_t tn, size_t slot) {      \
          const T* b = B == nullptr ? B : left ? B + o * ldb : B + o;                            \
          T* c = C == nullptr ? C : left ? C + o * ldc : C + o;                                  \
          return run<3>(                                                                         \
              f, handle, sizeof(T),                                                              \
              {Mat{A, ka, ka, lda, false, "a"}, Mat{b, tm, tn, ldb, false, "b"},                 \
               Mat{c, tm, tn, ldc, true, "c"}},                                                  \
              [&](cublasHandle_t v2, const std::array<void*, 3>& d) {                            \
                return cublas##L##name##_64(v2, side, uplo, tm, tn, alpha, as<T>(d[0]), lda,     \
                                            as<T>(d[1]), ldb, beta, as<T>(d[2]), ldc);           \
              },                                                                                 \
              slot);                                                                             \
        });                                                                                      \
  }

// spmm: A symmetric in packed storage (ka (ka + 1) / 2 elements), unpacked on the device.
#define STRATA_XT_SPMM(L, T)                                                                      \
  cublasStatus_t CUBLASWINAPI cublasXt##L##spmm(                                                  \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, size_t m, size_t n,  \
      const T* alpha, const T* AP, const T* B, size_t ldb, const T* beta, T* C, size_t ldc) {     \
    const char* f = "cublasXt" #L "spmm";                                                         \
    XT_CHECK(side_ok(side) && uplo_ok(uplo), f, "side = {}, uplo = {}", (int)side, (int)uplo);    \
    const size_t ka = side == CUBLAS_SIDE_LEFT ? m : n;                                           \
    XT_CHECK(ka <= static_cast<size_t>(std::numeric_limits<int>::max()), f,                       \
             "the order of A, {}, exceeds INT_MAX", ka);                                          \
    const size_t packed = ka * (ka + 1) / 2;                                                      \
    return run<3>(f, handle, sizeof(T),                                                           \
                  {Mat{AP, packed, 1, std::max<size_t>(1, packed), false, "ap"},                  \
                   Mat{B, m, n, ldb, false, "b"}, Mat{C, m, n, ldc, true, "c"}},                  \
                  [&](cublasHandle_t v2, const std::array<void*, 3>& d) -> cublasStatus_t {       \
                    if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;                           \
                    void* raw = nullptr;                                                          \
                    if (cudaMalloc(&raw, ka * ka * sizeof(T)) != cudaSuccess) {                   \
                      cudaGetLastError();                                                         \
                      return strata::blas::fail(CUBLAS_STATUS_ALLOC_FAILED, f, "{} x {} A", ka,   \
                                                ka);                                              \
                    }                                                                             \
                    T* full = as<T>(raw);                                                         \
                    cublasStatus_t s = cublas##L##tpttr(v2, uplo, static_cast<int>(ka),           \
                                                        as<T>(d[0]), full, static_cast<int>(ka)); \
                    if (s == CUBLAS_STATUS_SUCCESS)                                               \
                      s = cublas##L##symm_64(v2, side, uplo, m, n, alpha, full, ka, as<T>(d[1]),  \
                                             ldb, beta, as<T>(d[2]), ldc);                        \
                    cudaDeviceSynchronize();                                                      \
                    cudaFree(full);                                                               \
                    return s;                                                                     \
                  });                                                                             \
  }

#define STRATA_XT_TRSM(L, T)                                                                    \
  cublasStatus_t CUBLASWINAPI cublasXt##L##trsm(                                                \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                    \
      cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n, const T* alpha,       \
      const T* A, size_t lda, T* B, size_t ldb) {                                               \
    const char* f = "cublasXt" #L "trsm";                                                       \
    XT_CHECK(side_ok(side) && uplo_ok(uplo) && op_ok(trans) && diag_ok(diag), f,                \
             "side = {}, uplo = {}, trans = {}, diag = {}", (int)side, (int)uplo, (int)trans,   \
             (int)diag);                                                                        \
    const bool left = side == CUBLAS_SIDE_LEFT;                                                 \
    const size_t ka = left ? m : n;                                                             \
    return panels(f, handle, left, m, n, ldb, ldb,                                              \
                  [&](size_t o, size_t tm, size_t tn, size_t slot) {                            \
                    T* b = B == nullptr ? B : left ? B + o * ldb : B + o;                       \
                    return run<2>(                                                              \
                        f, handle, sizeof(T),                                                   \
                        {Mat{A, ka, ka, lda, false, "a"}, Mat{b, tm, tn, ldb, true, "b"}},      \
                        [&](cublasHandle_t v2, const std::array<void*, 2>& d) {                 \
                          return cublas##L##trsm_64(v2, side, uplo, trans, diag, tm, tn, alpha, \
                                                    as<T>(d[0]), lda, as<T>(d[1]), ldb);        \
                        },                                                                      \
                        slot);                                                                  \
                  });                                                                           \
  }

#define STRATA_XT_TRMM(L, T)                                                                       \
  cublasStatus_t CUBLASWINAPI cublasXt##L##trmm(                                                   \
      cublasXtHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo,                       \
      cublasOperation_t trans, cublasDiagType_t diag, size_t m, size_t n, const T* alpha,          \
      const T* A, size_t lda, const T* B, size_t ldb, T* C, size_t ldc) {                          \
    const char* f = "cublasXt" #L "trmm";                                                          \
    XT_CHECK(side_ok(side) && uplo_ok(uplo) && op_ok(trans) && diag_ok(diag), f,                   \
             "side = {}, uplo = {}, trans = {}, diag = {}", (int)side, (int)uplo, (int)trans,      \
             (int)diag);                                                                           \
    const bool left = side == CUBLAS_SIDE_LEFT;                                                    \
    const size_t ka = left ? m : n;                                                                \
    return panels(                                                                                 \
        f, handle, left, m, n, ldb, ldc, [&](size_t o, size_t tm, size_t tn, size_t slot) {        \
          const T* b = B == nullptr ? B : left ? B + o * ldb : B + o;                              \
          T* c = C == nullptr ? C : left ? C + o * ldc : C + o;                                    \
          return run<3>(                                                                           \
              f, handle, sizeof(T),                                                                \
              {Mat{A, ka, ka, lda, false, "a"}, Mat{b, tm, tn, ldb, false, "b"},                   \
               Mat{c, tm, tn, ldc, true, "c"}},                                                    \
              [&](cublasHandle_t v2, const std::array<void*, 3>& d) {                              \
                return cublas##L##trmm_64(v2, side, uplo, trans, diag, tm, tn, alpha, as<T>(d[0]), \
                                          lda, as<T>(d[1]), ldb, as<T>(d[2]), ldc);                \
              },                                                                                   \
              slot);                                                                               \
        });                                                                                        \
  }

#define STRATA_XT_ALL(L, T)           \
  STRATA_XT_GEMM(L, T)                \
  STRATA_XT_RANKK(syrk, L, T, T)      \
  STRATA_XT_RANK2K(syr2k, L, T, T, T) \
  STRATA_XT_RANK2K(syrkx, L, T, T, T) \
  STRATA_XT_SYMM(symm, L, T)          \
  STRATA_XT_SPMM(L, T)                \
  STRATA_XT_TRSM(L, T)                \
  STRATA_XT_TRMM(L, T)
STRATA_XT_ALL(S, float)
STRATA_XT_ALL(D, double)
STRATA_XT_ALL(C, cuComplex)
STRATA_XT_ALL(Z, cuDoubleComplex)
STRATA_XT_RANKK(herk, C, cuComplex, float)
STRATA_XT_RANKK(herk, Z, cuDoubleComplex, double)
STRATA_XT_RANK2K(her2k, C, cuComplex, cuComplex, float)
STRATA_XT_RANK2K(her2k, Z, cuDoubleComplex, cuDoubleComplex, double)
STRATA_XT_RANK2K(herkx, C, cuComplex, cuComplex, float)
STRATA_XT_RANK2K(herkx, Z, cuDoubleComplex, cuDoubleComplex, double)
STRATA_XT_SYMM(hemm, C, cuComplex)
STRATA_XT_SYMM(hemm, Z, cuDoubleComplex)

}  // extern "C"
