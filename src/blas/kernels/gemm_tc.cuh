// Tensor-core GEMM kernels: C = epilogue(alpha * op(A) * op(B) + beta * C) with mma.sync
// (m16n8k16 f16 / bf16, m16n8k8 tf32, m16n8k32 s8 / e4m3 / e5m2) for the real type
// combinations of kernels/gemm_tiles.h, on the tile configurations listed there. Same
// problem, batches, pointer arrays, op N / T / C (C is T: the types are real), alpha == 0
// and beta == 0 rules and epilogue functor as the plain tile kernel (kernels/gemm.cuh),
// whose element helpers it uses.
//
// Structure of `tc_tile`: a CTA of WM x WN warps computes a BM x BN tile of C; each
// operand layout (AK, BK: gemm_tiles.h STRATA_GEMM_TC_LAYOUTS) is its own kernel. Each
// stage of the cp.async pipeline (dynamic shared memory, STRATA_GEMM_TC_SHARED_BYTES)
// holds a 64-byte-deep k slice of op(A) and op(B), in the layout of the stored matrix:
// "k-contiguous" rows (op(A) = A^T, op(B) = B: row r holds 64 bytes of k) or
// "row-contiguous" rows (op(A) = A, op(B) = B^T: k row kk holds the tile's rows), each
// row padded by 16 bytes so ldmatrix's eight 16-byte rows hit distinct banks.
// Fragments (`Fragments`): ldmatrix (.x4 for A, .x2 for B) for k-contiguous tiles (any
// element size: the m16n8k* fragments of 16-, 32- and 8-bit elements are the same
// bytes), ldmatrix.trans for row-contiguous 16-bit tiles, 32-bit shared loads for
// row-contiguous TF32 / INT8 tiles. TF32 inputs are rounded to nearest, ties away
// (cvt.rna, gemm.cuh round_input) before the mma, which itself ignores the low 13 bits.
//
// Loads: interior tiles of 16-byte-aligned matrices take `FastLoad` (cp.async only, at
// addresses fixed before the loop). Elsewhere (`load_stage_checked`) each 16-byte chunk
// of a tile is one cp.async when it lies wholly inside the matrix and its global address
// is 16-byte aligned; otherwise (ragged m / n / k edges, a pointer array's misaligned
// matrix) copy_partial copies the chunk's in-bounds elements one by one and zero-fills
// the rest, so nothing outside the matrices is ever read. gemm.h sends strided problems
// whose pointers, leading dimensions or strides are not 16-byte multiples to the plain
// kernel instead.
//
// Epilogue (`store_bands`): each warp stages as many 16-row bands of its accumulators as
// the stages' shared memory holds (all of them, or half) in shared memory (column-major)
// and writes them back lane by lane (consecutive lanes, consecutive rows of C). With
// cuBLASLt's out-of-line epilogue call, which is large, the per-element code (alpha,
// beta, the functor, the conversion) exists once or twice per kernel instead of once per
// accumulator (the JIT's cost grows with a kernel's size); cuBLAS's identity epilogue
// writes a warp block wholly inside C 16 elements per lane at a time, their C reads in
// flight together (store_whole_bands).
//
// The launch's GemmParams live in shared memory (tc_params), copied once per CTA.
#pragma once

#include "gemm.cuh"
#include "gemm_tiles.h"

namespace strata_blas::gemm_tc {

using gemm::cvt;
using gemm::is_zero_value;
using gemm::madd;
using gemm::times;
using gemm::zero_of;

inline constexpr int kSliceBytes = 64;  // k depth of a stage, in bytes
inline constexpr int kPadBytes = 16;    // padding of each shared row
inline constexpr int kTileGroup = 8;    // row tiles per group of the CTA order (tc_tile)

template <int BM, int BN, int WM, int WN, int STAGES>
struct Tile {
  static constexpr int kBM = BM, kBN = BN, kWM = WM, kWN = WN, kStages = STAGES;
  static constexpr int kThreads = WM * WN * 32;
  static constexpr int kWarpM = BM / WM, kWarpN = BN / WN;
  static constexpr int kMT = kWarpM / 16, kNT = kWarpN / 8;
  // Either layout of an R-row operand fits in R x 80 bytes: k-contiguous R x (64 + 16);
  // row-contiguous (64 / es) x (R es + 16) = 64 R + 1024 / es, R >= 64.
  static constexpr int kABytes = BM * (kSliceBytes + kPadBytes);
  static constexpr int kBBytes = BN * (kSliceBytes + kPadBytes);
  static constexpr int kStageBytes = kABytes + kBBytes;
  static constexpr int kSharedBytes = STAGES * kStageBytes;
  static_assert(kSharedBytes == STRATA_GEMM_TC_SHARED_BYTES(BM, BN, STAGES));
  // Dynamic shared memory (the host opts in beyond 48 KiB, kernels.cc launch_raw_on),
  // at most the 99 KiB every sm_80+ GPU allows a CTA.
  static_assert(kSharedBytes <= 99 * 1024, "dynamic shared memory");
  static_assert(BM >= 64 && BN >= 64 && kWarpM % 16 == 0 && kWarpN % 16 == 0);
  // The epilogue stages kBands 16-row bands of each warp's accumulators at a time (one
  // copy of the per-element code per kMT / kBands).
  static constexpr int kBandBytes = 16 * kWarpN * 4 * WM * WN;
  static constexpr int kBands = kSharedBytes / kBandBytes >= kMT ? kMT
                                : kSharedBytes / kBandBytes >= 2 ? 2
                                                                 : 1;
  static_assert(kMT % kBands == 0 && kBands * kBandBytes <= kSharedBytes, "epilogue staging");
};

// The accumulator element of each format (f16 accumulators: two per 32-bit register).
template <int F>
using Acc =
    std::conditional_t<F == kTcS8, int32_t, std::conditional_t<F == kTcF16Acc16, uint32_t, float>>;
// What the epilogue stages in shared memory: the accumulator's value, widened exactly.
template <int F>
using Staged = std::conditional_t<F == kTcS8, int32_t, float>;

__device__ inline uint32_t shared_address(const void* p) {
  return static_cast<uint32_t>(__cvta_generic_to_shared(p));
}

__device__ inline void cp_async16(uint32_t dst, const void* src) {
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(dst),
               "l"(__cvta_generic_to_global(src)));
}
__device__ inline void cp_async16(void* dst, const void* src) {
  cp_async16(shared_address(dst), src);
}
__device__ inline void cp_async_commit() {
  asm volatile("cp.async.commit_group;\n" ::);
}
template <int N>
__device__ inline void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N));
}

