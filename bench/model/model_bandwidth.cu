// Streaming bandwidth: copy and triad kernels over arrays larger than the L2, against
// the config's DRAM bandwidth; cudaMemcpy host-to-device, device-to-host (pinned and
// pageable) and device-to-device against the config's link models.
// --quick: small arrays; checks every result element against the host.
#include <vector>

#include "model_common.h"

__global__ void copy_kernel(float* __restrict__ dst, const float* __restrict__ src, size_t n) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) dst[i] = src[i];
}

__global__ void triad_kernel(float* __restrict__ a, const float* __restrict__ b,
                             const float* __restrict__ c, float s, size_t n) {
  size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x;
  if (i < n) a[i] = b[i] + s * c[i];
}

int main(int argc, char** argv) {
  const bool quick = model::quick_mode(argc, argv);
  model::Device dev;
  const size_t bytes =
      quick ? (1u << 20)
            : static_cast<size_t>(std::max(4.0 * dev.prop.l2CacheSize, 32.0 * (1 << 20)));
  const size_t n = bytes / 4;
  std::vector<float> hb(n), hc(n), got(n);
  for (size_t i = 0; i < n; ++i)
    hb[i] = static_cast<float>(i % 1000), hc[i] = static_cast<float>(i % 77) * 0.5f;
  float *a, *b, *c;
  CHECK_CUDA(cudaMalloc(&a, bytes));
  CHECK_CUDA(cudaMalloc(&b, bytes));
  CHECK_CUDA(cudaMalloc(&c, bytes));
  CHECK_CUDA(cudaMemcpy(b, hb.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(c, hc.data(), bytes, cudaMemcpyHostToDevice));
  const unsigned block = 256, grid = static_cast<unsigned>((n + block - 1) / block);

  // Kernels, timed in the steady state (model_common.h).

  double t = model::time_seconds([&] { copy_kernel<<<grid, block>>>(a, b, n); });
  CHECK_CUDA(cudaMemcpy(got.data(), a, bytes, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(got[i] == hb[i], "copy[%zu] = %f", i, got[i]);
  model::row("stream", "copy kernel bandwidth", 2.0 * bytes / t / 1e9, dev.dram_bytes_per_s / 1e9,
             "GB/s");
  const float s = 3.0f;
  t = model::time_seconds([&] { triad_kernel<<<grid, block>>>(a, b, c, s, n); });
  CHECK_CUDA(cudaMemcpy(got.data(), a, bytes, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) {
    const float want = std::fmaf(s, hc[i], hb[i]);  // nvcc contracts b + s * c into one fma
    EXPECT_TRUE(got[i] == want, "triad[%zu] = %f, expected %f", i, got[i], want);
  }
  model::row("stream", "triad kernel bandwidth", 3.0 * bytes / t / 1e9, dev.dram_bytes_per_s / 1e9,
             "GB/s");

  // Copies. Host link: the config's per-direction bandwidth; inside the device a copy
  // reads and writes DRAM, so it moves at most half the DRAM bandwidth.
  const double host_link = dev.arch.number({"host_link_bytes_per_second"}) / 1e9;
  float* pinned;
  CHECK_CUDA(cudaMallocHost(&pinned, bytes));
  std::vector<float> pageable(n);
  struct Copy {
    const char* name;
    void* dst;
    const void* src;
    cudaMemcpyKind kind;
    double implied;
  } copies[] = {
      {"memcpy H2D pinned", b, pinned, cudaMemcpyHostToDevice, host_link},
      {"memcpy D2H pinned", pinned, c, cudaMemcpyDeviceToHost, host_link},
      {"memcpy H2D pageable", b, pageable.data(), cudaMemcpyHostToDevice, host_link},
      {"memcpy D2H pageable", pageable.data(), c, cudaMemcpyDeviceToHost, host_link},
      {"memcpy D2D", a, c, cudaMemcpyDeviceToDevice, dev.dram_bytes_per_s / 2e9},
  };
  for (size_t i = 0; i < n; ++i) pinned[i] = hb[i];
  for (const Copy& cp : copies) {
    t = model::time_seconds(
        [&] { CHECK_CUDA(cudaMemcpyAsync(cp.dst, cp.src, bytes, cp.kind, 0)); });
    model::row("copy", cp.name, bytes / t / 1e9, cp.implied, "GB/s");
  }
  // The copies moved hb -> b -> (c unchanged) ...: check the last two landed.
  CHECK_CUDA(cudaMemcpy(got.data(), a, bytes, cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; ++i) EXPECT_TRUE(got[i] == hc[i], "D2D copy[%zu] = %f", i, got[i]);
  for (size_t i = 0; i < n; ++i)
    EXPECT_TRUE(pageable[i] == hc[i], "D2H copy[%zu] = %f", i, pageable[i]);
  CHECK_CUDA(cudaFreeHost(pinned));
  CHECK_CUDA(cudaFree(a));
  CHECK_CUDA(cudaFree(b));
  CHECK_CUDA(cudaFree(c));
  std::printf("PASS model_bandwidth\n");
  return 0;
}
