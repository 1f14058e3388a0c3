// A small program for the `strata run --report` test (tests/model/CMakeLists.txt): two
// kernels with C++ names (a namespace, a template) launched a known number of times,
// and copies each way. The test checks that the report names both kernels demangled,
// with their launch counts, and lists the copies.
#include <vector>

#include "test_check.h"

namespace demo {
template <typename T>
__global__ void scale(T* p, T factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}
}  // namespace demo

__global__ void add_one(int* p, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += 1;
}

int main() {
  const int n = 4096;
  std::vector<float> hf(n, 1.0f);
  std::vector<int> hi(n, 0);
  float* f;
  int* d;
  CHECK_CUDA(cudaMalloc(&f, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(f, hf.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(d, hi.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  for (int k = 0; k < 3; ++k) demo::scale<float><<<n / 256, 256>>>(f, 2.0f, n);
  for (int k = 0; k < 5; ++k) add_one<<<n / 256, 256>>>(d, n);
  CHECK_CUDA(cudaMemcpy(hf.data(), f, n * sizeof(float), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(hi.data(), d, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(hf[i] == 8.0f && hi[i] == 5, "element %d: %f %d", i, hf[i], hi[i]);
  }
  CHECK_CUDA(cudaFree(f));
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS report_kernels\n");
  return 0;
}
