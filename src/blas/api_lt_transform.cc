// cublasLtMatrixTransform (cublasLt.h): C = alpha op(A) + beta op(B), elementwise, on the
// kernels of kernels/lt_transform.cuh. The transform descriptor (lt_desc.h) gives the
// scale type, pointer mode and the operations of A and B.
//
// Supported: matrices of order COL, ROW, COL32 or COL32_2R_4R4 (COL4_4R2_8C, whose layout
// within a tile cublasLt.h does not define, and planar complex layouts are
// CUBLAS_STATUS_NOT_SUPPORTED);
// scale type CUDA_R_32F with A, B, C each of CUDA_R_32F, R_16F, R_16BF, R_8I or R_32I
// (integer results round to nearest and saturate), CUDA_R_64F with R_64F matrices,
// CUDA_C_32F with C_32F and CUDA_C_64F with C_64F; host or device scalars; strided
// batches (A's and B's batch counts equal C's, or 1 with a stride of 0 to broadcast).
// A null A (or B) leaves its term out, and so does a zero alpha (or beta) read on the
// host: the matrix is then not read (NaN there does not reach C); device scalars equal to
// zero are likewise never multiplied by the matrix.
//
// Statuses: CUBLAS_STATUS_NOT_INITIALIZED for a bad handle; CUBLAS_STATUS_INVALID_VALUE
// for a null or uninitialised descriptor, a non-null matrix without its layout, null C,
// alpha or beta, a leading dimension below the order's minimum, shapes or batch counts
// that do not agree, an operation other than N/T/C; CUBLAS_STATUS_NOT_SUPPORTED as above.
#include <cublasLt.h>

#include <algorithm>
#include <cstdint>

#include "blas/args.h"
#include "blas/gemm.h"
#include "blas/handle.h"
#include "blas/kernels.h"
#include "blas/kernels/lt_transform_params.h"
#include "blas/lt_desc.h"
#include "blas/lt_log.h"
#include "blas/status.h"

namespace strata::blas {
namespace {

using strata_blas::LtTransformMatrix;
using strata_blas::LtTransformParams;

bool real_32f_family(uint32_t type) {
  return type == CUDA_R_32F || type == CUDA_R_16F || type == CUDA_R_16BF || type == CUDA_R_8I ||
         type == CUDA_R_32I;
}

// Whether a matrix of `type` may take part with scale type `scale`.
bool type_fits(int32_t scale, uint32_t type) {
  switch (scale) {
    case CUDA_R_32F:
      return real_32f_family(type);
    case CUDA_R_64F:
      return type == CUDA_R_64F;
    case CUDA_C_32F:
      return type == CUDA_C_32F;
    case CUDA_C_64F:
      return type == CUDA_C_64F;
  }
  return false;
}

const char* kernel_of(int32_t scale) {
  switch (scale) {
    case CUDA_R_32F:
      return "strata_blas_lt_transform_s";
    case CUDA_R_64F:
      return "strata_blas_lt_transform_d";
    case CUDA_C_32F:
      return "strata_blas_lt_transform_c";
    default:
      return "strata_blas_lt_transform_z";
  }
}

// Fills `out` for a matrix of the op(X) shape rows x cols (C's), checking its layout.
cublasStatus_t matrix_of(const char* function, const char* name, const LayoutState& l,
                         int32_t scale, int32_t op, int64_t rows, int64_t cols, int32_t batch,
                         const void* data, LtTransformMatrix* out) {
  if (!type_fits(scale, l.type))
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "{} of type {} with scale type {}", name,
                l.type, scale);
  if (l.batch_mode != CUBLASLT_BATCH_MODE_STRIDED)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "{}: pointer-array batches", name);
  if (l.plane_offset != 0)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "{}: planar complex layouts", name);
  int32_t order;
  uint64_t min_ld;
  switch (l.order) {
    case CUBLASLT_ORDER_COL:
      order = strata_blas::kLtTransformCol, min_ld = l.rows;
      break;
    case CUBLASLT_ORDER_ROW:
      order = strata_blas::kLtTransformRow, min_ld = l.cols;
      break;
    case CUBLASLT_ORDER_COL32:
      order = strata_blas::kLtTransformCol32, min_ld = 32 * l.rows;
      break;
    case CUBLASLT_ORDER_COL32_2R_4R4:
      order = strata_blas::kLtTransformCol32_2R_4R4, min_ld = 1024 * ((l.rows + 31) / 32);
      break;
    default:
      return fail(CUBLAS_STATUS_NOT_SUPPORTED, function,
                  "{}: matrix order {} (COL, ROW, COL32, COL32_2R_4R4)", name, l.order);
  }
  if (l.ld < 0 || static_cast<uint64_t>(l.ld) < std::max<uint64_t>(1, min_ld))
    return invalid(function, "{}: ld = {} is below {}", name, l.ld, std::max<uint64_t>(1, min_ld));
  const bool t = op != CUBLAS_OP_N;
  const uint64_t want_rows = static_cast<uint64_t>(t ? cols : rows);
  const uint64_t want_cols = static_cast<uint64_t>(t ? rows : cols);
  if (l.rows != want_rows || l.cols != want_cols)
    return invalid(function, "{} is {}x{}, op({}) must be {}x{}", name, l.rows, l.cols, name, rows,
                   cols);
  const bool broadcast = l.batch_count == 1 && l.strided_batch_offset == 0;
  if (l.batch_count != batch && !broadcast)
    return invalid(function, "{}'s batch count {} is not C's {}", name, l.batch_count, batch);
  *out = LtTransformMatrix{data, static_cast<int32_t>(l.type),           order,
                           l.ld, broadcast ? 0 : l.strided_batch_offset, op};
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace
}  // namespace strata::blas

