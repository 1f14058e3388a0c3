// Level-1 BLAS entry points (cublas_api.h) with fixed types: S, D, C, Z and the mixed
// real-complex forms, in LP64 and `_64` ILP64 variants; each is level1.h's routine with the
// types as letters (the Ex forms are in api_level1_ex.cc).
#include <cublas_api.h>

#include "blas/level1.h"

using namespace strata::blas::level1;  // NOLINT: the entry points below are thin wrappers

extern "C" {

// --- dot ---
#define STRATA_BLAS_DOT_ENTRY(name, T, type, conjugate)                                            \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, const T* x, int incx, const T* y, \
                                   int incy, T* result) {                                          \
    return dot(#name, handle, n, x, incx, y, incy, result, type, type.letter, conjugate);          \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, const T* x,              \
                                        int64_t incx, const T* y, int64_t incy, T* result) {       \
    return dot(#name "_64", handle, n, x, incx, y, incy, result, type, type.letter, conjugate);    \
  }
STRATA_BLAS_DOT_ENTRY(cublasSdot_v2, float, kS, false)
STRATA_BLAS_DOT_ENTRY(cublasDdot_v2, double, kD, false)
STRATA_BLAS_DOT_ENTRY(cublasCdotu_v2, cuComplex, kC, false)
STRATA_BLAS_DOT_ENTRY(cublasCdotc_v2, cuComplex, kC, true)
STRATA_BLAS_DOT_ENTRY(cublasZdotu_v2, cuDoubleComplex, kZ, false)
STRATA_BLAS_DOT_ENTRY(cublasZdotc_v2, cuDoubleComplex, kZ, true)
#undef STRATA_BLAS_DOT_ENTRY

// --- asum, nrm2 ---
#define STRATA_BLAS_VEC_ENTRY(name, routine, T, R, type)                                     \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, const T* x, int incx,       \
                                   R* result) {                                              \
    return vector_reduce(#name, routine, handle, n, x, incx, result, type, type.real);       \
  }                                                                                          \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, const T* x,        \
                                        int64_t incx, R* result) {                           \
    return vector_reduce(#name "_64", routine, handle, n, x, incx, result, type, type.real); \
  }
STRATA_BLAS_VEC_ENTRY(cublasSasum_v2, "asum", float, float, kS)
STRATA_BLAS_VEC_ENTRY(cublasDasum_v2, "asum", double, double, kD)
STRATA_BLAS_VEC_ENTRY(cublasScasum_v2, "asum", cuComplex, float, kC)
STRATA_BLAS_VEC_ENTRY(cublasDzasum_v2, "asum", cuDoubleComplex, double, kZ)
STRATA_BLAS_VEC_ENTRY(cublasSnrm2_v2, "nrm2", float, float, kS)
STRATA_BLAS_VEC_ENTRY(cublasDnrm2_v2, "nrm2", double, double, kD)
STRATA_BLAS_VEC_ENTRY(cublasScnrm2_v2, "nrm2", cuComplex, float, kC)
STRATA_BLAS_VEC_ENTRY(cublasDznrm2_v2, "nrm2", cuDoubleComplex, double, kZ)
#undef STRATA_BLAS_VEC_ENTRY

// --- iamax, iamin ---
#define STRATA_BLAS_INDEX_ENTRY(name, routine, T, type)                                \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, const T* x, int incx, \
                                   int* result) {                                      \
    return vector_reduce(#name, routine, handle, n, x, incx, result, type, 'i');       \
  }                                                                                    \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, const T* x,  \
                                        int64_t incx, int64_t* result) {               \
    return vector_reduce(#name "_64", routine, handle, n, x, incx, result, type, 'l'); \
  }
STRATA_BLAS_INDEX_ENTRY(cublasIsamax_v2, "iamax", float, kS)
STRATA_BLAS_INDEX_ENTRY(cublasIdamax_v2, "iamax", double, kD)
STRATA_BLAS_INDEX_ENTRY(cublasIcamax_v2, "iamax", cuComplex, kC)
STRATA_BLAS_INDEX_ENTRY(cublasIzamax_v2, "iamax", cuDoubleComplex, kZ)
STRATA_BLAS_INDEX_ENTRY(cublasIsamin_v2, "iamin", float, kS)
STRATA_BLAS_INDEX_ENTRY(cublasIdamin_v2, "iamin", double, kD)
STRATA_BLAS_INDEX_ENTRY(cublasIcamin_v2, "iamin", cuComplex, kC)
STRATA_BLAS_INDEX_ENTRY(cublasIzamin_v2, "iamin", cuDoubleComplex, kZ)
#undef STRATA_BLAS_INDEX_ENTRY

// --- axpy ---
#define STRATA_BLAS_AXPY_ENTRY(name, T, type)                                                \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, const T* alpha, const T* x, \
                                   int incx, T* y, int incy) {                               \
    return axpy(#name, handle, n, alpha, x, incx, y, incy, type);                            \
  }                                                                                          \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, const T* alpha,    \
                                        const T* x, int64_t incx, T* y, int64_t incy) {      \
    return axpy(#name "_64", handle, n, alpha, x, incx, y, incy, type);                      \
  }
STRATA_BLAS_AXPY_ENTRY(cublasSaxpy_v2, float, kS)
STRATA_BLAS_AXPY_ENTRY(cublasDaxpy_v2, double, kD)
STRATA_BLAS_AXPY_ENTRY(cublasCaxpy_v2, cuComplex, kC)
STRATA_BLAS_AXPY_ENTRY(cublasZaxpy_v2, cuDoubleComplex, kZ)
#undef STRATA_BLAS_AXPY_ENTRY

// --- scal ---
#define STRATA_BLAS_SCAL_ENTRY(name, suffix, A, T, al)                                             \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, const A* alpha, T* x, int incx) { \
    return scal(#name, handle, n, alpha, al, x, incx, suffix);                                     \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, const A* alpha, T* x,    \
                                        int64_t incx) {                                            \
    return scal(#name "_64", handle, n, alpha, al, x, incx, suffix);                               \
  }
STRATA_BLAS_SCAL_ENTRY(cublasSscal_v2, "s", float, float, 's')
STRATA_BLAS_SCAL_ENTRY(cublasDscal_v2, "d", double, double, 'd')
STRATA_BLAS_SCAL_ENTRY(cublasCscal_v2, "c", cuComplex, cuComplex, 'c')
STRATA_BLAS_SCAL_ENTRY(cublasZscal_v2, "z", cuDoubleComplex, cuDoubleComplex, 'z')
STRATA_BLAS_SCAL_ENTRY(cublasCsscal_v2, "cs", float, cuComplex, 's')
STRATA_BLAS_SCAL_ENTRY(cublasZdscal_v2, "zd", double, cuDoubleComplex, 'd')
#undef STRATA_BLAS_SCAL_ENTRY

// --- copy, swap ---
#define STRATA_BLAS_MOVE_ENTRY(name, routine, XC, T)                                             \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, XC T* x, int incx, T* y,        \
                                   int incy) {                                                   \
    return move(#name, routine, handle, n, x, incx, y, incy, sizeof(T));                         \
  }                                                                                              \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, XC T* x, int64_t incx, \
                                        T* y, int64_t incy) {                                    \
    return move(#name "_64", routine, handle, n, x, incx, y, incy, sizeof(T));                   \
  }
#define STRATA_BLAS_CONST const
#define STRATA_BLAS_MUTABLE
STRATA_BLAS_MOVE_ENTRY(cublasScopy_v2, "copy", STRATA_BLAS_CONST, float)
STRATA_BLAS_MOVE_ENTRY(cublasDcopy_v2, "copy", STRATA_BLAS_CONST, double)
STRATA_BLAS_MOVE_ENTRY(cublasCcopy_v2, "copy", STRATA_BLAS_CONST, cuComplex)
STRATA_BLAS_MOVE_ENTRY(cublasZcopy_v2, "copy", STRATA_BLAS_CONST, cuDoubleComplex)
STRATA_BLAS_MOVE_ENTRY(cublasSswap_v2, "swap", STRATA_BLAS_MUTABLE, float)
STRATA_BLAS_MOVE_ENTRY(cublasDswap_v2, "swap", STRATA_BLAS_MUTABLE, double)
STRATA_BLAS_MOVE_ENTRY(cublasCswap_v2, "swap", STRATA_BLAS_MUTABLE, cuComplex)
STRATA_BLAS_MOVE_ENTRY(cublasZswap_v2, "swap", STRATA_BLAS_MUTABLE, cuDoubleComplex)
#undef STRATA_BLAS_CONST
#undef STRATA_BLAS_MUTABLE
#undef STRATA_BLAS_MOVE_ENTRY

// --- rot, rotm ---
#define STRATA_BLAS_ROT_ENTRY(name, T, C, S, type, sl, suffix)                                   \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, T* x, int incx, T* y, int incy, \
                                   const C* c, const S* s) {                                     \
    return rot(#name, handle, n, x, incx, y, incy, c, s, type.real, sl, suffix);                 \
  }                                                                                              \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, T* x, int64_t incx,    \
                                        T* y, int64_t incy, const C* c, const S* s) {            \
    return rot(#name "_64", handle, n, x, incx, y, incy, c, s, type.real, sl, suffix);           \
  }
STRATA_BLAS_ROT_ENTRY(cublasSrot_v2, float, float, float, kS, 's', "s")
STRATA_BLAS_ROT_ENTRY(cublasDrot_v2, double, double, double, kD, 'd', "d")
STRATA_BLAS_ROT_ENTRY(cublasCrot_v2, cuComplex, float, cuComplex, kC, 'c', "c")
STRATA_BLAS_ROT_ENTRY(cublasCsrot_v2, cuComplex, float, float, kC, 's', "cs")
STRATA_BLAS_ROT_ENTRY(cublasZrot_v2, cuDoubleComplex, double, cuDoubleComplex, kZ, 'z', "z")
STRATA_BLAS_ROT_ENTRY(cublasZdrot_v2, cuDoubleComplex, double, double, kZ, 'd', "zd")
#undef STRATA_BLAS_ROT_ENTRY

#define STRATA_BLAS_ROTM_ENTRY(name, T, type)                                                    \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, int n, T* x, int incx, T* y, int incy, \
                                   const T* param) {                                             \
    return rotm(#name, handle, n, x, incx, y, incy, param, type, type.real);                     \
  }                                                                                              \
  cublasStatus_t CUBLASWINAPI name##_64(cublasHandle_t handle, int64_t n, T* x, int64_t incx,    \
                                        T* y, int64_t incy, const T* param) {                    \
    return rotm(#name "_64", handle, n, x, incx, y, incy, param, type, type.real);               \
  }
STRATA_BLAS_ROTM_ENTRY(cublasSrotm_v2, float, kS)
STRATA_BLAS_ROTM_ENTRY(cublasDrotm_v2, double, kD)
#undef STRATA_BLAS_ROTM_ENTRY

// --- rotg, rotmg ---
cublasStatus_t CUBLASWINAPI cublasSrotg_v2(cublasHandle_t handle, float* a, float* b, float* c,
                                           float* s) {
  return rotg("cublasSrotg_v2", handle, a, b, c, s, 's');
}
cublasStatus_t CUBLASWINAPI cublasDrotg_v2(cublasHandle_t handle, double* a, double* b, double* c,
                                           double* s) {
  return rotg("cublasDrotg_v2", handle, a, b, c, s, 'd');
}
cublasStatus_t CUBLASWINAPI cublasCrotg_v2(cublasHandle_t handle, cuComplex* a, cuComplex* b,
                                           float* c, cuComplex* s) {
  return rotg("cublasCrotg_v2", handle, a, b, c, s, 'c');
}
cublasStatus_t CUBLASWINAPI cublasZrotg_v2(cublasHandle_t handle, cuDoubleComplex* a,
                                           cuDoubleComplex* b, double* c, cuDoubleComplex* s) {
  return rotg("cublasZrotg_v2", handle, a, b, c, s, 'z');
}

cublasStatus_t CUBLASWINAPI cublasSrotmg_v2(cublasHandle_t handle, float* d1, float* d2, float* x1,
                                            const float* y1, float* param) {
  return rotmg("cublasSrotmg_v2", handle, d1, d2, x1, y1, param, 's');
}
cublasStatus_t CUBLASWINAPI cublasDrotmg_v2(cublasHandle_t handle, double* d1, double* d2,
                                            double* x1, const double* y1, double* param) {
  return rotmg("cublasDrotmg_v2", handle, d1, d2, x1, y1, param, 'd');
}

}  // extern "C"
