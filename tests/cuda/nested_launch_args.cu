// A launch inside another launch's argument list: the inner launch's configuration is
// pushed after the outer one's and must be popped first.
#include <vector>

#include "test_check.h"

__global__ void fill(int* p, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = value + i;
}

__global__ void add_scalar(int* p, int scalar, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += scalar;
}

static int* g_other;

// Launches a kernel with a different configuration and returns a value for the caller.
int launch_inner(int n) {
  fill<<<1, 64>>>(g_other, 1000, n);
  return 5;
}

int main() {
  const int n = 300;
  int* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&g_other, 64 * sizeof(int)));
  CHECK_CUDA(cudaMemset(d, 0, n * sizeof(int)));
  add_scalar<<<(n + 127) / 128, 128>>>(d, launch_inner(64), n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int> out(n), other(64);
  CHECK_CUDA(cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(other.data(), g_other, 64 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) EXPECT_TRUE(out[i] == 5, "out[%d] = %d, expected 5", i, out[i]);
  for (int i = 0; i < 64; ++i)
    EXPECT_TRUE(other[i] == 1000 + i, "other[%d] = %d, expected %d", i, other[i], 1000 + i);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(g_other));
  std::printf("PASS nested_launch_args\n");
  return 0;
}
