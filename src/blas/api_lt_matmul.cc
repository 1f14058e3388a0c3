// cublasLtMatmul and cublasLtMatmulAlgoGetHeuristic (cublasLt.h):
//   D = epilogue(alpha op(A) op(B) + beta C)
// on the GEMM tile kernels (gemm.h, kernels/gemm.cuh) or, for FP8 inputs, the FP8
// tensor-core kernels (kernels/lt_fp8_tc.cuh) or FP8 kernel (kernels/lt_fp8.cuh), with C
// read from its own layout and D written to another (they may alias). Matrices may be
// column- or row-major (CUBLASLT_ORDER_COL / ROW): a row-major matrix is the column-major
// view of its transpose, so operations flip, and a row-major D is computed as
// D^T = op(B)^T op(A)^T. Batches come from the layouts: strided, or pointer arrays
// (CUBLASLT_BATCH_MODE_POINTER_ARRAY, any of A, B, C, D; not with FP8, bias gradients or
// the vector pointer modes). Epilogues (kernels/lt_epilogue.h): the forward ones, DRELU /
// DGELU from the aux input, and bias gradients (BGRADA, BGRADB, the _BGRAD forms) by a
// reduction kernel after the GEMM (kernels/lt_reduce.h). Pointer modes HOST, DEVICE and
// the vector modes; FP8 with scale factors and AMAX_D on compute capability 8.9+
// (docs/blas.md). A null algorithm and no workspace are accepted, as NVIDIA's library does.
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "blas/gemm.h"
#include "blas/handle.h"
#include "blas/kernels.h"
#include "blas/kernels/lt_epilogue.h"
#include "blas/kernels/lt_reduce.h"
#include "blas/lt_algo.h"
#include "blas/lt_desc.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::LtEpilogue;

// The algorithm Strata's heuristic returns (lt_algo.h: the ids and their encoding).
constexpr int32_t kAlgoId = kAlgoTile64;

// Where a bias gradient comes from (LtReduce's x): nothing, A (BGRADA), B (BGRADB) or
// the output D (DRELU_BGRAD, DGELU_BGRAD: reduced after the GEMM).
enum class BgradSource { kNone, kA, kB, kD };

struct Plan {
  GemmParams params{};
  std::string kernel;
  cudaDataType scale = CUDA_R_32F;
  bool epilogue = false;  // the kernel takes an LtEpilogue
  bool fp8 = false;       // kernels/lt_fp8.cuh
  bool scaled = false;    // the epilogue adds the C term: the kernel runs with beta = 0
  bool alpha_vector = false;
  strata_blas::LtFp8Types fp8_types{};
  LtEpilogue lt{};
  BgradSource bgrad = BgradSource::kNone;
  strata_blas::LtReduce reduce{};  // x filled at launch
  // CUBLASLT_BATCH_MODE_POINTER_ARRAY layouts: the matmul's A, B, C, D arguments are device
  // arrays of batch_count matrix pointers.
  bool a_array = false, b_array = false, c_array = false, d_array = false;
};

bool op_valid(int32_t op) {
  return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C;
}

bool element_of(int32_t type, int32_t* out) {
  switch (type) {
    case CUDA_R_32F:
      *out = strata_blas::kLtF32;
      return true;
    case CUDA_R_16F:
      *out = strata_blas::kLtF16;
      return true;
    case CUDA_R_16BF:
      *out = strata_blas::kLtBf16;
      return true;
    case CUDA_R_64F:
      *out = strata_blas::kLtF64;
      return true;
    case CUDA_R_8F_E4M3:
      *out = strata_blas::kLtE4M3;
      return true;
    case CUDA_R_8F_E5M2:
      *out = strata_blas::kLtE5M2;
      return true;
    default:
      return false;
  }
}

bool is_fp8(int32_t type) {
  return type == CUDA_R_8F_E4M3 || type == CUDA_R_8F_E5M2;
}

