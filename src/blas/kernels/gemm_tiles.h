// The tensor-core GEMM's tile configurations and its selection table: the single source
// read by the kernels (kernels/gemm_tc.cuh instantiates every type on every tile) and by
// the host (gemm.h picks the kernel and knows its launch geometry from the same rows).
#pragma once

namespace strata_blas {

// The mma.sync form of a tensor-core kernel (kernels/gemm_tc.cuh):
//   kTcF16      m16n8k16 f16 x f16, f32 accumulators
//   kTcBf16     m16n8k16 bf16 x bf16, f32 accumulators
//   kTcTf32     m16n8k8 tf32 x tf32 (FP32 inputs rounded with cvt.rna), f32 accumulators
//   kTcS8       m16n8k32 s8 x s8, s32 accumulators
//   kTcF16Acc16 m16n8k16 f16 x f16, f16 accumulators (CUBLAS_COMPUTE_16F)
//   kTcE4M3, kTcE4M3E5M2, kTcE5M2E4M3
//               m16n8k32 e4m3 x e4m3 / e4m3 x e5m2 / e5m2 x e4m3, f32 accumulators
//               (cuBLASLt FP8, kernels/lt_fp8_tc.cuh; PTX for compute_89)
enum TcFormat : int {
  kTcF16 = 0,
  kTcBf16 = 1,
  kTcTf32 = 2,
  kTcS8 = 3,
  kTcF16Acc16 = 4,
  kTcE4M3 = 5,
  kTcE4M3E5M2 = 6,
  kTcE5M2E4M3 = 7,
};
// (Host code; the kernels compare F themselves.)
inline bool tc_format_is_fp8(int f) {
  return f == kTcE4M3 || f == kTcE4M3E5M2 || f == kTcE5M2E4M3;
}

// Families that share a selection row: FP16 / BF16 inputs (one tensor rate), TF32, INT8
// (and FP8: the same 8-bit operand tiles; strata-g1, where the tuner runs, has no FP8).
enum TcFamily : int { kTcFamily16 = 0, kTcFamilyTf32 = 1, kTcFamilyI8 = 2 };

// Shape classes of the selection table, by the number of 128 x 128 tiles of C over all
// batches in waves of one tile per SM (gemm.h gemm_tc_shape_class): small < half a wave
// (12 tiles on strata-g1's 24 SMs), medium < 2 waves (48), large otherwise.
enum TcShapeClass : int { kTcSmall = 0, kTcMedium = 1, kTcLarge = 2 };

}  // namespace strata_blas

// The tile configurations: X(id, bm, bn, warps_m, warps_n, stages, ...). A CTA of
// warps_m x warps_n warps computes a bm x bn tile of C, each warp a (bm / warps_m) x
// (bn / warps_n) block of m16n8 mma tiles, stepping through k 64 bytes deep (32 FP16,
// 16 TF32 or 64 INT8 elements) with a `stages`-deep cp.async pipeline in dynamic shared
// memory: stages x (bm + bn) x 80 bytes (STRATA_GEMM_TC_SHARED_BYTES), at most 99 KiB.
// Trailing arguments are passed through to X.
#define STRATA_GEMM_TC_TILES(X, ...)            \
  X(128x128, 128, 128, 2, 4, 4, __VA_ARGS__)    \
  X(128x128w64, 128, 128, 2, 2, 4, __VA_ARGS__) \
  X(128x64, 128, 64, 2, 2, 4, __VA_ARGS__)      \
  X(64x64, 64, 64, 2, 2, 4, __VA_ARGS__)
#define STRATA_GEMM_TC_SHARED_BYTES(bm, bn, stages) ((stages) * ((bm) + (bn)) * 80)
// The CTAs per SM a kernel's __launch_bounds__ asks for: 128 registers per thread
// (16 warps' worth of CTAs) where a warp's tile is at most 64 x 32 (64 accumulator
// registers), else one (64 x 64 warp tiles need about 180 registers).
#define STRATA_GEMM_TC_MIN_CTAS(bm, bn, wm, wn) \
  ((bm) / (wm) * ((bn) / (wn)) > 64 * 32 ? 1 : 16 / ((wm) * (wn)))

