// Pointer chase: one thread follows a ring of dependent loads (one node per 128-byte
// line, in a random cyclic order) for rings from a few KiB to several times the L2.
// Prints the latency per load in core cycles and ns next to the latency the config
// gives for the level the ring fits in. The time per load is a difference of two runs
// (n2 - n1 loads), so the launch overhead cancels. Run it with STRATA_TIMING=detailed
// where the detailed model exists; under the fast model it checks the latency term.
// --quick: small rings and few loads; checks the final node against the host.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "model_common.h"

__global__ void chase(const unsigned* ring, unsigned start, int steps, unsigned* out) {
  unsigned i = start;
  for (int s = 0; s < steps; ++s) i = ring[i];
  *out = i;
}

namespace {

constexpr unsigned kStride = 32;  // words per node: one node per 128-byte line

// Sattolo's algorithm: a single cycle through all nodes (deterministic generator).
std::vector<unsigned> make_ring(size_t nodes) {
  std::vector<unsigned> order(nodes);
  for (size_t i = 0; i < nodes; ++i) order[i] = static_cast<unsigned>(i);
  uint64_t state = 0x9E3779B97F4A7C15ull;
  for (size_t i = nodes - 1; i > 0; --i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    const size_t j = static_cast<size_t>((state >> 33) % i);
    std::swap(order[i], order[j]);
  }
  std::vector<unsigned> ring(nodes * kStride, 0);
  for (size_t i = 0; i < nodes; ++i) ring[i * kStride] = order[i] * kStride;
  return ring;
}

unsigned host_chase(const std::vector<unsigned>& ring, unsigned start, long steps) {
  unsigned i = start;
  for (long s = 0; s < steps; ++s) i = ring[i];
  return i;
}

}  // namespace

int main(int argc, char** argv) {
  const bool quick = model::quick_mode(argc, argv);
  model::Device dev;
  const double l1 = dev.arch.number({"l1_bytes"});
  const double l2 = dev.prop.l2CacheSize;
  const double lat_l1 = dev.arch.number({"l1_hit_latency_cycles", "l1_latency_cycles"});
  const double lat_l2 = dev.arch.number({"l2_hit_latency_cycles", "l2_latency_cycles"});
  double lat_dram = dev.arch.number({"dram_latency_cycles"});
  if (std::isnan(lat_dram)) lat_dram = dev.arch.number({"dram_latency_ns"}) * dev.core_hz * 1e-9;

  std::vector<size_t> sizes;
  const size_t top = quick ? (64u << 10) : static_cast<size_t>(std::max(4 * l2, 16.0 * (1 << 20)));
  for (size_t s = 8u << 10; s <= top; s *= 4) sizes.push_back(s);
  const int n1 = quick ? 32 : 512, n2 = quick ? 96 : 2560;

  unsigned* d_out;
  CHECK_CUDA(cudaMalloc(&d_out, sizeof(unsigned)));
  for (size_t bytes : sizes) {
    const size_t nodes = bytes / (kStride * 4);
    std::vector<unsigned> ring = make_ring(nodes);
    unsigned* d_ring;
    CHECK_CUDA(cudaMalloc(&d_ring, ring.size() * 4));
    CHECK_CUDA(cudaMemcpy(d_ring, ring.data(), ring.size() * 4, cudaMemcpyHostToDevice));
    // The level the ring fits in, clearly (half the capacity) or clearly not (twice).
    const char* level = nullptr;
    double implied = NAN;
    if (!std::isnan(l1) && bytes * 2 <= l1) {
      level = "L1", implied = lat_l1;
    } else if ((std::isnan(l1) || bytes >= 2 * l1) && bytes * 2 <= l2) {
      level = "L2", implied = lat_l2;
    } else if (bytes >= 2 * l2) {
      level = "DRAM", implied = lat_dram;
    }
    long total = 0;
    unsigned start = 0;
    if (bytes * 2 <= l2) {  // warm the caches with one full lap (ends where it began)
      chase<<<1, 1>>>(d_ring, 0, static_cast<int>(nodes), d_out);
      CHECK_CUDA(cudaDeviceSynchronize());
      total += static_cast<long>(nodes);
    }
    // Each run continues where the previous one stopped, so a ring larger than the
    // caches never revisits lines the previous run brought in.
    double t[2];
    const int steps[2] = {n1, n2};
    for (int k = 0; k < 2; ++k) {
      t[k] = model::time_seconds([&] { chase<<<1, 1>>>(d_ring, start, steps[k], d_out); },
                                 /*steady=*/false);
      CHECK_CUDA(cudaMemcpy(&start, d_out, sizeof start, cudaMemcpyDeviceToHost));
      total += steps[k];
    }
    const unsigned expect = host_chase(ring, 0, total);
    EXPECT_TRUE(start == expect, "ring of %zu bytes: chase ended at %u, host says %u", bytes, start,
                expect);
    const double ns = (t[1] - t[0]) / (n2 - n1) * 1e9;
    char metric[96];
    std::snprintf(metric, sizeof metric, "load latency, %zu KiB ring (%s)", bytes >> 10,
                  level ? level : "between levels");
    model::row("pointer_chase", metric, ns * dev.core_hz * 1e-9, implied, "cycles");
    model::row("pointer_chase", std::string(metric) + " [ns]", ns, implied / dev.core_hz * 1e9,
               "ns");
    CHECK_CUDA(cudaFree(d_ring));
  }
  CHECK_CUDA(cudaFree(d_out));
  std::printf("PASS model_latency\n");
  return 0;
}
