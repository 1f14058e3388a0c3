// The stride sweep of `strata advise` (issue 6, item 7): out[i] = 2 x in[i x stride].
// Stride 1 reads consecutive floats (4 sectors per warp request); from stride 2 on the
// warp touches more sectors than it uses, up to 32 (one per thread) from stride 8 on.
// Usage: advise_stride STRIDE (1..32) [vec4]. With vec4 the kernel copies float4s at
// stride 1 instead: 16 sectors per request, all of whose bytes are used (coalesced; an
// advisor that assumed 4-byte accesses would flag it). Self-checking against a host
// computation.
#include <cstdlib>
#include <string>
#include <vector>

#include "../cuda/test_check.h"

__global__ void strided_copy(const float* in, float* out, int n, int stride) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = 2.0f * in[static_cast<size_t>(i) * stride];
}

__global__ void vec4_copy(const float4* in, float4* out, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = make_float4(2.0f * in[i].x, 2.0f * in[i].y, 2.0f * in[i].z, 2.0f * in[i].w);
}

int main(int argc, char** argv) {
  const int stride = argc > 1 ? std::atoi(argv[1]) : 1;
  if (argc > 2 && std::string(argv[2]) == "vec4") {
    const int n = 1 << 13;
    std::vector<float> in(4 * n), out(4 * n);
    for (int i = 0; i < 4 * n; ++i) in[i] = static_cast<float>(i % 1000) - 500.0f;
    float4 *din, *dout;
    CHECK_CUDA(cudaMalloc(&din, n * sizeof(float4)));
    CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float4)));
    CHECK_CUDA(cudaMemcpy(din, in.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    vec4_copy<<<n / 256, 256>>>(din, dout, n);
    CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float4), cudaMemcpyDeviceToHost));
    for (int i = 0; i < 4 * n; ++i) {
      EXPECT_TRUE(out[i] == 2.0f * in[i], "out[%d] = %f, expected %f", i, out[i], 2.0f * in[i]);
    }
    CHECK_CUDA(cudaFree(din));
    CHECK_CUDA(cudaFree(dout));
    std::printf("PASS advise_stride (vec4)\n");
    return 0;
  }
  EXPECT_TRUE(stride >= 1 && stride <= 32, "stride %d out of 1..32", stride);
  const int n = 1 << 15;
  const size_t in_elems = static_cast<size_t>(n) * stride;
  std::vector<float> in(in_elems), out(n);
  for (size_t i = 0; i < in_elems; ++i) in[i] = static_cast<float>(i % 1000) - 500.0f;
  float *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, in_elems * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&dout, n * sizeof(float)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), in_elems * sizeof(float), cudaMemcpyHostToDevice));
  const int block = 256;
  strided_copy<<<(n + block - 1) / block, block>>>(din, dout, n, stride);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const float want = 2.0f * in[static_cast<size_t>(i) * stride];
    EXPECT_TRUE(out[i] == want, "out[%d] = %f, expected %f", i, out[i], want);
  }
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  std::printf("PASS advise_stride (stride %d)\n", stride);
  return 0;
}
