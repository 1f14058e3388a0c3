// Level-1 BLAS Ex entry points (cublas_api.h): cublasDotEx, DotcEx, Nrm2Ex, AsumEx,
// IamaxEx, IaminEx, AxpyEx, ScalEx, CopyEx, SwapEx, RotEx, RotmEx, RotgEx, RotmgEx (and
// `_64`), over FP16 / BF16 (computed in FP32), FP32, FP64 and complex data. Each checks its
// type combination (CUBLAS_STATUS_NOT_SUPPORTED otherwise) and runs level1.h's routine.
#include <cublas_api.h>

#include <cstdint>
#include <string>

#include "blas/level1.h"

namespace strata::blas::level1 {
namespace {

// The result letter of a dot / asum / nrm2 result type for element type xt, or 0.
// FP16 / BF16 results may be the element type or FP32 (the compute type); others are the
// compute type (dot) or its real type (asum, nrm2).
char result_letter(Type xt, cudaDataType result_type, bool real_result) {
  const Type rt = type_of(result_type);
  if (rt.letter == 0) return 0;
  if (xt.letter == 'h' || xt.letter == 'b') {
    return rt.letter == xt.letter || rt.letter == 's' ? rt.letter : 0;
  }
  const char want = real_result ? xt.real : xt.compute;
  return rt.letter == want ? want : 0;
}

cublasStatus_t dot_ex(const char* function, cublasHandle_t handle, int64_t n, const void* x,
                      cudaDataType x_type, int64_t incx, const void* y, cudaDataType y_type,
                      int64_t incy, void* result, cudaDataType result_type,
                      cudaDataType execution_type, bool conjugate) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type);
  const char rl = result_letter(xt, result_type, /*real_result=*/false);
  if (xt.letter == 0 || x_type != y_type || rl == 0 ||
      type_of(execution_type).letter != xt.compute) {
    return unsupported(function,
                       fmt::format("x {}, y {}, result {}, execution {}", static_cast<int>(x_type),
                                   static_cast<int>(y_type), static_cast<int>(result_type),
                                   static_cast<int>(execution_type)));
  }
  return dot(function, handle, n, x, incx, y, incy, result, xt, rl, conjugate);
}

cublasStatus_t vector_reduce_ex(const char* function, std::string_view routine,
                                cublasHandle_t handle, int64_t n, const void* x,
                                cudaDataType x_type, int64_t incx, void* result,
                                cudaDataType result_type, cudaDataType execution_type) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type);
  const char rl = result_letter(xt, result_type, /*real_result=*/true);
  if (xt.letter == 0 || rl == 0 || type_of(execution_type).letter != xt.real) {
    return unsupported(
        function, fmt::format("x {}, result {}, execution {}", static_cast<int>(x_type),
                              static_cast<int>(result_type), static_cast<int>(execution_type)));
  }
  return vector_reduce(function, routine, handle, n, x, incx, result, xt, rl);
}

cublasStatus_t index_ex(const char* function, std::string_view routine, cublasHandle_t handle,
                        int64_t n, const void* x, cudaDataType x_type, int64_t incx, void* result,
                        char rl) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type);
  if (xt.letter == 0) return unsupported(function, fmt::format("x {}", static_cast<int>(x_type)));
  return vector_reduce(function, routine, handle, n, x, incx, result, xt, rl);
}

cublasStatus_t axpy_ex(const char* function, cublasHandle_t handle, int64_t n, const void* alpha,
                       cudaDataType alpha_type, const void* x, cudaDataType x_type, int64_t incx,
                       void* y, cudaDataType y_type, int64_t incy, cudaDataType execution_type) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type);
  if (xt.letter == 0 || x_type != y_type || type_of(alpha_type).letter != xt.compute ||
      type_of(execution_type).letter != xt.compute) {
    return unsupported(
        function, fmt::format("alpha {}, x {}, y {}, execution {}", static_cast<int>(alpha_type),
                              static_cast<int>(x_type), static_cast<int>(y_type),
                              static_cast<int>(execution_type)));
  }
  return axpy(function, handle, n, alpha, x, incx, y, incy, xt);
}

