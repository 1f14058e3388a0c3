// GEMMs written the way CUTLASS-style kernels write them: inline-PTX mma.sync with
// fragments placed by hand. The f16 kernel loads A with ldmatrix.x4 and B with
// ldmatrix.x2.trans from shared memory; the s8 kernel fills the m16n8k32 fragments
// directly by the PTX ISA's layout (groupID = lane / 4, threadID_in_group = lane % 4).
// Inputs are small integers, so the results are exact and must equal the host reference.
#include <cuda_fp16.h>

#include <cstdint>
#include <vector>

#include "test_check.h"

constexpr int kM = 64, kN = 64, kK = 64;

// One warp per 16 x 8 tile of D = A * B (A kM x kK row-major, B kK x kN row-major).
__global__ void gemm_f16(const half* a, const half* b, float* d) {
  constexpr int kLdA = 16 + 8;  // halves per staged A row: 48 bytes, 16-byte aligned rows
  __shared__ __align__(16) half as[16 * kLdA];
  __shared__ __align__(16) half bs[16 * 8];
  const int lane = threadIdx.x, tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  float acc[4] = {0, 0, 0, 0};
  for (int k0 = 0; k0 < kK; k0 += 16) {
    for (int i = lane; i < 16 * 16; i += 32)
      as[(i / 16) * kLdA + i % 16] = a[(tile_m + i / 16) * kK + k0 + i % 16];
    for (int i = lane; i < 16 * 8; i += 32) bs[i] = b[(k0 + i / 8) * kN + tile_n + i % 8];
    __syncwarp();
    // A: matrices (rows 0-7, cols 0-7), (rows 8-15, cols 0-7), (rows 0-7, cols 8-15),
    // (rows 8-15, cols 8-15); lane l addresses row l % 16 of column block l / 16.
    uint32_t ra[4], rb[2];
    const unsigned a_addr =
        static_cast<unsigned>(__cvta_generic_to_shared(&as[(lane % 16) * kLdA + (lane / 16) * 8]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(ra[0]), "=r"(ra[1]), "=r"(ra[2]), "=r"(ra[3])
                 : "r"(a_addr));
    // B: rows k 0-7 and 8-15 of the 16 x 8 tile, transposed into the column fragments.
    const unsigned b_addr = static_cast<unsigned>(__cvta_generic_to_shared(&bs[(lane % 16) * 8]));
    asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];\n"
                 : "=r"(rb[0]), "=r"(rb[1])
                 : "r"(b_addr));
    asm volatile(
        "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
        "{%8, %9}, "
        "{%0, %1, %2, %3};\n"
        : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
        : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
    __syncwarp();
  }
  const int g = lane / 4, t = lane % 4;
  d[(tile_m + g) * kN + tile_n + 2 * t] = acc[0];
  d[(tile_m + g) * kN + tile_n + 2 * t + 1] = acc[1];
  d[(tile_m + g + 8) * kN + tile_n + 2 * t] = acc[2];
  d[(tile_m + g + 8) * kN + tile_n + 2 * t + 1] = acc[3];
}

// m16n8k32 s8 with fragments gathered from global memory by the PTX ISA's tables.
__global__ void gemm_s8(const int8_t* a, const int8_t* b, int* d) {
  const int lane = threadIdx.x, tile_m = blockIdx.y * 16, tile_n = blockIdx.x * 8;
  const int g = lane / 4, t = lane % 4;
  int acc[4] = {0, 0, 0, 0};
  for (int k0 = 0; k0 < kK; k0 += 32) {
    uint32_t ra[4] = {0, 0, 0, 0}, rb[2] = {0, 0};
    for (int i = 0; i < 16;
         ++i) {  // a_i: row g (+8 for 4 <= i % 8 < 8), col t * 4 + i % 4 (+16 for i >= 8)
      const int row = ((i % 8) < 4) ? g : g + 8, col = t * 4 + (i % 4) + (i >= 8 ? 16 : 0);
      ra[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(a[(tile_m + row) * kK + k0 + col]))
                   << (8 * (i % 4));
    }
    for (int i = 0; i < 8; ++i) {  // b_i: row t * 4 + i % 4 (+16 for i >= 4), col g
      const int row = t * 4 + (i % 4) + (i >= 4 ? 16 : 0);
      rb[i / 4] |= static_cast<uint32_t>(static_cast<uint8_t>(b[(k0 + row) * kN + tile_n + g]))
                   << (8 * (i % 4));
    }
    asm volatile(
        "mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, {%8, "
        "%9}, "
        "{%0, %1, %2, %3};\n"
        : "+r"(acc[0]), "+r"(acc[1]), "+r"(acc[2]), "+r"(acc[3])
        : "r"(ra[0]), "r"(ra[1]), "r"(ra[2]), "r"(ra[3]), "r"(rb[0]), "r"(rb[1]));
  }
  d[(tile_m + g) * kN + tile_n + 2 * t] = acc[0];
  d[(tile_m + g) * kN + tile_n + 2 * t + 1] = acc[1];
  d[(tile_m + g + 8) * kN + tile_n + 2 * t] = acc[2];
  d[(tile_m + g + 8) * kN + tile_n + 2 * t + 1] = acc[3];
}

