// cublasLtMatmul and cublasLtMatmulAlgoGetHeuristic (cublasLt.h):
//   D = epilogue(alpha op(A) op(B) + beta C)
// on the GEMM tile kernel (gemm.h, kernels/gemm.cuh), with C read from its own layout
// and D written to another (they may alias). Matrices may be column- or row-major
// (CUBLASLT_ORDER_COL / ROW): a row-major matrix is the column-major view of its
// transpose, so operations flip, and a row-major D is computed as D^T = op(B)^T op(A)^T.
// Strided batches come from the layouts. Epilogues: DEFAULT, RELU, BIAS, RELU_BIAS, GELU,
// GELU_BIAS and the _AUX forms (kernels/lt_epilogue.h); the backward ones (DRELU, DGELU,
// BGRADA, BGRADB) return CUBLAS_STATUS_NOT_SUPPORTED for now. The algorithm and workspace
// are ignored (a null algorithm and no workspace are accepted, as NVIDIA's library does):
// one kernel serves each type combination and needs no workspace.
#include <cublasLt.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "blas/gemm.h"
#include "blas/handle.h"
#include "blas/kernels.h"
#include "blas/kernels/lt_epilogue.h"
#include "blas/lt_desc.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::LtEpilogue;

// The algorithm id Strata's heuristic returns (cublasLtMatmulAlgo_t::data[0]).
constexpr uint64_t kAlgoId = 1;

