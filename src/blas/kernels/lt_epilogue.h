// cuBLASLt's epilogues as a GEMM epilogue functor (kernels/gemm.cuh `tile`,
// kernels/lt_fp8.cuh), shared by the host (api_lt_matmul.cc fills it) and the kernels so
// both agree on its layout. Applied to the kernel's value v at (row, col, batch) of the
// kernel's problem, in this order:
//   scaling (when `scaled`: the kernel ran with beta = 0 and the C term is added here;
//                 `scale`, which the FP8 tensor-core kernels apply before `finish`):
//                 v = v * a_scale * b_scale * alpha_vec[r] + beta * c_scale * C[row, col]
//                 (a_scale / b_scale / c_scale: FP8 scale factors, 1 when null; alpha_vec:
//                 the per-row alpha of the vector pointer modes, 1 when null; beta: the
//                 per-row beta_vec[r], or *beta_ptr, or beta_value)
//   bias:         v += bias[r]
//   aux (forward): aux[row + col * aux_ld + batch * aux_batch_stride] = v, the activation's
//                 input; for RELU a bit-mask (aux_bits): bit set where v > 0
//   activation:   RELU max(v, 0); GELU the tanh approximation
//                 0.5 v (1 + tanh(sqrt(2 / pi) (v + 0.044715 v^3)));
//                 backward: DRELU v * [aux bit set], DGELU v * GELU'(aux) (aux: the GELU
//                 input the forward pass stored)
//   amax:         *amax_d = max(*amax_d, |v|) (FP8; zeroed by the host before the launch)
//   D scaling:    v *= d_scale (FP8 outputs)
// r is the row of D: the kernel's row, or its column when the problem was transposed for a
// row-major D (`on_cols`; D's rows are then the kernel's columns).
#pragma once

#include <cstdint>

#ifdef __CUDACC__
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>
#endif

