// c = a + b over a vector that does not fill the last block.
#include <vector>

#include "test_check.h"

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 10000;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; ++i) {
    a[i] = 0.5f * i;
    b[i] = 3.0f - i;
  }
  float *da, *db, *dc;
  CHECK_CUDA(cudaMalloc(&da, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&db, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dc, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(da, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  const int block = 256;
  vector_add<<<(n + block - 1) / block, block>>>(da, db, dc, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(c.data(), dc, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(c[i] == a[i] + b[i], "c[%d] = %f, expected %f", i, c[i], a[i] + b[i]);
  }
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  std::printf("PASS vector_add (%d elements)\n", n);
  return 0;
}
