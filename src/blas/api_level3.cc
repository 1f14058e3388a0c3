// Level-3 entry points beyond GEMM (cublas_api.h): syrk, herk, syr2k, her2k, syrkx, herkx,
// symm, hemm, trmm for S / D / C / Z, CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx, all in
// LP64 and `_64` forms. Each checks its arguments with cuBLAS's statuses and launches the
// tile kernel of kernels/level3.cuh (L3Params describes the product). The GEMM variants
// (gemm3m, grouped batched) are in api_level3_gemm.cc.
#include <cublas_api.h>
#include <cuda.h>

#include <algorithm>
#include <type_traits>

#include "blas/args.h"
#include "blas/gemm.h"
#include "blas/kernels.h"
#include "blas/kernels/level3_args.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::L3Operand;
using strata_blas::L3Params;
using strata_blas::L3Scalar;

template <typename T>
constexpr bool kComplex = std::is_same_v<T, cuComplex> || std::is_same_v<T, cuDoubleComplex>;

// T from a scalar of type S (S is T or T's real type).
template <typename T, typename S>
T widen(S s) {
  if constexpr (std::is_same_v<T, S>) {
    return s;
  } else if constexpr (std::is_same_v<T, cuComplex>) {
    return make_cuComplex(static_cast<float>(s), 0.0f);
  } else {
    return make_cuDoubleComplex(static_cast<double>(s), 0.0);
  }
}

// The kernel argument for alpha / beta passed as S*: read now in host pointer mode.
template <typename T, typename S>
L3Scalar<T> l3_scalar(const Handle& h, const S* p) {
  if (h.device_pointers()) return L3Scalar<T>{T{}, p};
  return L3Scalar<T>{widen<T>(*p), nullptr};
}

