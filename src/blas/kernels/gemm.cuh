// GEMM kernels: C = epilogue(alpha * op(A) * op(B) + beta * C) for every element type
// combination of cublasGemmEx's table (gemm.h selects the kernel), strided and pointer-array
// batches (kernels/gemm_params.h).
//
// One shared-memory tile kernel, `tile`, parameterised by the storage types of A/B (TA)
// and C (TC), the compute type T (the accumulator, and the scale type of alpha and beta),
// the input rounding R and an epilogue functor. A CTA of 256 threads computes a 64 x 64
// tile of C, 4 x 4 elements per thread, stepping through k 16 deep; op(A) and op(B)
// tiles are converted to T (and rounded) as they are stored to shared memory, so the
// inner loop is plain FMA in T. The tensor-core kernels (gemm_tc.cuh) serve the real
// FP16 / BF16 / TF32 / INT8 combinations where gemm.h selects them.
//
// Semantics, independent of the shape: any m, n, k and leading dimension; op N / T / C
// (C conjugates complex inputs); beta == 0 never reads C (NaN there is ignored);
// alpha == 0 never reads A or B; k == 0 scales C by beta. Batches beyond gridDim.z and
// column tiles beyond gridDim.y are looped over.
#pragma once

#include <type_traits>

#include "common.cuh"
#include "gemm_params.h"

