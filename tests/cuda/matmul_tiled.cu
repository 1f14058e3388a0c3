// C = A * B with shared-memory tiles; sizes not multiples of the tile.
#include <cmath>
#include <vector>

#include "test_check.h"

constexpr int kTile = 16;

__global__ void matmul(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ float ta[kTile][kTile];
  __shared__ float tb[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  float sum = 0;
  for (int t = 0; t < (k + kTile - 1) / kTile; ++t) {
    int ak = t * kTile + threadIdx.x;
    int bk = t * kTile + threadIdx.y;
    ta[threadIdx.y][threadIdx.x] = (row < m && ak < k) ? a[row * k + ak] : 0.0f;
    tb[threadIdx.y][threadIdx.x] = (bk < k && col < n) ? b[bk * n + col] : 0.0f;
    __syncthreads();
    for (int i = 0; i < kTile; ++i) sum += ta[threadIdx.y][i] * tb[i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

int main() {
  const int m = 70, n = 45, k = 53;
  std::vector<float> a(m * k), b(k * n), c(m * n), ref(m * n);
  for (int i = 0; i < m * k; ++i) a[i] = static_cast<float>((i * 7) % 11) - 5.0f;
  for (int i = 0; i < k * n; ++i) b[i] = static_cast<float>((i * 5) % 13) * 0.25f;
  for (int r = 0; r < m; ++r)
    for (int col = 0; col < n; ++col) {
      float s = 0;
      for (int i = 0; i < k; ++i) s += a[r * k + i] * b[i * n + col];
      ref[r * n + col] = s;
    }
  float *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, a.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, b.size() * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, c.size() * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * sizeof(float), cudaMemcpyHostToDevice));
  dim3 block(kTile, kTile);
  dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  matmul<<<grid, block>>>(da, db, dc, m, n, k);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m * n; ++i) {
    EXPECT_TRUE(std::fabs(c[i] - ref[i]) <= 1e-3f * (1.0f + std::fabs(ref[i])),
                "c[%d] = %f, expected %f", i, c[i], ref[i]);
  }
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  std::printf("PASS matmul_tiled (%dx%dx%d)\n", m, n, k);
  return 0;
}