cublasStatus_t scal_ex(const char* function, cublasHandle_t handle, int64_t n, const void* alpha,
                       cudaDataType alpha_type, void* x, cudaDataType x_type, int64_t incx,
                       cudaDataType execution_type) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type), at = type_of(alpha_type), et = type_of(execution_type);
  const char* suffix = nullptr;
  if (xt.letter != 0 && at.letter == xt.compute && et.letter == xt.compute) {
    suffix = letter_name(xt.letter);  // h, b, s, d, c, z
  } else if ((xt.letter == 'c' || xt.letter == 'z') && at.letter == xt.real &&
             (et.letter == xt.compute || et.letter == xt.real)) {
    suffix = xt.letter == 'c' ? "cs" : "zd";  // real alpha on complex x
  } else {
    return unsupported(function,
                       fmt::format("alpha {}, x {}, execution {}", static_cast<int>(alpha_type),
                                   static_cast<int>(x_type), static_cast<int>(execution_type)));
  }
  return scal(function, handle, n, alpha, at.letter, x, incx, suffix);
}

size_t element_bytes(cudaDataType t) {
  switch (t) {
    case CUDA_R_16F:
    case CUDA_R_16BF:
      return 2;
    case CUDA_R_32F:
    case CUDA_C_16F:
    case CUDA_C_16BF:
      return 4;
    case CUDA_R_64F:
    case CUDA_C_32F:
      return 8;
    case CUDA_C_64F:
      return 16;
    default:
      return 0;
  }
}

cublasStatus_t move_ex(const char* function, std::string_view routine, cublasHandle_t handle,
                       int64_t n, const void* x, cudaDataType x_type, int64_t incx, void* y,
                       cudaDataType y_type, int64_t incy) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const size_t bytes = element_bytes(x_type);
  if (bytes == 0 || x_type != y_type) {
    return unsupported(
        function, fmt::format("x {}, y {}", static_cast<int>(x_type), static_cast<int>(y_type)));
  }
  return move(function, routine, handle, n, x, incx, y, incy, bytes);
}

cublasStatus_t rot_ex(const char* function, cublasHandle_t handle, int64_t n, void* x,
                      cudaDataType x_type, int64_t incx, void* y, cudaDataType y_type, int64_t incy,
                      const void* c, const void* s, cudaDataType cs_type,
                      cudaDataType execution_type) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type), cst = type_of(cs_type);
  const bool narrow = xt.letter == 'h' || xt.letter == 'b';
  const bool ok =
      xt.letter != 0 && x_type == y_type && type_of(execution_type).letter == xt.compute &&
      (cst.letter == xt.compute || cst.letter == xt.real || (narrow && cst.letter == xt.letter));
  if (!ok) {
    return unsupported(function,
                       fmt::format("x {}, y {}, c and s {}, execution {}", static_cast<int>(x_type),
                                   static_cast<int>(y_type), static_cast<int>(cs_type),
                                   static_cast<int>(execution_type)));
  }
  // Complex x with a real s is the Csrot / Zdrot form; c is real either way (its real part
  // when the caller passes it as a complex value).
  const bool real_s = (xt.letter == 'c' || xt.letter == 'z') && cst.letter == xt.real;
  if (narrow && cst.letter == xt.letter) {  // c and s in FP16 / BF16
    return rot(function, handle, n, x, incx, y, incy, c, s, cst.letter, cst.letter,
               xt.letter == 'h' ? "hh" : "bb");
  }
  const char* suffix = real_s ? (xt.letter == 'c' ? "cs" : "zd") : letter_name(xt.letter);
  return rot(function, handle, n, x, incx, y, incy, c, s, xt.real, cst.letter, suffix);
}

