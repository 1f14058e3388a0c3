// cuBLASLt's FP8 matmul on the tensor cores: the tensor-core tile kernel (kernels/gemm_tc.cuh)
// with m16n8k32 e4m3 / e5m2 mma.sync (FP32 accumulators) for the FP8 table's A x B type pairs
// (gemm_tiles.h STRATA_GEMM_TC_F8_TYPES), on every tile configuration, TN layout only. Same
// arguments and results as the FP8 kernel kernels/lt_fp8.cuh, which serves what this one
// does not (other layouts, operands the cp.async path cannot take, the "fma" choice):
// v = alpha op(A) op(B) from the accumulators, then the LtEpilogue (`scaled`: A/B scales
// and the C term, C read 16 elements per lane at a time; bias, activation, amax, D's
// scale), D stored in its runtime element type (FP8 saturating). The family's PTX targets
// compute_89 (FP8 mma); the library launches it only on devices of compute capability 8.9 and later
// (api_lt_matmul.cc). strata_blas_gemm_tc<tile>tn_lt_f8_<a>_<b>.
#pragma once

#include "gemm_tc.cuh"
#include "lt_epilogue.h"

namespace strata_blas::gemm_tc {

// The FP8 kernels' epilogue: LtEpilogue's, and D's element type (gemm_tc.cuh StoresOutput:
// it reads C and stores D itself). The scaling step runs on groups of staged values, so
// that their C reads are in flight together; C's type is switched on once per group.
struct Fp8Output {
  LtEpilogue lt;
  int32_t d_type;        // LtElement
  mutable int amax = 0;  // the lane's largest |D| before D's scale (LtEpilogue::finish)

  __device__ LtEpilogue::Scalars scalars() const { return lt.scalars(); }

  template <int N>
  __device__ void scale_group(const int64_t (&rows)[N], const int64_t (&cols)[N], int64_t batch,
                              int64_t m, int64_t n, float* v, int stride, float alpha, bool use_ab,
                              const LtEpilogue::Scalars& k) const {
    int64_t at[N];  // C's element, or -1: outside D, or not read (beta zero)
#pragma unroll
    for (int j = 0; j < N; ++j) {
      const bool in = rows[j] < m && cols[j] < n;
      at[j] = in && lt.reads_c(rows[j], cols[j], k)
                  ? rows[j] + cols[j] * lt.ldc + batch * lt.stride_c
                  : -1;
    }
    float c[N];
    switch (lt.c_type) {
      case kLtF16:
        read<__half>(at, c);
        break;
      case kLtBf16:
        read<__nv_bfloat16>(at, c);
        break;
      default:
        read<float>(at, c);
        break;
    }
#pragma unroll
    for (int j = 0; j < N; ++j) {
      if (rows[j] < m && cols[j] < n)
        v[j * stride] =
            lt.scale(use_ab ? alpha * v[j * stride] : 0.0f, rows[j], cols[j], batch, c[j], k);
    }
  }
  template <typename E, int N>
  __device__ void read(const int64_t (&at)[N], float (&c)[N]) const {
#pragma unroll
    for (int j = 0; j < N; ++j) {
      c[j] = 0.0f;
      if (at[j] >= 0) cvt(c[j], static_cast<const E*>(lt.c)[at[j]]);  // gemm.cuh
    }
  }
  __device__ float finish(float v, int64_t row, int64_t col, int64_t batch,
                          const LtEpilogue::Scalars& k) const {
    return lt.finish(v, row, col, batch, k, &amax);
  }
  // After a warp's group of elements: the warp's largest |D| into AMAX_D, one atomic.
  __device__ void flush() const {
    if (lt.amax_d == nullptr) return;
#pragma unroll
    for (int d = 16; d > 0; d /= 2) amax = max(amax, __shfl_xor_sync(0xffffffffu, amax, d));
    if (threadIdx.x % 32 == 0) atomicMax(reinterpret_cast<int*>(lt.amax_d), amax);
    amax = 0;
  }
  __device__ void store_output(const GemmParams& p, int64_t row, int64_t col, int64_t batch,
                               float v) const {
    void* d = p.c_array != nullptr ? p.c_array[batch] : p.c;
    const int64_t base = p.c_array != nullptr ? 0 : batch * p.stride_c;
    LtEpilogue::store(d, d_type, base + row + col * p.ldc, v);
  }
};

}  // namespace strata_blas::gemm_tc

#define STRATA_BLAS_LT_FP8_TC_KERNEL(types, TA, TC, T, F, id, bm, bn, wm, wn, st)                \
  extern "C" __global__ void __launch_bounds__(wm* wn * 32,                                      \
                                               STRATA_GEMM_TC_MIN_CTAS(bm, bn, wm, wn))          \
      strata_blas_gemm_tc##id##tn_##types(                                                       \
          strata_blas::GemmParams p, strata_blas::Scalar<float> alpha,                           \
          strata_blas::Scalar<float> beta, strata_blas::LtEpilogue epilogue,                     \
          strata_blas::LtFp8Types out) {                                                         \
    strata_blas::gemm_tc::tc_tile<strata_blas::gemm_tc::Tile<bm, bn, wm, wn, st>, F, true, true, \
                                  TA, TC, T>(p, alpha, beta,                                     \
                                             strata_blas::gemm_tc::Fp8Output{epilogue, out.d});  \
  }
#define STRATA_BLAS_LT_FP8_TC_TILE(id, bm, bn, wm, wn, st, ...) \
  STRATA_GEMM_TC_F8_TYPES(STRATA_BLAS_LT_FP8_TC_KERNEL, id, bm, bn, wm, wn, st)
STRATA_GEMM_TC_TILES(STRATA_BLAS_LT_FP8_TC_TILE, 0)
#undef STRATA_BLAS_LT_FP8_TC_TILE
#undef STRATA_BLAS_LT_FP8_TC_KERNEL
