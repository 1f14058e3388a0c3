// Shared-memory bank conflicts: every lane of a warp reads word lane x stride (plus a
// common offset), for strides 1..32. With 32 banks of 4 bytes, lanes whose words are
// distinct but in the same bank serialise: a request takes gcd(stride, 32) wavefronts
// (CUDA C++ Programming Guide, "Shared Memory" of compute capability 5.x and later).
// Prints the time ratio against stride 1 next to that degree.
// --quick: strides 1, 2, 4 and 32 with few iterations; checks the sums against the host.
#include <cstdint>
#include <numeric>
#include <vector>

#include "model_common.h"

constexpr int kWords = 1024 + 8 * 32;

__global__ void shared_stride(unsigned* out, int stride, int iterations) {
  __shared__ unsigned s[kWords];
  for (int i = threadIdx.x; i < kWords; i += blockDim.x) s[i] = 3u * i + 1u;
  __syncthreads();
  const int lane = threadIdx.x & 31;
  unsigned acc = 0;
  for (int it = 0; it < iterations; ++it) {
    const int base = lane * stride + (it & 31);  // < 1024: distinct words per lane
    const volatile unsigned* p = s + base;
#pragma unroll
    for (int k = 0; k < 8; ++k) acc += p[k * 32];  // same bank as p[0]
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

int main(int argc, char** argv) {
  const bool quick = model::quick_mode(argc, argv);
  model::Device dev;
  double banks = dev.arch.number({"shared_bank_count", "shared_banks"});
  if (std::isnan(banks)) banks = 32;  // the CUDA rule when the config has no field
  const unsigned block = 256, grid = static_cast<unsigned>(dev.sm_count) * (quick ? 1 : 4);
  const int iterations = quick ? 4 : 64;
  const size_t n = static_cast<size_t>(grid) * block;
  unsigned* d;
  CHECK_CUDA(cudaMalloc(&d, n * sizeof(unsigned)));
  std::vector<int> strides;
  if (quick) {
    strides = {1, 2, 4, 32};
  } else {
    for (int s = 1; s <= 32; ++s) strides.push_back(s);
  }
  std::vector<unsigned> got(n);
  double t1 = 0;
  for (int stride : strides) {
    const double t =
        model::time_seconds([&] { shared_stride<<<grid, block>>>(d, stride, iterations); });
    if (stride == 1) t1 = t;
    CHECK_CUDA(cudaMemcpy(got.data(), d, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 32; ++lane) {
      unsigned want = 0;
      for (int it = 0; it < iterations; ++it) {
        for (int k = 0; k < 8; ++k) want += 3u * (lane * stride + (it & 31) + k * 32) + 1u;
      }
      for (size_t i = lane; i < n; i += 32) {
        EXPECT_TRUE(got[i] == want, "stride %d thread %zu: %u, host %u", stride, i, got[i], want);
      }
    }
    const double degree = std::gcd(stride, static_cast<int>(banks));
    char metric[64];
    std::snprintf(metric, sizeof metric, "time vs stride 1, stride %d", stride);
    model::row("bank_conflicts", metric, t / t1, degree, "x");
  }
  CHECK_CUDA(cudaFree(d));
  std::printf("PASS model_shared\n");
  return 0;
}
