// Double-buffered tiled matrix multiply with asynchronous global->shared copies, the
// three ways CUDA offers them on sm_80:
//   1. __pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior
//      (cp.async + commit_group + wait_group),
//   2. cuda::memcpy_async into a block-scoped cuda::barrier (cp.async tracked by an
//      mbarrier: cp.async.mbarrier.arrive, mbarrier.arrive, mbarrier.test_wait),
//   3. cooperative_groups::memcpy_async + cooperative_groups::wait.
// While tile t is multiplied, tile t+1 is in flight into the other buffer. Each result
// is checked against a host reference.
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cuda_pipeline.h>

#include <cmath>
#include <cstdio>
#include <cuda/barrier>
#include <vector>

#include "test_check.h"

namespace cg = cooperative_groups;

constexpr int kTile = 16;  // 16 x 16 threads, 16 x 16 float tiles

// A tile row is 16 floats = 64 bytes = 4 x 16-byte copies; the m, n, k of the test are
// multiples of 4 so every 16-byte chunk is either fully inside or fully outside.
__device__ void load_tile_pipeline(float (*dst)[kTile], const float* src, int ld, int rows,
                                   int cols, int r0, int c0) {
  int t = threadIdx.y * kTile + threadIdx.x;
  if (t < kTile * 4) {
    int r = t / 4, c = (t % 4) * 4;
    if (r0 + r < rows && c0 + c < cols) {
      __pipeline_memcpy_async(&dst[r][c], &src[(r0 + r) * ld + c0 + c], 16);
    } else {
      // Zero fill: a copy that reads no source bytes.
      __pipeline_memcpy_async(&dst[r][c], src, 16, 16);
    }
  }
}

__global__ void matmul_pipeline(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ alignas(16) float ta[2][kTile][kTile];
  __shared__ alignas(16) float tb[2][kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  int tiles = (k + kTile - 1) / kTile;
  load_tile_pipeline(ta[0], a, k, m, k, blockIdx.y * kTile, 0);
  load_tile_pipeline(tb[0], b, n, k, n, 0, blockIdx.x * kTile);
  __pipeline_commit();
  float sum = 0;
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) {
      load_tile_pipeline(ta[cur ^ 1], a, k, m, k, blockIdx.y * kTile, (t + 1) * kTile);
      load_tile_pipeline(tb[cur ^ 1], b, n, k, n, (t + 1) * kTile, blockIdx.x * kTile);
    }
    __pipeline_commit();
    __pipeline_wait_prior(1);  // tile t has landed; tile t+1 may still be in flight
    __syncthreads();
    for (int i = 0; i < kTile; ++i) sum += ta[cur][threadIdx.y][i] * tb[cur][i][threadIdx.x];
    __syncthreads();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

// Tiles of whole rows: the operands are padded so every tile lies inside them.
__global__ void matmul_barrier(const float* a, const float* b, float* c, int m, int n, int k) {
  using barrier = cuda::barrier<cuda::thread_scope_block>;
  __shared__ alignas(16) float ta[2][kTile][kTile];
  __shared__ alignas(16) float tb[2][kTile][kTile];
  __shared__ barrier bar[2];
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) {
    init(&bar[0], block.size());
    init(&bar[1], block.size());
  }
  block.sync();
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  int tiles = k / kTile;
  auto issue = [&](int t, int buf) {
    // One row of each tile per thread of the first row.
    if (threadIdx.y == 0) {
      int r = threadIdx.x;
      cuda::memcpy_async(&ta[buf][r][0], &a[(blockIdx.y * kTile + r) * k + t * kTile],
                         cuda::aligned_size_t<16>(sizeof(float) * kTile), bar[buf]);
      cuda::memcpy_async(&tb[buf][r][0], &b[(t * kTile + r) * n + blockIdx.x * kTile],
                         cuda::aligned_size_t<16>(sizeof(float) * kTile), bar[buf]);
    }
  };
  issue(0, 0);
  float sum = 0;
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) issue(t + 1, cur ^ 1);
    bar[cur].arrive_and_wait();
    for (int i = 0; i < kTile; ++i) sum += ta[cur][threadIdx.y][i] * tb[cur][i][threadIdx.x];
    block.sync();  // nobody still reads buffer cur when it is refilled
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

__global__ void matmul_cg(const float* a, const float* b, float* c, int m, int n, int k) {
  __shared__ alignas(16) float ta[2][kTile][kTile];
  __shared__ alignas(16) float tb[2][kTile][kTile];
  auto block = cg::this_thread_block();
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  int tiles = k / kTile;
  auto issue = [&](int t, int buf) {
    for (int r = 0; r < kTile; ++r) {
      cg::memcpy_async(block, &ta[buf][r][0], &a[(blockIdx.y * kTile + r) * k + t * kTile],
                       sizeof(float) * kTile);
      cg::memcpy_async(block, &tb[buf][r][0], &b[(t * kTile + r) * n + blockIdx.x * kTile],
                       sizeof(float) * kTile);
    }
  };
  issue(0, 0);
  float sum = 0;
  for (int t = 0; t < tiles; ++t) {
    int cur = t & 1;
    if (t + 1 < tiles) {
      issue(t + 1, cur ^ 1);
      cg::wait_prior<1>(block);
    } else {
      cg::wait(block);
    }
    for (int i = 0; i < kTile; ++i) sum += ta[cur][threadIdx.y][i] * tb[cur][i][threadIdx.x];
    block.sync();
  }
  if (row < m && col < n) c[row * n + col] = sum;
}

using Kernel = void (*)(const float*, const float*, float*, int, int, int);

// Runs `kernel` on an m x k by k x n product and checks it against the host.
void run(const char* name, Kernel kernel, int m, int n, int k) {
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
  CHECK_CUDA(cudaMemset(dc, 0xff, c.size() * sizeof(float)));
  dim3 block(kTile, kTile);
  dim3 grid((n + kTile - 1) / kTile, (m + kTile - 1) / kTile);
  kernel<<<grid, block>>>(da, db, dc, m, n, k);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(c.data(), dc, c.size() * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < m * n; ++i) {
    EXPECT_TRUE(std::fabs(c[i] - ref[i]) <= 1e-3f * (1.0f + std::fabs(ref[i])),
                "%s: c[%d] = %f, expected %f", name, i, c[i], ref[i]);
  }
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  std::printf("ok %s (%dx%dx%d)\n", name, m, n, k);
}

int main() {
  run("pipeline", matmul_pipeline, 68, 44, 52);  // partial tiles: zero-filled copies
  run("barrier", matmul_barrier, 64, 48, 80);
  run("cooperative_groups", matmul_cg, 48, 32, 64);
  std::printf("PASS async_copy_pipeline\n");
  return 0;
}