bool fill_valid(cublasFillMode_t uplo) {
  return uplo == CUBLAS_FILL_MODE_LOWER || uplo == CUBLAS_FILL_MODE_UPPER;
}
bool side_valid(cublasSideMode_t side) {
  return side == CUBLAS_SIDE_LEFT || side == CUBLAS_SIDE_RIGHT;
}
bool op_valid(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

L3Operand general(const void* p, int64_t ld, cublasOperation_t op) {
  return L3Operand{p, ld, static_cast<int32_t>(op), strata_blas::kL3General, 0, 0};
}

// Launches `kernel` over the n x m tiles of C (64 x 64 each; column tiles beyond 65535
// are looped over by the kernel).
template <typename T>
cublasStatus_t launch_l3(Handle& h, const char* function, const char* kernel, const L3Params& p,
                         L3Scalar<T> alpha, L3Scalar<T> beta) {
  const int64_t row_tiles = (p.m + 63) / 64;
  const int64_t col_tiles = (p.n + 63) / 64;
  if (row_tiles > 0x7fffffff) return invalid(function, "m = {} is too large", p.m);
  const dim3 grid(static_cast<unsigned>(row_tiles),
                  static_cast<unsigned>(std::min<int64_t>(col_tiles, 65535)));
  return launch(h, function, kernel, grid, dim3(256), 0, p, alpha, beta);
}

// --- syrk, herk, syrkx, herkx, syr2k, her2k ---

enum class RankK { kSyrk, kSyrkx, kSyr2k };

// C = alpha op(A) op(B)^T + beta C (symmetric; ^H and real beta when `herm`), and for
// kSyr2k + alpha op(B) op(A)^T (conj(alpha) op(B) op(A)^H when `herm`); B is A for kSyrk.
// Only the uplo triangle of C is read and written. Statuses: CUBLAS_STATUS_INVALID_VALUE
// for an undefined fill mode; trans other than N / T (N / C when `herm`; real types also
// accept C, as the reference BLAS does); n or k < 0; lda (ldb) < max(1, n) when trans is
// N, else < max(1, k); ldc < max(1, n); a null alpha or beta. Quick returns: n == 0, and
// with host scalars (alpha == 0 or k == 0) with beta == 1.
template <typename T, typename SA, typename SB>
cublasStatus_t rank_k(const char* function, const char* kernel, cublasHandle_t handle, RankK kind,
                      bool herm, cublasFillMode_t uplo, cublasOperation_t trans, int64_t n,
                      int64_t k, const SA* alpha, const void* a, int64_t lda, const void* b,
                      int64_t ldb, const SB* beta, void* c, int64_t ldc) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!fill_valid(uplo)) return invalid(function, "uplo = {}", static_cast<int>(uplo));
  const bool trans_ok = herm          ? (trans == CUBLAS_OP_N || trans == CUBLAS_OP_C)
                        : kComplex<T> ? (trans == CUBLAS_OP_N || trans == CUBLAS_OP_T)
                                      : op_valid(trans);
  if (!trans_ok) return invalid(function, "trans = {}", static_cast<int>(trans));
  if (n < 0) return invalid(function, "n = {} < 0", n);
  if (k < 0) return invalid(function, "k = {} < 0", k);
  const int64_t rows = trans == CUBLAS_OP_N ? n : k;
  if (lda < std::max<int64_t>(1, rows))
    return invalid(function, "lda = {} < max(1, {})", lda, rows);
  if (kind != RankK::kSyrk && ldb < std::max<int64_t>(1, rows)) {
    return invalid(function, "ldb = {} < max(1, {})", ldb, rows);
  }
  if (ldc < std::max<int64_t>(1, n)) return invalid(function, "ldc = {} < max(1, {})", ldc, n);
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (beta == nullptr) return invalid(function, "beta is null");
  if (n == 0) return CUBLAS_STATUS_SUCCESS;
  const L3Scalar<T> alpha_arg = l3_scalar<T>(*h, alpha);
  const L3Scalar<T> beta_arg = l3_scalar<T>(*h, beta);
  if (!h->device_pointers()) {
    const bool alpha_zero = gemm_detail::host_is<SA>(alpha, 0.0);
    if ((alpha_zero || k == 0) && gemm_detail::host_is<SB>(beta, 1.0)) {
      return CUBLAS_STATUS_SUCCESS;
    }
  }
  if (kind == RankK::kSyrk) b = a, ldb = lda;
  // op(A) is n x k; the second operand is op(B)^T (^H): k x n.
  const cublasOperation_t op_a = trans == CUBLAS_OP_N ? CUBLAS_OP_N : trans;
  const cublasOperation_t op_b =
      trans == CUBLAS_OP_N ? (herm ? CUBLAS_OP_C : CUBLAS_OP_T) : CUBLAS_OP_N;
  L3Params p{};
  p.m = n, p.n = n, p.k = k;
  p.a = general(a, lda, op_a);
  p.b = general(b, ldb, op_b);
  p.c = c, p.ldc = ldc;
  p.fill = uplo == CUBLAS_FILL_MODE_LOWER ? strata_blas::kL3FillLower : strata_blas::kL3FillUpper;
  p.herm_diag = herm;
  p.alpha_real = !std::is_same_v<SA, T>;
  p.beta_real = !std::is_same_v<SB, T>;
  cublasStatus_t s = launch_l3<T>(*h, function, kernel, p, alpha_arg, beta_arg);
  if (s != CUBLAS_STATUS_SUCCESS || kind != RankK::kSyr2k) return s;
  // The second product, accumulated onto the first.
  p.a = general(b, ldb, op_a);
  p.b = general(a, lda, op_b);
  p.conj_alpha = herm;
  p.beta_one = 1;
  return launch_l3<T>(*h, function, kernel, p, alpha_arg, beta_arg);
}

// CsyrkEx, Csyrk3mEx (herm false) and CherkEx, Cherk3mEx (herm true): A of CUDA_C_8I or
// CUDA_C_32F, C of CUDA_C_32F; other types are CUBLAS_STATUS_NOT_SUPPORTED.
template <typename S>
cublasStatus_t rank_k_ex(const char* function, cublasHandle_t handle, bool herm,
                         cublasFillMode_t uplo, cublasOperation_t trans, int64_t n, int64_t k,
                         const S* alpha, const void* a, cudaDataType a_type, int64_t lda,
                         const S* beta, void* c, cudaDataType c_type, int64_t ldc) {
  if ((a_type != CUDA_C_8I && a_type != CUDA_C_32F) || c_type != CUDA_C_32F) {
    if (handle_of(handle) == nullptr) return bad_handle(function, handle);
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "Atype {} with Ctype {} is not a supported combination", +a_type, +c_type);
  }
  const char* kernel = a_type == CUDA_C_8I ? "strata_blas_level3_ci8_c" : "strata_blas_level3_c";
  return rank_k<cuComplex>(function, kernel, handle, RankK::kSyrk, herm, uplo, trans, n, k, alpha,
                           a, lda, nullptr, 0, beta, c, ldc);
}