// Copies the first n elements of ES bytes at src (0 <= n <= 16 / ES, element-aligned) to
// the 16-byte chunk dst and zero-fills the rest: the rare path of a load, without a loop
// (a loop nested in the main loop would make the JIT's allocator, which weighs uses by
// loop depth, keep this path's temporaries in registers at the main loop's expense).
template <int ES>
__device__ inline void copy_partial(unsigned char* dst, const unsigned char* src, int n) {
  using E = std::conditional_t<ES == 1, uint8_t, std::conditional_t<ES == 2, uint16_t, uint32_t>>;
  E e[16 / ES];
#pragma unroll
  for (int i = 0; i < 16 / ES; ++i) e[i] = i < n ? reinterpret_cast<const E*>(src)[i] : E{0};
  uint4 v;
  memcpy(&v, e, 16);
  *reinterpret_cast<uint4*>(dst) = v;
}

// min(max(left, 0), most): how many of a chunk's elements lie inside the matrix.
__device__ inline int64_t clamp_count(int64_t left, int most) {
  return left <= 0 ? 0 : (left < most ? left : most);
}

// Stages the R-row, 64-byte-deep slice of one operand at (r0, k0) into `s`. x is the stored
// matrix (element size ES, leading dimension ld elements); rows / ks its extent in the
// tile's row and k directions. kcontig: element (r, k) is x[k + r ld]; else x[r + k ld].
// Out of line: inlined, its hoisted addresses crowd the accumulators out of registers
// (Strata's JIT then spills them; a quarter slower under the timing model).
template <int R, int THREADS, int ES>
__device__ __noinline__ void load_operand(unsigned char* s, const unsigned char* x, bool kcontig,
                                          int64_t ld, int64_t rows, int64_t ks, int64_t r0,
                                          int64_t k0) {
  constexpr int kE = 16 / ES;                    // elements per chunk
  constexpr int kChunks = R * kSliceBytes / 16;  // chunks per stage
  constexpr int kRowChunks = R * ES / 16;        // chunks per row-contiguous k row
  static_assert(kChunks % THREADS == 0);
#pragma unroll
  for (int i = 0; i < kChunks / THREADS; ++i) {
    const int c = threadIdx.x + i * THREADS;
    int64_t r, k, n;
    int off;
    if (kcontig) {
      r = c / (kSliceBytes / 16), k = (c % (kSliceBytes / 16)) * kE;
      off = static_cast<int>(r) * (kSliceBytes + kPadBytes) + (c % (kSliceBytes / 16)) * 16;
      r += r0, k += k0;
      n = r < rows ? clamp_count(ks - k, kE) : 0;
    } else {
      k = c / kRowChunks, r = (c % kRowChunks) * kE;
      off = static_cast<int>(k) * (R * ES + kPadBytes) + (c % kRowChunks) * 16;
      r += r0, k += k0;
      n = k < ks ? clamp_count(rows - r, kE) : 0;
    }
    const unsigned char* src = x + (kcontig ? k + r * ld : r + k * ld) * ES;
    if (n == kE && (reinterpret_cast<uintptr_t>(src) & 15) == 0) {
      cp_async16(s + off, src);
    } else if (n == 0) {
      *reinterpret_cast<uint4*>(s + off) = make_uint4(0, 0, 0, 0);
    } else {
      copy_partial<ES>(s + off, src, static_cast<int>(n));
    }
  }
}

// ldmatrix .x4 (TRANS: .trans) at shared address p.
template <bool TRANS>
__device__ inline void ldsm_x4(uint32_t (&r)[4], uint32_t p) {
  if constexpr (TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(p));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(p));
  }
}
// ldmatrix .x2 (TRANS: .trans) at shared address p: one B fragment.
template <bool TRANS>
__device__ inline void ldsm_x2(uint32_t (&r)[2], uint32_t p) {
  if constexpr (TRANS) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(p));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];\n"
                 : "=r"(r[0]), "=r"(r[1])
                 : "r"(p));
  }
}

