// GEMM entry points (cublas_api.h): cublas{H,S,D,C,Z}gemm, their Batched (pointer arrays)
// and StridedBatched forms, cublasGemmEx / GemmBatchedEx / GemmStridedBatchedEx,
// cublasSgemmEx and cublasCgemmEx, in LP64 and `_64` ILP64 variants. Each fills a
// GemmCall and hands it to run_gemm (gemm.h), which checks it, picks the kernel from the
// type table and launches it.
#include <cublas_api.h>

#include "blas/gemm.h"

namespace strata::blas {
namespace {

// Runs `call` on the handle (CUBLAS_STATUS_NOT_INITIALIZED for a null or unknown one).
cublasStatus_t with_handle(cublasHandle_t handle, const char* function, const GemmCall& call) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  return run_gemm(*h, function, call);
}

GemmCall typed_call(cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
                    int64_t k, const void* alpha, const void* beta, cudaDataType ab, cudaDataType c,
                    cublasComputeType_t compute) {
  GemmCall call;
  call.op_a = transa, call.op_b = transb;
  call.m = m, call.n = n, call.k = k;
  call.alpha = alpha, call.beta = beta;
  call.a_type = ab, call.b_type = ab, call.c_type = c;
  call.compute = compute;
  return call;
}

cublasStatus_t gemm(const char* function, cublasHandle_t handle, cudaDataType type,
                    cublasComputeType_t compute, cublasOperation_t transa, cublasOperation_t transb,
                    int64_t m, int64_t n, int64_t k, const void* alpha, const void* a, int64_t lda,
                    const void* b, int64_t ldb, const void* beta, void* c, int64_t ldc) {
  GemmCall call = typed_call(transa, transb, m, n, k, alpha, beta, type, type, compute);
  call.a = a, call.lda = lda, call.b = b, call.ldb = ldb, call.c = c, call.ldc = ldc;
  return with_handle(handle, function, call);
}

cublasStatus_t gemm_batched(const char* function, cublasHandle_t handle, cudaDataType type,
                            cublasComputeType_t compute, cublasOperation_t transa,
                            cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                            const void* alpha, const void* const* a, int64_t lda,
                            const void* const* b, int64_t ldb, const void* beta, void* const* c,
                            int64_t ldc, int64_t batch_count) {
  GemmCall call = typed_call(transa, transb, m, n, k, alpha, beta, type, type, compute);
  call.a_array = a, call.lda = lda, call.b_array = b, call.ldb = ldb;
  call.c_array = c, call.ldc = ldc;
  call.batch_count = batch_count, call.batched_arrays = true;
  return with_handle(handle, function, call);
}

cublasStatus_t gemm_strided(const char* function, cublasHandle_t handle, cudaDataType type,
                            cublasComputeType_t compute, cublasOperation_t transa,
                            cublasOperation_t transb, int64_t m, int64_t n, int64_t k,
                            const void* alpha, const void* a, int64_t lda, int64_t stride_a,
                            const void* b, int64_t ldb, int64_t stride_b, const void* beta, void* c,
                            int64_t ldc, int64_t stride_c, int64_t batch_count) {
  GemmCall call = typed_call(transa, transb, m, n, k, alpha, beta, type, type, compute);
  call.a = a, call.lda = lda, call.stride_a = stride_a;
  call.b = b, call.ldb = ldb, call.stride_b = stride_b;
  call.c = c, call.ldc = ldc, call.stride_c = stride_c;
  call.batch_count = batch_count;
  return with_handle(handle, function, call);
}

// cublasGemmEx and its batched forms: `algo` must be a documented value (then ignored).
GemmCall ex_call(cublasOperation_t transa, cublasOperation_t transb, int64_t m, int64_t n,
                 int64_t k, const void* alpha, const void* beta, cudaDataType a_type,
                 cudaDataType b_type, cudaDataType c_type, cublasComputeType_t compute) {
  GemmCall call = typed_call(transa, transb, m, n, k, alpha, beta, a_type, c_type, compute);
  call.b_type = b_type;
  return call;
}

cublasStatus_t gemm_ex(const char* function, cublasHandle_t handle, GemmCall call,
                       cublasGemmAlgo_t algo) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!gemm_algo_known(algo))
    return invalid(function, "algo = {} is not a cublasGemmAlgo_t", +algo);
  return run_gemm(*h, function, call);
}

}  // namespace
}  // namespace strata::blas

using strata::blas::ex_call;
using strata::blas::gemm;
using strata::blas::gemm_batched;
using strata::blas::gemm_ex;
using strata::blas::gemm_strided;
using strata::blas::with_handle;