// cublasLtMatmul's FP8 table (cuBLAS documentation, "cublasLtMatmul", FP8 data types):
// A and B E4M3 or E5M2 but not both E5M2, compute CUBLAS_COMPUTE_32F, scale CUDA_R_32F;
// C BF16 with D BF16 or FP8, C FP16 with D FP16 or FP8, C FP32 with D FP32; an E5M2 D
// needs an E5M2 operand. Returns false for combinations outside it.
bool fp8_types_supported(int32_t a, int32_t b, int32_t c, int32_t d) {
  if (!is_fp8(a) || !is_fp8(b) || (a == CUDA_R_8F_E5M2 && b == CUDA_R_8F_E5M2)) return false;
  if (d == CUDA_R_8F_E5M2 && a != CUDA_R_8F_E5M2 && b != CUDA_R_8F_E5M2) return false;
  switch (c) {
    case CUDA_R_16BF:
      return d == CUDA_R_16BF || is_fp8(d);
    case CUDA_R_16F:
      return d == CUDA_R_16F || is_fp8(d);
    case CUDA_R_32F:
      return d == CUDA_R_32F;
    default:
      return false;
  }
}

bool is_complex(uint32_t type) {
  return type == CUDA_C_32F || type == CUDA_C_64F || type == CUDA_C_16F || type == CUDA_C_16BF ||
         type == CUDA_C_8I || type == CUDA_C_32I;
}

// An operand in column-major terms: the column-major view of the matrix (a row-major
// matrix is its transpose's) and the operation to apply to that view to get op(X), or
// op(X)^T when `transpose` (what the kernel sees when D is row-major).
struct Operand {
  int32_t op = CUBLAS_OP_N;
  bool ok = true;  // false: no column-major operation gives it (a conjugate without transpose)
};

Operand view_op(int32_t op, bool row_major, bool transpose, bool complex) {
  if (!complex && op == CUBLAS_OP_C) op = CUBLAS_OP_T;
  if (row_major == transpose) return {op, true};
  // Flip: op(X) of a row-major X, or op(X)^T of a column-major one.
  if (op == CUBLAS_OP_N) return {CUBLAS_OP_T, true};
  if (op == CUBLAS_OP_T) return {CUBLAS_OP_N, true};
  return {op, false};  // conjugate-only is not an operation of the kernel
}