// The 32-bit fragment register holding elements k .. k + 4 / ES - 1 of tile row `row` of a
// row-contiguous tile (k row stride `stride` bytes), low element first.
template <int ES>
__device__ inline uint32_t gather(const unsigned char* s, int stride, int k, int row) {
  if constexpr (ES == 4) {
    return *reinterpret_cast<const uint32_t*>(s + k * stride + row * 4);
  } else {
    uint32_t v = 0;
#pragma unroll
    for (int i = 0; i < 4 / ES; ++i) {
      const unsigned char* p = s + (k + i) * stride + row * ES;
      const uint32_t e = ES == 2 ? *reinterpret_cast<const uint16_t*>(p) : *p;
      v |= e << (8 * ES * i);
    }
    return v;
  }
}

template <int F>
__device__ inline void round_fragment(uint32_t& r) {
  if constexpr (F == kTcTf32) {
    r = __float_as_uint(gemm::round_input<kGemmRoundTf32>(__uint_as_float(r)));
  }
}

// Where a warp's fragments lie in a stage. AK / BK: op(A) / op(B) is stored k-contiguous
// (ldmatrix), else row-contiguous (ldmatrix.trans for 16-bit elements, 32-bit gathers
// for TF32 / INT8). A lane's ldmatrix row address is fixed per warp: the A fragment of
// 16-row tile mi at k step `step` (32 bytes of k) is at a_lane + step * kAStep + mi * kAMi
// bytes from the stage's A region, the B fragment of 8-column tile ni at b_lane +
// step * kBStep + ni * kBNi from its B region.
template <class C, int ES, bool AK, bool BK>
struct Fragments {
  static constexpr int kRowK = kSliceBytes + kPadBytes;
  static constexpr int kRowA = C::kBM * ES + kPadBytes, kRowB = C::kBN * ES + kPadBytes;
  static constexpr int kAStep = AK ? 32 : 16 * kRowA, kAMi = AK ? 16 * kRowK : 32;
  static constexpr int kBStep = BK ? 32 : 16 * kRowB, kBNi = BK ? 8 * kRowK : 16;
  static constexpr bool kALdsm = AK || ES == 2, kBLdsm = BK || ES == 2;
  static constexpr int kStepE = 32 / ES;  // elements of k per mma
  static constexpr int kRegE = 4 / ES;    // elements per register
  uint32_t a_lane, b_lane;
  int wm0, wn0;

  __device__ Fragments(int wm0_, int wn0_) : wm0(wm0_), wn0(wn0_) {
    const int lane = threadIdx.x % 32, q = lane / 8, j = lane % 8;
    // .x4 for A: lanes 8i..8i+7 address the rows of matrix i (a0..a3: rows 0-7 / 8-15 by
    // k 0-7 / 8-15); .x2 for B: lanes 0-15 (b0, b1: k 0-7 / 8-15 of columns 0-7).
    a_lane = AK ? (wm0 + lane % 16) * kRowK + 16 * (lane / 16)
                : (j + 8 * (q / 2)) * kRowA + (wm0 + 8 * (q % 2)) * 2;
    b_lane = BK ? (wn0 + j) * kRowK + 16 * (q % 2) : (j + 8 * (q % 2)) * kRowB + wn0 * 2;
  }

  // The A fragment of 16-row tile mi at k step `step` of the stage whose A region is at
  // shared address sa (generic pointer pa).
  template <int F>
  __device__ void load_a(uint32_t sa, const unsigned char* pa, int step, int mi,
                         uint32_t (&af)[4]) const {
    if constexpr (kALdsm) {
      ldsm_x4<!AK>(af, sa + a_lane + step * kAStep + mi * kAMi);
    } else {
      const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
      for (int r = 0; r < 4; ++r) {
        af[r] = gather<ES>(pa, kRowA, step * kStepE + (r / 2) * (kStepE / 2) + t * kRegE,
                           wm0 + mi * 16 + g + 8 * (r % 2));
      }
    }
#pragma unroll
    for (int r = 0; r < 4; ++r) round_fragment<F>(af[r]);
  }

  // The B fragment of 8-column tile ni at k step `step` (B region at sb, pointer pb).
  template <int F>
  __device__ void load_b(uint32_t sb, const unsigned char* pb, int step, int ni,
                         uint32_t (&bf)[2]) const {
    if constexpr (kBLdsm) {
      ldsm_x2<!BK>(bf, sb + b_lane + step * kBStep + ni * kBNi);
    } else {
      const int lane = threadIdx.x % 32, g = lane / 4, t = lane % 4;
#pragma unroll
      for (int r = 0; r < 2; ++r) {
        bf[r] =
            gather<ES>(pb, kRowB, step * kStepE + r * (kStepE / 2) + t * kRegE, wn0 + ni * 8 + g);
      }
    }
#pragma unroll
    for (int r = 0; r < 2; ++r) round_fragment<F>(bf[r]);
  }
};

// The cp.async fast path of one operand: stages an R-row, 64-byte-deep slice when the
// whole slice lies inside the matrix and every chunk is 16-byte aligned (the tile is
// interior, the matrix pointer and ld x ES are 16-byte multiples, the k tile is full).
// Each thread's chunks sit at fixed distances, in shared memory and in the matrix, so
// only one address per operand moves with k. KC: k-contiguous rows (as load_operand).
template <int R, int THREADS, int ES, bool KC>
struct FastLoad {
  static constexpr int kE = 16 / ES;  // elements per chunk
  static constexpr int kPerThread = R * kSliceBytes / 16 / THREADS;
  static constexpr int kRowChunks = KC ? kSliceBytes / 16 : R * ES / 16;  // chunks per row
  static constexpr int kRowBytes = KC ? kSliceBytes + kPadBytes : R * ES + kPadBytes;
  static_assert(R * kSliceBytes / 16 % THREADS == 0 && THREADS % kRowChunks == 0);
  // Successive chunks of a thread are THREADS / kRowChunks rows apart.
  static constexpr int kDstStep = THREADS / kRowChunks * kRowBytes;
  const unsigned char* src;  // the thread's first chunk in the next k tile to load
  int64_t src_step;          // bytes between its chunks
  int64_t ld_bytes;          // !KC: the leading dimension in bytes (k rows are ld apart)
  uint32_t dst;              // its first chunk's offset in the operand's region