namespace strata_blas {

enum LtActivation : int32_t { kLtNone = 0, kLtRelu = 1, kLtGelu = 2, kLtDRelu = 3, kLtDGelu = 4 };
// Element types of the epilogue's vectors and matrices (and of the FP8 kernel's operands).
enum LtElement : int32_t {
  kLtF32 = 0,
  kLtF16 = 1,
  kLtBf16 = 2,
  kLtF64 = 3,
  kLtE4M3 = 4,
  kLtE5M2 = 5,
};

// The element types of the FP8 kernel's A, B and D (kernels/lt_fp8.cuh).
struct LtFp8Types {
  int32_t a, b, d;  // LtElement
};

struct LtEpilogue {
  int32_t activation;  // LtActivation
  int32_t on_cols;     // 1: per-row vectors are indexed by the kernel's column
  // Scaling.
  int32_t scaled;
  const float* a_scale;
  const float* b_scale;
  const float* c_scale;
  const float* d_scale;
  float* amax_d;
  const float* alpha_vec;
  int64_t alpha_vec_batch_stride;
  const float* beta_vec;
  const float* beta_ptr;
  float beta_value;
  const void* c;  // C (scaled only)
  int32_t c_type;
  int64_t ldc, stride_c;
  // Bias.
  const void* bias;  // null: no bias
  int32_t bias_type;
  int64_t bias_batch_stride;
  // Aux: forward output or backward input.
  void* aux;  // null: none
  int32_t aux_type;
  int32_t aux_bits;  // RELU's bit-mask
  int64_t aux_ld, aux_batch_stride;

#ifdef __CUDACC__
  __device__ static float load(const void* p, int32_t type, int64_t i) {
    switch (type) {
      case kLtF16:
        return __half2float(static_cast<const __half*>(p)[i]);
      case kLtBf16:
        return __bfloat162float(static_cast<const __nv_bfloat16*>(p)[i]);
      case kLtF64:
        return static_cast<float>(static_cast<const double*>(p)[i]);
      case kLtE4M3:
      case kLtE5M2: {
        const __half_raw h = __nv_cvt_fp8_to_halfraw(static_cast<const __nv_fp8_storage_t*>(p)[i],
                                                     type == kLtE4M3 ? __NV_E4M3 : __NV_E5M2);
        return __half2float(__half(h));
      }
      default:
        return static_cast<const float*>(p)[i];
    }
  }
  // FP8 stores saturate to the largest finite value (NaN stays NaN).
  __device__ static void store(void* p, int32_t type, int64_t i, float v) {
    switch (type) {
      case kLtF16:
        static_cast<__half*>(p)[i] = __float2half_rn(v);
        break;
      case kLtBf16:
        static_cast<__nv_bfloat16*>(p)[i] = __float2bfloat16_rn(v);
        break;
      case kLtF64:
        static_cast<double*>(p)[i] = v;
        break;
      case kLtE4M3:
      case kLtE5M2:
        static_cast<__nv_fp8_storage_t*>(p)[i] =
            __nv_cvt_float_to_fp8(v, __NV_SATFINITE, type == kLtE4M3 ? __NV_E4M3 : __NV_E5M2);
        break;
      default:
        static_cast<float*>(p)[i] = v;
        break;
    }
  }
  __device__ static float gelu(float x) {
    const float k = 0.7978845608028654f;  // sqrt(2 / pi)
    return 0.5f * x * (1.0f + tanhf(k * (x + 0.044715f * x * x * x)));
  }
  __device__ static float gelu_grad(float x) {
    const float k = 0.7978845608028654f;
    const float t = tanhf(k * (x + 0.044715f * x * x * x));
    return 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * k * (1.0f + 3.0f * 0.044715f * x * x);
  }
  // The values behind the launch's scalar pointers (1, or beta_value, where null): A's
  // scale times B's, beta (unless beta_vec), C's and D's scales. Read once per element by
  // `apply`; the FP8 tensor-core kernels read them once per group of elements.
  struct Scalars {
    float ab, beta, cs, ds;
  };
  __device__ Scalars scalars() const {
    float ab = 1.0f;
    if (a_scale != nullptr) ab *= *a_scale;
    if (b_scale != nullptr) ab *= *b_scale;
    return {ab, beta_ptr != nullptr ? *beta_ptr : beta_value, c_scale != nullptr ? *c_scale : 1.0f,
            d_scale != nullptr ? *d_scale : 1.0f};
  }
  // The scaling step's beta for D's row r (`scaled`).
  __device__ float beta_of(int64_t r, const Scalars& k) const {
    return beta_vec != nullptr ? beta_vec[r] : k.beta;
  }
  // Whether the scaling step reads C at (row, col): C is set and beta is not zero there.
  __device__ bool reads_c(int64_t row, int64_t col, const Scalars& k) const {
    return c != nullptr && beta_of(on_cols ? col : row, k) != 0.0f;
  }
  // The scaling step of x at (row, col, batch), c_value being C's element there when
  // reads_c (else unused).
  __device__ float scale(float x, int64_t row, int64_t col, int64_t batch, float c_value,
                         const Scalars& k) const {
    const int64_t r = on_cols ? col : row;
    float s = k.ab;
    if (alpha_vec != nullptr) s *= alpha_vec[r + batch * alpha_vec_batch_stride];
    x *= s;
    const float beta = beta_of(r, k);
    if (c != nullptr && beta != 0.0f) x += beta * k.cs * c_value;
    return x;
  }
  // Out of line: the tile kernel applies it to 16 elements per thread, and inlined copies
  // of the type switches would multiply the kernel's size (and its JIT time).
  __device__ __noinline__ float apply(float x, int64_t row, int64_t col, int64_t batch) const {
    const Scalars k = scalars();
    if (scaled) {
      const float cv =
          reads_c(row, col, k) ? load(c, c_type, row + col * ldc + batch * stride_c) : 0.0f;
      x = scale(x, row, col, batch, cv, k);
    }
    return finish(x, row, col, batch, k);
  }
  // Everything after the scaling step: bias, aux, activation, amax, D's scale. amax_bits:
  // null, or where the caller keeps the largest |x| (as the bits of a non-negative float,
  // which order as integers; NaN above every number) to fold into amax_d itself.
  __device__ float finish(float x, int64_t row, int64_t col, int64_t batch, const Scalars& k,
                          int* amax_bits = nullptr) const {
    const int64_t r = on_cols ? col : row;
    if (bias != nullptr) x += load(bias, bias_type, r + batch * bias_batch_stride);
    const int64_t ai = row + col * aux_ld + batch * aux_batch_stride;
    if (aux_bits) {
      auto* words = static_cast<unsigned*>(aux);
      const unsigned bit = 1u << (ai % 32);
      if (activation == kLtDRelu) {
        x = (words[ai / 32] & bit) != 0 ? x : 0.0f;
      } else if (x > 0.0f) {
        atomicOr(&words[ai / 32], bit);
      } else {
        atomicAnd(&words[ai / 32], ~bit);
      }
    } else if (aux != nullptr) {
      if (activation == kLtDGelu) {
        x *= gelu_grad(load(aux, aux_type, ai));
      } else {
        store(aux, aux_type, ai, x);
      }
    }
    if (activation == kLtRelu) {
      x = x > 0.0f ? x : 0.0f;
    } else if (activation == kLtGelu) {
      x = gelu(x);
    }
    if (amax_d != nullptr) {
      const int bits = __float_as_int(fabsf(x));
      if (amax_bits != nullptr) {
        *amax_bits = max(*amax_bits, bits);
      } else {
        atomicMax(reinterpret_cast<int*>(amax_d), bits);
      }
    }
    if (d_scale != nullptr) x *= k.ds;
    return x;
  }
  template <typename T>
  __device__ T operator()(T v, int64_t row, int64_t col, int64_t batch) const {
    return static_cast<T>(apply(static_cast<float>(v), row, col, batch));
  }
#endif
};

}  // namespace strata_blas