// --- symm, hemm ---

// C = alpha A B + beta C (left) or alpha B A + beta C (right), A symmetric (Hermitian when
// `herm`) of order m (left) or n (right), its uplo triangle stored. Statuses:
// CUBLAS_STATUS_INVALID_VALUE for an undefined side or fill mode, m or n < 0, lda <
// max(1, order of A), ldb or ldc < max(1, m), a null alpha or beta. Quick returns: m or
// n == 0, and with host scalars alpha == 0 with beta == 1.
template <typename T>
cublasStatus_t symm(const char* function, const char* kernel, cublasHandle_t handle, bool herm,
                    cublasSideMode_t side, cublasFillMode_t uplo, int64_t m, int64_t n,
                    const T* alpha, const void* a, int64_t lda, const void* b, int64_t ldb,
                    const T* beta, void* c, int64_t ldc) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!side_valid(side)) return invalid(function, "side = {}", static_cast<int>(side));
  if (!fill_valid(uplo)) return invalid(function, "uplo = {}", static_cast<int>(uplo));
  if (m < 0 || n < 0) return invalid(function, "m = {}, n = {}: negative", m, n);
  const bool left = side == CUBLAS_SIDE_LEFT;
  const int64_t order = left ? m : n;
  if (lda < std::max<int64_t>(1, order))
    return invalid(function, "lda = {} < max(1, {})", lda, order);
  if (ldb < std::max<int64_t>(1, m)) return invalid(function, "ldb = {} < max(1, {})", ldb, m);
  if (ldc < std::max<int64_t>(1, m)) return invalid(function, "ldc = {} < max(1, {})", ldc, m);
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (beta == nullptr) return invalid(function, "beta is null");
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;
  if (!h->device_pointers() && gemm_detail::host_is<T>(alpha, 0.0) &&
      gemm_detail::host_is<T>(beta, 1.0)) {
    return CUBLAS_STATUS_SUCCESS;
  }
  const L3Operand sym{a,
                      lda,
                      0,
                      herm ? strata_blas::kL3Hermitian : strata_blas::kL3Symmetric,
                      uplo == CUBLAS_FILL_MODE_LOWER,
                      0};
  L3Params p{};
  p.m = m, p.n = n, p.k = order;
  p.a = left ? sym : general(b, ldb, CUBLAS_OP_N);
  p.b = left ? general(b, ldb, CUBLAS_OP_N) : sym;
  p.c = c, p.ldc = ldc;
  p.fill = strata_blas::kL3FillFull;
  return launch_l3<T>(*h, function, kernel, p, l3_scalar<T>(*h, alpha), l3_scalar<T>(*h, beta));
}

// --- trmm ---