cublasStatus_t rotm_ex(const char* function, cublasHandle_t handle, int64_t n, void* x,
                       cudaDataType x_type, int64_t incx, void* y, cudaDataType y_type,
                       int64_t incy, const void* param, cudaDataType param_type,
                       cudaDataType execution_type) {
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type xt = type_of(x_type), pt = type_of(param_type);
  const bool narrow = xt.letter == 'h' || xt.letter == 'b';
  const bool ok = xt.letter != 0 && xt.letter != 'c' && xt.letter != 'z' && x_type == y_type &&
                  (pt.letter == xt.real || (narrow && pt.letter == xt.letter)) &&
                  type_of(execution_type).letter == xt.real;
  if (!ok) {
    return unsupported(function,
                       fmt::format("x {}, y {}, param {}, execution {}", static_cast<int>(x_type),
                                   static_cast<int>(y_type), static_cast<int>(param_type),
                                   static_cast<int>(execution_type)));
  }
  return rotm(function, handle, n, x, incx, y, incy, param, xt, pt.letter);
}

}  // namespace
}  // namespace strata::blas::level1

using namespace strata::blas::level1;  // NOLINT: the entry points below are thin wrappers

extern "C" {

#define STRATA_BLAS_DOT_EX_ENTRY(name, I, conjugate)                                              \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, I n, const void* x, cudaDataType xType, \
                                   I incx, const void* y, cudaDataType yType, I incy,             \
                                   void* result, cudaDataType resultType,                         \
                                   cudaDataType executionType) {                                  \
    return dot_ex(#name, handle, n, x, xType, incx, y, yType, incy, result, resultType,           \
                  executionType, conjugate);                                                      \
  }
STRATA_BLAS_DOT_EX_ENTRY(cublasDotEx, int, false)
STRATA_BLAS_DOT_EX_ENTRY(cublasDotEx_64, int64_t, false)
STRATA_BLAS_DOT_EX_ENTRY(cublasDotcEx, int, true)
STRATA_BLAS_DOT_EX_ENTRY(cublasDotcEx_64, int64_t, true)
#undef STRATA_BLAS_DOT_EX_ENTRY

#define STRATA_BLAS_VEC_EX_ENTRY(name, routine, I)                                                \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, I n, const void* x, cudaDataType xType, \
                                   I incx, void* result, cudaDataType resultType,                 \
                                   cudaDataType executionType) {                                  \
    return vector_reduce_ex(#name, routine, handle, n, x, xType, incx, result, resultType,        \
                            executionType);                                                       \
  }
STRATA_BLAS_VEC_EX_ENTRY(cublasAsumEx, "asum", int)
STRATA_BLAS_VEC_EX_ENTRY(cublasAsumEx_64, "asum", int64_t)
STRATA_BLAS_VEC_EX_ENTRY(cublasNrm2Ex, "nrm2", int)
STRATA_BLAS_VEC_EX_ENTRY(cublasNrm2Ex_64, "nrm2", int64_t)
#undef STRATA_BLAS_VEC_EX_ENTRY

cublasStatus_t CUBLASWINAPI cublasIamaxEx(cublasHandle_t handle, int n, const void* x,
                                          cudaDataType xType, int incx, int* result) {
  return index_ex("cublasIamaxEx", "iamax", handle, n, x, xType, incx, result, 'i');
}
cublasStatus_t CUBLASWINAPI cublasIamaxEx_64(cublasHandle_t handle, int64_t n, const void* x,
                                             cudaDataType xType, int64_t incx, int64_t* result) {
  return index_ex("cublasIamaxEx_64", "iamax", handle, n, x, xType, incx, result, 'l');
}
cublasStatus_t CUBLASWINAPI cublasIaminEx(cublasHandle_t handle, int n, const void* x,
                                          cudaDataType xType, int incx, int* result) {
  return index_ex("cublasIaminEx", "iamin", handle, n, x, xType, incx, result, 'i');
}
cublasStatus_t CUBLASWINAPI cublasIaminEx_64(cublasHandle_t handle, int64_t n, const void* x,
                                             cudaDataType xType, int64_t incx, int64_t* result) {
  return index_ex("cublasIaminEx_64", "iamin", handle, n, x, xType, incx, result, 'l');
}