// Plans the matmul; pointers may be null (the heuristic has none). Statuses as
// cublasLtMatmul returns them.
cublasStatus_t plan(const char* function, const Handle& h, const MatmulDescState* d,
                    const LayoutState* la, const LayoutState* lb, const LayoutState* lc,
                    const LayoutState* ld, Plan* out) {
  if (d == nullptr) return invalid(function, "the matmul descriptor is null or not initialised");
  if (la == nullptr || lb == nullptr || lc == nullptr || ld == nullptr)
    return invalid(function, "a matrix layout is null or not initialised");
  if (!op_valid(d->transa) || !op_valid(d->transb))
    return invalid(function, "TRANSA = {}, TRANSB = {}", d->transa, d->transb);
  if (d->transc != CUBLAS_OP_N)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "TRANSC must be CUBLAS_OP_N");
  for (const LayoutState* l : {la, lb, lc, ld}) {
    if (l->order != CUBLASLT_ORDER_COL && l->order != CUBLASLT_ORDER_ROW)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "matrix order {} (only COL and ROW)",
                  l->order);
    if (l->batch_mode != CUBLASLT_BATCH_MODE_STRIDED &&
        l->batch_mode != CUBLASLT_BATCH_MODE_POINTER_ARRAY)
      return invalid(function, "BATCH_MODE = {} is not a cublasLtBatchMode_t", l->batch_mode);
    if (l->plane_offset != 0)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "planar complex layouts");
    const uint64_t min_ld = l->order == CUBLASLT_ORDER_COL ? l->rows : l->cols;
    if (l->ld < 0 || static_cast<uint64_t>(l->ld) < std::max<uint64_t>(1, min_ld))
      return invalid(function, "a layout's ld = {} is below its {} ({})", l->ld,
                     l->order == CUBLASLT_ORDER_COL ? "rows" : "columns", min_ld);
  }
  if (lc->order != ld->order)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "C and D in different orders");
  const int64_t m = static_cast<int64_t>(ld->rows), n = static_cast<int64_t>(ld->cols);
  const bool ta = d->transa != CUBLAS_OP_N, tb = d->transb != CUBLAS_OP_N;
  const int64_t k = static_cast<int64_t>(ta ? la->rows : la->cols);
  const auto dims = [](const LayoutState* l, bool t) {
    return std::pair<uint64_t, uint64_t>{t ? l->cols : l->rows, t ? l->rows : l->cols};
  };
  if (dims(la, ta) != std::pair<uint64_t, uint64_t>(m, k) ||
      dims(lb, tb) != std::pair<uint64_t, uint64_t>(k, n) || lc->rows != ld->rows ||
      lc->cols != ld->cols) {
    return invalid(function, "shapes do not agree: op(A) {}x{}, op(B) {}x{}, C {}x{}, D {}x{}",
                   dims(la, ta).first, dims(la, ta).second, dims(lb, tb).first, dims(lb, tb).second,
                   lc->rows, lc->cols, m, n);
  }
  const int32_t batch = ld->batch_count;
  if (batch < 0 || la->batch_count != batch || lb->batch_count != batch || lc->batch_count != batch)
    return invalid(function, "batch counts A {}, B {}, C {}, D {} differ", la->batch_count,
                   lb->batch_count, lc->batch_count, batch);

  // Types.
  GemmCompute compute;
  if (!gemm_compute_of(static_cast<cublasComputeType_t>(d->compute_type), &compute))
    return invalid(function, "COMPUTE_TYPE = {}", d->compute_type);
  const auto at = static_cast<cudaDataType>(la->type), bt = static_cast<cudaDataType>(lb->type),
             ct = static_cast<cudaDataType>(lc->type);
  const bool fp8 = is_fp8(at) || is_fp8(bt);
  const GemmTypeRow* row = fp8 ? nullptr : find_gemm_types(at, bt, ct, compute);
  if (fp8) {
    if (!fp8_types_supported(at, bt, ct, static_cast<int32_t>(ld->type)) ||
        d->compute_type != CUBLAS_COMPUTE_32F || d->scale_type != CUDA_R_32F)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                  "FP8: A {}, B {}, C {}, D {}, compute {}, scale {} is not in the FP8 table",
                  la->type, lb->type, lc->type, ld->type, d->compute_type, d->scale_type);
    if (d->transa != CUBLAS_OP_T || d->transb != CUBLAS_OP_N)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                  "FP8 matmuls need TRANSA = T and TRANSB = N (the \"TN\" format)");
    int cc_major = 0, cc_minor = 0;
    cudaDeviceGetAttribute(&cc_major, cudaDevAttrComputeCapabilityMajor, h.device);
    cudaDeviceGetAttribute(&cc_minor, cudaDevAttrComputeCapabilityMinor, h.device);
    if (cc_major * 10 + cc_minor < 89)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                  "FP8 matmuls need compute capability 8.9 or later (the device has {}.{})",
                  cc_major, cc_minor);
  } else if (row == nullptr || ld->type != lc->type || d->scale_type != row->scale) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "A {}, B {}, C {}, D {}, compute {}, scale {} is not a supported combination",
                la->type, lb->type, lc->type, ld->type, d->compute_type, d->scale_type);
  }
  for (const int32_t mode : {d->a_scale_mode, d->b_scale_mode, d->c_scale_mode, d->d_scale_mode,
                             d->aux_scale_mode, d->d_out_scale_mode}) {
    if (mode != CUBLASLT_MATMUL_MATRIX_SCALE_SCALAR_32F)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                  "scale mode {} (block scaling needs compute capability 10.0)", mode);
  }
  // Scale factors exist for FP8 matrices only (cublasLt.h: INVALID_VALUE otherwise).
  if ((d->a_scale != nullptr && !is_fp8(at)) || (d->b_scale != nullptr && !is_fp8(bt)) ||
      (d->c_scale != nullptr && !fp8) || (d->d_scale != nullptr && !is_fp8(ld->type)) ||
      (d->amax_d != nullptr && !fp8))
    return invalid(function, "a scale or amax pointer is set for a matrix that is not FP8");
  if (d->aux_scale != nullptr || d->aux_amax != nullptr || d->d_out_scale != nullptr)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "EPILOGUE_AUX_SCALE/AMAX and D_OUT_SCALE pointers");
  const int32_t pm = d->pointer_mode;
  const bool vector_mode = pm == CUBLASLT_POINTER_MODE_DEVICE_VECTOR ||
                           pm == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO ||
                           pm == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
  if (pm != CUBLASLT_POINTER_MODE_HOST && pm != CUBLASLT_POINTER_MODE_DEVICE && !vector_mode)
    return invalid(function, "POINTER_MODE = {}", pm);
  if (pm == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO &&
      d->alpha_vector_batch_stride != 0)
    return invalid(function,
                   "ALPHA_VECTOR_BATCH_STRIDE must be 0 with ALPHA_DEVICE_VECTOR_BETA_ZERO");
  if (vector_mode && fp8)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "vector pointer modes with FP8");
  const std::string base =
      fp8 ? std::string()
          : gemm_kernel_name(*row, gemm_rounding(static_cast<cublasComputeType_t>(d->compute_type),
                                                 CUBLAS_DEFAULT_MATH));

  // The problem the kernel solves.
  const bool d_row = ld->order == CUBLASLT_ORDER_ROW;
  const bool complex = is_complex(la->type);
  const Operand oa = view_op(d->transa, la->order == CUBLASLT_ORDER_ROW, d_row, complex);
  const Operand ob = view_op(d->transb, lb->order == CUBLASLT_ORDER_ROW, d_row, complex);
  if (!oa.ok || !ob.ok)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "CUBLAS_OP_C on a row-major complex matrix of a column-major problem");
  GemmParams& p = out->params;
  p = GemmParams{};
  p.m = d_row ? n : m;
  p.n = d_row ? m : n;
  p.k = k;
  const LayoutState* first = d_row ? lb : la;  // the kernel's A
  const LayoutState* second = d_row ? la : lb;
  p.op_a = d_row ? ob.op : oa.op;
  p.op_b = d_row ? oa.op : ob.op;
  p.lda = first->ld, p.stride_a = first->strided_batch_offset;
  p.ldb = second->ld, p.stride_b = second->strided_batch_offset;
  p.ldc = ld->ld, p.stride_c = ld->strided_batch_offset;
  p.ldc_in = lc->ld, p.stride_c_in = lc->strided_batch_offset;
  p.batch_count = batch;
  out->scale = fp8 ? CUDA_R_32F : row->scale;
  out->fp8 = fp8;
  const auto array = [](const LayoutState* l) {
    return l->batch_mode == CUBLASLT_BATCH_MODE_POINTER_ARRAY;
  };
  out->a_array = array(la), out->b_array = array(lb);
  out->c_array = array(lc), out->d_array = array(ld);
  const bool arrays = out->a_array || out->b_array || out->c_array || out->d_array;
  if (arrays && fp8)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "pointer-array batches with FP8");

  // The epilogue.
  const uint32_t e = d->epilogue;
  int32_t activation = strata_blas::kLtNone;
  bool bias = false, aux = false;
  BgradSource bgrad = BgradSource::kNone;
  switch (e) {
    case CUBLASLT_EPILOGUE_DEFAULT:
      break;
    case CUBLASLT_EPILOGUE_RELU:
      activation = strata_blas::kLtRelu;
      break;
    case CUBLASLT_EPILOGUE_RELU_AUX:
      activation = strata_blas::kLtRelu, aux = true;
      break;
    case CUBLASLT_EPILOGUE_BIAS:
      bias = true;
      break;
    case CUBLASLT_EPILOGUE_RELU_BIAS:
      activation = strata_blas::kLtRelu, bias = true;
      break;
    case CUBLASLT_EPILOGUE_RELU_AUX_BIAS:
      activation = strata_blas::kLtRelu, bias = true, aux = true;
      break;
    case CUBLASLT_EPILOGUE_GELU:
      activation = strata_blas::kLtGelu;
      break;
    case CUBLASLT_EPILOGUE_GELU_AUX:
      activation = strata_blas::kLtGelu, aux = true;
      break;
    case CUBLASLT_EPILOGUE_GELU_BIAS:
      activation = strata_blas::kLtGelu, bias = true;
      break;
    case CUBLASLT_EPILOGUE_GELU_AUX_BIAS:
      activation = strata_blas::kLtGelu, bias = true, aux = true;
      break;
    case CUBLASLT_EPILOGUE_DRELU:
      activation = strata_blas::kLtDRelu, aux = true;
      break;
    case CUBLASLT_EPILOGUE_DRELU_BGRAD:
      activation = strata_blas::kLtDRelu, aux = true, bgrad = BgradSource::kD;
      break;
    case CUBLASLT_EPILOGUE_DGELU:
      activation = strata_blas::kLtDGelu, aux = true;
      break;
    case CUBLASLT_EPILOGUE_DGELU_BGRAD:
      activation = strata_blas::kLtDGelu, aux = true, bgrad = BgradSource::kD;
      break;
    case CUBLASLT_EPILOGUE_BGRADA:
      bgrad = BgradSource::kA;
      break;
    case CUBLASLT_EPILOGUE_BGRADB:
      bgrad = BgradSource::kB;
      break;
    default:
      return invalid(function, "EPILOGUE = {} is not a cublasLtEpilogue_t", e);
  }
  const bool backward = activation == strata_blas::kLtDRelu ||
                        activation == strata_blas::kLtDGelu || bgrad != BgradSource::kNone;
  if (fp8 && backward)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "backward epilogue {} with FP8", e);
  if (arrays && (bgrad != BgradSource::kNone || vector_mode))
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "pointer-array batches with epilogue {} or pointer mode {}", e, pm);
  out->scaled = fp8 || vector_mode;
  out->alpha_vector = vector_mode;
  out->bgrad = bgrad;
  const bool functor = fp8 || vector_mode || activation != strata_blas::kLtNone || bias;
  out->epilogue = functor;
  LtEpilogue& lt = out->lt;
  lt = LtEpilogue{};
  lt.activation = activation;
  lt.on_cols = d_row;
  if (!functor) {
    out->kernel = base;
  } else if (fp8) {
    out->kernel = "strata_blas_lt_fp8";
    element_of(at, &out->fp8_types.a);
    element_of(bt, &out->fp8_types.b);
    element_of(static_cast<int32_t>(ld->type), &out->fp8_types.d);
  } else {
    // Epilogues run on the FP32-compute kernels.
    if (std::find(std::begin(kLtEpilogueKernels), std::end(kLtEpilogueKernels), row->kernel) ==
        std::end(kLtEpilogueKernels))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                  "epilogue {} or pointer mode {} with types {}", e, pm, row->kernel);
    const std::string prefix = "strata_blas_gemm_";
    const std::string types = base.substr(prefix.size());
    out->kernel = prefix + "lt_" + types;
  }
  if (out->scaled && !element_of(static_cast<int32_t>(lc->type), &lt.c_type))
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "C type {}", lc->type);
  // The vectors' default element type: D's (FP8 outputs: C's; FP8 with an FP32 D: BF16).
  int32_t vector_type = static_cast<int32_t>(ld->type);
  if (fp8 && is_fp8(ld->type)) vector_type = static_cast<int32_t>(lc->type);
  if (fp8 && ld->type == CUDA_R_32F) vector_type = CUDA_R_16BF;
  if (d->bias_data_type != -1) vector_type = d->bias_data_type;
  if (bias) {
    if (!element_of(vector_type, &lt.bias_type) || is_fp8(vector_type))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "BIAS_DATA_TYPE {}", vector_type);
    lt.bias_batch_stride = d->bias_batch_stride;
    lt.bias = d->bias;  // checked non-null by the caller (the heuristic has no pointers)
  }
  if (aux) {
    if (d_row)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "an aux matrix with a row-major D");
    const bool relu = activation == strata_blas::kLtRelu || activation == strata_blas::kLtDRelu;
    const int64_t align = relu ? 128 : 8;  // a ReLU bit-mask's ld is in bits
    if (d->aux_ld < m || d->aux_ld % align != 0)
      return invalid(function, "EPILOGUE_AUX_LD = {}: a multiple of {}, at least m = {}", d->aux_ld,
                     align, m);
    if (d->aux_batch_stride % align != 0)
      return invalid(function, "EPILOGUE_AUX_BATCH_STRIDE = {} is not a multiple of {}",
                     d->aux_batch_stride, align);
    if (relu) {
      lt.aux_bits = 1;
    } else {
      const int32_t type =
          d->aux_data_type == -1 ? static_cast<int32_t>(ld->type) : d->aux_data_type;
      if (!element_of(type, &lt.aux_type) || is_fp8(type))
        return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "EPILOGUE_AUX_DATA_TYPE {}", type);
    }
    lt.aux = d->aux;
    lt.aux_ld = d->aux_ld;
    lt.aux_batch_stride = d->aux_batch_stride;
  }
  if (bgrad != BgradSource::kNone) {
    // The bias gradient: D's rows (BGRADA, and the D reductions) or columns (BGRADB).
    strata_blas::LtReduce& r = out->reduce;
    r = strata_blas::LtReduce{};
    if (!element_of(vector_type, &r.out_type) || is_fp8(vector_type))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "BIAS_DATA_TYPE {}", vector_type);
    // Storage offset of element (i, j) of a layout: (step of i, step of j).
    const auto steps = [](const LayoutState* l, bool transposed) {
      const int64_t row_step = l->order == CUBLASLT_ORDER_COL ? 1 : l->ld;
      const int64_t col_step = l->order == CUBLASLT_ORDER_COL ? l->ld : 1;
      return transposed ? std::pair<int64_t, int64_t>{col_step, row_step}
                        : std::pair<int64_t, int64_t>{row_step, col_step};
    };
    const LayoutState* src = bgrad == BgradSource::kA ? la : bgrad == BgradSource::kB ? lb : ld;
    if (!element_of(static_cast<int32_t>(src->type), &r.x_type))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "bias gradient of type {}", src->type);
    if ((r.x_type == strata_blas::kLtF64) != (r.out_type == strata_blas::kLtF64))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "an FP64 bias gradient of another type");
    if (bgrad == BgradSource::kA) {  // sum over k of op(A)[i, k], i < m
      const auto [si, sk] = steps(la, ta);
      r.count = m, r.len = k, r.s_i = si, r.s_j = sk;
    } else if (bgrad == BgradSource::kB) {  // sum over k of op(B)[k, j], j < n
      const auto [sk, sj] = steps(lb, tb);
      r.count = n, r.len = k, r.s_i = sj, r.s_j = sk;
    } else {  // sum over the columns of D, each row i < m
      const auto [si, sj] = steps(ld, false);
      r.count = m, r.len = n, r.s_i = si, r.s_j = sj;
    }
    r.s_batch = src->strided_batch_offset;
    r.batch_count = batch;
    r.out_batch_stride = d->bias_batch_stride;
  }
  return CUBLAS_STATUS_SUCCESS;
}

