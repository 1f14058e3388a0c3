// cuBLASLt's bias gradients (BGRADA, BGRADB, DRELU_BGRAD, DGELU_BGRAD) as a reduction
// kernel over one dimension of a strided matrix, shared by the host (api_lt_matmul.cc)
// and kernels/lt_reduce.cuh:
//   out[i + b * out_batch_stride] = sum_{j < len} x[i * s_i + j * s_j + b * s_batch]
// for i < count and b < batch_count, accumulated in FP32 (FP64 for FP64 elements) and
// stored in out_type. Elements are LtElement (kernels/lt_epilogue.h).
#pragma once

#include <cstdint>

namespace strata_blas {

struct LtReduce {
  const void* x;
  int32_t x_type;
  int64_t count, len;
  int64_t s_i, s_j, s_batch;
  int64_t batch_count;
  void* out;
  int32_t out_type;
  int64_t out_batch_stride;
};

inline constexpr int kLtReduceThreads = 128;

}  // namespace strata_blas