  // x: the stored matrix, ld its leading dimension; r0: the tile's first row.
  __device__ FastLoad(const unsigned char* x, int64_t ld, int64_t r0) {
    const int c = threadIdx.x, row = c / kRowChunks, chunk = c % kRowChunks;
    dst = row * kRowBytes + chunk * 16;
    ld_bytes = ld * ES;
    src_step = THREADS / kRowChunks * ld_bytes;
    if constexpr (KC) {
      src = x + (chunk * kE + (r0 + row) * ld) * ES;
    } else {
      src = x + (r0 + chunk * kE + row * ld) * ES;
    }
  }

  // Queues the next k tile (k tiles go in order from 0) into the region at shared
  // address s.
  __device__ void issue(uint32_t s) {
#pragma unroll
    for (int i = 0; i < kPerThread; ++i) cp_async16(s + dst + i * kDstStep, src + i * src_step);
    src += KC ? kSliceBytes : kSliceBytes / ES * ld_bytes;
  }
};

// d += a * b on one m16n8 tile.
template <int F>
__device__ inline void mma(Acc<F> (&d)[4], const uint32_t (&a)[4], const uint32_t (&b)[2]) {
  if constexpr (F == kTcF16) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  } else if constexpr (F == kTcBf16) {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  } else if constexpr (F == kTcTf32) {
    asm volatile(
        "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  } else if constexpr (F == kTcS8) {
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
        "{%8,%9}, {%0,%1,%2,%3};\n"
        : "+r"(d[0]), "+r"(d[1]), "+r"(d[2]), "+r"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  } else if constexpr (F == kTcE4M3 || F == kTcE4M3E5M2 || F == kTcE5M2E4M3) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 890
#define STRATA_MMA_F8(ta, tb)                                                 \
  asm volatile("mma.sync.aligned.m16n8k32.row.col.f32." ta "." tb             \
               ".f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};\n" \
               : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])               \
               : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]))
    if constexpr (F == kTcE4M3) {
      STRATA_MMA_F8("e4m3", "e4m3");
    } else if constexpr (F == kTcE4M3E5M2) {
      STRATA_MMA_F8("e4m3", "e5m2");
    } else {
      STRATA_MMA_F8("e5m2", "e4m3");
    }
#undef STRATA_MMA_F8
#else
    __trap();  // FP8 mma needs compute_89 PTX (its family is compiled for it)
#endif
  } else {
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, "
        "{%0,%1};\n"
        : "+r"(d[0]), "+r"(d[1])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
  }
}

// Accumulator element e (0-3: (g, 2t), (g, 2t + 1), (g + 8, 2t), (g + 8, 2t + 1)), widened.
template <int F>
__device__ inline Staged<F> acc_value(const Acc<F> (&d)[4], int e) {
  if constexpr (F == kTcF16Acc16) {
    const uint32_t r = d[e / 2];
    return __half2float(
        __ushort_as_half(static_cast<unsigned short>(e % 2 ? r >> 16 : r & 0xffff)));
  } else {
    return d[e];
  }
}

// Operand x (A or B) of batch `batch`: the pointer array's matrix or the strided one.
template <int ES>
__device__ inline const unsigned char* operand_of(const void* x, const void* const* array,
                                                  int64_t stride, int64_t batch) {
  return static_cast<const unsigned char*>(array != nullptr ? array[batch] : x) +
         (array != nullptr ? 0 : batch * stride * ES);
}

// The launch's GemmParams, copied into shared memory once per CTA by tc_tile and read
// there by it and its out-of-line helpers. A kernel parameter whose address is taken
// (passed by reference to a function nvcc does not inline) is copied to local memory by
// nvcc in every thread, and each field is read back from there with a local load's
// latency, one dependent load after another in the write-back's address arithmetic; a
// reference to a shared copy would hold its 64-bit generic address in registers across
// the main loop. Named directly, the fields are shared loads at fixed addresses.
static __shared__ GemmParams tc_params;

// The bounds-checked load of k tile at k0 into the stage at s (load_operand for A and B),
// for ragged tiles, misaligned matrices and the partial last k tile. It reads the problem
// from tc_params rather than taking it from the caller: out of line in the source and
// inlined by the JIT, the values it needs then are not held in registers across the main
// loop.
template <class C, int ES, bool AK, bool BK>
__device__ __noinline__ void load_stage_checked(unsigned char* s, int64_t batch, int64_t row0,
                                                int64_t col0, int64_t k0) {
  const GemmParams& p = tc_params;
  load_operand<C::kBM, C::kThreads, ES>(s, operand_of<ES>(p.a, p.a_array, p.stride_a, batch), AK,
                                        p.lda, p.m, p.k, row0, k0);
  load_operand<C::kBN, C::kThreads, ES>(s + C::kABytes,
                                        operand_of<ES>(p.b, p.b_array, p.stride_b, batch), BK,
                                        p.ldb, p.n, p.k, col0, k0);
}