// The operand layouts, one kernel each: X(..., layout, AK, BK) with the trailing arguments
// first. AK: op(A) is A^T (op T or C: A is stored k-contiguous); BK: op(B) is B (stored
// k-contiguous). The layout is named by the ops: n for N, t for T or C.
#define STRATA_GEMM_TC_LAYOUTS(X, ...) \
  X(__VA_ARGS__, nn, false, true)      \
  X(__VA_ARGS__, nt, false, false)     \
  X(__VA_ARGS__, tn, true, true)       \
  X(__VA_ARGS__, tt, true, false)

// The type combinations with a tensor-core kernel: X(types, TA, TC, T, format, ...): the
// suffix the plain kernel has (strata_blas_gemm_<types>, kernels/gemm.cuh; the
// tensor-core kernels are strata_blas_gemm_tc<id><layout>_<types>), the A/B, C and compute
// types.
#define STRATA_GEMM_TC_TYPES(X, ...)                                                 \
  X(h_h_h, __half, __half, __half, strata_blas::kTcF16Acc16, __VA_ARGS__)            \
  X(h_h_s, __half, __half, float, strata_blas::kTcF16, __VA_ARGS__)                  \
  X(h_s_s, __half, float, float, strata_blas::kTcF16, __VA_ARGS__)                   \
  X(bf_bf_s, __nv_bfloat16, __nv_bfloat16, float, strata_blas::kTcBf16, __VA_ARGS__) \
  X(bf_s_s, __nv_bfloat16, float, float, strata_blas::kTcBf16, __VA_ARGS__)          \
  X(s_s_s_tf32, float, float, float, strata_blas::kTcTf32, __VA_ARGS__)              \
  X(i8_i32_i32, int8_t, int32_t, int32_t, strata_blas::kTcS8, __VA_ARGS__)

// The same for cuBLASLt's epilogue kernels (kernels/gemm_lt.cuh, LtEpilogue).
#define STRATA_GEMM_TC_LT_TYPES(X, ...)                                                 \
  X(lt_h_h_s, __half, __half, float, strata_blas::kTcF16, __VA_ARGS__)                  \
  X(lt_h_s_s, __half, float, float, strata_blas::kTcF16, __VA_ARGS__)                   \
  X(lt_bf_bf_s, __nv_bfloat16, __nv_bfloat16, float, strata_blas::kTcBf16, __VA_ARGS__) \
  X(lt_bf_s_s, __nv_bfloat16, float, float, strata_blas::kTcBf16, __VA_ARGS__)          \
  X(lt_s_s_s_tf32, float, float, float, strata_blas::kTcTf32, __VA_ARGS__)

// cuBLASLt's FP8 kernels (kernels/lt_fp8_tc.cuh): A and B types; C stands for D, whose
// element type is a runtime argument (LtFp8Types::d). Only the TN layout (the FP8 table's
// only format, with column-major matrices) has tensor-core kernels.
#define STRATA_GEMM_TC_F8_TYPES(X, ...)                                            \
  X(lt_f8_e4m3_e4m3, uint8_t, float, float, strata_blas::kTcE4M3, __VA_ARGS__)     \
  X(lt_f8_e4m3_e5m2, uint8_t, float, float, strata_blas::kTcE4M3E5M2, __VA_ARGS__) \
  X(lt_f8_e5m2_e4m3, uint8_t, float, float, strata_blas::kTcE5M2E4M3, __VA_ARGS__)

// The selection table: X(family, shape class, tile id or fma). Written by
// `bench/blas/tune --tune` (docs/blas.md "Tensor-core GEMM"): the lines between the
// markers are replaced, nothing else.
// BEGIN TUNED TABLE
#define STRATA_GEMM_TC_CHOICES(X)      \
  X(kTcFamily16, kTcSmall, 64x64)      \
  X(kTcFamily16, kTcMedium, 64x64)     \
  X(kTcFamily16, kTcLarge, 128x128w64) \
  X(kTcFamilyTf32, kTcSmall, 64x64)    \
  X(kTcFamilyTf32, kTcMedium, 64x64)   \
  X(kTcFamilyTf32, kTcLarge, 64x64)    \
  X(kTcFamilyI8, kTcSmall, 64x64)      \
  X(kTcFamilyI8, kTcMedium, 64x64)     \
  X(kTcFamilyI8, kTcLarge, 128x128w64)
// END TUNED TABLE
