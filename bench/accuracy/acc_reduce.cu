// Accuracy set: reduction. Sum of 64 Mi integers (--quick: 1 Mi): a grid-stride loop per
// thread, a warp-shuffle and shared-memory block reduction, one 64-bit atomic per block.
#include <cstdint>
#include <vector>

#include "accuracy_common.h"

__global__ void reduce_sum(const int* __restrict__ in, size_t n, unsigned long long* out) {
  __shared__ long long warp_sums[32];
  long long sum = 0;
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    sum += in[i];
  }
  for (int offset = 16; offset > 0; offset >>= 1) sum += __shfl_down_sync(0xffffffffu, sum, offset);
  if ((threadIdx.x & 31) == 0) warp_sums[threadIdx.x >> 5] = sum;
  __syncthreads();
  if (threadIdx.x < 32) {
    sum = threadIdx.x < blockDim.x / 32 ? warp_sums[threadIdx.x] : 0;
    for (int offset = 16; offset > 0; offset >>= 1)
      sum += __shfl_down_sync(0xffffffffu, sum, offset);
    if (threadIdx.x == 0) atomicAdd(out, static_cast<unsigned long long>(sum));
  }
}

int main(int argc, char** argv) {
  const accuracy::Options o = accuracy::parse_options(argc, argv);
  accuracy::print_header();
  const size_t n = o.quick ? (1u << 20) : (64u << 20);
  std::vector<int> h(n);
  long long want = 0;
  for (size_t i = 0; i < n; ++i) h[i] = accuracy::pattern(i, 2), want += h[i];
  int* d;
  unsigned long long* out;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&out, sizeof *out));
  CHECK_CUDA(cudaMemcpy(d, h.data(), n * sizeof(int), cudaMemcpyHostToDevice));
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  accuracy::time_kernel(o, "reduce", "reduce_sum_int", std::to_string(n), [&] {
    CHECK_CUDA(cudaMemsetAsync(out, 0, sizeof *out, 0));
    reduce_sum<<<sms * 8, 256>>>(d, n, out);
  });
  unsigned long long got = 0;
  CHECK_CUDA(cudaMemcpy(&got, out, sizeof got, cudaMemcpyDeviceToHost));
  EXPECT_TRUE(static_cast<long long>(got) == want, "sum %lld, host %lld",
              static_cast<long long>(got), want);
  CHECK_CUDA(cudaFree(d));
  CHECK_CUDA(cudaFree(out));
  std::printf("PASS reduce\n");
  return 0;
}