// An epilogue that reads C and stores D itself, the FP8 kernels' (kernels/lt_fp8_tc.cuh),
// whose C and D element types are runtime arguments. Its members:
//   scalars(): its per-launch values (read once per call of store_bands);
//   scale_group<N>(rows, cols, batch, m, n, v, stride, alpha, use_ab, scalars): replaces
//     the N staged sums v[0], v[stride], ... at (rows[j], cols[j]) by their scaled values
//     (alpha, its own scale factors and C term), reading C's N elements together;
//   finish(v, row, col, batch, scalars): the rest of the epilogue on a scaled value;
//   store_output(p, row, col, batch, v): stores D's element;
//   flush(): after the warp's elements (all lanes): what it gathered across them.
template <class E, class = void>
struct StoresOutput : std::false_type {};
template <class E>
struct StoresOutput<E, std::void_t<decltype(&E::store_output)>> : std::true_type {};

// alpha sum + beta C in the compute type T, written back over the staged sum x (exactly
// representable in Staged<F>): the first pass of the write-back, for one element.
template <int F, typename TC, typename T>
__device__ inline void combine_c(Staged<F>& x, TC old, T alpha, T beta, bool use_ab) {
  T v = zero_of<T>();
  if (use_ab) {
    T sum;
    cvt(sum, x);
    v = times(alpha, sum);
  }
  T prior;
  cvt(prior, old);
  cvt(x, madd(beta, prior, v));
}

// Whether an epilogue functor is small enough to be inlined at every element of the
// write-back (cuBLAS's identity; cuBLASLt's out-of-line functor is called from one place).
template <class E>
inline constexpr bool kInlineEpilogue = std::is_same_v<E, gemm::NoEpilogue>;

// store_bands for a warp whose whole block lies inside C (no bounds checks): lane l
// handles rows r0 + 16 band + l % 16 and columns c0 + l / 16 + 2 s, the staged values
// l + 32 (band kWarpN / 2 + s), stepping through C by pointer.
// With an inlined epilogue (kInlineEpilogue) each pass takes kGroup of a lane's elements
// at once: their C reads and shared reads in flight together, then alpha, beta, the
// conversion and the stores, so the write-back waits for C's latency kBands x kCols /
// kGroup times and for no shared read at all. Otherwise a first pass reads C kCReads
// elements per lane at a time and combines them in shared memory (combine_c), and a
// second applies the epilogue element by element (its code exists once).
template <class C, int F, typename TC, typename T, typename Epilogue>
__device__ void store_whole_bands(Staged<F>* staged, T alpha, T beta, bool use_ab, bool use_c,
                                  const Epilogue& epilogue, int64_t batch, int64_t r0, int64_t c0,
                                  TC* c, int64_t ldc, const TC* c_in, int64_t ldc_in) {
  constexpr int kCols = C::kWarpN / 2;  // columns of a band that one lane visits
  const int lane = threadIdx.x % 32;
  const int64_t row_l = r0 + lane % 16, col_l = c0 + lane / 16;
  if constexpr (kInlineEpilogue<Epilogue>) {
    constexpr int kCount = C::kBands * kCols;  // elements per lane
    // 16 elements at a time: larger groups raise the register pressure of the write-back
    // above what the main loop leaves free, and the allocator then spills values that
    // live across both into the main loop.
    constexpr int kGroup = kCount < 16 ? kCount : 16;
    // A group lies within one band, or starts one (j's offset below holds for both).
    static_assert(kCount % kGroup == 0 && (kCols % kGroup == 0 || kGroup % kCols == 0));
    TC* const dst0 = c + row_l + col_l * ldc;
    const TC* const src0 = c_in + row_l + col_l * ldc_in;
#pragma unroll 1
    for (int q0 = 0; q0 < kCount; q0 += kGroup) {
      const int64_t row_off = 16 * (q0 / kCols), col_off = 2 * (q0 % kCols);
      TC old[kGroup];
      if (use_c) {
        const TC* src = src0 + row_off + col_off * ldc_in;
#pragma unroll
        for (int j = 0; j < kGroup; ++j) old[j] = src[16 * (j / kCols) + (j % kCols) * 2 * ldc_in];
      }
      Staged<F> sum[kGroup];
#pragma unroll
      for (int j = 0; j < kGroup; ++j) sum[j] = staged[lane + 32 * (q0 + j)];
      TC* dst = dst0 + row_off + col_off * ldc;
#pragma unroll
      for (int j = 0; j < kGroup; ++j) {
        T v = zero_of<T>();
        if (use_ab) {
          T x;
          cvt(x, sum[j]);
          v = times(alpha, x);
        }
        if (use_c) {
          T prior;
          cvt(prior, old[j]);
          v = madd(beta, prior, v);
        }
        cvt(dst[16 * (j / kCols) + (j % kCols) * 2 * ldc],
            epilogue(v, row_l + row_off + 16 * (j / kCols), col_l + col_off + 2 * (j % kCols),
                     batch));
      }
    }
    return;
  }
  constexpr int kCReads = 16;
  static_assert(kCols % kCReads == 0);
  if (use_c) {
    const TC* base = c_in + row_l + col_l * ldc_in;
    const int64_t step = 2 * ldc_in;
#pragma unroll 1
    for (int q0 = 0; q0 < C::kBands * kCols; q0 += kCReads) {
      const TC* src = base + 16 * (q0 / kCols) + (q0 % kCols) * step;
      TC old[kCReads];
#pragma unroll
      for (int j = 0; j < kCReads; ++j) old[j] = src[j * step];
#pragma unroll
      for (int j = 0; j < kCReads; ++j)
        combine_c<F>(staged[lane + 32 * (q0 + j)], old[j], alpha, beta, use_ab);
    }
    __syncwarp();
  }
#pragma unroll 1
  for (int band = 0; band < C::kBands; ++band) {
    TC* dst = c + row_l + 16 * band + col_l * ldc;
    const Staged<F>* src = staged + lane + 32 * band * kCols;
#pragma unroll 1
    for (int s = 0; s < kCols; ++s) {
      T v = zero_of<T>();
      if (use_c) {
        cvt(v, src[32 * s]);
      } else if (use_ab) {
        T sum;
        cvt(sum, src[32 * s]);
        v = times(alpha, sum);
      }
      cvt(*dst, epilogue(v, row_l + 16 * band, col_l + 2 * s, batch));
      dst += 2 * ldc;
    }
  }
}

