// Tests of the fast timing model on synthetic statistics: the metamorphic properties of
// issue 5 (what must happen to a modeled time when one config parameter changes) and
// the expected values of simple cases, computed here by hand from the config's
// documented figures (PCIe 4.0 x16 = 31.5 GB/s, GDDR6 256-bit at 14 Gbps = 448 GB/s, ...).
#include "hw/perf/fast_model.h"

#include <gtest/gtest.h>

#include <cmath>
#include <iterator>

namespace strata::hw::perf {
namespace {

ArchConfig load(const char* name) {
  auto config = load_arch_config(name);
  EXPECT_TRUE(config.ok()) << config.status().to_string();
  return config.ok() ? *config : ArchConfig{};
}

// A grid of `ctas` CTAs of `warps` full warps, `per_sm` resident per SM, in which every
// warp executes the per-warp counts below.
struct Warp {
  uint64_t ffma = 0;
  uint64_t int_ops = 0;
  uint64_t global_loads = 0, load_sectors = 0;  // requests, sectors per request
  uint64_t global_stores = 0, store_sectors = 0;
  uint64_t shared = 0, wavefronts = 0;  // requests, wavefronts per request
  uint64_t hmma_f16 = 0;                // m16n8k16 instructions
};

KernelStats grid(uint64_t ctas, uint32_t warps, uint32_t per_sm, const Warp& w) {
  KernelStats s;
  s.ctas = ctas;
  s.warps_per_cta = warps;
  s.threads_per_cta = warps * 32;
  s.ctas_per_sm = per_sm;
  s.max_warps_per_sm = 64;
  const uint64_t n = ctas * warps;
  auto add = [&](Pipe pipe, uint64_t per_warp) {
    s.pipe_warp_instructions[static_cast<int>(pipe)] += n * per_warp;
    s.pipe_thread_instructions[static_cast<int>(pipe)] += n * per_warp * 32;
    s.warp_instructions += n * per_warp;
    s.thread_instructions += n * per_warp * 32;
  };
  add(Pipe::kFp32, w.ffma);
  add(Pipe::kInt, w.int_ops);
  add(Pipe::kLdst, w.global_loads + w.global_stores + w.shared);
  add(Pipe::kTensor, w.hmma_f16);
  s.tensor_fmas[static_cast<int>(TensorType::kF16)] = n * w.hmma_f16 * 2048;
  s.global_loads = {n * w.global_loads, n * w.global_loads * w.load_sectors};
  s.global_stores = {n * w.global_stores, n * w.global_stores * w.store_sectors};
  s.shared_requests = n * w.shared;
  s.shared_wavefronts = n * w.shared * w.wavefronts;
  s.shared_bank_conflicts = s.shared_wavefronts - s.shared_requests;
  return s;
}

double compute_ns(const KernelTime& t) {
  return static_cast<double>(t.ns - t.launch_ns);
}

const Warp kFma{.ffma = 20000,
                .int_ops = 200,
                .global_loads = 2,
                .load_sectors = 4,
                .global_stores = 1,
                .store_sectors = 4};
const Warp kStream{
    .int_ops = 12, .global_loads = 1, .load_sectors = 4, .global_stores = 1, .store_sectors = 4};

TEST(FastModel, DoublingDramBandwidthBarelyChangesAnFmaBoundKernel) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm", "h200-sxm"}) {
    ArchConfig c = load(name);
    const KernelStats s = grid(c.sm_count * 8 * 20, 8, 8, kFma);
    const KernelTime base = model_kernel(c, s);
    EXPECT_TRUE(base.bound == Bound::kIssue || base.bound == Bound::kPipe)
        << name << bound_name(base.bound);
    c.memory_clock_mhz *= 2;
    const KernelTime fast = model_kernel(c, s);
    EXPECT_LT(std::abs(compute_ns(fast) / compute_ns(base) - 1.0), 0.01) << name;
  }
}