// C = alpha op(A) B (left) or alpha B op(A) (right), A triangular (uplo, diag) of order m
// (left) or n (right). C may be B (the in-place form of the reference BLAS); B is then
// copied first, in stream-ordered memory. Statuses: CUBLAS_STATUS_INVALID_VALUE for an
// undefined side, fill mode, operation or diagonal type, m or n < 0, lda < max(1, order
// of A), ldb or ldc < max(1, m), a null alpha. Quick return: m or n == 0.
template <typename T>
cublasStatus_t trmm(const char* function, const char* kernel, cublasHandle_t handle,
                    cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,
                    cublasDiagType_t diag, int64_t m, int64_t n, const T* alpha, const void* a,
                    int64_t lda, const void* b, int64_t ldb, void* c, int64_t ldc) {
  Handle* h = handle_of(handle);
  if (h == nullptr) return bad_handle(function, handle);
  if (!side_valid(side)) return invalid(function, "side = {}", static_cast<int>(side));
  if (!fill_valid(uplo)) return invalid(function, "uplo = {}", static_cast<int>(uplo));
  if (!op_valid(trans)) return invalid(function, "trans = {}", static_cast<int>(trans));
  if (diag != CUBLAS_DIAG_NON_UNIT && diag != CUBLAS_DIAG_UNIT)
    return invalid(function, "diag = {}", static_cast<int>(diag));
  if (m < 0 || n < 0) return invalid(function, "m = {}, n = {}: negative", m, n);
  const bool left = side == CUBLAS_SIDE_LEFT;
  const int64_t order = left ? m : n;
  if (lda < std::max<int64_t>(1, order))
    return invalid(function, "lda = {} < max(1, {})", lda, order);
  if (ldb < std::max<int64_t>(1, m)) return invalid(function, "ldb = {} < max(1, {})", ldb, m);
  if (ldc < std::max<int64_t>(1, m)) return invalid(function, "ldc = {} < max(1, {})", ldc, m);
  if (alpha == nullptr) return invalid(function, "alpha is null");
  if (m == 0 || n == 0) return CUBLAS_STATUS_SUCCESS;

  ScopedContext scope(h->context);
  const auto stream = reinterpret_cast<CUstream>(h->stream);
  // B and C overlap: work from a copy of B.
  const auto b_begin = reinterpret_cast<uintptr_t>(b);
  const auto b_end = b_begin + sizeof(T) * static_cast<uint64_t>(ldb * (n - 1) + m);
  const auto c_begin = reinterpret_cast<uintptr_t>(c);
  const auto c_end = c_begin + sizeof(T) * static_cast<uint64_t>(ldc * (n - 1) + m);
  CUdeviceptr copy = 0;
  if (b_begin < c_end && c_begin < b_end) {
    const size_t bytes = sizeof(T) * static_cast<size_t>(m) * static_cast<size_t>(n);
    CUresult r = cuMemAllocAsync(&copy, bytes, stream);
    if (r != CUDA_SUCCESS) {
      return fail(CUBLAS_STATUS_ALLOC_FAILED, function, "{} bytes for a copy of B: {}", bytes,
                  cu_error_name(r));
    }
    CUDA_MEMCPY2D m2{};
    m2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    m2.srcDevice = static_cast<CUdeviceptr>(b_begin);
    m2.srcPitch = sizeof(T) * static_cast<size_t>(ldb);
    m2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    m2.dstDevice = copy;
    m2.dstPitch = sizeof(T) * static_cast<size_t>(m);
    m2.WidthInBytes = sizeof(T) * static_cast<size_t>(m);
    m2.Height = static_cast<size_t>(n);
    r = cuMemcpy2DAsync(&m2, stream);
    if (r != CUDA_SUCCESS) {
      cuMemFreeAsync(copy, stream);
      return fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "copying B: {}", cu_error_name(r));
    }
    b = reinterpret_cast<const void*>(copy);
    ldb = m;
  }
  const L3Operand tri{a,
                      lda,
                      static_cast<int32_t>(trans),
                      strata_blas::kL3Triangular,
                      uplo == CUBLAS_FILL_MODE_LOWER,
                      diag == CUBLAS_DIAG_UNIT};
  L3Params p{};
  p.m = m, p.n = n, p.k = order;
  p.a = left ? tri : general(b, ldb, CUBLAS_OP_N);
  p.b = left ? general(b, ldb, CUBLAS_OP_N) : tri;
  p.c = c, p.ldc = ldc;
  p.fill = strata_blas::kL3FillFull;
  const L3Scalar<T> zero{T{}, nullptr};
  const cublasStatus_t s = launch_l3<T>(*h, function, kernel, p, l3_scalar<T>(*h, alpha), zero);
  if (copy != 0) cuMemFreeAsync(copy, stream);
  return s;
}

}  // namespace
}  // namespace strata::blas

using strata::blas::RankK;

