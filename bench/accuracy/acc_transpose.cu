// Accuracy set: matrix transpose, naive (uncoalesced writes) and tiled through shared
// memory with a padded 32x33 tile, 8192 x 8192 floats (--quick: 256 x 256).
#include <vector>

#include "accuracy_common.h"

constexpr int kTile = 32, kRows = 8;

__global__ void transpose_naive(float* __restrict__ out, const float* __restrict__ in, int n) {
  const int x = blockIdx.x * kTile + threadIdx.x;
  for (int j = 0; j < kTile; j += kRows) {
    const int y = blockIdx.y * kTile + threadIdx.y + j;
    out[static_cast<size_t>(x) * n + y] = in[static_cast<size_t>(y) * n + x];
  }
}

__global__ void transpose_tiled(float* __restrict__ out, const float* __restrict__ in, int n) {
  __shared__ float tile[kTile][kTile + 1];
  int x = blockIdx.x * kTile + threadIdx.x, y = blockIdx.y * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    tile[threadIdx.y + j][threadIdx.x] = in[static_cast<size_t>(y + j) * n + x];
  __syncthreads();
  x = blockIdx.y * kTile + threadIdx.x, y = blockIdx.x * kTile + threadIdx.y;
  for (int j = 0; j < kTile; j += kRows)
    out[static_cast<size_t>(y + j) * n + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main(int argc, char** argv) {
  const accuracy::Options o = accuracy::parse_options(argc, argv);
  accuracy::print_header();
  const int n = o.quick ? 256 : 8192;
  const size_t count = static_cast<size_t>(n) * n;
  std::vector<float> h(count), got(count);
  for (size_t i = 0; i < count; ++i) h[i] = static_cast<float>(i % 65521);
  float *in, *out;
  CHECK_CUDA(cudaMalloc(&in, count * 4));
  CHECK_CUDA(cudaMalloc(&out, count * 4));
  CHECK_CUDA(cudaMemcpy(in, h.data(), count * 4, cudaMemcpyHostToDevice));
  const dim3 grid(n / kTile, n / kTile), block(kTile, kRows);
  struct Variant {
    const char* name;
    void (*kernel)(float*, const float*, int);
  } variants[] = {{"transpose_naive", transpose_naive}, {"transpose_tiled", transpose_tiled}};
  for (const Variant& v : variants) {
    CHECK_CUDA(cudaMemset(out, 0, count * 4));
    accuracy::time_kernel(o, "transpose", v.name, std::to_string(n),
                          [&] { v.kernel<<<grid, block>>>(out, in, n); });
    CHECK_CUDA(cudaMemcpy(got.data(), out, count * 4, cudaMemcpyDeviceToHost));
    for (size_t y = 0; y < static_cast<size_t>(n); ++y) {
      for (size_t x = 0; x < static_cast<size_t>(n); ++x) {
        EXPECT_TRUE(got[y * n + x] == h[x * n + y], "%s: out[%zu][%zu] = %f", v.name, y, x,
                    got[y * n + x]);
      }
    }
  }
  CHECK_CUDA(cudaFree(in));
  CHECK_CUDA(cudaFree(out));
  std::printf("PASS transpose\n");
  return 0;
}
