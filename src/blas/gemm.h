// Host-side GEMM dispatch, shared by the cuBLAS entry points (api_gemm.cc) and, later,
// cuBLASLt's matmul: argument checks with cuBLAS's statuses, the data type / compute type
// table of cublasGemmEx, the input rounding the math mode and compute type call for, the
// quick returns, and the launch of a kernels/gemm.cuh tile kernel.
//
// Header-only (inline), so both libraries can use it without sharing an object file.
#pragma once

#include <cuComplex.h>
#include <cublas_api.h>
#include <cuda_fp16.h>
#include <library_types.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <type_traits>

#include "blas/args.h"
#include "blas/handle.h"
#include "blas/kernels.h"
#include "blas/kernels/gemm_params.h"
#include "blas/kernels/gemm_tiles.h"
#include "blas/kernels/scalar.h"
#include "blas/status.h"

namespace strata::blas {

using strata_blas::GemmParams;
using strata_blas::GemmRounding;

// The families of cublasComputeType_t that the type table distinguishes.
enum class GemmCompute {
  kF16,      // CUBLAS_COMPUTE_16F[_PEDANTIC]: FP16 accumulation
  kI32,      // CUBLAS_COMPUTE_32I[_PEDANTIC]
  kF32,      // CUBLAS_COMPUTE_32F[_PEDANTIC]
  kF32Fast,  // CUBLAS_COMPUTE_32F_FAST_{16F,16BF,TF32}, CUBLAS_COMPUTE_32F_EMULATED_16BFX9
  kF64,      // CUBLAS_COMPUTE_64F[_PEDANTIC], CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT
};

// The family of a compute type; false for values cuBLAS does not define.
inline bool gemm_compute_of(cublasComputeType_t compute, GemmCompute* out) {
  switch (compute) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
      *out = GemmCompute::kF16;
      return true;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
      *out = GemmCompute::kI32;
      return true;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
      *out = GemmCompute::kF32;
      return true;
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32:
    case CUBLAS_COMPUTE_32F_EMULATED_16BFX9:
      *out = GemmCompute::kF32Fast;
      return true;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUBLAS_COMPUTE_64F_EMULATED_FIXEDPOINT:
      *out = GemmCompute::kF64;
      return true;
  }
  return false;
}

// One row of cublasGemmEx's table of supported combinations (the cuBLAS documentation,
// "cublasGemmEx"): A and B type, C type, the compute families allowed, the scale type of
// alpha and beta, and the kernel (kernels/gemm.cuh) without its rounding suffix. Whether
// FP32 inputs are rounded is decided by gemm_rounding.
struct GemmTypeRow {
  cudaDataType ab;
  cudaDataType c;
  GemmCompute compute;
  cudaDataType scale;
  const char* kernel;
};

inline constexpr GemmTypeRow kGemmTypes[] = {
    {CUDA_R_16F, CUDA_R_16F, GemmCompute::kF16, CUDA_R_16F, "strata_blas_gemm_h_h_h"},
    {CUDA_R_8I, CUDA_R_32I, GemmCompute::kI32, CUDA_R_32I, "strata_blas_gemm_i8_i32_i32"},
    {CUDA_R_16BF, CUDA_R_16BF, GemmCompute::kF32, CUDA_R_32F, "strata_blas_gemm_bf_bf_s"},
    {CUDA_R_16F, CUDA_R_16F, GemmCompute::kF32, CUDA_R_32F, "strata_blas_gemm_h_h_s"},
    {CUDA_R_8I, CUDA_R_32F, GemmCompute::kF32, CUDA_R_32F, "strata_blas_gemm_i8_s_s"},
    {CUDA_R_16BF, CUDA_R_32F, GemmCompute::kF32, CUDA_R_32F, "strata_blas_gemm_bf_s_s"},
    {CUDA_R_16F, CUDA_R_32F, GemmCompute::kF32, CUDA_R_32F, "strata_blas_gemm_h_s_s"},
    {CUDA_R_32F, CUDA_R_32F, GemmCompute::kF32, CUDA_R_32F, "strata_blas_gemm_s_s_s"},
    {CUDA_C_8I, CUDA_C_32F, GemmCompute::kF32, CUDA_C_32F, "strata_blas_gemm_ci8_c_c"},
    {CUDA_C_32F, CUDA_C_32F, GemmCompute::kF32, CUDA_C_32F, "strata_blas_gemm_c_c_c"},
    {CUDA_R_32F, CUDA_R_32F, GemmCompute::kF32Fast, CUDA_R_32F, "strata_blas_gemm_s_s_s"},
    {CUDA_C_32F, CUDA_C_32F, GemmCompute::kF32Fast, CUDA_C_32F, "strata_blas_gemm_c_c_c"},
    {CUDA_R_64F, CUDA_R_64F, GemmCompute::kF64, CUDA_R_64F, "strata_blas_gemm_d_d_d"},
    {CUDA_C_64F, CUDA_C_64F, GemmCompute::kF64, CUDA_C_64F, "strata_blas_gemm_z_z_z"},
};