namespace strata_blas::gemm {

inline constexpr int kTileM = 64;
inline constexpr int kTileN = 64;
inline constexpr int kTileK = 16;
inline constexpr int kThreads = 256;
inline constexpr int kThreadTile = 4;  // kTileM / 16 = kTileN / 16

// --- element conversions: cvt(out, in) ---
__device__ inline void cvt(float& o, float i) {
  o = i;
}
__device__ inline void cvt(double& o, double i) {
  o = i;
}
__device__ inline void cvt(float& o, __half i) {
  o = __half2float(i);
}
__device__ inline void cvt(float& o, __nv_bfloat16 i) {
  o = __bfloat162float(i);
}
__device__ inline void cvt(float& o, int8_t i) {
  o = static_cast<float>(i);
}
__device__ inline void cvt(__half& o, __half i) {
  o = i;
}
__device__ inline void cvt(int32_t& o, int8_t i) {
  o = i;
}
__device__ inline void cvt(int32_t& o, int32_t i) {
  o = i;
}
__device__ inline void cvt(cuComplex& o, cuComplex i) {
  o = i;
}
__device__ inline void cvt(cuComplex& o, char2 i) {
  o = make_cuComplex(static_cast<float>(i.x), static_cast<float>(i.y));
}
__device__ inline void cvt(cuDoubleComplex& o, cuDoubleComplex i) {
  o = i;
}
__device__ inline void cvt(__half& o, float i) {
  o = __float2half_rn(i);
}
__device__ inline void cvt(__nv_bfloat16& o, float i) {
  o = __float2bfloat16_rn(i);
}

// --- arithmetic in the compute type ---
__device__ inline float madd(float a, float b, float c) {
  return fmaf(a, b, c);
}
__device__ inline double madd(double a, double b, double c) {
  return fma(a, b, c);
}
__device__ inline __half madd(__half a, __half b, __half c) {
  return __hfma(a, b, c);
}
__device__ inline int32_t madd(int32_t a, int32_t b, int32_t c) {
  return a * b + c;
}
__device__ inline cuComplex madd(cuComplex a, cuComplex b, cuComplex c) {
  return fma_(a, b, c);
}
__device__ inline cuDoubleComplex madd(cuDoubleComplex a, cuDoubleComplex b, cuDoubleComplex c) {
  return fma_(a, b, c);
}

__device__ inline float times(float a, float b) {
  return a * b;
}
__device__ inline double times(double a, double b) {
  return a * b;
}
__device__ inline __half times(__half a, __half b) {
  return __hmul(a, b);
}
__device__ inline int32_t times(int32_t a, int32_t b) {
  return a * b;
}
__device__ inline cuComplex times(cuComplex a, cuComplex b) {
  return cuCmulf(a, b);
}
__device__ inline cuDoubleComplex times(cuDoubleComplex a, cuDoubleComplex b) {
  return cuCmul(a, b);
}

template <typename T>
__device__ inline T conjugate(T a) {
  return a;  // real types
}
template <>
__device__ inline cuComplex conjugate(cuComplex a) {
  return cuConjf(a);
}
template <>
__device__ inline cuDoubleComplex conjugate(cuDoubleComplex a) {
  return cuConj(a);
}

template <typename T>
__device__ inline T zero_of() {
  return T{};
}
template <>
__device__ inline __half zero_of<__half>() {
  return __float2half_rn(0.0f);
}
template <>
__device__ inline cuComplex zero_of<cuComplex>() {
  return make_cuComplex(0.0f, 0.0f);
}
template <>
__device__ inline cuDoubleComplex zero_of<cuDoubleComplex>() {
  return make_cuDoubleComplex(0.0, 0.0);
}

__device__ inline bool is_zero_value(float a) {
  return a == 0.0f;
}
__device__ inline bool is_zero_value(double a) {
  return a == 0.0;
}
__device__ inline bool is_zero_value(__half a) {
  return __half2float(a) == 0.0f;
}
__device__ inline bool is_zero_value(int32_t a) {
  return a == 0;
}
__device__ inline bool is_zero_value(cuComplex a) {
  return a.x == 0.0f && a.y == 0.0f;
}
__device__ inline bool is_zero_value(cuDoubleComplex a) {
  return a.x == 0.0 && a.y == 0.0;
}

// --- input rounding (GemmRounding) of FP32 values ---
template <int R>
__device__ inline float round_input(float x) {
  if constexpr (R == kGemmRoundTf32) {
    // To nearest, ties away from zero (cvt.rna.tf32.f32): 10 explicit mantissa bits.
    uint32_t u = __float_as_uint(x);
    if ((u & 0x7f800000u) != 0x7f800000u) u = (u + 0x1000u) & 0xffffe000u;
    return __uint_as_float(u);
  } else if constexpr (R == kGemmRoundF16) {
    return __half2float(__float2half_rn(x));
  } else if constexpr (R == kGemmRoundBf16) {
    return __bfloat162float(__float2bfloat16_rn(x));
  } else {
    return x;
  }
}
template <int R, typename T>
__device__ inline T round_value(T x) {
  if constexpr (R == kGemmRoundNone) {
    return x;
  } else if constexpr (std::is_same_v<T, float>) {
    return round_input<R>(x);
  } else if constexpr (std::is_same_v<T, cuComplex>) {
    return make_cuComplex(round_input<R>(x.x), round_input<R>(x.y));
  } else {
    return x;  // only FP32 inputs are ever rounded
  }
}

// The plain GEMM's epilogue: the value as it is. An epilogue is a functor
// `T operator()(T value, int64_t row, int64_t col, int64_t batch) const` applied to
// alpha * op(A) op(B) + beta * C before it is converted and stored (cuBLASLt's bias and
// activations).
struct NoEpilogue {
  template <typename T>
  __device__ T operator()(T v, int64_t, int64_t, int64_t) const {
    return v;
  }
};

// Element (row, col) of op(X) for X stored column-major with leading dimension ld.
template <typename TX, typename T, int R>
__device__ inline T load_op(const TX* x, int32_t op, int64_t row, int64_t col, int64_t ld) {
  T v;
  if (op == kGemmOpN) {
    cvt(v, x[row + col * ld]);
  } else {
    cvt(v, x[col + row * ld]);
  }
  v = round_value<R>(v);
  return op == kGemmOpC ? conjugate(v) : v;
}

// Stages the 64 x 16 tile of op(A) at (row0, k0) into as[k][i] and the 16 x 64 tile of
// op(B) at (k0, col0) into bs[k][j], zero outside the matrices. Consecutive threads walk
// the stored matrix's leading dimension (coalesced).
template <typename TA, typename T, int R>
__device__ inline void load_tiles(const GemmParams& p, const TA* a, const TA* b, int64_t row0,
                                  int64_t col0, int64_t k0, T (*as)[kTileM], T (*bs)[kTileN]) {
  const T z = zero_of<T>();
#pragma unroll
  for (int r = 0; r < kTileM * kTileK / kThreads; ++r) {
    const int idx = threadIdx.x + r * kThreads;
    int i, kk;
    if (p.op_a == kGemmOpN) {
      i = idx % kTileM, kk = idx / kTileM;
    } else {
      kk = idx % kTileK, i = idx / kTileK;
    }
    const int64_t gi = row0 + i, gk = k0 + kk;
    as[kk][i] = gi < p.m && gk < p.k ? load_op<TA, T, R>(a, p.op_a, gi, gk, p.lda) : z;
  }
#pragma unroll
  for (int r = 0; r < kTileN * kTileK / kThreads; ++r) {
    const int idx = threadIdx.x + r * kThreads;
    int j, kk;
    if (p.op_b == kGemmOpN) {
      kk = idx % kTileK, j = idx / kTileK;
    } else {
      j = idx % kTileN, kk = idx / kTileN;
    }
    const int64_t gj = col0 + j, gk = k0 + kk;
    bs[kk][j] = gj < p.n && gk < p.k ? load_op<TA, T, R>(b, p.op_b, gk, gj, p.ldb) : z;
  }
}

// The matrix C is read from in batch `batch` (gemm_params.h: cuBLASLt's C, strided or from
// a pointer array, else D itself) and its leading dimension.
template <typename TC>
__device__ inline const TC* c_input(const GemmParams& p, const TC* c, int64_t batch) {
  if (p.c_in_array != nullptr) return static_cast<const TC*>(p.c_in_array[batch]);
  return p.c_in != nullptr ? static_cast<const TC*>(p.c_in) + batch * p.stride_c_in : c;
}
__device__ inline int64_t c_input_ld(const GemmParams& p) {
  return p.c_in != nullptr || p.c_in_array != nullptr ? p.ldc_in : p.ldc;
}

// acc[ii][jj] += as[.][ty + 16 ii] * bs[.][tx + 16 jj] over the staged k slice.
template <typename T>
__device__ inline void multiply_tile(const T (*as)[kTileM], const T (*bs)[kTileN], int tx, int ty,
                                     T (&acc)[kThreadTile][kThreadTile]) {
#pragma unroll
  for (int kk = 0; kk < kTileK; ++kk) {
    T av[kThreadTile], bv[kThreadTile];
#pragma unroll
    for (int t = 0; t < kThreadTile; ++t) {
      av[t] = as[kk][ty + 16 * t];
      bv[t] = bs[kk][tx + 16 * t];
    }
#pragma unroll
    for (int ii = 0; ii < kThreadTile; ++ii) {
#pragma unroll
      for (int jj = 0; jj < kThreadTile; ++jj) acc[ii][jj] = madd(av[ii], bv[jj], acc[ii][jj]);
    }
  }
}

template <typename TA, typename TC, typename T, int R, typename Epilogue>
__device__ void tile(const GemmParams& p, Scalar<T> alpha_arg, Scalar<T> beta_arg,
                     const Epilogue& epilogue) {
  __shared__ T as[kTileK][kTileM];
  __shared__ T bs[kTileK][kTileN];
  const T alpha = alpha_arg.get();
  const T beta = beta_arg.get();
  const bool use_ab = !is_zero_value(alpha) && p.k > 0;  // uniform over the CTA
  const bool use_c = !is_zero_value(beta);
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int64_t col_tiles = (p.n + kTileN - 1) / kTileN;
  const int64_t row0 = static_cast<int64_t>(blockIdx.x) * kTileM;

  for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
    const TA* a = p.a_array != nullptr ? static_cast<const TA*>(p.a_array[batch])
                                       : static_cast<const TA*>(p.a) + batch * p.stride_a;
    const TA* b = p.b_array != nullptr ? static_cast<const TA*>(p.b_array[batch])
                                       : static_cast<const TA*>(p.b) + batch * p.stride_b;
    TC* c = p.c_array != nullptr ? static_cast<TC*>(p.c_array[batch])
                                 : static_cast<TC*>(p.c) + batch * p.stride_c;
    const TC* c_in = c_input(p, c, batch);
    const int64_t ldc_in = c_input_ld(p);
    for (int64_t col_tile = blockIdx.y; col_tile < col_tiles; col_tile += gridDim.y) {
      const int64_t col0 = col_tile * kTileN;
      T acc[kThreadTile][kThreadTile];
#pragma unroll
      for (int ii = 0; ii < kThreadTile; ++ii) {
#pragma unroll
        for (int jj = 0; jj < kThreadTile; ++jj) acc[ii][jj] = zero_of<T>();
      }
      if (use_ab) {
        for (int64_t k0 = 0; k0 < p.k; k0 += kTileK) {
          load_tiles<TA, T, R>(p, a, b, row0, col0, k0, as, bs);
          __syncthreads();
          multiply_tile<T>(as, bs, tx, ty, acc);
          __syncthreads();
        }
      }
      if constexpr (std::is_same_v<Epilogue, NoEpilogue>) {
#pragma unroll
        for (int ii = 0; ii < kThreadTile; ++ii) {
          const int64_t row = row0 + ty + 16 * ii;
          if (row >= p.m) continue;
#pragma unroll
          for (int jj = 0; jj < kThreadTile; ++jj) {
            const int64_t col = col0 + tx + 16 * jj;
            if (col >= p.n) continue;
            TC* out = c + row + col * p.ldc;
            T v = use_ab ? times(alpha, acc[ii][jj]) : zero_of<T>();
            if (use_c) {
              T old;
              cvt(old, c_in[row + col * ldc_in]);
              v = madd(beta, old, v);
            }
            cvt(*out, epilogue(v, row, col, batch));
          }
        }
      } else {
        // An epilogue functor (cuBLASLt's, an out-of-line call): the tile is staged in
        // shared memory and written back by one loop, so the kernel holds one call site
        // instead of 16 (the JIT's cost grows quickly with a kernel's size).
        __shared__ T staged[(kTileM + 1) * kTileN];  // column-major, padded: no bank conflicts
#pragma unroll
        for (int ii = 0; ii < kThreadTile; ++ii) {
#pragma unroll
          for (int jj = 0; jj < kThreadTile; ++jj) {
            staged[(tx + 16 * jj) * (kTileM + 1) + ty + 16 * ii] = acc[ii][jj];
          }
        }
        __syncthreads();
#pragma unroll 1
        for (int e = threadIdx.x; e < kTileM * kTileN; e += kThreads) {
          const int64_t row = row0 + e % kTileM, col = col0 + e / kTileM;
          if (row >= p.m || col >= p.n) continue;
          T v = use_ab ? times(alpha, staged[e % kTileM + (e / kTileM) * (kTileM + 1)])
                       : zero_of<T>();
          if (use_c) {
            T old;
            cvt(old, c_in[row + col * ldc_in]);
            v = madd(beta, old, v);
          }
          cvt(c[row + col * p.ldc], epilogue(v, row, col, batch));
        }
        __syncthreads();  // staged is rewritten by the next tile
      }
    }
  }
}

}  // namespace strata_blas::gemm