// Writes the staged accumulator bands of one warp back: element i of the kBands x 16 x
// kWarpN staged values (column-major bands) is C's (r0 + i / (16 kWarpN) * 16 + i % 16,
// c0 + i % (16 kWarpN) / 16), lane by lane. Reads C's pointers and leading dimensions
// from tc_params (as load_stage_checked, so that they are not held across the main loop).
// With beta != 0 a first pass reads C kCReads elements per lane at a time (their loads
// in flight together rather than one after another) and replaces each staged sum by
// alpha sum + beta C in the compute type T (exactly representable in Staged<F>); the
// second pass, one element at a time (the per-element code exists once), applies the
// epilogue, converts and stores. Blocks wholly inside C take store_whole_bands.
template <class C, int F, typename TC, typename T, typename Epilogue>
__device__ __noinline__ void store_bands(Staged<F>* staged, T alpha, T beta, bool use_ab,
                                         bool use_c, const Epilogue& epilogue, int64_t batch,
                                         int64_t r0, int64_t c0) {
  const GemmParams& p = tc_params;
  constexpr int kCount = C::kBands * 16 * C::kWarpN;  // staged values of the warp
  constexpr int kCReads = 16;
  static_assert(kCount % (32 * kCReads) == 0);
  TC* c = p.c_array != nullptr ? static_cast<TC*>(p.c_array[batch])
                               : static_cast<TC*>(p.c) + batch * p.stride_c;
  const TC* c_in = gemm::c_input(p, c, batch);
  const int64_t ldc = p.ldc, ldc_in = gemm::c_input_ld(p), m = p.m, n = p.n;
  const int lane = threadIdx.x % 32;
  constexpr bool kOwnC = StoresOutput<Epilogue>::value;
  const auto scalars = [&] {
    if constexpr (kOwnC) {
      return epilogue.scalars();
    } else {
      return 0;
    }
  }();
  (void)scalars;  // used by kOwnC epilogues only
  if constexpr (!kOwnC) {
    if (r0 + C::kBands * 16 <= m && c0 + C::kWarpN <= n) {
      store_whole_bands<C, F, TC, T>(staged, alpha, beta, use_ab, use_c, epilogue, batch, r0, c0, c,
                                     ldc, c_in, ldc_in);
      return;
    }
  }
  if constexpr (kOwnC) {
#pragma unroll 1
    for (int i0 = lane; i0 < kCount; i0 += 32 * kCReads) {
      int64_t rows[kCReads], cols[kCReads];
#pragma unroll
      for (int j = 0; j < kCReads; ++j) {
        const int i = i0 + 32 * j, band = i / (16 * C::kWarpN), in_band = i % (16 * C::kWarpN);
        rows[j] = r0 + band * 16 + in_band % 16, cols[j] = c0 + in_band / 16;
      }
      epilogue.template scale_group<kCReads>(rows, cols, batch, m, n, &staged[i0], 32, alpha,
                                             use_ab, scalars);
    }
    __syncwarp();
  } else if (use_c) {
#pragma unroll 1
    for (int i0 = lane; i0 < kCount; i0 += 32 * kCReads) {
      TC old[kCReads];
#pragma unroll
      for (int j = 0; j < kCReads; ++j) {
        const int i = i0 + 32 * j, band = i / (16 * C::kWarpN), in_band = i % (16 * C::kWarpN);
        const int64_t row = r0 + band * 16 + in_band % 16, col = c0 + in_band / 16;
        TC o{};
        if (row < m && col < n) o = c_in[row + col * ldc_in];
        old[j] = o;
      }
#pragma unroll
      for (int j = 0; j < kCReads; ++j)  // old[j] is zero outside C (unused below)
        combine_c<F>(staged[i0 + 32 * j], old[j], alpha, beta, use_ab);
    }
    __syncwarp();
  }
#pragma unroll 1
  for (int i = lane; i < kCount; i += 32) {
    const int band = i / (16 * C::kWarpN), in_band = i % (16 * C::kWarpN);
    const int64_t row = r0 + band * 16 + in_band % 16;
    const int64_t col = c0 + in_band / 16;
    if (row >= m || col >= n) continue;
    T v = zero_of<T>();
    if (use_c || kOwnC) {
      cvt(v, staged[i]);
    } else if (use_ab) {
      T sum;
      cvt(sum, staged[i]);
      v = times(alpha, sum);
    }
    if constexpr (kOwnC) {
      epilogue.store_output(p, row, col, batch, epilogue.finish(v, row, col, batch, scalars));
    } else {
      cvt(c[row + col * ldc], epilogue(v, row, col, batch));
    }
  }
  if constexpr (kOwnC) epilogue.flush();
}