TEST(FastModel, DoublingSmsHalvesALargeComputeBoundGrid) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm"}) {
    ArchConfig c = load(name);
    const KernelStats s = grid(c.sm_count * 8 * 50 + 7, 8, 8, kFma);  // a partial last wave
    const KernelTime base = model_kernel(c, s);
    c.sm_count *= 2;
    const KernelTime twice = model_kernel(c, s);
    EXPECT_NEAR(compute_ns(twice) / compute_ns(base), 0.5, 0.025) << name;
  }
}

TEST(FastModel, DoublingTheClockHalvesAComputeBoundKernel) {
  ArchConfig c = load("strata-g1");
  const KernelStats s = grid(24 * 8 * 20, 8, 8, kFma);
  const KernelTime base = model_kernel(c, s);
  c.core_clock_mhz *= 2;
  const KernelTime fast = model_kernel(c, s);
  EXPECT_EQ(fast.cycles, base.cycles);
  EXPECT_NEAR(compute_ns(fast) / compute_ns(base), 0.5, 0.001);
}

TEST(FastModel, FmaThroughputFollowsTheLanes) {
  // A100: 64 FP32 lanes per SM, 4 schedulers: FFMA-bound at 2 warp instructions per clock.
  const ArchConfig a100 = load("a100-sxm");
  const KernelStats s = grid(108 * 8, 8, 8, Warp{.ffma = 1000});
  const KernelTime t = model_kernel(a100, s);
  EXPECT_EQ(t.bound, Bound::kPipe);
  EXPECT_EQ(t.busiest_pipe, Pipe::kFp32);
  EXPECT_EQ(t.cycles, 8u * 8u * 1000u * 32u / 64u);
  // H100 and strata-g1: 128 lanes, so the four schedulers are the limit.
  const KernelTime g1 = model_kernel(load("strata-g1"), grid(24 * 8, 8, 8, Warp{.ffma = 1000}));
  EXPECT_EQ(g1.cycles, 8u * 8u * 1000u / 4u);
  EXPECT_DOUBLE_EQ(g1.issue_cycles, g1.pipe_cycles[static_cast<int>(Pipe::kFp32)]);
}

TEST(FastModel, DoublingDramBandwidthRoughlyHalvesAStreamingKernel) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm"}) {
    ArchConfig c = load(name);
    const KernelStats s = grid(c.sm_count * 8 * 100, 8, 8, kStream);  // 64 warps per SM
    const KernelTime base = model_kernel(c, s);
    EXPECT_EQ(base.bound, Bound::kDram) << name;
    // DRAM time = bytes / (peak bandwidth / SMs) per SM; no cache counters: all miss.
    const double bytes_per_sm = 8.0 * 8 * 100 * (4 + 4) * 32;
    const double per_sm_per_clock =
        dram_bytes_per_second(c) / (c.core_clock_mhz * 1e6) / c.sm_count;
    EXPECT_NEAR(base.dram_cycles, bytes_per_sm / per_sm_per_clock, 1e-6 * base.dram_cycles) << name;
    c.memory_clock_mhz *= 2;
    const KernelTime fast = model_kernel(c, s);
    EXPECT_NEAR(fast.dram_cycles / base.dram_cycles, 0.5, 1e-9) << name;
    EXPECT_NEAR(compute_ns(fast) / compute_ns(base), 0.5, 0.05) << name;
  }
}

TEST(FastModel, OneWarpPointerChaseIsLatencyBound) {
  const ArchConfig c = load("strata-g1");
  // 1000 dependent loads of one sector each and an address add after each.
  const KernelStats s =
      grid(1, 1, 1, Warp{.int_ops = 1000, .global_loads = 1000, .load_sectors = 1});
  const KernelTime t = model_kernel(c, s);
  EXPECT_EQ(t.bound, Bound::kLatency);
  // No cache counters: every load goes to DRAM (300 ns = 450 cycles at 1.5 GHz).
  EXPECT_NEAR(t.latency_cycles, 1000.0 * 450 + 1000.0 * 4, 1e-6);
  EXPECT_EQ(t.cycles, 454000u);
  EXPECT_EQ(t.ns, 2000u + 302667u);  // launch + 454000 cycles / 1.5 GHz, rounded up
  // The same chase hitting in L1 waits 33 cycles per load.
  KernelStats hits = s;
  hits.l1_hits = 1000;
  const KernelTime l1 = model_kernel(c, hits);
  EXPECT_NEAR(l1.latency_cycles, 1000.0 * 33 + 1000.0 * 4, 1e-6);
  // ... and one missing L1 but hitting L2 waits 200.
  KernelStats l2 = s;
  l2.l1_misses = 1000;
  l2.l2_hits = 1000;
  EXPECT_NEAR(model_kernel(c, l2).latency_cycles, 1000.0 * 200 + 1000.0 * 4, 1e-6);
}