std::vector<int> random_ints(int n, int lo, int hi, unsigned seed) {
  std::vector<int> v(n);
  unsigned s = seed;
  for (int& x : v) {
    s = s * 1664525u + 1013904223u;
    x = lo + static_cast<int>((s >> 8) % static_cast<unsigned>(hi - lo + 1));
  }
  return v;
}

std::vector<long long> reference(const std::vector<int>& a, const std::vector<int>& b) {
  std::vector<long long> d(kM * kN, 0);
  for (int i = 0; i < kM; ++i)
    for (int j = 0; j < kN; ++j)
      for (int k = 0; k < kK; ++k)
        d[i * kN + j] += static_cast<long long>(a[i * kK + k]) * b[k * kN + j];
  return d;
}

int main() {
  {
    std::vector<int> ai = random_ints(kM * kK, -6, 6, 11), bi = random_ints(kK * kN, -6, 6, 12);
    std::vector<half> ah(ai.size()), bh(bi.size());
    for (size_t i = 0; i < ai.size(); ++i) ah[i] = __float2half(static_cast<float>(ai[i]));
    for (size_t i = 0; i < bi.size(); ++i) bh[i] = __float2half(static_cast<float>(bi[i]));
    half *da, *db;
    float* dd;
    CHECK_CUDA(cudaMalloc(&da, ah.size() * sizeof(half)));
    CHECK_CUDA(cudaMalloc(&db, bh.size() * sizeof(half)));
    CHECK_CUDA(cudaMalloc(&dd, kM * kN * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(da, ah.data(), ah.size() * sizeof(half), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, bh.data(), bh.size() * sizeof(half), cudaMemcpyHostToDevice));
    gemm_f16<<<dim3(kN / 8, kM / 16), 32>>>(da, db, dd);
    CHECK_CUDA(cudaGetLastError());
    std::vector<float> got(kM * kN);
    CHECK_CUDA(cudaMemcpy(got.data(), dd, got.size() * sizeof(float), cudaMemcpyDeviceToHost));
    std::vector<long long> want = reference(ai, bi);
    for (int i = 0; i < kM * kN; ++i)
      EXPECT_TRUE(got[i] == static_cast<float>(want[i]), "f16 D[%d][%d] = %g, expected %lld",
                  i / kN, i % kN, got[i], want[i]);
    CHECK_CUDA(cudaFree(da));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dd));
    std::printf("ok ldmatrix + mma.m16n8k16 f16\n");
  }
  {
    std::vector<int> ai = random_ints(kM * kK, -128, 127, 21),
                     bi = random_ints(kK * kN, -128, 127, 22);
    std::vector<int8_t> a8(ai.begin(), ai.end()), b8(bi.begin(), bi.end());
    int8_t *da, *db;
    int* dd;
    CHECK_CUDA(cudaMalloc(&da, a8.size()));
    CHECK_CUDA(cudaMalloc(&db, b8.size()));
    CHECK_CUDA(cudaMalloc(&dd, kM * kN * sizeof(int)));
    CHECK_CUDA(cudaMemcpy(da, a8.data(), a8.size(), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b8.data(), b8.size(), cudaMemcpyHostToDevice));
    gemm_s8<<<dim3(kN / 8, kM / 16), 32>>>(da, db, dd);
    CHECK_CUDA(cudaGetLastError());
    std::vector<int> got(kM * kN);
    CHECK_CUDA(cudaMemcpy(got.data(), dd, got.size() * sizeof(int), cudaMemcpyDeviceToHost));
    std::vector<long long> want = reference(ai, bi);
    for (int i = 0; i < kM * kN; ++i)
      EXPECT_TRUE(got[i] == want[i], "s8 D[%d][%d] = %d, expected %lld", i / kN, i % kN, got[i],
                  want[i]);
    CHECK_CUDA(cudaFree(da));
    CHECK_CUDA(cudaFree(db));
    CHECK_CUDA(cudaFree(dd));
    std::printf("ok mma.m16n8k32 s8\n");
  }
  std::printf("PASS\n");
  return 0;
}