template <class C, int F, bool AK, bool BK, typename TA, typename TC, typename T, typename Epilogue>
__device__ void tc_tile(const GemmParams& params, Scalar<T> alpha_arg, Scalar<T> beta_arg,
                        const Epilogue& epilogue) {
  extern __shared__ __align__(128) unsigned char strata_gemm_tc_smem[];
  if (threadIdx.x == 0) tc_params = params;
  __syncthreads();
  const GemmParams& p = tc_params;
  unsigned char* const smem = strata_gemm_tc_smem;  // C::kSharedBytes, launched dynamic
  constexpr int ES = sizeof(TA);
  constexpr int kSliceE = kSliceBytes / ES;  // k elements per stage
  // The problem's sizes in registers (read once from tc_params).
  const int64_t m = p.m, n = p.n, k = p.k, lda = p.lda, ldb = p.ldb;
  const T alpha = alpha_arg.get();
  const T beta = beta_arg.get();
  const bool use_ab = !is_zero_value(alpha) && k > 0;  // uniform over the CTA
  const bool use_c = !is_zero_value(beta);
  const int warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  const int wm0 = (warp % C::kWM) * C::kWarpM, wn0 = (warp / C::kWM) * C::kWarpN;
  const int64_t col_tiles = (n + C::kBN - 1) / C::kBN;
  const int64_t k_tiles = (k + kSliceE - 1) / kSliceE;
  // CTA order for L2 reuse (one CTA per tile, the usual grid): consecutive CTAs, x
  // fastest, walk groups of kTileGroup row tiles column by column, so that the CTAs
  // resident together share a few panels of A and of B rather than each a panel of A.
  int64_t row_tile = blockIdx.x, first_col_tile = blockIdx.y;
  if (gridDim.y == col_tiles) {
    const int64_t rows = gridDim.x, id = blockIdx.x + static_cast<int64_t>(blockIdx.y) * rows;
    const int64_t group = id / (kTileGroup * col_tiles), first = group * kTileGroup;
    const int64_t height = rows - first < kTileGroup ? rows - first : kTileGroup;
    const int64_t in = id - group * kTileGroup * col_tiles;
    row_tile = first + in % height, first_col_tile = in / height;
  }
  const int64_t row0 = row_tile * C::kBM;
  const uint32_t smem0 = shared_address(smem);
  const Fragments<C, ES, AK, BK> frag(wm0, wn0);
  Staged<F>* staged = reinterpret_cast<Staged<F>*>(smem) + warp * C::kBands * 16 * C::kWarpN;
  // 16-byte alignment of every chunk of a matrix with this leading dimension.
  const bool lds_aligned = (lda * ES) % 16 == 0 && (ldb * ES) % 16 == 0;

  for (int64_t batch = blockIdx.z; batch < p.batch_count; batch += gridDim.z) {
    const unsigned char* a = operand_of<ES>(p.a, p.a_array, p.stride_a, batch);
    const unsigned char* b = operand_of<ES>(p.b, p.b_array, p.stride_b, batch);
    const bool aligned =
        lds_aligned &&
        ((reinterpret_cast<uintptr_t>(a) | reinterpret_cast<uintptr_t>(b)) & 15) == 0;
    for (int64_t col_tile = first_col_tile; col_tile < col_tiles; col_tile += gridDim.y) {
      const int64_t col0 = col_tile * C::kBN;
      Acc<F> acc[C::kMT][C::kNT][4];
#pragma unroll
      for (int mi = 0; mi < C::kMT; ++mi) {
#pragma unroll
        for (int ni = 0; ni < C::kNT; ++ni) {
#pragma unroll
          for (int e = 0; e < 4; ++e) acc[mi][ni][e] = 0;
        }
      }
      if (use_ab) {
        FastLoad<C::kBM, C::kThreads, ES, AK> fast_a(a, lda, row0);
        FastLoad<C::kBN, C::kThreads, ES, BK> fast_b(b, ldb, col0);
        // k tiles below `fast_tiles` take the cp.async fast path; the rest (a ragged
        // tile's, a misaligned matrix's, the partial last k tile) load_operand.
        const int64_t fast_tiles =
            aligned && row0 + C::kBM <= m && col0 + C::kBN <= n ? k / kSliceE : 0;
        auto load_stage = [&](int64_t kt, int stage) {
          const uint32_t s = smem0 + stage * C::kStageBytes;
          if (kt < fast_tiles) {
            fast_a.issue(s);
            fast_b.issue(s + C::kABytes);
          } else {
            load_stage_checked<C, ES, AK, BK>(smem + stage * C::kStageBytes, batch, row0, col0,
                                              kt * kSliceE);
          }
        };
#pragma unroll 1
        for (int s = 0; s < C::kStages - 1; ++s) {
          if (s < k_tiles) load_stage(s, s);
          cp_async_commit();
        }
        int read_stage = 0, write_stage = C::kStages - 1;
        for (int64_t kt = 0; kt < k_tiles; ++kt) {
          cp_async_wait<C::kStages - 2>();
          __syncthreads();  // stage kt is in; every warp is done with stage kt - 1
          const uint32_t sa = smem0 + read_stage * C::kStageBytes, sb = sa + C::kABytes;
          const unsigned char* pa = smem + read_stage * C::kStageBytes;
          const unsigned char* pb = pa + C::kABytes;
          // Fragments are loaded one group ahead of the mma that uses them, so that the
          // shared-memory latency overlaps the tensor pipe: A fragment mi + 1 while the
          // mmas of A fragment mi run, and the next step's B fragments (and its first A
          // fragment) during the last A fragment of a step. Two buffers of each. The first
          // group's are requested before the next stage's copies are queued, whose
          // address arithmetic then runs during their latency.
          constexpr int kSteps = kSliceBytes / 32;
          uint32_t bf[2][C::kNT][2];
          uint32_t af[2][4];
#pragma unroll
          for (int ni = 0; ni < C::kNT; ++ni) frag.template load_b<F>(sb, pb, 0, ni, bf[0][ni]);
          frag.template load_a<F>(sa, pa, 0, 0, af[0]);
          if (kt + C::kStages - 1 < k_tiles) load_stage(kt + C::kStages - 1, write_stage);
          cp_async_commit();
#pragma unroll
          for (int step = 0; step < kSteps; ++step) {
#pragma unroll
            for (int mi = 0; mi < C::kMT; ++mi) {
              const int g = step * C::kMT + mi;  // this group; g + 1 is loaded now
              if (mi + 1 < C::kMT) {
                frag.template load_a<F>(sa, pa, step, mi + 1, af[(g + 1) % 2]);
              } else if (step + 1 < kSteps) {
#pragma unroll
                for (int ni = 0; ni < C::kNT; ++ni)
                  frag.template load_b<F>(sb, pb, step + 1, ni, bf[(step + 1) % 2][ni]);
                frag.template load_a<F>(sa, pa, step + 1, 0, af[(g + 1) % 2]);
              }
#pragma unroll
              for (int ni = 0; ni < C::kNT; ++ni) mma<F>(acc[mi][ni], af[g % 2], bf[step % 2][ni]);
            }
          }
          read_stage = read_stage + 1 == C::kStages ? 0 : read_stage + 1;
          write_stage = write_stage + 1 == C::kStages ? 0 : write_stage + 1;
        }
        cp_async_wait<0>();
      }
      __syncthreads();  // the stages become the epilogue's staging area
      const int g = lane / 4, t = lane % 4;
#pragma unroll
      for (int mg = 0; mg < C::kMT; mg += C::kBands) {
#pragma unroll
        for (int band = 0; band < C::kBands; ++band) {
#pragma unroll
          for (int ni = 0; ni < C::kNT; ++ni) {
#pragma unroll
            for (int e = 0; e < 4; ++e) {
              staged[((band * C::kWarpN) + ni * 8 + 2 * t + e % 2) * 16 + g + 8 * (e / 2)] =
                  acc_value<F>(acc[mg + band][ni], e);
            }
          }
        }
        __syncwarp();
        store_bands<C, F, TC, T>(staged, alpha, beta, use_ab, use_c, epilogue, batch,
                                 row0 + wm0 + mg * 16, col0 + wn0);
        __syncwarp();
      }
      __syncthreads();  // the staging area becomes the next tile's stages
    }
  }
}

}  // namespace strata_blas::gemm_tc

