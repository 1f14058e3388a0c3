// Accuracy set: SGEMM and HGEMM at three sizes (512, 1024, 2048; --quick: 64).
//   sgemm_tiled: C = A x B in FP32, 32x32 shared-memory tiles, each thread 4 outputs.
//   hgemm_wmma:  C = A x B, FP16 inputs, FP32 accumulation, WMMA 16x16x16 fragments,
//                four warps per 32x32 block of C, fragments loaded from global memory.
// Inputs are small integers (exact in FP16 and FP32, and so are all partial sums at
// these sizes), so results are checked exactly against integer arithmetic on the host:
// every entry with --quick, 256 sampled entries otherwise.
#include <cuda_fp16.h>
#include <mma.h>

#include <cstdint>
#include <vector>

#include "accuracy_common.h"

constexpr int kTile = 32;

__global__ void sgemm_tiled(float* __restrict__ c, const float* __restrict__ a,
                            const float* __restrict__ b, int n) {
  __shared__ float sa[kTile][kTile], sb[kTile][kTile];
  const int tx = threadIdx.x, ty = threadIdx.y;  // block 32 x 8: rows ty, ty+8, ty+16, ty+24
  const int col = blockIdx.x * kTile + tx, row0 = blockIdx.y * kTile + ty;
  float acc[4] = {0, 0, 0, 0};
  for (int k0 = 0; k0 < n; k0 += kTile) {
    for (int r = 0; r < 4; ++r) {
      sa[ty + 8 * r][tx] = a[static_cast<size_t>(row0 + 8 * r) * n + k0 + tx];
      sb[ty + 8 * r][tx] = b[static_cast<size_t>(k0 + ty + 8 * r) * n + col];
    }
    __syncthreads();
    for (int k = 0; k < kTile; ++k) {
      const float bv = sb[k][tx];
      for (int r = 0; r < 4; ++r) acc[r] += sa[ty + 8 * r][k] * bv;
    }
    __syncthreads();
  }
  for (int r = 0; r < 4; ++r) c[static_cast<size_t>(row0 + 8 * r) * n + col] = acc[r];
}

__global__ void hgemm_wmma(float* __restrict__ c, const half* __restrict__ a,
                           const half* __restrict__ b, int n) {
  using namespace nvcuda;
  const int warp = threadIdx.x / 32;
  const int row = blockIdx.y * 32 + (warp / 2) * 16, col = blockIdx.x * 32 + (warp % 2) * 16;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  for (int k = 0; k < n; k += 16) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
    wmma::load_matrix_sync(fa, a + static_cast<size_t>(row) * n + k, n);
    wmma::load_matrix_sync(fb, b + static_cast<size_t>(k) * n + col, n);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(c + static_cast<size_t>(row) * n + col, acc, n, wmma::mem_row_major);
}

namespace {

void check(const char* kernel, const std::vector<float>& got, const std::vector<int>& a,
           const std::vector<int>& b, int n, bool all) {
  const int samples = all ? n * n : 256;
  for (int s = 0; s < samples; ++s) {
    const int i = all ? s / n : static_cast<int>((s * 7919u) % n),
              j = all ? s % n : static_cast<int>((s * 104729u) % n);
    long long want = 0;
    for (int k = 0; k < n; ++k)
      want += static_cast<long long>(a[static_cast<size_t>(i) * n + k]) *
              b[static_cast<size_t>(k) * n + j];
    const float g = got[static_cast<size_t>(i) * n + j];
    EXPECT_TRUE(g == static_cast<float>(want), "%s n=%d C[%d][%d] = %f, host %lld", kernel, n, i, j,
                g, want);
  }
}

}  // namespace

int main(int argc, char** argv) {
  const accuracy::Options o = accuracy::parse_options(argc, argv);
  accuracy::print_header();
  std::vector<int> sizes = o.quick ? std::vector<int>{64} : std::vector<int>{512, 1024, 2048};
  for (int n : sizes) {
    const size_t count = static_cast<size_t>(n) * n;
    std::vector<int> ia(count), ib(count);
    std::vector<float> fa(count), fb(count), got(count);
    std::vector<half> ha(count), hb(count);
    for (size_t i = 0; i < count; ++i) {
      ia[i] = accuracy::pattern(i, 4), ib[i] = accuracy::pattern(i, 5);
      fa[i] = static_cast<float>(ia[i]), fb[i] = static_cast<float>(ib[i]);
      ha[i] = __float2half(fa[i]), hb[i] = __float2half(fb[i]);
    }
    float *da, *db, *dc;
    half *dha, *dhb;
    CHECK_CUDA(cudaMalloc(&da, count * 4));
    CHECK_CUDA(cudaMalloc(&db, count * 4));
    CHECK_CUDA(cudaMalloc(&dc, count * 4));
    CHECK_CUDA(cudaMalloc(&dha, count * 2));
    CHECK_CUDA(cudaMalloc(&dhb, count * 2));
    CHECK_CUDA(cudaMemcpy(da, fa.data(), count * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, fb.data(), count * 4, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dha, ha.data(), count * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(dhb, hb.data(), count * 2, cudaMemcpyHostToDevice));
    const dim3 grid(n / kTile, n / kTile);
    accuracy::time_kernel(o, "gemm", "sgemm_tiled", std::to_string(n),
                          [&] { sgemm_tiled<<<grid, dim3(kTile, 8)>>>(dc, da, db, n); });
    CHECK_CUDA(cudaMemcpy(got.data(), dc, count * 4, cudaMemcpyDeviceToHost));
    check("sgemm_tiled", got, ia, ib, n, o.quick);
    CHECK_CUDA(cudaMemset(dc, 0, count * 4));
    accuracy::time_kernel(o, "gemm", "hgemm_wmma", std::to_string(n),
                          [&] { hgemm_wmma<<<grid, 128>>>(dc, dha, dhb, n); });
    CHECK_CUDA(cudaMemcpy(got.data(), dc, count * 4, cudaMemcpyDeviceToHost));
    check("hgemm_wmma", got, ia, ib, n, o.quick);
    for (void* p : {static_cast<void*>(da), static_cast<void*>(db), static_cast<void*>(dc),
                    static_cast<void*>(dha), static_cast<void*>(dhb)}) {
      CHECK_CUDA(cudaFree(p));
    }
  }
  std::printf("PASS gemm\n");
  return 0;
}