TEST(FastModel, MoreResidentWarpsHideLatency) {
  const ArchConfig c = load("strata-g1");
  const Warp chase{.int_ops = 100, .global_loads = 100, .load_sectors = 1};
  const KernelTime one = model_kernel(c, grid(1, 1, 1, chase));
  const KernelTime sixteen = model_kernel(c, grid(1, 16, 1, chase));
  // Sixteen warps on one SM take as long as one: their latencies overlap.
  EXPECT_EQ(sixteen.bound, Bound::kLatency);
  EXPECT_NEAR(sixteen.latency_cycles, one.latency_cycles, 1e-6);
}

TEST(FastModel, BankConflictsRaiseSharedTimeProportionally) {
  const ArchConfig c = load("strata-g1");
  const KernelStats clean =
      grid(24 * 8 * 4, 8, 8, Warp{.int_ops = 20, .shared = 100, .wavefronts = 1});
  const KernelStats four_way =
      grid(24 * 8 * 4, 8, 8, Warp{.int_ops = 20, .shared = 100, .wavefronts = 4});
  const KernelTime a = model_kernel(c, clean);
  const KernelTime b = model_kernel(c, four_way);
  // Conflict-free, the LSU (one warp instruction per clock) and the banks tie.
  EXPECT_DOUBLE_EQ(static_cast<double>(a.cycles), a.shared_cycles);
  EXPECT_EQ(b.bound, Bound::kShared);
  // One 128-byte wavefront per clock (shared_bytes_per_clock = 128).
  EXPECT_DOUBLE_EQ(a.shared_cycles, 4.0 * 8 * 8 * 100);
  EXPECT_DOUBLE_EQ(b.shared_cycles, 4.0 * a.shared_cycles);
  EXPECT_NEAR(static_cast<double>(b.cycles) / static_cast<double>(a.cycles), 4.0, 1e-3);
}

TEST(FastModel, TensorWorkUsesTheRateOfItsType) {
  const ArchConfig h100 = load("h100-sxm");
  const KernelStats s = grid(132 * 2, 4, 2, Warp{.hmma_f16 = 10000});
  const KernelTime t = model_kernel(h100, s);
  EXPECT_EQ(t.bound, Bound::kPipe);
  EXPECT_EQ(t.busiest_pipe, Pipe::kTensor);
  // 2 CTAs x 4 warps x 10000 HMMA x 2048 FMA on one SM at 2048 FMA per clock.
  EXPECT_DOUBLE_EQ(t.pipe_cycles[static_cast<int>(Pipe::kTensor)], 2.0 * 4 * 10000 * 2048 / 2048);
  KernelStats tf32 = s;
  tf32.tensor_fmas[static_cast<int>(TensorType::kTf32)] =
      tf32.tensor_fmas[static_cast<int>(TensorType::kF16)];
  tf32.tensor_fmas[static_cast<int>(TensorType::kF16)] = 0;
  EXPECT_DOUBLE_EQ(model_kernel(h100, tf32).pipe_cycles[static_cast<int>(Pipe::kTensor)],
                   2.0 * t.pipe_cycles[static_cast<int>(Pipe::kTensor)]);  // TF32 at half rate
}

