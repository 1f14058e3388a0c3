// Kernels for the metamorphic tests of the timing model (tests/model/metamorphic.py):
// the same program runs under two architecture configs that differ in one field, and
// the driver compares the modeled kernel times printed here (CUDA event elapsed time).
// Grid sizes are constants, never derived from the device, so that both runs execute
// exactly the same work. Each kernel checks its results against the host.
// A kernel's time is that of its second of two back-to-back launches (events recorded
// between and after them): the second launch is queued behind the first, so its time is
// the device's alone, without the host-side cost of submitting the first.
//   fma_bound: 1536 CTAs x 256 threads (8 full waves of 8 CTAs per SM on 24 SMs, 4 on
//              48), eight independent FMA chains per thread, no memory traffic in the loop.
//   stream:    a triad over three 32 MiB arrays (several times any L2 of the configs).
//   fma_small: the fma_bound kernel on 16 CTAs, fewer than the SMs of any config: more
//              SMs cannot make it faster.
#include <cmath>
#include <cstdio>
#include <vector>

#include "test_check.h"

__global__ void fma_bound(float* out, int iterations, float a, float b) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float x0 = tid, x1 = tid + 1, x2 = tid + 2, x3 = tid + 3, x4 = tid + 4, x5 = tid + 5,
        x6 = tid + 6, x7 = tid + 7;
  for (int i = 0; i < iterations; ++i) {
    x0 = x0 * a + b, x1 = x1 * a + b, x2 = x2 * a + b, x3 = x3 * a + b;
    x4 = x4 * a + b, x5 = x5 * a + b, x6 = x6 * a + b, x7 = x7 * a + b;
  }
  out[tid] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

__global__ void stream(float* __restrict__ a, const float* __restrict__ b,
                       const float* __restrict__ c, float s, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

template <typename Body>
float elapsed_ms(Body body) {
  cudaEvent_t start, stop;
  CHECK_CUDA(cudaEventCreate(&start));
  CHECK_CUDA(cudaEventCreate(&stop));
  body();
  CHECK_CUDA(cudaEventRecord(start, 0));
  body();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaEventRecord(stop, 0));
  CHECK_CUDA(cudaEventSynchronize(stop));
  float ms = 0;
  CHECK_CUDA(cudaEventElapsedTime(&ms, start, stop));
  CHECK_CUDA(cudaEventDestroy(start));
  CHECK_CUDA(cudaEventDestroy(stop));
  return ms;
}

int main() {
  {
    const int ctas = 1536, block = 256, iterations = 128, n = ctas * block;
    const float a = 0.999f, b = 0.25f;
    float* d;
    CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));
    const float ms = elapsed_ms([&] { fma_bound<<<ctas, block>>>(d, iterations, a, b); });
    std::vector<float> got(n);
    CHECK_CUDA(cudaMemcpy(got.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int t = 0; t < n; t += 101) {
      float x[8];
      for (int k = 0; k < 8; ++k) x[k] = static_cast<float>(t + k);
      for (int i = 0; i < iterations; ++i) {
        for (float& v : x) v = std::fmaf(v, a, b);
      }
      const float want = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
      EXPECT_TRUE(got[t] == want, "fma_bound thread %d: %.9g, host %.9g", t, got[t], want);
    }
    std::printf("KERNEL_MS fma_bound %.9g\n", ms);
    const int small_ctas = 16;
    const float small_ms =
        elapsed_ms([&] { fma_bound<<<small_ctas, block>>>(d, iterations, a, b); });
    CHECK_CUDA(
        cudaMemcpy(got.data(), d, small_ctas * block * sizeof(float), cudaMemcpyDeviceToHost));
    for (int t = 0; t < small_ctas * block; t += 37) {
      float x[8];
      for (int k = 0; k < 8; ++k) x[k] = static_cast<float>(t + k);
      for (int i = 0; i < iterations; ++i) {
        for (float& v : x) v = std::fmaf(v, a, b);
      }
      const float want = ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
      EXPECT_TRUE(got[t] == want, "fma_small thread %d: %.9g, host %.9g", t, got[t], want);
    }
    std::printf("KERNEL_MS fma_small %.9g\n", small_ms);
    CHECK_CUDA(cudaFree(d));
  }
  {
    const int n = 8 << 20, block = 256;
    std::vector<float> hb(n), hc(n), got(n);
    for (int i = 0; i < n; ++i)
      hb[i] = static_cast<float>(i % 1000), hc[i] = static_cast<float>(i % 91);
    float *a, *b, *c;
    CHECK_CUDA(cudaMalloc(&a, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&b, n * sizeof(float)));
    CHECK_CUDA(cudaMalloc(&c, n * sizeof(float)));
    CHECK_CUDA(cudaMemcpy(b, hb.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(c, hc.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const float s = 2.5f;
    const float ms = elapsed_ms([&] { stream<<<n / block, block>>>(a, b, c, s, n); });
    CHECK_CUDA(cudaMemcpy(got.data(), a, n * sizeof(float), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; ++i) {
      const float want = std::fmaf(s, hc[i], hb[i]);
      EXPECT_TRUE(got[i] == want, "stream[%d] = %f, host %f", i, got[i], want);
    }
    CHECK_CUDA(cudaFree(a));
    CHECK_CUDA(cudaFree(b));
    CHECK_CUDA(cudaFree(c));
    std::printf("KERNEL_MS stream %.9g\n", ms);
  }
  std::printf("PASS metamorphic\n");
  return 0;
}
