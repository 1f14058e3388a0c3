// Accuracy set: 2D five-point Jacobi stencil on a 4096 x 4096 float grid (--quick:
// 128 x 128), one sweep per launch, boundary copied; checked bit for bit against the host
// (the same additions in the same order, then one multiply: nothing to contract).
#include <vector>

#include "accuracy_common.h"

__global__ void jacobi5(float* __restrict__ out, const float* __restrict__ in, int n) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= n || y >= n) return;
  const size_t i = static_cast<size_t>(y) * n + x;
  if (x == 0 || y == 0 || x == n - 1 || y == n - 1) {
    out[i] = in[i];
    return;
  }
  out[i] = 0.2f * ((((in[i] + in[i - 1]) + in[i + 1]) + in[i - n]) + in[i + n]);
}

int main(int argc, char** argv) {
  const accuracy::Options o = accuracy::parse_options(argc, argv);
  accuracy::print_header();
  const int n = o.quick ? 128 : 4096;
  const size_t count = static_cast<size_t>(n) * n;
  std::vector<float> h(count), got(count);
  for (size_t i = 0; i < count; ++i) h[i] = static_cast<float>(accuracy::pattern(i, 3));
  float *a, *b;
  CHECK_CUDA(cudaMalloc(&a, count * 4));
  CHECK_CUDA(cudaMalloc(&b, count * 4));
  CHECK_CUDA(cudaMemcpy(a, h.data(), count * 4, cudaMemcpyHostToDevice));
  const dim3 block(32, 8), grid((n + 31) / 32, (n + 7) / 8);
  accuracy::time_kernel(o, "stencil", "jacobi5", std::to_string(n),
                        [&] { jacobi5<<<grid, block>>>(b, a, n); });
  CHECK_CUDA(cudaMemcpy(got.data(), b, count * 4, cudaMemcpyDeviceToHost));
  for (int y = 0; y < n; ++y) {
    for (int x = 0; x < n; ++x) {
      const size_t i = static_cast<size_t>(y) * n + x;
      const bool edge = x == 0 || y == 0 || x == n - 1 || y == n - 1;
      const float want =
          edge ? h[i] : 0.2f * ((((h[i] + h[i - 1]) + h[i + 1]) + h[i - n]) + h[i + n]);
      EXPECT_TRUE(got[i] == want, "(%d, %d) = %f, host %f", x, y, got[i], want);
    }
  }
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  std::printf("PASS stencil\n");
  return 0;
}