TEST(FastModel, TheLastPartialWaveShows) {
  const ArchConfig c = load("strata-g1");
  const Warp work{.ffma = 1000};
  const KernelTime full = model_kernel(c, grid(24, 8, 1, work));   // one wave
  const KernelTime extra = model_kernel(c, grid(25, 8, 1, work));  // one more CTA
  EXPECT_EQ(extra.cycles, 2 * full.cycles);
  EXPECT_NEAR(extra.waves, 25.0 / 24.0, 1e-12);
  EXPECT_GT(extra.tail_cycles, 0.0);
  EXPECT_EQ(full.tail_cycles, 0.0);
}

TEST(FastModel, PerSmCountsShowImbalance) {
  const ArchConfig c = load("strata-g1");
  KernelStats s = grid(24 * 4, 8, 4, Warp{.ffma = 1000});
  const KernelTime balanced = model_kernel(c, s);
  s.sm_warp_instructions.assign(24, s.warp_instructions / 24);
  s.sm_ctas.assign(24, 4);
  EXPECT_EQ(model_kernel(c, s).cycles, balanced.cycles);
  // One SM did twice the average work (its CTAs ran longer loops).
  s.sm_warp_instructions[3] *= 2;
  EXPECT_NEAR(static_cast<double>(model_kernel(c, s).cycles) / static_cast<double>(balanced.cycles),
              2.0 * 24 / 25, 1e-3);
}

TEST(FastModel, ASmallerShareOfTheSmsTakesLonger) {
  const ArchConfig c = load("strata-g1");
  const KernelStats big = grid(24 * 8 * 10, 8, 8, kFma);
  EXPECT_NEAR(compute_ns(model_kernel(c, big, 0.5)) / compute_ns(model_kernel(c, big, 1.0)), 2.0,
              0.01);
  // A grid smaller than the device holds the share it wants (ctas / slots) and still
  // spreads one CTA per SM.
  const KernelStats small = grid(24, 8, 8, kFma);
  EXPECT_EQ(model_kernel(c, small, 24.0 / (24 * 8)).cycles, model_kernel(c, small, 1.0).cycles);
}

TEST(FastModel, MissingCacheCountersMeanEverySectorMisses) {
  const ArchConfig c = load("strata-g1");
  KernelStats s = grid(24 * 8 * 10, 8, 8, kStream);
  const KernelTime none = model_kernel(c, s);
  // Counters from the cache models: half the sectors hit L2, so DRAM moves half.
  const uint64_t sectors = s.global_loads.sectors + s.global_stores.sectors;
  s.l1_misses = sectors;
  s.l2_hits = sectors / 2;
  s.l2_misses = sectors / 2;
  s.dram_read_sectors = sectors / 2;
  const KernelTime some = model_kernel(c, s);
  EXPECT_DOUBLE_EQ(some.dram_cycles, none.dram_cycles / 2);
  EXPECT_DOUBLE_EQ(some.l2_cycles, none.l2_cycles);
}

TEST(FastModel, AnEmptyGridCostsTheLaunch) {
  const ArchConfig c = load("strata-g1");
  const KernelTime t = model_kernel(c, KernelStats{});
  EXPECT_EQ(t.bound, Bound::kLaunch);
  EXPECT_EQ(t.cycles, 0u);
  EXPECT_EQ(t.ns, 2000u);
}