#define STRATA_BLAS_AXPY_EX_ENTRY(name, I)                                                    \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, I n, const void* alpha,             \
                                   cudaDataType alphaType, const void* x, cudaDataType xType, \
                                   I incx, void* y, cudaDataType yType, I incy,               \
                                   cudaDataType executiontype) {                              \
    return axpy_ex(#name, handle, n, alpha, alphaType, x, xType, incx, y, yType, incy,        \
                   executiontype);                                                            \
  }
STRATA_BLAS_AXPY_EX_ENTRY(cublasAxpyEx, int)
STRATA_BLAS_AXPY_EX_ENTRY(cublasAxpyEx_64, int64_t)
#undef STRATA_BLAS_AXPY_EX_ENTRY

cublasStatus_t CUBLASWINAPI cublasScalEx(cublasHandle_t handle, int n, const void* alpha,
                                         cudaDataType alphaType, void* x, cudaDataType xType,
                                         int incx, cudaDataType executionType) {
  return scal_ex("cublasScalEx", handle, n, alpha, alphaType, x, xType, incx, executionType);
}
cublasStatus_t CUBLASWINAPI cublasScalEx_64(cublasHandle_t handle, int64_t n, const void* alpha,
                                            cudaDataType alphaType, void* x, cudaDataType xType,
                                            int64_t incx, cudaDataType executionType) {
  return scal_ex("cublasScalEx_64", handle, n, alpha, alphaType, x, xType, incx, executionType);
}

cublasStatus_t CUBLASWINAPI cublasCopyEx(cublasHandle_t handle, int n, const void* x,
                                         cudaDataType xType, int incx, void* y, cudaDataType yType,
                                         int incy) {
  return move_ex("cublasCopyEx", "copy", handle, n, x, xType, incx, y, yType, incy);
}
cublasStatus_t CUBLASWINAPI cublasCopyEx_64(cublasHandle_t handle, int64_t n, const void* x,
                                            cudaDataType xType, int64_t incx, void* y,
                                            cudaDataType yType, int64_t incy) {
  return move_ex("cublasCopyEx_64", "copy", handle, n, x, xType, incx, y, yType, incy);
}
cublasStatus_t CUBLASWINAPI cublasSwapEx(cublasHandle_t handle, int n, void* x, cudaDataType xType,
                                         int incx, void* y, cudaDataType yType, int incy) {
  return move_ex("cublasSwapEx", "swap", handle, n, x, xType, incx, y, yType, incy);
}
cublasStatus_t CUBLASWINAPI cublasSwapEx_64(cublasHandle_t handle, int64_t n, void* x,
                                            cudaDataType xType, int64_t incx, void* y,
                                            cudaDataType yType, int64_t incy) {
  return move_ex("cublasSwapEx_64", "swap", handle, n, x, xType, incx, y, yType, incy);
}

#define STRATA_BLAS_ROT_EX_ENTRY(name, I)                                                         \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, I n, void* x, cudaDataType xType,       \
                                   I incx, void* y, cudaDataType yType, I incy, const void* c,    \
                                   const void* s, cudaDataType csType,                            \
                                   cudaDataType executiontype) {                                  \
    return rot_ex(#name, handle, n, x, xType, incx, y, yType, incy, c, s, csType, executiontype); \
  }
STRATA_BLAS_ROT_EX_ENTRY(cublasRotEx, int)
STRATA_BLAS_ROT_EX_ENTRY(cublasRotEx_64, int64_t)
#undef STRATA_BLAS_ROT_EX_ENTRY

#define STRATA_BLAS_ROTM_EX_ENTRY(name, I)                                                         \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, I n, void* x, cudaDataType xType,        \
                                   I incx, void* y, cudaDataType yType, I incy, const void* param, \
                                   cudaDataType paramType, cudaDataType executiontype) {           \
    return rotm_ex(#name, handle, n, x, xType, incx, y, yType, incy, param, paramType,             \
                   executiontype);                                                                 \
  }