// The FP8 tensor-core kernel's base name (kernels/lt_fp8_tc.cuh; launch_gemm_on adds the
// tile and layout) where gemm.h's selection takes one for the launch's pointers: the TN
// layout, cp.async-aligned operands, a tile in the table. Empty: the FP8 kernel p.kernel.
std::string fp8_tc_kernel(const Plan& p, int sms) {
  if (p.params.op_a != strata_blas::kGemmOpT || p.params.op_b != strata_blas::kGemmOpN) return {};
  const auto name = [](int32_t e) { return e == strata_blas::kLtE4M3 ? "e4m3" : "e5m2"; };
  const std::string kernel =
      std::string("strata_blas_gemm_lt_f8_") + name(p.fp8_types.a) + "_" + name(p.fp8_types.b);
  return select_gemm_tc(kernel, p.params, sms) != nullptr ? kernel : std::string();
}

// Whether a host scalar of the scale type equals `value` (gemm.h's reader).
bool host_is(cudaDataType scale, const void* p, double value) {
  bool is = false;
  gemm_detail::with_scale_type(scale, [&](auto tag) {
    is = gemm_detail::host_is<decltype(tag)>(p, value);
    return CUBLAS_STATUS_SUCCESS;
  });
  return is;
}

}  // namespace
}  // namespace strata::blas