// The row for these types, or null when cuBLAS does not support the combination.
inline const GemmTypeRow* find_gemm_types(cudaDataType a, cudaDataType b, cudaDataType c,
                                          GemmCompute compute) {
  if (a != b) return nullptr;
  for (const GemmTypeRow& row : kGemmTypes) {
    if (row.ab == a && row.c == c && row.compute == compute) return &row;
  }
  return nullptr;
}

// How FP32 inputs are rounded before the products. Under CUBLAS_DEFAULT_MATH (and
// CUBLAS_PEDANTIC_MATH, and every _PEDANTIC compute type) never: no reduced-precision
// input is used. CUBLAS_COMPUTE_32F_FAST_TF32, or CUBLAS_COMPUTE_32F under
// CUBLAS_TF32_TENSOR_OP_MATH: TF32. CUBLAS_COMPUTE_32F_FAST_16F, or CUBLAS_COMPUTE_32F
// under the deprecated CUBLAS_TENSOR_OP_MATH (documented to use FAST_16F for single
// precision): FP16. CUBLAS_COMPUTE_32F_FAST_16BF: BF16. The BF16x9 emulation is as
// accurate as FP32 and rounds nothing.
inline GemmRounding gemm_rounding(cublasComputeType_t compute, cublasMath_t math) {
  if (math == CUBLAS_PEDANTIC_MATH) return strata_blas::kGemmRoundNone;
  switch (compute) {
    case CUBLAS_COMPUTE_32F_FAST_TF32:
      return strata_blas::kGemmRoundTf32;
    case CUBLAS_COMPUTE_32F_FAST_16F:
      return strata_blas::kGemmRoundF16;
    case CUBLAS_COMPUTE_32F_FAST_16BF:
      return strata_blas::kGemmRoundBf16;
    case CUBLAS_COMPUTE_32F:
      if (math == CUBLAS_TF32_TENSOR_OP_MATH) return strata_blas::kGemmRoundTf32;
      if (math == CUBLAS_TENSOR_OP_MATH) return strata_blas::kGemmRoundF16;
      return strata_blas::kGemmRoundNone;
    default:
      return strata_blas::kGemmRoundNone;
  }
}

// The kernel's full name: the row's, plus the rounding suffix for FP32 inputs.
inline std::string gemm_kernel_name(const GemmTypeRow& row, GemmRounding rounding) {
  std::string name = row.kernel;
  if (row.ab != CUDA_R_32F && row.ab != CUDA_C_32F) return name;
  switch (rounding) {
    case strata_blas::kGemmRoundTf32:
      return name + "_tf32";
    case strata_blas::kGemmRoundF16:
      return name + "_f16";
    case strata_blas::kGemmRoundBf16:
      return name + "_bf16";
    default:
      return name;
  }
}

// Whether `algo` is one of cublasGemmAlgo_t's documented values (all are accepted and
// ignored: there is one kernel per type combination).
inline bool gemm_algo_known(cublasGemmAlgo_t algo) {
  const int v = static_cast<int>(algo);
  return v == CUBLAS_GEMM_DEFAULT || (v >= CUBLAS_GEMM_ALGO0 && v <= CUBLAS_GEMM_ALGO23) ||
         (v >= CUBLAS_GEMM_DEFAULT_TENSOR_OP && v <= CUBLAS_GEMM_ALGO15_TENSOR_OP) ||
         v == CUBLAS_GEMM_AUTOTUNE;
}