extern "C" {

// syrk, syrkx, syr2k (S, D, C, Z) and herk, herkx, her2k (C, Z). R: the real scalar type
// of the Hermitian forms.
#define STRATA_BLAS_RANKK(L, T, suffix, I, S64)                                                    \
  cublasStatus_t CUBLASWINAPI cublas##L##syrk_v2##S64(                                             \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,             \
      const T* alpha, const T* A, I lda, const T* beta, T* C, I ldc) {                             \
    return strata::blas::rank_k<T>("cublas" #L "syrk_v2" #S64, "strata_blas_level3_" suffix,       \
                                   handle, RankK::kSyrk, false, uplo, trans, n, k, alpha, A, lda,  \
                                   nullptr, 0, beta, C, ldc);                                      \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##syrkx##S64(                                               \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,             \
      const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {          \
    return strata::blas::rank_k<T>("cublas" #L "syrkx" #S64, "strata_blas_level3_" suffix, handle, \
                                   RankK::kSyrkx, false, uplo, trans, n, k, alpha, A, lda, B, ldb, \
                                   beta, C, ldc);                                                  \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##syr2k_v2##S64(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,             \
      const T* alpha, const T* A, I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {          \
    return strata::blas::rank_k<T>("cublas" #L "syr2k_v2" #S64, "strata_blas_level3_" suffix,      \
                                   handle, RankK::kSyr2k, false, uplo, trans, n, k, alpha, A, lda, \
                                   B, ldb, beta, C, ldc);                                          \
  }
#define STRATA_BLAS_HERK(L, T, R, suffix, I, S64)                                                  \
  cublasStatus_t CUBLASWINAPI cublas##L##herk_v2##S64(                                             \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,             \
      const R* alpha, const T* A, I lda, const R* beta, T* C, I ldc) {                             \
    return strata::blas::rank_k<T>("cublas" #L "herk_v2" #S64, "strata_blas_level3_" suffix,       \
                                   handle, RankK::kSyrk, true, uplo, trans, n, k, alpha, A, lda,   \
                                   nullptr, 0, beta, C, ldc);                                      \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##herkx##S64(                                               \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,             \
      const T* alpha, const T* A, I lda, const T* B, I ldb, const R* beta, T* C, I ldc) {          \
    return strata::blas::rank_k<T>("cublas" #L "herkx" #S64, "strata_blas_level3_" suffix, handle, \
                                   RankK::kSyrkx, true, uplo, trans, n, k, alpha, A, lda, B, ldb,  \
                                   beta, C, ldc);                                                  \
  }                                                                                                \
  cublasStatus_t CUBLASWINAPI cublas##L##her2k_v2##S64(                                            \
      cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, I n, I k,             \
      const T* alpha, const T* A, I lda, const T* B, I ldb, const R* beta, T* C, I ldc) {          \
    return strata::blas::rank_k<T>("cublas" #L "her2k_v2" #S64, "strata_blas_level3_" suffix,      \
                                   handle, RankK::kSyr2k, true, uplo, trans, n, k, alpha, A, lda,  \
                                   B, ldb, beta, C, ldc);                                          \
  }
STRATA_BLAS_RANKK(S, float, "s", int, )
STRATA_BLAS_RANKK(S, float, "s", int64_t, _64)
STRATA_BLAS_RANKK(D, double, "d", int, )
STRATA_BLAS_RANKK(D, double, "d", int64_t, _64)
STRATA_BLAS_RANKK(C, cuComplex, "c", int, )
STRATA_BLAS_RANKK(C, cuComplex, "c", int64_t, _64)
STRATA_BLAS_RANKK(Z, cuDoubleComplex, "z", int, )
STRATA_BLAS_RANKK(Z, cuDoubleComplex, "z", int64_t, _64)
STRATA_BLAS_HERK(C, cuComplex, float, "c", int, )
STRATA_BLAS_HERK(C, cuComplex, float, "c", int64_t, _64)
STRATA_BLAS_HERK(Z, cuDoubleComplex, double, "z", int, )
STRATA_BLAS_HERK(Z, cuDoubleComplex, double, "z", int64_t, _64)
#undef STRATA_BLAS_RANKK
#undef STRATA_BLAS_HERK

// CsyrkEx, Csyrk3mEx, CherkEx, Cherk3mEx (the 3m forms compute what the plain ones do).
#define STRATA_BLAS_RANKK_EX(name, herm, S, I)                                                 \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasFillMode_t uplo,               \
                                   cublasOperation_t trans, I n, I k, const S* alpha,          \
                                   const void* A, cudaDataType Atype, I lda, const S* beta,    \
                                   void* C, cudaDataType Ctype, I ldc) {                       \
    return strata::blas::rank_k_ex<S>(#name, handle, herm, uplo, trans, n, k, alpha, A, Atype, \
                                      lda, beta, C, Ctype, ldc);                               \
  }
