// Two devices (run with STRATA_DEVICES=2): the same kernel, whose handle nvcc's launch
// stub obtains once from __cudaGetKernel, launched on device 0 and on device 1; each
// device's memory holds its own results; peer copies go through the host.
#include <vector>

#include "test_check.h"

__global__ void iota_scaled(int* p, int scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = scale * i;
}

static void run_on(int device, int* d, int scale, int n) {
  CHECK_CUDA(cudaSetDevice(device));
  iota_scaled<<<(n + 63) / 64, 64>>>(d, scale, n);
  CHECK_CUDA(cudaGetLastError());
}

int main() {
  int count = 0;
  CHECK_CUDA(cudaGetDeviceCount(&count));
  EXPECT_TRUE(count == 2, "cudaGetDeviceCount -> %d, expected 2 (STRATA_DEVICES=2)", count);
  const int n = 500;
  int* d[2] = {nullptr, nullptr};
  for (int dev = 0; dev < 2; ++dev) {
    CHECK_CUDA(cudaSetDevice(dev));
    CHECK_CUDA(cudaMalloc(&d[dev], n * sizeof(int)));
    CHECK_CUDA(cudaMemset(d[dev], 0, n * sizeof(int)));
  }
  // Device 1 first: its module loads on first use there, not on device 0's launch.
  run_on(1, d[1], 3, n);
  run_on(0, d[0], 2, n);
  run_on(1, d[1], 5, n);
  int current = -1;
  CHECK_CUDA(cudaGetDevice(&current));
  EXPECT_TRUE(current == 1, "cudaGetDevice -> %d, expected 1", current);
  for (int dev = 0; dev < 2; ++dev) {
    CHECK_CUDA(cudaSetDevice(dev));
    CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<int> out(n, -1);
    CHECK_CUDA(cudaMemcpy(out.data(), d[dev], n * sizeof(int), cudaMemcpyDeviceToHost));
    const int scale = dev == 0 ? 2 : 5;
    for (int i = 0; i < n; ++i) {
      EXPECT_TRUE(out[i] == scale * i, "device %d: out[%d] = %d, expected %d", dev, i, out[i],
                  scale * i);
    }
    cudaDeviceProp prop;
    CHECK_CUDA(cudaGetDeviceProperties(&prop, dev));
    EXPECT_TRUE(prop.multiProcessorCount > 0, "device %d has no SMs", dev);
    CHECK_CUDA(cudaFree(d[dev]));
  }
  // A stream of device 1 can be queried, synchronised and inspected while device 0 is
  // current (the stream carries its device); work is still launched on device 1.
  cudaStream_t s1 = nullptr;
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaStreamCreate(&s1));
  int* d1 = nullptr;
  CHECK_CUDA(cudaMalloc(&d1, n * sizeof(int)));
  iota_scaled<<<(n + 63) / 64, 64, 0, s1>>>(d1, 7, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaSetDevice(0));
  cudaError_t q = cudaStreamQuery(s1);
  EXPECT_TRUE(q == cudaSuccess || q == cudaErrorNotReady, "cudaStreamQuery(other device) -> %s",
              cudaGetErrorName(q));
  CHECK_CUDA(cudaStreamSynchronize(s1));
  CHECK_CUDA(cudaStreamQuery(s1));
  unsigned int flags = 99;
  CHECK_CUDA(cudaStreamGetFlags(s1, &flags));
  EXPECT_TRUE(flags == cudaStreamDefault, "flags %u", flags);
  std::vector<int> out1(n, -1);
  CHECK_CUDA(cudaMemcpy(out1.data(), d1, n * sizeof(int), cudaMemcpyDefault));
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(out1[i] == 7 * i, "stream of device 1: out[%d] = %d", i, out1[i]);
  }
  CHECK_CUDA(cudaStreamDestroy(s1));
  CHECK_CUDA(cudaSetDevice(1));
  CHECK_CUDA(cudaFree(d1));
  std::printf("PASS multi_device\n");
  return 0;
}