// More of any resource never makes a kernel slower; a longer latency never makes it faster.
TEST(FastModel, MoreResourcesNeverSlowAKernelDown) {
  const ArchConfig base = load("strata-g1");
  const KernelStats kernels[] = {
      grid(24 * 8 * 20, 8, 8, kFma),
      grid(24 * 8 * 10, 8, 8, kStream),
      grid(1, 1, 1, Warp{.int_ops = 100, .global_loads = 100, .load_sectors = 1}),
      grid(24 * 4, 8, 4, Warp{.int_ops = 20, .shared = 100, .wavefronts = 4}),
      grid(24 * 2, 4, 2,
           Warp{.int_ops = 10, .global_loads = 4, .load_sectors = 4, .hmma_f16 = 100}),
  };
  int64_t ArchConfig::*const rates[] = {
      &ArchConfig::sm_count,
      &ArchConfig::core_clock_mhz,
      &ArchConfig::memory_clock_mhz,
      &ArchConfig::memory_bus_width_bits,
      &ArchConfig::warp_schedulers_per_sm,
      &ArchConfig::fp32_lanes_per_clock,
      &ArchConfig::int_lanes_per_clock,
      &ArchConfig::ldst_lanes_per_clock,
      &ArchConfig::tensor_fma_per_clock_f16,
      &ArchConfig::shared_bytes_per_clock,
      &ArchConfig::l1_bytes_per_clock,
      &ArchConfig::l2_bytes_per_clock,
  };
  int64_t ArchConfig::*const latencies[] = {
      &ArchConfig::alu_latency_cycles,    &ArchConfig::shared_latency_cycles,
      &ArchConfig::l1_hit_latency_cycles, &ArchConfig::l2_hit_latency_cycles,
      &ArchConfig::dram_latency_ns,       &ArchConfig::launch_overhead_ns,
  };
  for (const KernelStats& s : kernels) {
    const uint64_t ns = model_kernel(base, s).ns;
    for (size_t i = 0; i < std::size(rates); ++i) {
      ArchConfig c = base;
      c.*rates[i] *= 2;
      EXPECT_LE(model_kernel(c, s).ns, ns) << s.ctas << " ctas, rate field #" << i;
    }
    for (size_t i = 0; i < std::size(latencies); ++i) {
      ArchConfig c = base;
      c.*latencies[i] *= 2;
      EXPECT_GE(model_kernel(c, s).ns, ns) << s.ctas << " ctas, latency field #" << i;
    }
  }
}

TEST(FastModel, UnsetRatesInAHandBuiltConfigDoNotBound) {
  ArchConfig c;  // only what a test sets: the throughput fields are 0
  c.sm_count = 4;
  c.core_clock_mhz = 1000;
  c.warp_schedulers_per_sm = 4;
  const KernelTime t = model_kernel(c, grid(4, 8, 1, kStream));
  // No lanes, bandwidths or latencies set: only the issue bound is left (8 warps x 14
  // instructions on each SM's 4 schedulers).
  EXPECT_EQ(t.bound, Bound::kIssue);
  EXPECT_EQ(t.cycles, 28u);
  EXPECT_EQ(t.latency_cycles, 0.0);
  const CopyTime copy = model_copy(c, MemoryKind::kHost, MemoryKind::kDevice, 1 << 20);
  EXPECT_EQ(copy.ns, 0u);
  EXPECT_EQ(copy.bytes_per_second, 0.0);
}

TEST(FastModel, CopiesTakeLatencyPlusBytesOverTheRightLink) {
  const ArchConfig g1 = load("strata-g1");
  const uint64_t mib = 1 << 20;
  // PCIe 4.0 x16: 16 GT/s x 16 lanes x 128/130 / 8 bytes = 31.5 GB/s per direction.
  const double pcie4 = 16e9 * 16 * 128 / 130 / 8;
  for (auto [src, dst] : {std::pair{MemoryKind::kHost, MemoryKind::kDevice},
                          std::pair{MemoryKind::kDevice, MemoryKind::kHost}}) {
    const CopyTime t = model_copy(g1, src, dst, 64 * mib);
    EXPECT_NEAR(t.bytes_per_second, pcie4, 1.0);
    EXPECT_EQ(t.latency_ns, 1500u + 1000u);  // copy engine + host link
    EXPECT_NEAR(static_cast<double>(t.ns), 64.0 * mib / pcie4 * 1e9, 1.0);
  }
  // Inside VRAM: 256-bit GDDR6 at 14 Gbps = 448 GB/s, read and written: 224 GB/s.
  const CopyTime d2d = model_copy(g1, MemoryKind::kDevice, MemoryKind::kDevice, 64 * mib);
  EXPECT_DOUBLE_EQ(d2d.bytes_per_second, 224e9);
  EXPECT_EQ(d2d.latency_ns, 1500u);
  EXPECT_NEAR(static_cast<double>(d2d.ns), 64.0 * mib / 224e9 * 1e9, 1.0);
  // A fill only writes: 448 GB/s.
  EXPECT_DOUBLE_EQ(model_fill(g1, MemoryKind::kDevice, mib).bytes_per_second, 448e9);
  // Peers: strata-g1 over PCIe, H100 over NVLink 4 (450 GB/s per direction).
  EXPECT_NEAR(model_copy(g1, MemoryKind::kDevice, MemoryKind::kPeer, mib).bytes_per_second, pcie4,
              1.0);
  const ArchConfig h100 = load("h100-sxm");
  const CopyTime nvlink = model_copy(h100, MemoryKind::kPeer, MemoryKind::kDevice, 450 * mib);
  EXPECT_DOUBLE_EQ(nvlink.bytes_per_second, 450e9);
  EXPECT_EQ(nvlink.latency_ns, 1500u + 1000u);
  EXPECT_NEAR(static_cast<double>(nvlink.ns), 450.0 * mib / 450e9 * 1e9, 1.0);
  // PCIe 5.0 x16 to the host is twice PCIe 4.0.
  EXPECT_NEAR(model_copy(h100, MemoryKind::kHost, MemoryKind::kDevice, mib).bytes_per_second,
              2 * pcie4, 2.0);
  // Twice the bytes, twice the transfer time; the latency stays.
  const CopyTime a = model_copy(g1, MemoryKind::kHost, MemoryKind::kDevice, 10 * mib);
  const CopyTime b = model_copy(g1, MemoryKind::kHost, MemoryKind::kDevice, 20 * mib);
  EXPECT_NEAR(static_cast<double>(b.ns), 2.0 * static_cast<double>(a.ns), 1.0);
  EXPECT_EQ(a.latency_ns, b.latency_ns);
}