STRATA_BLAS_RANKK_EX(cublasCsyrkEx, false, cuComplex, int)
STRATA_BLAS_RANKK_EX(cublasCsyrkEx_64, false, cuComplex, int64_t)
STRATA_BLAS_RANKK_EX(cublasCsyrk3mEx, false, cuComplex, int)
STRATA_BLAS_RANKK_EX(cublasCsyrk3mEx_64, false, cuComplex, int64_t)
STRATA_BLAS_RANKK_EX(cublasCherkEx, true, float, int)
STRATA_BLAS_RANKK_EX(cublasCherkEx_64, true, float, int64_t)
STRATA_BLAS_RANKK_EX(cublasCherk3mEx, true, float, int)
STRATA_BLAS_RANKK_EX(cublasCherk3mEx_64, true, float, int64_t)
#undef STRATA_BLAS_RANKK_EX

// symm (S, D, C, Z), hemm (C, Z), trmm (S, D, C, Z).
#define STRATA_BLAS_SYMM(name, herm, T, suffix, I)                                                 \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasSideMode_t side,                   \
                                   cublasFillMode_t uplo, I m, I n, const T* alpha, const T* A,    \
                                   I lda, const T* B, I ldb, const T* beta, T* C, I ldc) {         \
    return strata::blas::symm<T>(#name, "strata_blas_level3_" suffix, handle, herm, side, uplo, m, \
                                 n, alpha, A, lda, B, ldb, beta, C, ldc);                          \
  }
#define STRATA_BLAS_TRMM(name, T, suffix, I)                                                     \
  cublasStatus_t CUBLASWINAPI name(cublasHandle_t handle, cublasSideMode_t side,                 \
                                   cublasFillMode_t uplo, cublasOperation_t trans,               \
                                   cublasDiagType_t diag, I m, I n, const T* alpha, const T* A,  \
                                   I lda, const T* B, I ldb, T* C, I ldc) {                      \
    return strata::blas::trmm<T>(#name, "strata_blas_level3_" suffix, handle, side, uplo, trans, \
                                 diag, m, n, alpha, A, lda, B, ldb, C, ldc);                     \
  }
STRATA_BLAS_SYMM(cublasSsymm_v2, false, float, "s", int)
STRATA_BLAS_SYMM(cublasSsymm_v2_64, false, float, "s", int64_t)
STRATA_BLAS_SYMM(cublasDsymm_v2, false, double, "d", int)
STRATA_BLAS_SYMM(cublasDsymm_v2_64, false, double, "d", int64_t)
STRATA_BLAS_SYMM(cublasCsymm_v2, false, cuComplex, "c", int)
STRATA_BLAS_SYMM(cublasCsymm_v2_64, false, cuComplex, "c", int64_t)
STRATA_BLAS_SYMM(cublasZsymm_v2, false, cuDoubleComplex, "z", int)
STRATA_BLAS_SYMM(cublasZsymm_v2_64, false, cuDoubleComplex, "z", int64_t)
STRATA_BLAS_SYMM(cublasChemm_v2, true, cuComplex, "c", int)
STRATA_BLAS_SYMM(cublasChemm_v2_64, true, cuComplex, "c", int64_t)
STRATA_BLAS_SYMM(cublasZhemm_v2, true, cuDoubleComplex, "z", int)
STRATA_BLAS_SYMM(cublasZhemm_v2_64, true, cuDoubleComplex, "z", int64_t)
STRATA_BLAS_TRMM(cublasStrmm_v2, float, "s", int)
STRATA_BLAS_TRMM(cublasStrmm_v2_64, float, "s", int64_t)
STRATA_BLAS_TRMM(cublasDtrmm_v2, double, "d", int)
STRATA_BLAS_TRMM(cublasDtrmm_v2_64, double, "d", int64_t)
STRATA_BLAS_TRMM(cublasCtrmm_v2, cuComplex, "c", int)
STRATA_BLAS_TRMM(cublasCtrmm_v2_64, cuComplex, "c", int64_t)
STRATA_BLAS_TRMM(cublasZtrmm_v2, cuDoubleComplex, "z", int)
STRATA_BLAS_TRMM(cublasZtrmm_v2_64, cuDoubleComplex, "z", int64_t)
#undef STRATA_BLAS_SYMM
#undef STRATA_BLAS_TRMM

}  // extern "C"
