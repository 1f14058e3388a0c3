// Arithmetic throughput: FP32 and FP64 FMA (eight independent chains per thread, a
// full wave of CTAs on every SM) and tensor-core FP16 mma.sync (m16n8k16, four
// independent accumulators per warp) against the config's per-SM rates x SMs x clock.
// --quick: few iterations; checks every result against the host.
#include <cstdint>
#include <vector>

#include "model_common.h"

template <typename T>
__global__ void fma_chains(T* out, int iterations, T a, T b) {
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  T x0 = tid, x1 = tid + 1, x2 = tid + 2, x3 = tid + 3, x4 = tid + 4, x5 = tid + 5, x6 = tid + 6,
    x7 = tid + 7;
  for (int i = 0; i < iterations; ++i) {
    x0 = x0 * a + b, x1 = x1 * a + b, x2 = x2 * a + b, x3 = x3 * a + b;
    x4 = x4 * a + b, x5 = x5 * a + b, x6 = x6 * a + b, x7 = x7 * a + b;
  }
  out[tid] = ((x0 + x1) + (x2 + x3)) + ((x4 + x5) + (x6 + x7));
}

// Each mma.sync m16n8k16 (f16 inputs, f32 accumulators) is 16 x 8 x 16 = 2048
// multiply-adds per warp. A is all 1.0 and B all 0.5, so every element of D grows by
// 16 x 0.5 = 8 per mma (PTX ISA, "Matrix multiply-accumulate operation using mma").
__global__ void mma_loop(float* out, int iterations) {
  const unsigned one = 0x3C003C00u, half = 0x38003800u;  // f16x2 {1.0, 1.0} and {0.5, 0.5}
  float d[4][4] = {};
  for (int i = 0; i < iterations; ++i) {
#pragma unroll
    for (int k = 0; k < 4; ++k) {
      asm volatile(
          "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, "
          "{%8,%9}, {%0,%1,%2,%3};\n"
          : "+f"(d[k][0]), "+f"(d[k][1]), "+f"(d[k][2]), "+f"(d[k][3])
          : "r"(one), "r"(one), "r"(one), "r"(one), "r"(half), "r"(half));
    }
  }
  const int tid = blockIdx.x * blockDim.x + threadIdx.x;
  float sum = 0;
  for (int k = 0; k < 4; ++k) sum += d[k][0] + d[k][1] + d[k][2] + d[k][3];
  out[tid] = sum;
}

namespace {

template <typename T>
T host_chains(int tid, int iterations, T a, T b) {
  T x[8];
  for (int k = 0; k < 8; ++k) x[k] = static_cast<T>(tid + k);
  for (int i = 0; i < iterations; ++i) {
    for (int k = 0; k < 8; ++k) x[k] = std::fma(x[k], a, b);
  }
  return ((x[0] + x[1]) + (x[2] + x[3])) + ((x[4] + x[5]) + (x[6] + x[7]));
}

template <typename T>
void run_fma(const model::Device& dev, bool quick, const char* metric,
             std::initializer_list<const char*> lanes_keys) {
  const unsigned block = 256, grid = static_cast<unsigned>(dev.sm_count) * (quick ? 1 : 8);
  const int iterations = quick ? 8 : 256;
  const size_t n = static_cast<size_t>(grid) * block;
  T* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(T)));
  const T a = static_cast<T>(0.999), b = static_cast<T>(0.25);

  double t = model::time_seconds([&] { fma_chains<T><<<grid, block>>>(d, iterations, a, b); });
  std::vector<T> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  for (size_t i = 0; i < n; i += quick ? 1 : 97) {
    const T want = host_chains<T>(static_cast<int>(i), iterations, a, b);
    EXPECT_TRUE(got[i] == want, "%s thread %zu: %.17g, host %.17g", metric, i,
                static_cast<double>(got[i]), static_cast<double>(want));
  }
  const double flops = 2.0 * 8 * iterations * n;
  model::row("throughput", metric, flops / t / 1e9, 2.0 * dev.device_rate(lanes_keys) / 1e9,
             "GFLOP/s");
  CHECK_CUDA(cudaFree(d));
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = model::quick_mode(argc, argv);
  model::Device dev;
  run_fma<float>(dev, quick, "FP32 FMA", {"fp32_lanes_per_clock", "fp32_lanes"});
  run_fma<double>(dev, quick, "FP64 FMA", {"fp64_lanes_per_clock", "fp64_lanes"});

  const unsigned block = 128, grid = static_cast<unsigned>(dev.sm_count) * (quick ? 1 : 4);
  const int iterations = quick ? 4 : 128;
  const size_t n = static_cast<size_t>(grid) * block;
  float* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(float)));

  double t = model::time_seconds([&] { mma_loop<<<grid, block>>>(d, iterations); });
  std::vector<float> got(n);
  CHECK_CUDA(cudaMemcpy(got.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
  const float want = 16.0f * 8.0f * iterations;  // 4 accumulators x 4 elements x 8 per mma
  for (size_t i = 0; i < n; ++i)
    EXPECT_TRUE(got[i] == want, "mma thread %zu: %f, expected %f", i, got[i], want);
  const double fmas = 2048.0 * 4 * iterations * (n / 32);
  model::row("throughput", "tensor FP16 mma.sync (f32 acc)", 2.0 * fmas / t / 1e12,
             2.0 * dev.device_rate({"tensor_fma_per_clock_f16", "tensor_f16_fma_per_clock"}) / 1e12,
             "TFLOP/s");
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS model_throughput\n");
  return 0;
}
