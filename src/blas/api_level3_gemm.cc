// The GEMM variants of cublas_api.h that are GEMMs under another name: Cgemm3m, Zgemm3m,
// Cgemm3mEx, Cgemm3mBatched, Cgemm3mStridedBatched (the Gauss three-multiplication
// algorithm is an implementation choice; an ordinary complex GEMM meets its error bound)
// and the grouped batched GEMMs cublasSgemmGroupedBatched, cublasDgemmGroupedBatched,
// cublasGemmGroupedBatchedEx, in LP64 and `_64` forms. All run on run_gemm (gemm.h).
#include <cublas_api.h>

#include <algorithm>
#include <cstdint>

#include "blas/gemm.h"

namespace strata::blas {
namespace {

cublasStatus_t with_handle(cublasHandle_t handle, const char* function, const GemmCall& call) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  return run_gemm(*h, function, call);
}

GemmCall complex_call(cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
                      int64_t k, const void* alpha, const void* beta, cudaDataType ab,
                      cudaDataType c, cublasComputeType_t compute) {
  GemmCall call;
  call.op_a = transa, call.op_b = transb;
  call.m = m, call.n = n, call.k = k;
  call.alpha = alpha, call.beta = beta;
  call.a_type = ab, call.b_type = ab, call.c_type = c;
  call.compute = compute;
  call.only_complex = true;
  return call;
}

// One group's arguments, as read from the host arrays.
struct Group {
  cublasOperation_t op_a, op_b;
  int64_t m, n, k, lda, ldb, ldc, size;
};

// The grouped batched GEMM: group g computes C = alpha[g] op(A) op(B) + beta[g] C for its
// group_size[g] consecutive entries of the pointer arrays. The per-group arrays (transa
// ... group_size, alpha, beta) are host arrays, the matrix pointer arrays device arrays of
// device pointers. Statuses: CUBLAS_STATUS_INVALID_VALUE for group_count < 0 or, in any
// group, an undefined operation, m, n, k or group_size < 0, or a leading dimension below
// its minimum (all groups are checked before any runs); CUBLAS_STATUS_NOT_SUPPORTED under
// CUBLAS_POINTER_MODE_DEVICE (the scalars are host arrays) and for a type combination
// outside the documented ones (A = B = C of FP16, BF16 or FP32 with CUBLAS_COMPUTE_32F
// (FP32 also with the fast 32F compute types), FP64 with CUBLAS_COMPUTE_64F).
template <typename I>
cublasStatus_t grouped(const char* function, cublasHandle_t handle, const cublasOperation_t* transa,
                       const cublasOperation_t* transb, const I* m, const I* n, const I* k,
                       const void* alpha, const void* const* a, cudaDataType a_type, const I* lda,
                       const void* const* b, cudaDataType b_type, const I* ldb, const void* beta,
                       void* const* c, cudaDataType c_type, const I* ldc, int64_t group_count,
                       const I* group_size, cublasComputeType_t compute) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (group_count < 0) return invalid(function, "group_count = {} < 0", group_count);
  GemmCompute family;
  if (!gemm_compute_of(compute, &family)) {
    return invalid(function, "computeType = {} is not a cublasComputeType_t", +compute);
  }
  const bool types_ok =
      a_type == b_type && b_type == c_type &&
      (((a_type == CUDA_R_16F || a_type == CUDA_R_16BF) && family == GemmCompute::kF32) ||
       (a_type == CUDA_R_32F && (family == GemmCompute::kF32 || family == GemmCompute::kF32Fast)) ||
       (a_type == CUDA_R_64F && family == GemmCompute::kF64));
  if (!types_ok) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "Atype {}, Btype {}, Ctype {} with computeType {} is not a supported combination",
                +a_type, +b_type, +c_type, +compute);
  }
  if (group_count == 0) return CUBLAS_STATUS_SUCCESS;
  if (h->device_pointers()) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "alpha_array and beta_array are host arrays: CUBLAS_POINTER_MODE_DEVICE is not "
                "supported");
  }
  if (transa == nullptr || transb == nullptr || m == nullptr || n == nullptr || k == nullptr ||
      lda == nullptr || ldb == nullptr || ldc == nullptr || group_size == nullptr ||
      alpha == nullptr || beta == nullptr) {
    return invalid(function, "a per-group array is null");
  }
  for (int64_t g = 0; g < group_count; ++g) {
    const Group e{transa[g], transb[g], m[g], n[g], k[g], lda[g], ldb[g], ldc[g], group_size[g]};
    if (!gemm_detail::op_valid(e.op_a))
      return invalid(function, "transa_array[{}] = {}", g, +e.op_a);
    if (!gemm_detail::op_valid(e.op_b))
      return invalid(function, "transb_array[{}] = {}", g, +e.op_b);
    if (e.m < 0 || e.n < 0 || e.k < 0) {
      return invalid(function, "group {}: m = {}, n = {}, k = {}: negative", g, e.m, e.n, e.k);
    }
    if (e.size < 0) return invalid(function, "group_size[{}] = {} < 0", g, e.size);
    const int64_t a_rows = e.op_a == CUBLAS_OP_N ? e.m : e.k;
    const int64_t b_rows = e.op_b == CUBLAS_OP_N ? e.k : e.n;
    if (e.lda < std::max<int64_t>(1, a_rows)) {
      return invalid(function, "lda_array[{}] = {} < max(1, {})", g, e.lda, a_rows);
    }
    if (e.ldb < std::max<int64_t>(1, b_rows)) {
      return invalid(function, "ldb_array[{}] = {} < max(1, {})", g, e.ldb, b_rows);
    }
    if (e.ldc < std::max<int64_t>(1, e.m)) {
      return invalid(function, "ldc_array[{}] = {} < max(1, {})", g, e.ldc, e.m);
    }
  }
  const size_t scale_bytes = family == GemmCompute::kF64 ? sizeof(double) : sizeof(float);
  int64_t offset = 0;
  for (int64_t g = 0; g < group_count; ++g) {
    const int64_t size = group_size[g];
    if (size == 0) continue;
    GemmCall call;
    call.op_a = transa[g], call.op_b = transb[g];
    call.m = m[g], call.n = n[g], call.k = k[g];
    call.alpha = static_cast<const char*>(alpha) + g * scale_bytes;
    call.beta = static_cast<const char*>(beta) + g * scale_bytes;
    call.a_array = a == nullptr ? nullptr : a + offset;
    call.b_array = b == nullptr ? nullptr : b + offset;
    call.c_array = c == nullptr ? nullptr : c + offset;
    call.lda = lda[g], call.ldb = ldb[g], call.ldc = ldc[g];
    call.batch_count = size;
    call.batched_arrays = true;
    call.a_type = a_type, call.b_type = b_type, call.c_type = c_type;
    call.compute = compute;
    const cublasStatus_t s = run_gemm(*h, function, call);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
    offset += size;
  }
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace
}  // namespace strata::blas