struct Plan {
  GemmParams params{};
  std::string kernel;
  cudaDataType scale = CUDA_R_32F;
  bool epilogue = false;
  LtEpilogue lt{};
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
cublasStatus_t plan(const char* function, const MatmulDescState* d, const LayoutState* la,
                    const LayoutState* lb, const LayoutState* lc, const LayoutState* ld,
                    Plan* out) {
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
    if (l->batch_mode != CUBLASLT_BATCH_MODE_STRIDED)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "pointer-array batches");
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
  const GemmTypeRow* row = find_gemm_types(at, bt, ct, compute);
  if (row == nullptr || ld->type != lc->type || d->scale_type != row->scale) {
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                "A {}, B {}, C {}, D {}, compute {}, scale {} is not a supported combination",
                la->type, lb->type, lc->type, ld->type, d->compute_type, d->scale_type);
  }
  if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST &&
      d->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "POINTER_MODE {}", d->pointer_mode);
  const std::string base = gemm_kernel_name(
      *row, gemm_rounding(static_cast<cublasComputeType_t>(d->compute_type), CUBLAS_DEFAULT_MATH));

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
  out->scale = row->scale;

  // The epilogue.
  const uint32_t e = d->epilogue;
  int32_t activation = strata_blas::kLtNone;
  bool bias = false, aux = false;
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
    case CUBLASLT_EPILOGUE_DRELU_BGRAD:
    case CUBLASLT_EPILOGUE_DGELU:
    case CUBLASLT_EPILOGUE_DGELU_BGRAD:
    case CUBLASLT_EPILOGUE_BGRADA:
    case CUBLASLT_EPILOGUE_BGRADB:
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "epilogue {} (backward epilogues)", e);
    default:
      return invalid(function, "EPILOGUE = {} is not a cublasLtEpilogue_t", e);
  }
  out->epilogue = e != CUBLASLT_EPILOGUE_DEFAULT;
  if (!out->epilogue) {
    out->kernel = base;
    return CUBLAS_STATUS_SUCCESS;
  }
  // Epilogues run on the FP32-compute kernels.
  const std::string prefix = "strata_blas_gemm_";
  const std::string types = base.substr(prefix.size());
  static const char* const kLtTypes[] = {"s_s_s", "s_s_s_tf32", "s_s_s_f16", "s_s_s_bf16",
                                         "h_h_s", "h_s_s",      "bf_bf_s",   "bf_s_s"};
  if (std::find(std::begin(kLtTypes), std::end(kLtTypes), types) == std::end(kLtTypes))
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "epilogue {} with types {}", e, types);
  out->kernel = prefix + "lt_" + types;
  LtEpilogue& lt = out->lt;
  lt = LtEpilogue{};
  lt.activation = activation;
  lt.bias_on_cols = d_row;
  if (bias) {
    const int32_t type =
        d->bias_data_type == -1 ? static_cast<int32_t>(ld->type) : d->bias_data_type;
    if (!element_of(type, &lt.bias_type))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "BIAS_DATA_TYPE {}", type);
    lt.bias_batch_stride = d->bias_batch_stride;
    lt.bias = d->bias;  // checked non-null by the caller (the heuristic has no pointers)
  }
  if (aux) {
    if (d_row)
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "an aux output with a row-major D");
    const int32_t type = d->aux_data_type == -1 ? static_cast<int32_t>(ld->type) : d->aux_data_type;
    if (!element_of(type, &lt.aux_type))
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "EPILOGUE_AUX_DATA_TYPE {}", type);
    if (d->aux_ld < m || d->aux_ld % 8 != 0)
      return invalid(function, "EPILOGUE_AUX_LD = {}: a multiple of 8, at least m = {}", d->aux_ld,
                     m);
    if (d->aux_batch_stride % 8 != 0)
      return invalid(function, "EPILOGUE_AUX_BATCH_STRIDE = {} is not a multiple of 8",
                     d->aux_batch_stride);
    lt.aux = d->aux;
    lt.aux_ld = d->aux_ld;
    lt.aux_batch_stride = d->aux_batch_stride;
  }
  return CUBLAS_STATUS_SUCCESS;
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
  const MatmulDescState* d = matmul_desc_of(computeDesc);
  Plan p;
  const cublasStatus_t s =
      plan(function, d, layout_of(Adesc), layout_of(Bdesc), layout_of(Cdesc), layout_of(Ddesc), &p);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  if (alpha == nullptr || beta == nullptr) return invalid(function, "alpha or beta is null");
  if (p.params.m == 0 || p.params.n == 0 || p.params.batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  const bool device = d->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE;
  // With host scalars, beta == 0 means C is not read, alpha == 0 that A and B are not.
  const bool reads_c = device || !host_is(p.scale, beta, 0.0);
  const bool reads_ab = device || (!host_is(p.scale, alpha, 0.0) && p.params.k > 0);
  if (D == nullptr) return invalid(function, "D is null");
  if (reads_c && C == nullptr) return invalid(function, "C is null and beta is not 0");
  if (reads_ab && (A == nullptr || B == nullptr)) return invalid(function, "A or B is null");
  const bool d_row = layout_of(Ddesc)->order == CUBLASLT_ORDER_ROW;
  p.params.a = d_row ? B : A;
  p.params.b = d_row ? A : B;
  p.params.c = D;
  p.params.c_in = C != nullptr ? C : D;
  if (p.epilogue) {
    const uint32_t e = d->epilogue;
    const bool bias = e == CUBLASLT_EPILOGUE_BIAS || e == CUBLASLT_EPILOGUE_RELU_BIAS ||
                      e == CUBLASLT_EPILOGUE_RELU_AUX_BIAS || e == CUBLASLT_EPILOGUE_GELU_BIAS ||
                      e == CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
    if (bias && p.lt.bias == nullptr) return invalid(function, "BIAS_POINTER is null");
    if (p.lt.aux_ld != 0 && p.lt.aux == nullptr)
      return invalid(function, "EPILOGUE_AUX_POINTER is null");
  }
  return gemm_detail::with_scale_type(p.scale, [&](auto tag) -> cublasStatus_t {
    using T = decltype(tag);
    const auto* a = static_cast<const T*>(alpha);
    const auto* b = static_cast<const T*>(beta);
    const strata_blas::Scalar<T> alpha_arg =
        device ? strata_blas::Scalar<T>{T{}, a} : strata_blas::Scalar<T>{*a, nullptr};
    const strata_blas::Scalar<T> beta_arg =
        device ? strata_blas::Scalar<T>{T{}, b} : strata_blas::Scalar<T>{*b, nullptr};
    const int64_t row_tiles = (p.params.m + 63) / 64, col_tiles = (p.params.n + 63) / 64;
    const dim3 grid(static_cast<unsigned>(row_tiles),
                    static_cast<unsigned>(std::min<int64_t>(col_tiles, 65535)),
                    static_cast<unsigned>(std::min<int64_t>(p.params.batch_count, 65535)));
    if (p.epilogue)
      return launch_on(*h, stream, function, p.kernel.c_str(), grid, dim3(256), 0, p.params,
                       alpha_arg, beta_arg, p.lt);
    return launch_on(*h, stream, function, p.kernel.c_str(), grid, dim3(256), 0, p.params,
                     alpha_arg, beta_arg);
  });
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
  const cublasStatus_t s = plan(function, matmul_desc_of(operationDesc), layout_of(Adesc),
                                layout_of(Bdesc), layout_of(Cdesc), layout_of(Ddesc), &p);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  cublasLtMatmulHeuristicResult_t& r = heuristicResultsArray[0];
  std::memset(&r, 0, sizeof(r));
  r.algo.data[0] = kAlgoId;
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