using namespace strata::blas;  // NOLINT: the entry points below are its public face

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtMatmul(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc, const void* alpha,
    const void* A, cublasLtMatrixLayout_t Adesc, const void* B, cublasLtMatrixLayout_t Bdesc,
    const void* beta, const void* C, cublasLtMatrixLayout_t Cdesc, void* D,
    cublasLtMatrixLayout_t Ddesc, const cublasLtMatmulAlgo_t* algo, void* workspace,
    size_t workspaceSizeInBytes, cudaStream_t stream) {
  const char* function = "cublasLtMatmul";
  (void)algo, (void)workspace, (void)workspaceSizeInBytes;  // one kernel, no workspace
  Handle* h = handle_of(lightHandle);
  if (h == nullptr) return bad_handle(function, lightHandle);
  if (const cublasStatus_t s0 = lt_matmul_begin(function, computeDesc, A, Adesc, B, Bdesc, C, Cdesc,
                                                D, Ddesc, algo, workspaceSizeInBytes, stream);
      s0 != CUBLAS_STATUS_SUCCESS)
    return s0;  // logs the call, checks a non-null algo (lt_algo.h)
  const MatmulDescState* d = matmul_desc_of(computeDesc);
  Plan p;
  const cublasStatus_t s = plan(function, *h, d, layout_of(Adesc), layout_of(Bdesc),
                                layout_of(Cdesc), layout_of(Ddesc), &p);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  const int32_t pm = d->pointer_mode;
  const bool beta_zero = pm == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO;
  if (alpha == nullptr || (beta == nullptr && !beta_zero))
    return invalid(function, "alpha or beta is null");
  if (p.params.m == 0 || p.params.n == 0 || p.params.batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  // Host scalars: beta == 0 means C is not read, alpha == 0 that A and B are not.
  const bool host_alpha = pm == CUBLASLT_POINTER_MODE_HOST;
  const bool host_beta =
      pm == CUBLASLT_POINTER_MODE_HOST || pm == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST;
  const bool reads_c = !beta_zero && (!host_beta || !host_is(p.scale, beta, 0.0));
  const bool reads_ab = p.params.k > 0 && (!host_alpha || !host_is(p.scale, alpha, 0.0));
  if (D == nullptr) return invalid(function, "D is null");
  if (reads_c && C == nullptr) return invalid(function, "C is null and beta is not 0");
  if (reads_ab && (A == nullptr || B == nullptr)) return invalid(function, "A or B is null");
  const bool d_row = layout_of(Ddesc)->order == CUBLASLT_ORDER_ROW;
  // The kernel's operands: each a matrix, or a pointer array (its layout's batch mode).
  const auto operand = [](const void* x, bool array, const void** matrix,
                          const void* const** matrices) {
    *matrix = array ? nullptr : x;
    *matrices = array ? static_cast<const void* const*>(x) : nullptr;
  };
  operand(d_row ? B : A, d_row ? p.b_array : p.a_array, &p.params.a, &p.params.a_array);
  operand(d_row ? A : B, d_row ? p.a_array : p.b_array, &p.params.b, &p.params.b_array);
  operand(C != nullptr ? C : D, C != nullptr ? p.c_array : p.d_array, &p.params.c_in,
          &p.params.c_in_array);
  p.params.c = p.d_array ? nullptr : D;
  p.params.c_array = p.d_array ? static_cast<void* const*>(D) : nullptr;
  const uint32_t e = d->epilogue;
  const bool bias = e == CUBLASLT_EPILOGUE_BIAS || e == CUBLASLT_EPILOGUE_RELU_BIAS ||
                    e == CUBLASLT_EPILOGUE_RELU_AUX_BIAS || e == CUBLASLT_EPILOGUE_GELU_BIAS ||
                    e == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  if (bias && p.lt.bias == nullptr) return invalid(function, "BIAS_POINTER is null");
  if (p.lt.aux_ld != 0 && p.lt.aux == nullptr)
    return invalid(function, "EPILOGUE_AUX_POINTER is null");
  if (p.bgrad != BgradSource::kNone) {
    if (d->bias == nullptr) return invalid(function, "BIAS_POINTER (the bias gradient) is null");
    if ((p.bgrad == BgradSource::kA && A == nullptr) ||
        (p.bgrad == BgradSource::kB && B == nullptr))
      return invalid(function, "the bias gradient's input matrix is null");
    p.reduce.x = p.bgrad == BgradSource::kA ? A : p.bgrad == BgradSource::kB ? B : D;
    p.reduce.out = const_cast<void*>(d->bias);  // an output for the gradients
  }
  if (p.scaled) {
    LtEpilogue& lt = p.lt;
    lt.scaled = 1;
    lt.c = reads_c ? C : nullptr;
    lt.ldc = p.params.ldc_in, lt.stride_c = p.params.stride_c_in;
    const auto* beta_f = static_cast<const float*>(beta);
    if (p.alpha_vector) {
      lt.alpha_vec = static_cast<const float*>(alpha);
      lt.alpha_vec_batch_stride = d->alpha_vector_batch_stride;
    }
    if (pm == CUBLASLT_POINTER_MODE_DEVICE_VECTOR) {
      lt.beta_vec = beta_f;
    } else if (pm == CUBLASLT_POINTER_MODE_DEVICE) {
      lt.beta_ptr = beta_f;
    } else if (host_beta) {
      lt.beta_value = *beta_f;
    }
    if (!reads_c) lt.beta_vec = nullptr, lt.beta_ptr = nullptr, lt.beta_value = 0.0f;
    if (p.fp8) {
      lt.a_scale = static_cast<const float*>(d->a_scale);
      lt.b_scale = static_cast<const float*>(d->b_scale);
      lt.c_scale = static_cast<const float*>(d->c_scale);
      lt.d_scale = static_cast<const float*>(d->d_scale);
      lt.amax_d = static_cast<float*>(d->amax_d);
      if (lt.amax_d != nullptr &&
          cudaMemsetAsync(lt.amax_d, 0, sizeof(float), stream) != cudaSuccess)
        return fail(CUBLAS_STATUS_EXECUTION_FAILED, function, "clearing AMAX_D failed");
    }
  }
  const cublasStatus_t status =
      gemm_detail::with_scale_type(p.scale, [&](auto tag) -> cublasStatus_t {
        using T = decltype(tag);
        const auto* a = static_cast<const T*>(alpha);
        const auto* b = static_cast<const T*>(beta);
        strata_blas::Scalar<T> alpha_arg =
            host_alpha ? strata_blas::Scalar<T>{*a, nullptr} : strata_blas::Scalar<T>{T{}, a};
        strata_blas::Scalar<T> beta_arg =
            pm == CUBLASLT_POINTER_MODE_DEVICE
                ? strata_blas::Scalar<T>{T{}, b}
                : strata_blas::Scalar<T>{host_beta ? *b : T{}, nullptr};
        if (p.scaled) beta_arg = strata_blas::Scalar<T>{T{}, nullptr};  // the epilogue adds C
        if (p.alpha_vector) alpha_arg = strata_blas::Scalar<T>{T{1}, nullptr};
        if (p.fp8) {
          if constexpr (std::is_same_v<T, float>) {
            const std::string tc = fp8_tc_kernel(p, h->sm_count);
            return launch_gemm_on(*h, stream, function, tc.empty() ? p.kernel : tc, p.params,
                                  alpha_arg, beta_arg, p.lt, p.fp8_types);
          }
          return fail(CUBLAS_STATUS_INTERNAL_ERROR, function,
                      "FP8 with a scale type other than FP32");
        }
        if (p.epilogue)
          return launch_gemm_on(*h, stream, function, p.kernel, p.params, alpha_arg, beta_arg,
                                p.lt);
        return launch_gemm_on(*h, stream, function, p.kernel, p.params, alpha_arg, beta_arg);
      });
  if (status != CUBLAS_STATUS_SUCCESS || p.bgrad == BgradSource::kNone) return status;
  const int64_t blocks =
      (p.reduce.count + strata_blas::kLtReduceThreads - 1) / strata_blas::kLtReduceThreads;
  if (blocks == 0) return CUBLAS_STATUS_SUCCESS;
  const dim3 grid(static_cast<unsigned>(blocks),
                  static_cast<unsigned>(std::min<int64_t>(p.reduce.batch_count, 65535)));
  return launch_on(*h, stream, function, "strata_blas_lt_reduce", grid,
                   dim3(strata_blas::kLtReduceThreads), 0, p.reduce);
}

cublasStatus_t CUBLASWINAPI cublasLtMatmulAlgoGetHeuristic(
    cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc, cublasLtMatrixLayout_t Adesc,
    cublasLtMatrixLayout_t Bdesc, cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
    cublasLtMatmulPreference_t preference, int requestedAlgoCount,
    cublasLtMatmulHeuristicResult_t heuristicResultsArray[], int* returnAlgoCount) {
  const char* function = "cublasLtMatmulAlgoGetHeuristic";
  Handle* h = handle_of(lightHandle);
  if (h == nullptr) return bad_handle(function, lightHandle);
  if (requestedAlgoCount <= 0)
    return invalid(function, "requestedAlgoCount = {} <= 0", requestedAlgoCount);
  if (heuristicResultsArray == nullptr || returnAlgoCount == nullptr)
    return invalid(function, "a null output");
  if (preference != nullptr && preference_of(preference) == nullptr)
    return invalid(function, "the preference is not initialised");
  *returnAlgoCount = 0;
  Plan p;
  const cublasStatus_t s = plan(function, *h, matmul_desc_of(operationDesc), layout_of(Adesc),
                                layout_of(Bdesc), layout_of(Cdesc), layout_of(Ddesc), &p);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  cublasLtMatmulHeuristicResult_t& r = heuristicResultsArray[0];
  if (!heuristic_result(preference_of(preference),
                        algo_types_of(*matmul_desc_of(operationDesc), *layout_of(Adesc),
                                      *layout_of(Bdesc), *layout_of(Cdesc), *layout_of(Ddesc)),
                        kAlgoId, &r))
    return CUBLAS_STATUS_SUCCESS;  // LIMITED_BY_ALGO_ID, an algorithm Strata lacks: no result
  r.workspaceSize = 0;
  r.state = CUBLAS_STATUS_SUCCESS;
  int sms = 1;
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, h->device);
  const double tiles = static_cast<double>((p.params.m + 63) / 64) *
                       static_cast<double>((p.params.n + 63) / 64) *
                       static_cast<double>(std::max<int64_t>(1, p.params.batch_count));
  r.wavesCount = static_cast<float>(tiles / std::max(1, sms));
  *returnAlgoCount = 1;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