TEST(FastModel, ApiCostsComeFromTheHostSection) {
  ArchConfig c = load("strata-g1");
  EXPECT_EQ(model_api_ns(c, ApiCost::kLaunch), 2600u);
  c.api_call_ns = 11, c.launch_api_ns = 22, c.copy_api_ns = 33, c.sync_api_ns = 44;
  EXPECT_EQ(model_api_ns(c, ApiCost::kCall), 11u);
  EXPECT_EQ(model_api_ns(c, ApiCost::kLaunch), 22u);
  EXPECT_EQ(model_api_ns(c, ApiCost::kCopySubmit), 33u);
  EXPECT_EQ(model_api_ns(c, ApiCost::kSync), 44u);
}

// Bandwidth shares (Shares): what concurrent work leaves a kernel of the device's DRAM
// and L2 bandwidth.
TEST(FastModel, WholeSharesChangeNothing) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm", "h200-sxm"}) {
    const ArchConfig c = load(name);
    for (const KernelStats& s :
         {grid(c.sm_count * 8 * 100, 8, 8, kStream), grid(c.sm_count * 8 * 20 + 3, 8, 8, kFma)}) {
      for (double sm : {1.0, 0.5}) {
        const KernelTime a = model_kernel(c, s, sm);
        const KernelTime b = model_kernel(c, s, Shares{.sm = sm, .dram = 1.0, .l2 = 1.0});
        EXPECT_EQ(a.ns, b.ns) << name;
        EXPECT_EQ(a.cycles, b.cycles) << name;
        EXPECT_EQ(a.bound, b.bound) << name;
        EXPECT_DOUBLE_EQ(a.dram_cycles, b.dram_cycles) << name;
        EXPECT_DOUBLE_EQ(a.l2_cycles, b.l2_cycles) << name;
      }
    }
  }
}