// A GEMM call as an entry point received it. alpha and beta point at values of the row's
// scale type, on the host or the device by the handle's pointer mode. For the *Batched
// entry points a_array / b_array / c_array are the device arrays of pointers (a, b, c
// null); otherwise a, b, c with the strides (0 for a single GEMM, batch_count 1).
struct GemmCall {
  cublasOperation_t op_a = CUBLAS_OP_N, op_b = CUBLAS_OP_N;
  int64_t m = 0, n = 0, k = 0;
  const void* alpha = nullptr;
  const void* beta = nullptr;
  const void* a = nullptr;
  const void* const* a_array = nullptr;
  int64_t lda = 0, stride_a = 0;
  const void* b = nullptr;
  const void* const* b_array = nullptr;
  int64_t ldb = 0, stride_b = 0;
  void* c = nullptr;
  void* const* c_array = nullptr;
  int64_t ldc = 0, stride_c = 0;
  int64_t batch_count = 1;
  bool batched_arrays = false;  // the *Batched entry points
  // cublasSgemmEx / cublasCgemmEx: only the real / complex rows of the table.
  bool only_real = false, only_complex = false;
  cudaDataType a_type = CUDA_R_32F, b_type = CUDA_R_32F, c_type = CUDA_R_32F;
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;
};

