// Each thread runs a data-dependent number of iterations (Collatz steps), with nested
// divergent branches inside the loop.
#include <vector>

#include "test_check.h"

__host__ __device__ int collatz_steps(unsigned long long x) {
  int steps = 0;
  while (x != 1) {
    if (x & 1) {
      x = 3 * x + 1;
    } else {
      x /= 2;
    }
    ++steps;
  }
  return steps;
}

__global__ void steps_kernel(int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int s = collatz_steps(static_cast<unsigned long long>(i) + 1);
  if (s % 3 == 0) {
    out[i] = s;
  } else if (s % 3 == 1) {
    int acc = 0;
    for (int k = 0; k < s; ++k) acc += k & 3;
    out[i] = -acc;
  } else {
    out[i] = s * 2;
  }
}

int main() {
  const int n = 5000;
  int* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
  steps_kernel<<<(n + 127) / 128, 128>>>(d, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<int> out(n);
  CHECK_CUDA(cudaMemcpy(out.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int s = collatz_steps(static_cast<unsigned long long>(i) + 1);
    int expected;
    if (s % 3 == 0) {
      expected = s;
    } else if (s % 3 == 1) {
      int acc = 0;
      for (int k = 0; k < s; ++k) acc += k & 3;
      expected = -acc;
    } else {
      expected = s * 2;
    }
    EXPECT_TRUE(out[i] == expected, "out[%d] = %d, expected %d", i, out[i], expected);
  }
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS divergent_loops (%d threads)\n", n);
  return 0;
}