// strata_blas_gemm_<A/B type>_<C type>_<compute type>[_<rounding>]; types: h FP16,
// bf BF16, s FP32, d FP64, c complex FP32, z complex FP64, i8 / ci8 (complex) INT8,
// i32 INT32.
#define STRATA_BLAS_GEMM(name, TA, TC, T, R)                                                \
  extern "C" __global__ void __launch_bounds__(strata_blas::gemm::kThreads)                 \
      strata_blas_gemm_##name(strata_blas::GemmParams p, strata_blas::Scalar<T> alpha,      \
                              strata_blas::Scalar<T> beta) {                                \
    strata_blas::gemm::tile<TA, TC, T, R>(p, alpha, beta, strata_blas::gemm::NoEpilogue{}); \
  }
// Instantiated in the gemm kernel family only (src/blas/CMakeLists.txt: gemm_tc.cuh and
// gemm_lt.cuh include this header for its device code).
#ifdef STRATA_BLAS_FAMILY_gemm
STRATA_BLAS_GEMM(h_h_h, __half, __half, __half, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(i8_i32_i32, int8_t, int32_t, int32_t, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(h_h_s, __half, __half, float, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(h_s_s, __half, float, float, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(bf_bf_s, __nv_bfloat16, __nv_bfloat16, float, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(bf_s_s, __nv_bfloat16, float, float, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(i8_s_s, int8_t, float, float, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(s_s_s, float, float, float, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(s_s_s_tf32, float, float, float, strata_blas::kGemmRoundTf32)
STRATA_BLAS_GEMM(s_s_s_f16, float, float, float, strata_blas::kGemmRoundF16)
STRATA_BLAS_GEMM(s_s_s_bf16, float, float, float, strata_blas::kGemmRoundBf16)
STRATA_BLAS_GEMM(ci8_c_c, char2, cuComplex, cuComplex, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(c_c_c, cuComplex, cuComplex, cuComplex, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(c_c_c_tf32, cuComplex, cuComplex, cuComplex, strata_blas::kGemmRoundTf32)
STRATA_BLAS_GEMM(c_c_c_f16, cuComplex, cuComplex, cuComplex, strata_blas::kGemmRoundF16)
STRATA_BLAS_GEMM(c_c_c_bf16, cuComplex, cuComplex, cuComplex, strata_blas::kGemmRoundBf16)
STRATA_BLAS_GEMM(d_d_d, double, double, double, strata_blas::kGemmRoundNone)
STRATA_BLAS_GEMM(z_z_z, cuDoubleComplex, cuDoubleComplex, cuDoubleComplex,
                 strata_blas::kGemmRoundNone)
#endif  // STRATA_BLAS_FAMILY_gemm
#undef STRATA_BLAS_GEMM

// A tile kernel with an epilogue functor passed as its last argument (cuBLASLt's
// epilogues; gemm.h launch_gemm's `extra`): instantiate with a name of its own.
#define STRATA_BLAS_GEMM_EPILOGUE(name, TA, TC, T, R, Epilogue)                        \
  extern "C" __global__ void __launch_bounds__(strata_blas::gemm::kThreads)            \
      strata_blas_gemm_##name(strata_blas::GemmParams p, strata_blas::Scalar<T> alpha, \
                              strata_blas::Scalar<T> beta, Epilogue epilogue) {        \
    strata_blas::gemm::tile<TA, TC, T, R>(p, alpha, beta, epilogue);                   \
  }
