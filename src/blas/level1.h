// Level-1 BLAS internals shared by the typed entry points (api_level1.cc) and the Ex forms
// (api_level1_ex.cc): element types by kernel letter (h __half, b __nv_bfloat16, s float,
// d double, c cuComplex, z cuDoubleComplex; kernels/level1.cuh), and one implementation per
// routine taking the types as letters. Each validates the handle and its arguments, returns
// early as cuBLAS does, and launches on the handle's stream.
//
// Reductions (dot, nrm2, asum, iamax, iamin) run two kernels with a fixed reduction tree
// (deterministic: the same bits on every run). Their scratch (one partial per pass-1 block,
// and the result's device slot under CUBLAS_POINTER_MODE_HOST) is the handle's workspace
// when cublasSetWorkspace gave one large enough (at most 64 partials of 16 bytes plus 16:
// 1040 bytes), else stream-ordered memory (cuMemAllocAsync / cuMemFreeAsync on the handle's
// stream), so a call never synchronizes except to hand a host-mode result back. Under
// CUBLAS_POINTER_MODE_DEVICE the result is written by the kernel, asynchronously; under
// CUBLAS_POINTER_MODE_HOST the call returns when the result is in host memory.
#pragma once

#include <cublas_api.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "blas/handle.h"
#include "blas/kernels.h"
#include "blas/kernels/level1_givens.cuh"
#include "blas/status.h"

namespace strata::blas::level1 {

// An element type of the Ex entry points: its kernel letter, the letter of the type it
// computes in, and the real type of that.
struct Type {
  char letter = 0;  // 0: not a type Level-1 supports
  char compute = 0;
  char real = 0;
};

constexpr Type type_of(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F:
      return {'h', 's', 's'};
    case CUDA_R_16BF:
      return {'b', 's', 's'};
    case CUDA_R_32F:
      return {'s', 's', 's'};
    case CUDA_R_64F:
      return {'d', 'd', 'd'};
    case CUDA_C_32F:
      return {'c', 'c', 's'};
    case CUDA_C_64F:
      return {'z', 'z', 'd'};
    default:
      return {};
  }
}

inline constexpr Type kS = type_of(CUDA_R_32F), kD = type_of(CUDA_R_64F), kC = type_of(CUDA_C_32F),
                      kZ = type_of(CUDA_C_64F);

// The letter as a string ("h", "b", ...), its element size (0 for an unknown letter).
const char* letter_name(char letter);
size_t letter_bytes(char letter);
// CUBLAS_STATUS_NOT_SUPPORTED naming the type combination (logged).
cublasStatus_t unsupported(const char* function, std::string_view what);
// "strata_blas_<routine>_<suffix>".
std::string kernel_name(std::string_view routine, std::string_view suffix);

// dot / dotu / dotc of x and y of type xt (computed in xt.compute), result of letter rl.
cublasStatus_t dot(const char* function, cublasHandle_t handle, int64_t n, const void* x,
                   int64_t incx, const void* y, int64_t incy, void* result, Type xt, char rl,
                   bool conjugate);
// routine "asum" / "nrm2" (result letter rl) or "iamax" / "iamin" (rl 'i': int, 'l':
// int64_t); the result is 0 for n <= 0 or incx <= 0.
cublasStatus_t vector_reduce(const char* function, std::string_view routine, cublasHandle_t handle,
                             int64_t n, const void* x, int64_t incx, void* result, Type xt,
                             char rl);
// y = alpha x + y, alpha of type xt.compute.
cublasStatus_t axpy(const char* function, cublasHandle_t handle, int64_t n, const void* alpha,
                    const void* x, int64_t incx, void* y, int64_t incy, Type xt);
// x = alpha x with alpha of letter al: kernel scal_<suffix>.
cublasStatus_t scal(const char* function, cublasHandle_t handle, int64_t n, const void* alpha,
                    char al, void* x, int64_t incx, std::string_view suffix);
// routine "copy" / "swap" of elements of `bytes` bytes.
cublasStatus_t move(const char* function, std::string_view routine, cublasHandle_t handle,
                    int64_t n, const void* x, int64_t incx, void* y, int64_t incy, size_t bytes);
// rot with c of letter cl (real) and s of letter sl: kernel rot_<suffix>.
cublasStatus_t rot(const char* function, cublasHandle_t handle, int64_t n, void* x, int64_t incx,
                   void* y, int64_t incy, const void* c, const void* s, char cl, char sl,
                   std::string_view suffix);
// rotm on x and y of type xt with param of letter pl.
cublasStatus_t rotm(const char* function, cublasHandle_t handle, int64_t n, void* x, int64_t incx,
                    void* y, int64_t incy, const void* param, Type xt, char pl);

// rotg on the host (host pointer mode) or in a one-thread kernel (device pointer mode).
template <typename T, typename R>
cublasStatus_t rotg(const char* function, cublasHandle_t handle, T* a, T* b, R* c, T* s,
                    char letter) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (a == nullptr || b == nullptr || c == nullptr || s == nullptr) {
    return invalid(function, "a, b, c or s is null");
  }
  if (!h->device_pointers()) {
    strata_blas::rotg(a, b, c, s);
    return CUBLAS_STATUS_SUCCESS;
  }
  const std::string kernel = kernel_name("rotg", {&letter, 1});
  return launch(*h, function, kernel.c_str(), dim3(1), dim3(1), 0, a, b, c, s);
}

template <typename R>
cublasStatus_t rotmg(const char* function, cublasHandle_t handle, R* d1, R* d2, R* x1, const R* y1,
                     R* param, char letter) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (d1 == nullptr || d2 == nullptr || x1 == nullptr || y1 == nullptr || param == nullptr) {
    return invalid(function, "d1, d2, x1, y1 or param is null");
  }
  if (!h->device_pointers()) {
    strata_blas::rotmg(d1, d2, x1, y1, param);
    return CUBLAS_STATUS_SUCCESS;
  }
  const std::string kernel = kernel_name("rotmg", {&letter, 1});
  return launch(*h, function, kernel.c_str(), dim3(1), dim3(1), 0, d1, d2, x1, y1, param);
}

}  // namespace strata::blas::level1