STRATA_BLAS_ROTM_EX_ENTRY(cublasRotmEx, int)
STRATA_BLAS_ROTM_EX_ENTRY(cublasRotmEx_64, int64_t)
#undef STRATA_BLAS_ROTM_EX_ENTRY

cublasStatus_t CUBLASWINAPI cublasRotgEx(cublasHandle_t handle, void* a, void* b,
                                         cudaDataType abType, void* c, void* s, cudaDataType csType,
                                         cudaDataType executiontype) {
  const char* function = "cublasRotgEx";
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const Type abt = type_of(abType);
  if (abt.letter == 'h' || abt.letter == 'b' || abt.letter == 0 ||
      type_of(csType).letter != abt.real || type_of(executiontype).letter != abt.compute) {
    return unsupported(function,
                       fmt::format("a and b {}, c and s {}, execution {}", static_cast<int>(abType),
                                   static_cast<int>(csType), static_cast<int>(executiontype)));
  }
  switch (abt.letter) {
    case 's':
      return rotg(function, handle, static_cast<float*>(a), static_cast<float*>(b),
                  static_cast<float*>(c), static_cast<float*>(s), 's');
    case 'd':
      return rotg(function, handle, static_cast<double*>(a), static_cast<double*>(b),
                  static_cast<double*>(c), static_cast<double*>(s), 'd');
    case 'c':
      return rotg(function, handle, static_cast<cuComplex*>(a), static_cast<cuComplex*>(b),
                  static_cast<float*>(c), static_cast<cuComplex*>(s), 'c');
    default:
      return rotg(function, handle, static_cast<cuDoubleComplex*>(a),
                  static_cast<cuDoubleComplex*>(b), static_cast<double*>(c),
                  static_cast<cuDoubleComplex*>(s), 'z');
  }
}

cublasStatus_t CUBLASWINAPI cublasRotmgEx(cublasHandle_t handle, void* d1, cudaDataType d1Type,
                                          void* d2, cudaDataType d2Type, void* x1,
                                          cudaDataType x1Type, const void* y1, cudaDataType y1Type,
                                          void* param, cudaDataType paramType,
                                          cudaDataType executiontype) {
  const char* function = "cublasRotmgEx";
  if (handle_of(handle) == nullptr) return bad_handle(function, handle);
  const bool same = d1Type == d2Type && d1Type == x1Type && d1Type == y1Type &&
                    d1Type == paramType && d1Type == executiontype;
  if (!same || (d1Type != CUDA_R_32F && d1Type != CUDA_R_64F)) {
    return unsupported(
        function,
        fmt::format("d1 {}, d2 {}, x1 {}, y1 {}, param {}, execution {}", static_cast<int>(d1Type),
                    static_cast<int>(d2Type), static_cast<int>(x1Type), static_cast<int>(y1Type),
                    static_cast<int>(paramType), static_cast<int>(executiontype)));
  }
  if (d1Type == CUDA_R_32F) {
    return rotmg(function, handle, static_cast<float*>(d1), static_cast<float*>(d2),
                 static_cast<float*>(x1), static_cast<const float*>(y1), static_cast<float*>(param),
                 's');
  }
  return rotmg(function, handle, static_cast<double*>(d1), static_cast<double*>(d2),
               static_cast<double*>(x1), static_cast<const double*>(y1),
               static_cast<double*>(param), 'd');
}

}  // extern "C"
