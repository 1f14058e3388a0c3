// A scalar argument of a cuBLAS kernel (alpha, beta), shared by the host code and the
// kernels so both agree on its layout: with CUBLAS_POINTER_MODE_DEVICE `ptr` points at the
// value in device memory (read by the kernel); with CUBLAS_POINTER_MODE_HOST the host
// copied the value into `value` and `ptr` is null.
#pragma once

namespace strata_blas {

template <typename T>
struct Scalar {
  T value;
  const T* ptr;
#ifdef __CUDACC__
  __device__ T get() const { return ptr != nullptr ? *ptr : value; }
#endif
};

}  // namespace strata_blas
