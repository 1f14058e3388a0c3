// Accuracy set: copies. cudaMemcpy host-to-device and device-to-host (pinned),
// device-to-device, and a copy kernel, over 256 MiB (--quick: 1 MiB).
#include "accuracy_common.h"

__global__ void copy_kernel(float4* __restrict__ dst, const float4* __restrict__ src, size_t n) {
  for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    dst[i] = src[i];
  }
}

int main(int argc, char** argv) {
  const accuracy::Options o = accuracy::parse_options(argc, argv);
  accuracy::print_header();
  const size_t bytes = o.quick ? (1u << 20) : (256u << 20);
  const size_t n = bytes / 4;
  float *host, *a, *b;
  CHECK_CUDA(cudaMallocHost(&host, bytes));
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  for (size_t i = 0; i < n; ++i) host[i] = static_cast<float>(accuracy::pattern(i, 1));
  const std::string size = std::to_string(bytes);
  accuracy::time_kernel(o, "copy", "memcpy_h2d_pinned", size, [&] {
    CHECK_CUDA(cudaMemcpyAsync(a, host, bytes, cudaMemcpyHostToDevice, 0));
  });
  accuracy::time_kernel(o, "copy", "memcpy_d2d", size, [&] {
    CHECK_CUDA(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice, 0));
  });
  int sms = 0;
  CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  accuracy::time_kernel(o, "copy", "copy_kernel_float4", size, [&] {
    copy_kernel<<<sms * 8, 256>>>(reinterpret_cast<float4*>(a), reinterpret_cast<const float4*>(b),
                                  n / 4);
  });
  for (size_t i = 0; i < n; ++i) host[i] = -1.0f;
  accuracy::time_kernel(o, "copy", "memcpy_d2h_pinned", size, [&] {
    CHECK_CUDA(cudaMemcpyAsync(host, a, bytes, cudaMemcpyDeviceToHost, 0));
  });
  CHECK_CUDA(cudaDeviceSynchronize());
  for (size_t i = 0; i < n; ++i) {
    EXPECT_TRUE(host[i] == static_cast<float>(accuracy::pattern(i, 1)), "element %zu = %f", i,
                host[i]);
  }
  CHECK_CUDA(cudaFreeHost(host));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  std::printf("PASS copy\n");
  return 0;
}