using strata::blas::complex_call;
using strata::blas::grouped;
using strata::blas::with_handle;

extern "C" {

// Cgemm3m, Zgemm3m.
#define STRATA_BLAS_GEMM3M(name, T, TYPE, COMPUTE, I)                                           \
  cublasStatus_t CUBLASWINAPI name(                                                             \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, \
      const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {       \
    strata::blas::GemmCall call =                                                               \
        complex_call(transa, transb, m, n, k, alpha, beta, TYPE, TYPE, COMPUTE);                \
    call.a = A, call.lda = lda, call.b = B, call.ldb = ldb, call.c = C, call.ldc = ldc;         \
    return with_handle(handle, #name, call);                                                    \
  }
STRATA_BLAS_GEMM3M(cublasCgemm3m, cuComplex, CUDA_C_32F, CUBLAS_COMPUTE_32F, int)
STRATA_BLAS_GEMM3M(cublasCgemm3m_64, cuComplex, CUDA_C_32F, CUBLAS_COMPUTE_32F, int64_t)
STRATA_BLAS_GEMM3M(cublasZgemm3m, cuDoubleComplex, CUDA_C_64F, CUBLAS_COMPUTE_64F, int)
STRATA_BLAS_GEMM3M(cublasZgemm3m_64, cuDoubleComplex, CUDA_C_64F, CUBLAS_COMPUTE_64F, int64_t)
#undef STRATA_BLAS_GEMM3M

// Cgemm3mEx: A / B of CUDA_C_8I or CUDA_C_32F, C of CUDA_C_32F (cublasCgemmEx's complex
// rows; others are CUBLAS_STATUS_NOT_SUPPORTED).
#define STRATA_BLAS_GEMM3M_EX(name, I)                                                          \
  cublasStatus_t CUBLASWINAPI name(                                                             \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k, \
      const cuComplex* alpha, const void* A, cudaDataType Atype, I lda, const void* B,          \
      cudaDataType Btype, I ldb, const cuComplex* beta, void* C, cudaDataType Ctype, I ldc) {   \
    strata::blas::GemmCall call =                                                               \
        complex_call(transa, transb, m, n, k, alpha, beta, Atype, Ctype, CUBLAS_COMPUTE_32F);   \
    call.b_type = Btype;                                                                        \
    call.a = A, call.lda = lda, call.b = B, call.ldb = ldb, call.c = C, call.ldc = ldc;         \
    return with_handle(handle, #name, call);                                                    \
  }
STRATA_BLAS_GEMM3M_EX(cublasCgemm3mEx, int)
STRATA_BLAS_GEMM3M_EX(cublasCgemm3mEx_64, int64_t)
#undef STRATA_BLAS_GEMM3M_EX

// Cgemm3mBatched, Cgemm3mStridedBatched.
#define STRATA_BLAS_GEMM3M_BATCHED(suffix, I)                                                    \
  cublasStatus_t CUBLASWINAPI cublasCgemm3mBatched##suffix(                                      \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,  \
      const cuComplex* alpha, const cuComplex* const Aarray[], I lda,                            \
      const cuComplex* const Barray[], I ldb, const cuComplex* beta, cuComplex* const Carray[],  \
      I ldc, I batchCount) {                                                                     \
    strata::blas::GemmCall call = complex_call(transa, transb, m, n, k, alpha, beta, CUDA_C_32F, \
                                               CUDA_C_32F, CUBLAS_COMPUTE_32F);                  \
    call.a_array = reinterpret_cast<const void* const*>(Aarray), call.lda = lda;                 \
    call.b_array = reinterpret_cast<const void* const*>(Barray), call.ldb = ldb;                 \
    call.c_array = reinterpret_cast<void* const*>(Carray), call.ldc = ldc;                       \
    call.batch_count = batchCount, call.batched_arrays = true;                                   \
    return with_handle(handle, "cublasCgemm3mBatched" #suffix, call);                            \
  }                                                                                              \
  cublasStatus_t CUBLASWINAPI cublasCgemm3mStridedBatched##suffix(                               \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,  \
      const cuComplex* alpha, const cuComplex* A, I lda, long long int strideA,                  \
      const cuComplex* B, I ldb, long long int strideB, const cuComplex* beta, cuComplex* C,     \
      I ldc, long long int strideC, I batchCount) {                                              \
    strata::blas::GemmCall call = complex_call(transa, transb, m, n, k, alpha, beta, CUDA_C_32F, \
                                               CUDA_C_32F, CUBLAS_COMPUTE_32F);                  \
    call.a = A, call.lda = lda, call.stride_a = strideA;                                         \
    call.b = B, call.ldb = ldb, call.stride_b = strideB;                                         \
    call.c = C, call.ldc = ldc, call.stride_c = strideC;                                         \
    call.batch_count = batchCount;                                                               \
    return with_handle(handle, "cublasCgemm3mStridedBatched" #suffix, call);                     \
  }
STRATA_BLAS_GEMM3M_BATCHED(, int)
STRATA_BLAS_GEMM3M_BATCHED(_64, int64_t)
#undef STRATA_BLAS_GEMM3M_BATCHED

// Sgemm / Dgemm / GemmEx GroupedBatched.
#define STRATA_BLAS_GROUPED(name, T, TYPE, COMPUTE, I)                                            \
  cublasStatus_t CUBLASWINAPI name(                                                               \
      cublasHandle_t handle, const cublasOperation_t transa_array[],                              \
      const cublasOperation_t transb_array[], const I m_array[], const I n_array[],               \
      const I k_array[], const T alpha_array[], const T* const Aarray[], const I lda_array[],     \
      const T* const Barray[], const I ldb_array[], const T beta_array[], T* const Carray[],      \
      const I ldc_array[], I group_count, const I group_size[]) {                                 \
    return grouped<I>(#name, handle, transa_array, transb_array, m_array, n_array, k_array,       \
                      alpha_array, reinterpret_cast<const void* const*>(Aarray), TYPE, lda_array, \
                      reinterpret_cast<const void* const*>(Barray), TYPE, ldb_array, beta_array,  \
                      reinterpret_cast<void* const*>(Carray), TYPE, ldc_array, group_count,       \
                      group_size, COMPUTE);                                                       \
  }
STRATA_BLAS_GROUPED(cublasSgemmGroupedBatched, float, CUDA_R_32F, CUBLAS_COMPUTE_32F, int)
STRATA_BLAS_GROUPED(cublasSgemmGroupedBatched_64, float, CUDA_R_32F, CUBLAS_COMPUTE_32F, int64_t)
STRATA_BLAS_GROUPED(cublasDgemmGroupedBatched, double, CUDA_R_64F, CUBLAS_COMPUTE_64F, int)
STRATA_BLAS_GROUPED(cublasDgemmGroupedBatched_64, double, CUDA_R_64F, CUBLAS_COMPUTE_64F, int64_t)
#undef STRATA_BLAS_GROUPED

#define STRATA_BLAS_GROUPED_EX(name, I)                                                            \
  cublasStatus_t CUBLASWINAPI name(                                                                \
      cublasHandle_t handle, const cublasOperation_t transa_array[],                               \
      const cublasOperation_t transb_array[], const I m_array[], const I n_array[],                \
      const I k_array[], const void* alpha_array, const void* const Aarray[],                      \
      cudaDataType_t Atype, const I lda_array[], const void* const Barray[], cudaDataType_t Btype, \
      const I ldb_array[], const void* beta_array, void* const Carray[], cudaDataType_t Ctype,     \
      const I ldc_array[], I group_count, const I group_size[], cublasComputeType_t computeType) { \
    return grouped<I>(#name, handle, transa_array, transb_array, m_array, n_array, k_array,        \
                      alpha_array, Aarray, Atype, lda_array, Barray, Btype, ldb_array, beta_array, \
                      Carray, Ctype, ldc_array, group_count, group_size, computeType);             \
  }
STRATA_BLAS_GROUPED_EX(cublasGemmGroupedBatchedEx, int)
STRATA_BLAS_GROUPED_EX(cublasGemmGroupedBatchedEx_64, int64_t)
#undef STRATA_BLAS_GROUPED_EX

}  // extern "C"