namespace gemm_detail {

inline bool op_valid(cublasOperation_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

// Reads a host scalar of the scale type: whether it is zero / one.
template <typename T>
bool host_is(const void* p, double value) {
  if constexpr (std::is_same_v<T, cuComplex>) {
    const auto* v = static_cast<const cuComplex*>(p);
    return v->x == value && v->y == 0.0f;
  } else if constexpr (std::is_same_v<T, cuDoubleComplex>) {
    const auto* v = static_cast<const cuDoubleComplex*>(p);
    return v->x == value && v->y == 0.0;
  } else if constexpr (std::is_same_v<T, __half>) {
    return static_cast<double>(__half2float(*static_cast<const __half*>(p))) == value;
  } else {
    return static_cast<double>(*static_cast<const T*>(p)) == value;
  }
}

// Calls f(T{}) with T the C++ type of a scale type.
template <typename F>
cublasStatus_t with_scale_type(cudaDataType scale, F&& f) {
  switch (scale) {
    case CUDA_R_16F:
      return f(__half{});
    case CUDA_R_32I:
      return f(int32_t{});
    case CUDA_R_32F:
      return f(float{});
    case CUDA_R_64F:
      return f(double{});
    case CUDA_C_32F:
      return f(cuComplex{});
    case CUDA_C_64F:
      return f(cuDoubleComplex{});
    default:
      return CUBLAS_STATUS_INTERNAL_ERROR;
  }
}

}  // namespace gemm_detail

// --- tensor-core kernel selection (kernels/gemm_tiles.h, kernels/gemm_tc.cuh) ---

// A tile configuration: its id (kernel names strata_blas_gemm_tc<id><layout>_<types>), CTA tile
// threads and shared memory.
struct GemmTcTile {
  const char* id;
  int bm, bn, threads;
  unsigned shared_bytes;  // dynamic shared memory per CTA
};
#define STRATA_GEMM_TC_TILE_ROW(id, bm, bn, wm, wn, st, ...) \
  {#id, bm, bn, (wm) * (wn)*32, STRATA_GEMM_TC_SHARED_BYTES(bm, bn, st)},
inline constexpr GemmTcTile kGemmTcTiles[] = {STRATA_GEMM_TC_TILES(STRATA_GEMM_TC_TILE_ROW, 0)};
#undef STRATA_GEMM_TC_TILE_ROW

// A type combination with tensor-core kernels: the plain kernel's suffix and the format.
struct GemmTcTypes {
  const char* types;
  int format;  // strata_blas::TcFormat
};
#define STRATA_GEMM_TC_TYPE_ROW(types, TA, TC, T, F, ...) {#types, F},
inline constexpr GemmTcTypes kGemmTcTypes[] = {
    STRATA_GEMM_TC_TYPES(STRATA_GEMM_TC_TYPE_ROW, 0) STRATA_GEMM_TC_LT_TYPES(
        STRATA_GEMM_TC_TYPE_ROW, 0) STRATA_GEMM_TC_F8_TYPES(STRATA_GEMM_TC_TYPE_ROW, 0)};
#undef STRATA_GEMM_TC_TYPE_ROW

// The selection table's rows.
struct GemmTcChoice {
  int family, shape_class;
  const char* tile;  // a tile id, or "fma": the plain kernel
};
#define STRATA_GEMM_TC_CHOICE_ROW(family, shape_class, tile) \
  {strata_blas::family, strata_blas::shape_class, #tile},
inline constexpr GemmTcChoice kGemmTcChoices[] = {
    STRATA_GEMM_TC_CHOICES(STRATA_GEMM_TC_CHOICE_ROW)};
#undef STRATA_GEMM_TC_CHOICE_ROW

inline int gemm_tc_element_bytes(int format) {
  if (format == strata_blas::kTcS8 || strata_blas::tc_format_is_fp8(format)) return 1;
  return format == strata_blas::kTcTf32 ? 4 : 2;
}
inline int gemm_tc_family(int format) {
  if (format == strata_blas::kTcS8 || strata_blas::tc_format_is_fp8(format))
    return strata_blas::kTcFamilyI8;
  return format == strata_blas::kTcTf32 ? strata_blas::kTcFamilyTf32 : strata_blas::kTcFamily16;
}

// The shape class of a problem on a device of `sms` multiprocessors (kernels/gemm_tiles.h
// TcShapeClass): 128 x 128 tiles of C over all batches, in waves of one per SM.
inline int gemm_tc_shape_class(int64_t m, int64_t n, int64_t batch_count, int sms) {
  const double tiles = static_cast<double>((m + 127) / 128) * static_cast<double>((n + 127) / 128) *
                       static_cast<double>(batch_count);
  const double waves = tiles / std::max(1, sms);
  return waves < 0.5 ? strata_blas::kTcSmall
         : waves < 2 ? strata_blas::kTcMedium
                     : strata_blas::kTcLarge;
}

// The cp.async fast path's preconditions on one operand: leading dimension a multiple of
// 16 bytes, and for strided batches the pointer and the batch stride too (a pointer
// array's matrices are checked chunk by chunk in the kernel).
inline bool gemm_tc_operand_ok(const void* x, bool array, int64_t ld, int64_t stride,
                               int64_t batch_count, int bytes) {
  if ((ld * bytes) % 16 != 0) return false;
  if (array) return true;
  if (reinterpret_cast<uintptr_t>(x) % 16 != 0) return false;
  return batch_count <= 1 || (stride * bytes) % 16 == 0;
}

// The tensor-core tile for the plain kernel `kernel` (strata_blas_gemm_<types>) on
// `params` on a device of `sms` multiprocessors, or null for the plain kernel: the types have no
// tensor-core kernel, an operand fails the fast path's alignment, or the table chose "fma". The
// table's choice by family and shape class, unless STRATA_BLAS_GEMM_TILE names a tile id or "fma"
// (the tuner's override, bench/blas/tune.cu; ignored where the fast path does not apply).
inline const GemmTcTile* select_gemm_tc(const std::string& kernel, const GemmParams& p, int sms) {
  static constexpr char kPrefix[] = "strata_blas_gemm_";
  if (kernel.compare(0, sizeof(kPrefix) - 1, kPrefix) != 0) return nullptr;
  const char* types = kernel.c_str() + sizeof(kPrefix) - 1;
  const GemmTcTypes* row = nullptr;
  for (const GemmTcTypes& t : kGemmTcTypes) {
    if (std::strcmp(t.types, types) == 0) row = &t;
  }
  if (row == nullptr) return nullptr;
  const int bytes = gemm_tc_element_bytes(row->format);
  if (!gemm_tc_operand_ok(p.a, p.a_array != nullptr, p.lda, p.stride_a, p.batch_count, bytes) ||
      !gemm_tc_operand_ok(p.b, p.b_array != nullptr, p.ldb, p.stride_b, p.batch_count, bytes)) {
    return nullptr;
  }
  const char* tile = nullptr;
  if (const char* forced = std::getenv("STRATA_BLAS_GEMM_TILE"); forced != nullptr && *forced) {
    tile = forced;
  } else {
    const int family = gemm_tc_family(row->format);
    const int shape = gemm_tc_shape_class(p.m, p.n, p.batch_count, sms);
    for (const GemmTcChoice& c : kGemmTcChoices) {
      if (c.family == family && c.shape_class == shape) tile = c.tile;
    }
  }
  if (tile == nullptr) return nullptr;
  for (const GemmTcTile& t : kGemmTcTiles) {
    if (std::strcmp(t.id, tile) == 0) return &t;
  }
  return nullptr;  // "fma"
}

// The tensor-core kernel of the plain kernel `kernel` on tile `tc` for params' operand
// layout (kernels/gemm_tiles.h STRATA_GEMM_TC_LAYOUTS): strata_blas_gemm_tc<id><nn|nt|tn|
// tt>_<types>.
inline std::string gemm_tc_kernel_name(const std::string& kernel, const GemmTcTile& tc,
                                       const GemmParams& params) {
  const char layout[] = {params.op_a == strata_blas::kGemmOpN ? 'n' : 't',
                         params.op_b == strata_blas::kGemmOpN ? 'n' : 't', '\0'};
  return "strata_blas_gemm_tc" + std::string(tc.id) + layout + "_" + kernel.substr(17);
}

// Launches the GEMM kernel `kernel` (a plain tile kernel's name, kernels/gemm.cuh) over
// `params` on `stream`, or its tensor-core form where select_gemm_tc picks one. Grid:
// tiles of C (64 x 64 for the plain kernel, the configuration's for the tensor-core one)
// by batches; the kernels loop over column tiles beyond 65535 and batches beyond 65535.
// `extra` are further kernel arguments after alpha and beta: an epilogue kernel's functor
// (kernels/gemm.cuh STRATA_BLAS_GEMM_EPILOGUE), for cuBLASLt. The one place that knows a
// GEMM kernel's launch geometry.
template <typename T, typename... Extra>
cublasStatus_t launch_gemm_on(Handle& handle, cudaStream_t stream, const char* function,
                              const std::string& kernel, const GemmParams& params,
                              strata_blas::Scalar<T> alpha, strata_blas::Scalar<T> beta,
                              Extra... extra) {
  const GemmTcTile* tc = select_gemm_tc(kernel, params, handle.sm_count);
  const int bm = tc != nullptr ? tc->bm : 64, bn = tc != nullptr ? tc->bn : 64;
  const int threads = tc != nullptr ? tc->threads : 256;
  const std::string name = tc != nullptr ? gemm_tc_kernel_name(kernel, *tc, params) : kernel;
  const int64_t row_tiles = (params.m + bm - 1) / bm;
  const int64_t col_tiles = (params.n + bn - 1) / bn;
  if (row_tiles > 0x7fffffff) return invalid(function, "m = {} is too large", params.m);
  const dim3 grid(static_cast<unsigned>(row_tiles),
                  static_cast<unsigned>(std::min<int64_t>(col_tiles, 65535)),
                  static_cast<unsigned>(std::min<int64_t>(params.batch_count, 65535)));
  return launch_on(handle, stream, function, name.c_str(), grid, dim3(threads),
                   tc != nullptr ? tc->shared_bytes : 0u, params, alpha, beta, extra...);
}

// launch_gemm_on the handle's stream.
template <typename T, typename... Extra>
cublasStatus_t launch_gemm(Handle& handle, const char* function, const std::string& kernel,
                           const GemmParams& params, strata_blas::Scalar<T> alpha,
                           strata_blas::Scalar<T> beta, Extra... extra) {
  return launch_gemm_on<T>(handle, handle.stream, function, kernel, params, alpha, beta, extra...);
}

// Validates `call` as cuBLAS does and runs it. Statuses: CUBLAS_STATUS_INVALID_VALUE for
// an operation other than N/T/C, m, n, k or batch_count < 0, lda < max(1, rows of
// op(A)'s storage) (likewise ldb, and ldc < max(1, m)), null alpha or beta, an undefined
// compute type or algorithm; CUBLAS_STATUS_NOT_SUPPORTED for a type combination outside
// cublasGemmEx's table. Quick returns (success, nothing read or written): m == 0,
// n == 0, batch_count == 0, and with host scalars alpha == 0 or k == 0 together with
// beta == 1.
inline cublasStatus_t run_gemm(Handle& h, const char* function, const GemmCall& call) {
  if (!gemm_detail::op_valid(call.op_a)) return invalid(function, "transa = {}", +call.op_a);
  if (!gemm_detail::op_valid(call.op_b)) return invalid(function, "transb = {}", +call.op_b);
  if (call.m < 0) return invalid(function, "m = {} < 0", call.m);
  if (call.n < 0) return invalid(function, "n = {} < 0", call.n);
  if (call.k < 0) return invalid(function, "k = {} < 0", call.k);
  const int64_t a_rows = call.op_a == CUBLAS_OP_N ? call.m : call.k;
  const int64_t b_rows = call.op_b == CUBLAS_OP_N ? call.k : call.n;
  if (call.lda < std::max<int64_t>(1, a_rows)) {
    return invalid(function, "lda = {} < max(1, {})", call.lda, a_rows);
  }
  if (call.ldb < std::max<int64_t>(1, b_rows)) {
    return invalid(function, "ldb = {} < max(1, {})", call.ldb, b_rows);
  }
  if (call.ldc < std::max<int64_t>(1, call.m)) {
    return invalid(function, "ldc = {} < max(1, {})", call.ldc, call.m);
  }
  if (call.batch_count < 0) return invalid(function, "batchCount = {} < 0", call.batch_count);
  GemmCompute compute;
  if (!gemm_compute_of(call.compute, &compute)) {
    return invalid(function, "computeType = {} is not a cublasComputeType_t", +call.compute);
  }
  if (call.alpha == nullptr) return invalid(function, "alpha is null");
  if (call.beta == nullptr) return invalid(function, "beta is null");
  const GemmTypeRow* row = find_gemm_types(call.a_type, call.b_type, call.c_type, compute);
  const bool complex = row != nullptr && (row->c == CUDA_C_32F || row->c == CUDA_C_64F);
  if (row == nullptr || (complex && call.only_real) || (!complex && call.only_complex)) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "Atype {}, Btype {}, Ctype {} with computeType {} is not a supported combination",
                +call.a_type, +call.b_type, +call.c_type, +call.compute);
  }
  if (call.m == 0 || call.n == 0 || call.batch_count == 0) return CUBLAS_STATUS_SUCCESS;

  GemmParams params{};
  params.m = call.m, params.n = call.n, params.k = call.k;
  params.op_a = static_cast<int32_t>(call.op_a), params.op_b = static_cast<int32_t>(call.op_b);
  params.a = call.a, params.a_array = call.a_array, params.lda = call.lda;
  params.stride_a = call.stride_a;
  params.b = call.b, params.b_array = call.b_array, params.ldb = call.ldb;
  params.stride_b = call.stride_b;
  params.c = call.c, params.c_array = call.c_array, params.ldc = call.ldc;
  params.stride_c = call.stride_c;
  params.batch_count = call.batch_count;
  const std::string kernel = gemm_kernel_name(*row, gemm_rounding(call.compute, h.math()));

  return gemm_detail::with_scale_type(row->scale, [&](auto tag) -> cublasStatus_t {
    using T = decltype(tag);
    if (!h.device_pointers()) {
      const bool alpha_zero = gemm_detail::host_is<T>(call.alpha, 0.0);
      if ((alpha_zero || call.k == 0) && gemm_detail::host_is<T>(call.beta, 1.0)) {
        return CUBLAS_STATUS_SUCCESS;
      }
    }
    if (call.batched_arrays) {
      if (call.a_array == nullptr || call.b_array == nullptr || call.c_array == nullptr) {
        return invalid(function, "a matrix pointer array is null");
      }
    }
    const auto* alpha = static_cast<const T*>(call.alpha);
    const auto* beta = static_cast<const T*>(call.beta);
    return launch_gemm<T>(h, function, kernel, params, scalar_arg(h, alpha), scalar_arg(h, beta));
  });
}

}  // namespace strata::blas