// strata_blas_gemm_tc<tile><layout>_<types>: the tensor-core kernel of
// strata_blas_gemm_<types> on one tile configuration and operand layout of
// kernels/gemm_tiles.h.
#define STRATA_BLAS_GEMM_TC_LAYOUT(types, TA, TC, T, F, id, bm, bn, wm, wn, st, lay, ak, bk)      \
  extern "C" __global__ void __launch_bounds__(wm* wn * 32,                                       \
                                               STRATA_GEMM_TC_MIN_CTAS(bm, bn, wm, wn))           \
      strata_blas_gemm_tc##id##lay##_##types(                                                     \
          strata_blas::GemmParams p, strata_blas::Scalar<T> alpha, strata_blas::Scalar<T> beta) { \
    strata_blas::gemm_tc::tc_tile<strata_blas::gemm_tc::Tile<bm, bn, wm, wn, st>, F, ak, bk, TA,  \
                                  TC, T>(p, alpha, beta, strata_blas::gemm::NoEpilogue{});        \
  }
#define STRATA_BLAS_GEMM_TC_KERNEL(types, TA, TC, T, F, id, bm, bn, wm, wn, st) \
  STRATA_GEMM_TC_LAYOUTS(STRATA_BLAS_GEMM_TC_LAYOUT, types, TA, TC, T, F, id, bm, bn, wm, wn, st)
// Instantiated in the gemm_tc kernel family only (gemm_lt.cuh includes this header).
#ifdef STRATA_BLAS_FAMILY_gemm_tc
#define STRATA_BLAS_GEMM_TC_TILE(id, bm, bn, wm, wn, st, ...) \
  STRATA_GEMM_TC_TYPES(STRATA_BLAS_GEMM_TC_KERNEL, id, bm, bn, wm, wn, st)
STRATA_GEMM_TC_TILES(STRATA_BLAS_GEMM_TC_TILE, 0)
#undef STRATA_BLAS_GEMM_TC_TILE
#endif  // STRATA_BLAS_FAMILY_gemm_tc
