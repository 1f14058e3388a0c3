// The kernel of bench/model/sampling_error: a shared-memory tiled SGEMM, C = A * B for
// n x n row-major matrices (n a multiple of 64). Each CTA of 256 threads computes a
// 64 x 64 tile of C, each thread a 4 x 4 block of it; the main loop walks K in steps of
// 8 (n / 8 iterations), staging an 64 x 8 tile of A and an 8 x 64 tile of B in shared
// memory between two barriers. nvcc compiles it to PTX at build time
// (bench/model/CMakeLists.txt); sampling_error.cc compiles that with Strata's compiler.
#define BM 64
#define BN 64
#define BK 8

extern "C" __global__ void __launch_bounds__(256)
    sgemm_tiled(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                int n) {
  __shared__ float As[BK][BM];
  __shared__ float Bs[BK][BN];
  const int tx = threadIdx.x % 16, ty = threadIdx.x / 16;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[4][4] = {};
  for (int k0 = 0; k0 < n; k0 += BK) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int e = threadIdx.x + i * 256;  // 0..511
      const int ar = e / BK, ac = e % BK;   // A tile: 64 rows x 8 columns
      As[ac][ar] = A[(row0 + ar) * n + k0 + ac];
      const int br = e / BN, bc = e % BN;  // B tile: 8 rows x 64 columns
      Bs[br][bc] = B[(k0 + br) * n + col0 + bc];
    }
    __syncthreads();
#pragma unroll
    for (int k = 0; k < BK; ++k) {
      float a[4], b[4];
#pragma unroll
      for (int i = 0; i < 4; ++i) a[i] = As[k][ty * 4 + i];
#pragma unroll
      for (int j = 0; j < 4; ++j) b[j] = Bs[k][tx * 4 + j];
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 4; ++j) acc[i][j] += a[i] * b[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 4; ++j) C[(row0 + ty * 4 + i) * n + col0 + tx * 4 + j] = acc[i][j];
}
