// The problem a cublasLtMatrixTransform kernel (kernels/lt_transform.cuh) solves, shared
// by the host code that launches it (api_lt_transform.cc) and the kernel so both agree
// on its layout.
#pragma once

#include <cstdint>

namespace strata_blas {

// Matrix orders the kernel addresses (cublasLtOrder_t's COL, ROW, COL32 and COL32_2R_4R4).
enum : int32_t {
  kLtTransformCol = 0,
  kLtTransformRow = 1,
  kLtTransformCol32 = 2,
  kLtTransformCol32_2R_4R4 = 3
};

// One matrix: its data (null: not read), cudaDataType, order, leading dimension in
// elements, batch stride in elements, and the operation applied to it (0 N, 1 T, 2 C;
// always N for C).
struct LtTransformMatrix {
  const void* data;
  int32_t type;
  int32_t order;
  int64_t ld;
  int64_t batch_stride;
  int32_t op;
};

struct LtTransformParams {
  LtTransformMatrix a, b;
  LtTransformMatrix c;  // written through a cast: data is C's (non-null) pointer
  int64_t rows, cols;   // C's
  int64_t batch_count;
};

}  // namespace strata_blas
