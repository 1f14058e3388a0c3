// Per-block tree reduction in shared memory with __syncthreads, then a host sum.
#include <vector>

#include "test_check.h"

constexpr int kBlock = 256;

__global__ void reduce(const int* in, long long* partial, int n) {
  __shared__ long long sums[kBlock];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  sums[threadIdx.x] = i < n ? in[i] : 0;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) sums[threadIdx.x] += sums[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) partial[blockIdx.x] = sums[0];
}

int main() {
  const int n = 100003;
  const int blocks = (n + kBlock - 1) / kBlock;
  std::vector<int> in(n);
  long long expected = 0;
  for (int i = 0; i < n; ++i) {
    in[i] = (i * 37) % 1001 - 500;
    expected += in[i];
  }
  int* din;
  long long* dpartial;
  CHECK_CUDA(cudaMalloc(&din, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&dpartial, blocks * sizeof(long long)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  reduce<<<blocks, kBlock>>>(din, dpartial, n);
  CHECK_CUDA(cudaGetLastError());
  std::vector<long long> partial(blocks);
  CHECK_CUDA(cudaMemcpy(partial.data(), dpartial, blocks * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  long long total = 0;
  for (int b = 0; b < blocks; ++b) {
    long long block_ref = 0;
    for (int i = b * kBlock; i < n && i < (b + 1) * kBlock; ++i) block_ref += in[i];
    EXPECT_TRUE(partial[b] == block_ref, "block %d sum %lld, expected %lld", b, partial[b],
                block_ref);
    total += partial[b];
  }
  EXPECT_TRUE(total == expected, "total %lld, expected %lld", total, expected);
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dpartial));
  std::printf("PASS reduce_block (sum %lld)\n", total);
  return 0;
}
