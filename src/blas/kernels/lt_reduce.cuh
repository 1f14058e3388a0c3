// The bias-gradient reduction (kernels/lt_reduce.h): one thread per output element,
// blockIdx.y walks the batches.
#pragma once

#include "lt_epilogue.h"
#include "lt_reduce.h"

extern "C" __global__ void __launch_bounds__(strata_blas::kLtReduceThreads)
    strata_blas_lt_reduce(strata_blas::LtReduce r) {
  using strata_blas::LtEpilogue;
  const int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i >= r.count) return;
  for (int64_t b = blockIdx.y; b < r.batch_count; b += gridDim.y) {
    const int64_t base = i * r.s_i + b * r.s_batch;
    if (r.x_type == strata_blas::kLtF64) {
      const double* x = static_cast<const double*>(r.x);
      double sum = 0.0;
      for (int64_t j = 0; j < r.len; ++j) sum += x[base + j * r.s_j];
      static_cast<double*>(r.out)[i + b * r.out_batch_stride] = sum;
    } else {
      float sum = 0.0f;
      for (int64_t j = 0; j < r.len; ++j) sum += LtEpilogue::load(r.x, r.x_type, base + j * r.s_j);
      LtEpilogue::store(r.out, r.out_type, i + b * r.out_batch_stride, sum);
    }
  }
}
