// Concurrent kernels share the device's DRAM bandwidth (docs/hw-contract.md, "Clock
// model"), seen through CUDA events. Relations that hold on any GPU:
//   - two streaming kernels, each using a small part of the SMs but able to saturate
//     DRAM on its own, take about as long on two streams at once as one after the other
//     (the bytes still cross the same DRAM);
//   - two small compute kernels on two streams overlap: together they take about as long
//     as one alone.
// It prints "TIMES ..." with every measured elapsed time (for comparing runs, as
// virtual_clock_determinism.cmake does for virtual_clock).
#include <algorithm>
#include <cstdio>
#include <string>

#include "test_check.h"

// Grid-stride sum of a buffer: 16 bytes of DRAM reads per element, one store per thread.
__global__ void stream(const float4* in, float* out, size_t n) {
  float sum = 0.0f;
  for (size_t i = blockIdx.x * blockDim.x + threadIdx.x; i < n;
       i += static_cast<size_t>(gridDim.x) * blockDim.x) {
    const float4 v = in[i];
    sum += v.x + v.y + v.z + v.w;
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// A dependent chain of FMAs in one block: compute only.
__global__ void chain(float* p, int iterations) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float x = p[i];
  for (int k = 0; k < iterations; ++k) x = x * 0.999f + 0.5f;
  p[i] = x;
}

static std::string g_times;

static float elapsed(cudaEvent_t a, cudaEvent_t b) {
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, a, b));
  char buf[64];
  std::snprintf(buf, sizeof(buf), " %.9g", ms);
  g_times += buf;
  return ms;
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const size_t n = size_t{1} << 21;  // 32 MiB of float4 per input buffer
  float4 *in1, *in2;
  float *out1, *out2;
  CHECK_CUDA(cudaMalloc(&in1, n * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&in2, n * sizeof(float4)));
  CHECK_CUDA(cudaMalloc(&out1, n * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&out2, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(in1, 0, n * sizeof(float4)));
  CHECK_CUDA(cudaMemset(in2, 0, n * sizeof(float4)));
  float* d;
  CHECK_CUDA(cudaMalloc(&d, 1024 * sizeof(float)));
  CHECK_CUDA(cudaMemset(d, 0, 1024 * sizeof(float)));
  cudaStream_t s1, s2;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
  CHECK_CUDA(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
  // Two blocks of 256 threads per SM: a small part of each SM's threads, so two grids fit
  // on the SMs together, yet enough loads in flight to stream at DRAM speed.
  const int blocks = 2 * prop.multiProcessorCount;
  const int threads = 256;

  // Warm-up: the first launches load the module (host time, not kernel time).
  stream<<<blocks, threads, 0, s1>>>(in1, out1, n);
  chain<<<1, 32, 0, s1>>>(d, 1);
  CHECK_CUDA(cudaStreamSynchronize(s1));

  cudaEvent_t start, mid, end, end2;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&mid));
  CHECK_CUDA(cudaEventCreate(&end));
  CHECK_CUDA(cudaEventCreate(&end2));

  // 1. One after the other on one stream.
  CHECK_CUDA(cudaEventRecord(start, s1));
  stream<<<blocks, threads, 0, s1>>>(in1, out1, n);
  CHECK_CUDA(cudaEventRecord(mid, s1));
  stream<<<blocks, threads, 0, s1>>>(in2, out2, n);
  CHECK_CUDA(cudaEventRecord(end, s1));
  CHECK_CUDA(cudaEventSynchronize(end));
  const float first = elapsed(start, mid);
  const float sequential = elapsed(start, end);
  EXPECT_TRUE(first > 0 && sequential > 1.8f * first && sequential < 2.2f * first,
              "one streaming kernel %f ms, two in a row %f ms", first, sequential);

  // 2. The same two on two streams after a common start; s1 joins s2 at the end.
  CHECK_CUDA(cudaEventRecord(start, s1));
  CHECK_CUDA(cudaStreamWaitEvent(s2, start, 0));
  stream<<<blocks, threads, 0, s1>>>(in1, out1, n);
  stream<<<blocks, threads, 0, s2>>>(in2, out2, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(end2, s2));
  CHECK_CUDA(cudaStreamWaitEvent(s1, end2, 0));
  CHECK_CUDA(cudaEventRecord(end, s1));
  CHECK_CUDA(cudaEventSynchronize(end));
  const float concurrent = elapsed(start, end);
  EXPECT_TRUE(concurrent > 0.85f * sequential && concurrent < 1.15f * sequential,
              "two streaming kernels on two streams took %f ms, one after the other %f ms",
              concurrent, sequential);

  // 3. Two one-block compute kernels: alone, then on two streams at once.
  const int iterations = 20000;
  CHECK_CUDA(cudaEventRecord(start, s1));
  chain<<<1, 32, 0, s1>>>(d, iterations);
  CHECK_CUDA(cudaEventRecord(end, s1));
  CHECK_CUDA(cudaEventSynchronize(end));
  const float alone = elapsed(start, end);
  CHECK_CUDA(cudaEventRecord(start, s1));
  CHECK_CUDA(cudaStreamWaitEvent(s2, start, 0));
  chain<<<1, 32, 0, s1>>>(d, iterations);
  chain<<<1, 32, 0, s2>>>(d + 512, iterations);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(end2, s2));
  CHECK_CUDA(cudaStreamWaitEvent(s1, end2, 0));
  CHECK_CUDA(cudaEventRecord(end, s1));
  CHECK_CUDA(cudaEventSynchronize(end));
  const float both = elapsed(start, end);
  EXPECT_TRUE(both >= 0.99f * alone && both < 1.25f * alone,
              "two compute kernels on two streams took %f ms, one alone %f ms", both, alone);

  CHECK_CUDA(cudaFree(in1));
  CHECK_CUDA(cudaFree(in2));
  CHECK_CUDA(cudaFree(out1));
  CHECK_CUDA(cudaFree(out2));
  CHECK_CUDA(cudaFree(d));
  std::printf("TIMES%s\n", g_times.c_str());
  std::printf(
      "PASS concurrent_bandwidth (streaming: %.4f ms alone, %.4f ms in a row, %.4f ms on two "
      "streams; compute: %.4f ms alone, %.4f ms on two streams)\n",
      first, sequential, concurrent, alone, both);
  return 0;
}
