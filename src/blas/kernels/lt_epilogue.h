// cuBLASLt's forward epilogues as a GEMM epilogue functor (kernels/gemm.cuh `tile`), shared
// by the host (lt_matmul.cc fills it) and the kernels so both agree on its layout.
// Applied to v = alpha op(A) op(B) + beta C at (row, col) of the kernel's problem:
//   with a bias:  v += bias[row] (bias[col] when the problem was transposed for row-major
//                 D: the bias runs along D's rows, which are then the kernel's columns)
//   with aux:     aux[row + col * aux_ld + batch * aux_batch_stride] = v (the activation's
//                 input, as CUBLASLT_EPILOGUE_*_AUX store it)
//   activation:   RELU max(v, 0); GELU the tanh approximation
//                 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3))).
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#endif

namespace strata_blas {

enum LtActivation : int32_t { kLtNone = 0, kLtRelu = 1, kLtGelu = 2 };
// Element types of the bias and aux vectors.
enum LtElement : int32_t { kLtF32 = 0, kLtF16 = 1, kLtBf16 = 2, kLtF64 = 3 };

struct LtEpilogue {
  int32_t activation;    // LtActivation
  int32_t bias_on_cols;  // 1: bias indexed by the kernel's column
  const void* bias;      // null: no bias
  int32_t bias_type;     // LtElement
  int32_t aux_type;      // LtElement
  int64_t bias_batch_stride;
  void* aux;  // null: no aux output
  int64_t aux_ld, aux_batch_stride;

#ifdef __CUDACC__
  __device__ static float load(const void* p, int32_t type, int64_t i) {
    switch (type) {
      case kLtF16: return __half2float(static_cast<const __half*>(p)[i]);
      case kLtBf16: return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
      case kLtF64: return static_cast<float>(static_cast<const double*>(p)[i]);
      default: return static_cast<const float*>(p)[i];
    }
  }
  __device__ static void store(void* p, int32_t type, int64_t i, float v) {
    switch (type) {
      case kLtF16: static_cast<__half*>(p)[i] = __float2half_rn(v); break;
      case kLtBf16: static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v); break;
      case kLtF64: static_cast<double*>(p)[i] = v; break;
      default: static_cast<float*>(p)[i] = v; break;
    }
  }
  // Out of line: the tile kernel applies it to 16 elements per thread, and inlined copies
  // of the type switches would multiply the kernel's size (and its JIT time).
  __device__ __noinline__ float apply(float x, int64_t row, int64_t col, int64_t batch) const {
    if (bias != nullptr) x += load(bias, bias_type, (bias_on_cols ? col : row) + batch * bias_batch_stride);
    if (aux != nullptr) store(aux, aux_type, row + col * aux_ld + batch * aux_batch_stride, x);
    if (activation == kLtRelu) {
      x = x > 0.0f ? x : 0.0f;
    } else if (activation == kLtGelu) {
      const float k = 0.7978845608028654f;  // sqrt(2 / pi)
      x = 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
    }
    return x;
  }
  template <typename T>
  __device__ T operator()(T v, int64_t row, int64_t col, int64_t batch) const {
    return static_cast<T>(apply(static_cast<float>(v), row, col, batch));
  }
#endif
};

}  // namespace strata_blas
