// Host-side helpers of the entry points: scalar arguments by pointer mode, launch shapes.
#pragma once

#include <vector_types.h>

#include <algorithm>
#include <cstdint>

#include "blas/handle.h"
#include "blas/kernels/scalar.h"

namespace strata::blas {

using strata_blas::Scalar;

// The kernel argument for a scalar the caller passed by pointer (alpha, beta): read now
// under CUBLAS_POINTER_MODE_HOST, by the kernel under CUBLAS_POINTER_MODE_DEVICE.
template <typename T>
Scalar<T> scalar_arg(const Handle& handle, const T* p) {
  if (handle.device_pointers()) return Scalar<T>{T{}, p};
  return Scalar<T>{*p, nullptr};
}

// A 1-D grid of `threads`-thread blocks covering n elements with a grid-stride loop
// (kernels/common.cuh STRATA_BLAS_FOR), at most `max_blocks` blocks.
inline dim3 grid_for(int64_t n, unsigned threads = 256, int64_t max_blocks = 4096) {
  const int64_t blocks = std::clamp<int64_t>((n + threads - 1) / threads, 1, max_blocks);
  return dim3(static_cast<unsigned>(blocks));
}

}  // namespace strata::blas