extern "C" {

// cublas<t>gemm, cublas<t>gemmBatched, cublas<t>gemmStridedBatched and their _64 forms.
#define STRATA_BLAS_GEMM_ENTRIES(gemm_name, batched_name, strided_name, T, TYPE, COMPUTE)          \
  cublasStatus_t CUBLASWINAPI gemm_name(cublasHandle_t handle, cublasOperation_t transa,           \
                                        cublasOperation_t transb, int m, int n, int k,             \
                                        const T* alpha, const T* A, int lda, const T* B, int ldb,  \
                                        const T* beta, T* C, int ldc) {                            \
    return gemm(#gemm_name, handle, TYPE, COMPUTE, transa, transb, m, n, k, alpha, A, lda, B, ldb, \
                beta, C, ldc);                                                                     \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI gemm_name##_64(                                                      \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,        \
      int64_t n, int64_t k, const T* alpha, const T* A, int64_t lda, const T* B, int64_t ldb,      \
      const T* beta, T* C, int64_t ldc) {                                                          \
    return gemm(#gemm_name "_64", handle, TYPE, COMPUTE, transa, transb, m, n, k, alpha, A, lda,   \
                B, ldb, beta, C, ldc);                                                             \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI batched_name(                                                        \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,     \
      int k, const T* alpha, const T* const Aarray[], int lda, const T* const Barray[], int ldb,   \
      const T* beta, T* const Carray[], int ldc, int batchCount) {                                 \
    return gemm_batched(#batched_name, handle, TYPE, COMPUTE, transa, transb, m, n, k, alpha,      \
                        reinterpret_cast<const void* const*>(Aarray), lda,                         \
                        reinterpret_cast<const void* const*>(Barray), ldb, beta,                   \
                        reinterpret_cast<void* const*>(Carray), ldc, batchCount);                  \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI batched_name##_64(                                                   \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,        \
      int64_t n, int64_t k, const T* alpha, const T* const Aarray[], int64_t lda,                  \
      const T* const Barray[], int64_t ldb, const T* beta, T* const Carray[], int64_t ldc,         \
      int64_t batchCount) {                                                                        \
    return gemm_batched(#batched_name "_64", handle, TYPE, COMPUTE, transa, transb, m, n, k,       \
                        alpha, reinterpret_cast<const void* const*>(Aarray), lda,                  \
                        reinterpret_cast<const void* const*>(Barray), ldb, beta,                   \
                        reinterpret_cast<void* const*>(Carray), ldc, batchCount);                  \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI strided_name(                                                        \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,     \
      int k, const T* alpha, const T* A, int lda, long long int strideA, const T* B, int ldb,      \
      long long int strideB, const T* beta, T* C, int ldc, long long int strideC,                  \
      int batchCount) {                                                                            \
    return gemm_strided(#strided_name, handle, TYPE, COMPUTE, transa, transb, m, n, k, alpha, A,   \
                        lda, strideA, B, ldb, strideB, beta, C, ldc, strideC, batchCount);         \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI strided_name##_64(                                                   \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int64_t m,        \
      int64_t n, int64_t k, const T* alpha, const T* A, int64_t lda, long long int strideA,        \
      const T* B, int64_t ldb, long long int strideB, const T* beta, T* C, int64_t ldc,            \
      long long int strideC, int64_t batchCount) {                                                 \
    return gemm_strided(#strided_name "_64", handle, TYPE, COMPUTE, transa, transb, m, n, k,       \
                        alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc, strideC,            \
                        batchCount);                                                               \
  }
STRATA_BLAS_GEMM_ENTRIES(cublasHgemm, cublasHgemmBatched, cublasHgemmStridedBatched, __half,
                         CUDA_R_16F, CUBLAS_COMPUTE_16F)
STRATA_BLAS_GEMM_ENTRIES(cublasSgemm_v2, cublasSgemmBatched, cublasSgemmStridedBatched, float,
                         CUDA_R_32F, CUBLAS_COMPUTE_32F)
STRATA_BLAS_GEMM_ENTRIES(cublasDgemm_v2, cublasDgemmBatched, cublasDgemmStridedBatched, double,
                         CUDA_R_64F, CUBLAS_COMPUTE_64F)
STRATA_BLAS_GEMM_ENTRIES(cublasCgemm_v2, cublasCgemmBatched, cublasCgemmStridedBatched, cuComplex,
                         CUDA_C_32F, CUBLAS_COMPUTE_32F)
STRATA_BLAS_GEMM_ENTRIES(cublasZgemm_v2, cublasZgemmBatched, cublasZgemmStridedBatched,
                         cuDoubleComplex, CUDA_C_64F, CUBLAS_COMPUTE_64F)
#undef STRATA_BLAS_GEMM_ENTRIES

// cublasGemmEx, cublasGemmBatchedEx, cublasGemmStridedBatchedEx (I: int or int64_t).
#define STRATA_BLAS_GEMM_EX_ENTRIES(suffix, I)                                                    \
  cublasStatus_t CUBLASWINAPI cublasGemmEx##suffix(                                               \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,   \
      const void* alpha, const void* A, cudaDataType Atype, I lda, const void* B,                 \
      cudaDataType Btype, I ldb, const void* beta, void* C, cudaDataType Ctype, I ldc,            \
      cublasComputeType_t computeType, cublasGemmAlgo_t algo) {                                   \
    strata::blas::GemmCall call =                                                                 \
        ex_call(transa, transb, m, n, k, alpha, beta, Atype, Btype, Ctype, computeType);          \
    call.a = A, call.lda = lda, call.b = B, call.ldb = ldb, call.c = C, call.ldc = ldc;           \
    return gemm_ex("cublasGemmEx" #suffix, handle, call, algo);                                   \
  }                                                                                               \
  cublasStatus_t CUBLASWINAPI cublasGemmBatchedEx##suffix(                                        \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,   \
      const void* alpha, const void* const Aarray[], cudaDataType Atype, I lda,                   \
      const void* const Barray[], cudaDataType Btype, I ldb, const void* beta,                    \
      void* const Carray[], cudaDataType Ctype, I ldc, I batchCount,                              \
      cublasComputeType_t computeType, cublasGemmAlgo_t algo) {                                   \
    strata::blas::GemmCall call =                                                                 \
        ex_call(transa, transb, m, n, k, alpha, beta, Atype, Btype, Ctype, computeType);          \
    call.a_array = Aarray, call.lda = lda, call.b_array = Barray, call.ldb = ldb;                 \
    call.c_array = Carray, call.ldc = ldc;                                                        \
    call.batch_count = batchCount, call.batched_arrays = true;                                    \
    return gemm_ex("cublasGemmBatchedEx" #suffix, handle, call, algo);                            \
  }                                                                                               \
  cublasStatus_t CUBLASWINAPI cublasGemmStridedBatchedEx##suffix(                                 \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,   \
      const void* alpha, const void* A, cudaDataType Atype, I lda, long long int strideA,         \
      const void* B, cudaDataType Btype, I ldb, long long int strideB, const void* beta, void* C, \
      cudaDataType Ctype, I ldc, long long int strideC, I batchCount,                             \
      cublasComputeType_t computeType, cublasGemmAlgo_t algo) {                                   \
    strata::blas::GemmCall call =                                                                 \
        ex_call(transa, transb, m, n, k, alpha, beta, Atype, Btype, Ctype, computeType);          \
    call.a = A, call.lda = lda, call.stride_a = strideA;                                          \
    call.b = B, call.ldb = ldb, call.stride_b = strideB;                                          \
    call.c = C, call.ldc = ldc, call.stride_c = strideC;                                          \
    call.batch_count = batchCount;                                                                \
    return gemm_ex("cublasGemmStridedBatchedEx" #suffix, handle, call, algo);                     \
  }
STRATA_BLAS_GEMM_EX_ENTRIES(, int)
STRATA_BLAS_GEMM_EX_ENTRIES(_64, int64_t)
#undef STRATA_BLAS_GEMM_EX_ENTRIES

// cublasSgemmEx / cublasCgemmEx: CUBLAS_COMPUTE_32F, scalars float / cuComplex.
#define STRATA_BLAS_GEMM_EX32_ENTRY(name, S, complex, I)                                           \
  cublasStatus_t CUBLASWINAPI name(                                                                \
      cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, I m, I n, I k,    \
      const S* alpha, const void* A, cudaDataType Atype, I lda, const void* B, cudaDataType Btype, \
      I ldb, const S* beta, void* C, cudaDataType Ctype, I ldc) {                                  \
    strata::blas::GemmCall call =                                                                  \
        ex_call(transa, transb, m, n, k, alpha, beta, Atype, Btype, Ctype, CUBLAS_COMPUTE_32F);    \
    call.a = A, call.lda = lda, call.b = B, call.ldb = ldb, call.c = C, call.ldc = ldc;            \
    call.only_complex = complex, call.only_real = !complex;                                        \
    return with_handle(handle, #name, call);                                                       \
  }
STRATA_BLAS_GEMM_EX32_ENTRY(cublasSgemmEx, float, false, int)
STRATA_BLAS_GEMM_EX32_ENTRY(cublasSgemmEx_64, float, false, int64_t)
STRATA_BLAS_GEMM_EX32_ENTRY(cublasCgemmEx, cuComplex, true, int)
STRATA_BLAS_GEMM_EX32_ENTRY(cublasCgemmEx_64, cuComplex, true, int64_t)
#undef STRATA_BLAS_GEMM_EX32_ENTRY

}  // extern "C"