using namespace strata::blas;  // NOLINT: the entry points below are its public face

extern "C" {

cublasStatus_t CUBLASWINAPI cublasLtMatrixTransform(
    cublasLtHandle_t lightHandle, cublasLtMatrixTransformDesc_t transformDesc, const void* alpha,
    const void* A, cublasLtMatrixLayout_t Adesc, const void* beta, const void* B,
    cublasLtMatrixLayout_t Bdesc, void* C, cublasLtMatrixLayout_t Cdesc, cudaStream_t stream) {
  const char* function = "cublasLtMatrixTransform";
  lt_log(kLtLogTrace, function, "A={} Adesc={} B={} Bdesc={} C={} Cdesc={} stream={}", A,
         static_cast<const void*>(Adesc), B, static_cast<const void*>(Bdesc),
         static_cast<const void*>(C), static_cast<const void*>(Cdesc),
         static_cast<const void*>(stream));
  Handle* h = handle_of(lightHandle);
  if (h == nullptr) return bad_handle(function, lightHandle);
  const TransformDescState* d = transform_desc_of(transformDesc);
  if (d == nullptr) return invalid(function, "the transform descriptor is null or not initialised");
  const LayoutState* lc = layout_of(Cdesc);
  if (lc == nullptr || C == nullptr) return invalid(function, "C or its layout is null");
  const LayoutState* la = layout_of(Adesc);
  const LayoutState* lb = layout_of(Bdesc);
  if ((A != nullptr && la == nullptr) || (B != nullptr && lb == nullptr))
    return invalid(function, "A or B is not null but its layout is null or not initialised");
  if (alpha == nullptr || beta == nullptr) return invalid(function, "alpha or beta is null");
  for (const int32_t op : {d->transa, d->transb}) {
    if (op != CUBLAS_OP_N && op != CUBLAS_OP_T && op != CUBLAS_OP_C)
      return invalid(function, "TRANSA = {}, TRANSB = {}", d->transa, d->transb);
  }
  const int32_t scale = d->scale_type;
  if (scale != CUDA_R_32F && scale != CUDA_R_64F && scale != CUDA_C_32F && scale != CUDA_C_64F)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "SCALE_TYPE {}", scale);
  if (d->pointer_mode != CUBLASLT_POINTER_MODE_HOST &&
      d->pointer_mode != CUBLASLT_POINTER_MODE_DEVICE)
    return fail(CUBLAS_STATUS_NOT_SUPPORTED, function, "POINTER_MODE {}", d->pointer_mode);
  const bool device = d->pointer_mode == CUBLASLT_POINTER_MODE_DEVICE;
  // With host scalars a zero alpha (beta) leaves A (B) unread.
  const auto host_zero = [&](const void* s) {
    bool zero = false;
    gemm_detail::with_scale_type(static_cast<cudaDataType>(scale), [&](auto tag) {
      zero = gemm_detail::host_is<decltype(tag)>(s, 0.0);
      return CUBLAS_STATUS_SUCCESS;
    });
    return zero;
  };
  const void* a_data = (!device && host_zero(alpha)) ? nullptr : A;
  const void* b_data = (!device && host_zero(beta)) ? nullptr : B;

  LtTransformParams p{};
  p.rows = static_cast<int64_t>(lc->rows);
  p.cols = static_cast<int64_t>(lc->cols);
  p.batch_count = lc->batch_count;
  if (p.batch_count < 0) return invalid(function, "C's batch count {} < 0", lc->batch_count);
  cublasStatus_t s =
      matrix_of(function, "C", *lc, scale, CUBLAS_OP_N, p.rows, p.cols, lc->batch_count, C, &p.c);
  if (s != CUBLAS_STATUS_SUCCESS) return s;
  p.a = LtTransformMatrix{nullptr, CUDA_R_32F, 0, 1, 0, 0};
  p.b = p.a;
  if (la != nullptr) {
    s = matrix_of(function, "A", *la, scale, d->transa, p.rows, p.cols, lc->batch_count, a_data,
                  &p.a);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
  }
  if (lb != nullptr) {
    s = matrix_of(function, "B", *lb, scale, d->transb, p.rows, p.cols, lc->batch_count, b_data,
                  &p.b);
    if (s != CUBLAS_STATUS_SUCCESS) return s;
  }
  if (p.rows == 0 || p.cols == 0 || p.batch_count == 0) return CUBLAS_STATUS_SUCCESS;
  const dim3 grid = grid_for(p.rows * p.cols * p.batch_count);
  return gemm_detail::with_scale_type(static_cast<cudaDataType>(scale), [&](auto tag) {
    using T = decltype(tag);
    const auto* a = static_cast<const T*>(alpha);
    const auto* b = static_cast<const T*>(beta);
    const strata_blas::Scalar<T> alpha_arg =
        device ? strata_blas::Scalar<T>{T{}, a} : strata_blas::Scalar<T>{*a, nullptr};
    const strata_blas::Scalar<T> beta_arg =
        device ? strata_blas::Scalar<T>{T{}, b} : strata_blas::Scalar<T>{*b, nullptr};
    return launch_on(*h, stream, function, kernel_of(scale), grid, dim3(256), 0, p, alpha_arg,
                     beta_arg);
  });
}

}  // extern "C"