TEST(FastModel, HalfTheDramShareDoublesTheDramTerm) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm", "h200-sxm"}) {
    const ArchConfig c = load(name);
    const KernelStats s = grid(c.sm_count * 8 * 100, 8, 8, kStream);  // on every SM evenly
    const KernelTime base = model_kernel(c, s);
    ASSERT_EQ(base.bound, Bound::kDram) << name;
    const KernelTime half = model_kernel(c, s, Shares{.dram = 0.5});
    EXPECT_NEAR(half.dram_cycles / base.dram_cycles, 2.0, 1e-9) << name;
    EXPECT_EQ(half.bound, Bound::kDram) << name;
    EXPECT_NEAR(compute_ns(half) / compute_ns(base), 2.0, 1e-3) << name;
    // The grid's bytes over a quarter of the peak: bytes / (0.25 x bytes per clock).
    const double bytes = static_cast<double>(c.sm_count) * 8 * 100 * 8 * (4 + 4) * 32;
    const double per_clock = dram_bytes_per_second(c) / (c.core_clock_mhz * 1e6);
    EXPECT_NEAR(model_kernel(c, s, Shares{.dram = 0.25}).dram_cycles, bytes / (0.25 * per_clock),
                1e-6 * bytes / per_clock)
        << name;
    // The L2 share bounds the L2 term the same way.
    const KernelTime l2_half = model_kernel(c, s, Shares{.l2 = 0.5});
    EXPECT_NEAR(l2_half.l2_cycles / base.l2_cycles, 2.0, 1e-9) << name;
    EXPECT_DOUBLE_EQ(l2_half.dram_cycles, base.dram_cycles) << name;
  }
}

TEST(FastModel, AComputeBoundKernelBarelyNoticesASmallerDramShare) {
  for (const char* name : {"strata-g1", "a100-sxm", "h100-sxm", "h200-sxm"}) {
    const ArchConfig c = load(name);
    const KernelStats s = grid(c.sm_count * 8 * 20, 8, 8, kFma);
    const KernelTime base = model_kernel(c, s);
    const KernelTime half = model_kernel(c, s, Shares{.dram = 0.5, .l2 = 0.5});
    EXPECT_LT(std::abs(compute_ns(half) / compute_ns(base) - 1.0), 0.01) << name;
  }
}

// A grid on a few SMs is held back by the SMs' own shares, not by a device-wide share
// those SMs could not use anyway.
TEST(FastModel, ADeviceShareAboveWhatTheSmsCanTakeDoesNotSlow) {
  const ArchConfig c = load("strata-g1");
  const KernelStats s = grid(c.sm_count * 8 * 100, 8, 8, kStream);
  const KernelTime quarter_sms = model_kernel(c, s, 0.25);
  const KernelTime with_half = model_kernel(c, s, Shares{.sm = 0.25, .dram = 0.5});
  EXPECT_EQ(with_half.cycles, quarter_sms.cycles);
}

TEST(FastModel, KernelDemandCountsTheBandwidthBoundSectors) {
  const KernelStats s = grid(10, 2, 8, kStream);
  const KernelDemand d = kernel_demand(s);
  // No cache counters: every load and store sector reaches L2 and misses to DRAM.
  EXPECT_DOUBLE_EQ(d.l2_bytes, 10.0 * 2 * (4 + 4) * 32);
  EXPECT_DOUBLE_EQ(d.dram_bytes, 10.0 * 2 * (4 + 4) * 32);
  KernelStats cached = s;
  cached.l2_hits = 100;
  cached.l2_misses = 60;
  cached.dram_read_sectors = 50;
  cached.dram_write_sectors = 20;
  EXPECT_DOUBLE_EQ(kernel_demand(cached).l2_bytes, 160.0 * 32);
  EXPECT_DOUBLE_EQ(kernel_demand(cached).dram_bytes, 70.0 * 32);
  EXPECT_DOUBLE_EQ(l2_bytes_per_second(load("strata-g1")),
                   static_cast<double>(load("strata-g1").l2_bytes_per_clock) *
                       load("strata-g1").core_clock_mhz * 1e6);
}

TEST(FastModel, DramBandwidthFromTheConfig) {
  EXPECT_DOUBLE_EQ(dram_bytes_per_second(load("strata-g1")), 448e9);
  EXPECT_NEAR(dram_bytes_per_second(load("h100-sxm")) / 1e12, 3.35, 0.01);   // H100 SXM5 datasheet
  EXPECT_NEAR(dram_bytes_per_second(load("h200-sxm")) / 1e12, 4.8, 0.01);    // H200 datasheet
  EXPECT_NEAR(dram_bytes_per_second(load("a100-sxm")) / 1e12, 2.039, 0.01);  // A100 80GB datasheet
}

}  // namespace
}  // namespace strata::hw::perf
