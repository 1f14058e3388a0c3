// Separate compilation: a kernel calls an extern __device__ function and reads an
// extern __device__ variable defined in rdc_extern_lib.cu.
#include <vector>

#include "test_check.h"

extern __device__ int rdc_bias;
extern __device__ int rdc_transform(int x);
__global__ void rdc_set_bias(int bias);

__global__ void apply(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = rdc_transform(in[i]) + rdc_bias;
}

int main() {
  const int n = 1000;
  std::vector<int> in(n), out(n);
  for (int i = 0; i < n; ++i) in[i] = i - 300;
  int *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(int)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  rdc_set_bias<<<1, 1>>>(7);
  CHECK_CUDA(cudaGetLastError());
  apply<<<(n + 255) / 256, 256>>>(din, dout, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    int expected = 3 * in[i] + 7 + 7;
    EXPECT_TRUE(out[i] == expected, "out[%d] = %d, expected %d", i, out[i], expected);
  }
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  std::printf("PASS rdc_extern\n");
  return 0;
}
