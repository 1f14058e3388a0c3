// The fast timing model (fast_model.h). Every number comes from the kernel's statistics
// and the architecture config (arch_fields.def); there are no per-kernel constants.
//
// Where the grid runs. N = device.sm_count, R = ctas_per_sm (resident CTAs per SM,
// at least 1), C = ctas. The grid wants want = min(1, C / (R N)) of the device's CTA
// slots; holding sm_share of them (the event scheduler's choice, 1 when alone) it
// spreads over n = max(1, floor(N min(1, sm_share / want))) SMs, breadth first as the
// hardware dispatches. The busiest SM runs k = ceil(C / n) CTAs with
// W = min(k, R) x warps_per_cta warps resident at once, and does the fraction
// f = k / C of every counter. When the statistics carry per-SM counts for all N SMs
// and n = N, f = max / sum of sm_warp_instructions and k = max of sm_ctas instead, so
// uneven CTAs show too. waves = C / (R n). The last partial wave needs no extra term:
// the busiest SM's k CTAs include it; tail_cycles reports what it (and any imbalance)
// costs: cycles x (1 - C / (n k)).
//
// Bounds, in core cycles, on the busiest SM's share f of each counter:
//   issue    warp instructions / min(warp_schedulers_per_sm, W)   (a warp issues on one
//            scheduler, one instruction per clock)
//   pipe     per pipe: warp instructions x warp_size / <pipe>_lanes_per_clock (fp32, fp64,
//            int, sfu, ldst, texture; masked-off lanes occupy the pipe as on SIMT hardware);
//            tensor: sum over input types of multiply-adds / tensor_fma_per_clock_<type>;
//            control: warp instructions / schedulers (the branch unit issues like `issue`)
//   shared   wavefronts x 128 B / shared_bytes_per_clock  (32 banks x 4 B per wavefront:
//            an N-way bank conflict costs N wavefronts)
//   l1       L1 sectors x 32 B / l1_bytes_per_clock
//   l2       L2 sectors x 32 B / (l2_bytes_per_clock / N)        (the SM's fair share)
//   dram     DRAM sectors x 32 B / (DRAM bytes per core clock / N)
//   latency  (sum of the latencies of the SM's warp instructions) / W: each warp is
//            assumed to wait for every instruction before issuing the next (no
//            instruction- or memory-level parallelism inside a warp) and the W resident
//            warps to overlap perfectly (Little's law). Loads (global, local, texture)
//            cost the average load-to-use latency from the hit rates,
//              h1 L1 + (1 - h1) (h2 L2 + (1 - h2) DRAM),
//            atomics h2 L2 + (1 - h2) DRAM (they resolve at L2), shared-memory requests
//            shared_latency_cycles, every other instruction (stores included: they do
//            not block the warp) alu_latency_cycles. A single warp chasing pointers
//            through DRAM is therefore latency-bound; 64 warps streaming are not.
// cycles = max(bounds); ns = launch_overhead_ns + cycles / core clock. No overlap term.
//
// Bandwidth shares (Shares, when concurrent kernels and copies share the device): with
// fractions sd, s2 < 1 of the device's DRAM and L2 bandwidth, the grid's whole traffic
// must also pass through them:
//   dram = max(dram above, all DRAM sectors x 32 B / (DRAM bytes per core clock x sd))
//   l2   = max(l2 above,   all L2 sectors x 32 B / (l2_bytes_per_clock x s2))
// (each SM's fair share still caps it; with sd = s2 = 1 nothing changes).
//
// Statistics not collected yet degrade as follows: no L1 counters: every L1-visible
// sector (global/local loads and stores, texture) is an L1 access and h1 = 0; no L2
// counters: every L1-visible sector plus atomics reaches L2 and h2 = 0 (all miss); no
// DRAM counters: the L2 misses (or, without L2 counters, every L2 sector) go to DRAM;
// shared requests without wavefront counts: one wavefront each; tensor warp
// instructions without multiply-add counts: an m16n8k16 (2048 FP16 multiply-adds) each.
// A throughput field that is 0 (only a hand-built ArchConfig: parsed configs are
// validated to have every rate >= 1) does not bound: the term is 0.
#include "hw/perf/fast_model.h"

#include <algorithm>
#include <cmath>

namespace strata::hw::perf {

const char* bound_name(Bound bound) {
  switch (bound) {
    case Bound::kIssue:
      return "issue";
    case Bound::kPipe:
      return "pipe";
    case Bound::kShared:
      return "shared";
    case Bound::kL1:
      return "l1";
    case Bound::kL2:
      return "l2";
    case Bound::kDram:
      return "dram";
    case Bound::kLatency:
      return "latency";
    case Bound::kLaunch:
      return "launch";
  }
  return "?";
}

namespace {

constexpr double kSectorBytes = 32.0;
constexpr double kWavefrontBytes = 128.0;       // 32 banks x 4 bytes
constexpr double kFallbackTensorFmas = 2048.0;  // one m16n8k16 HMMA per warp

double pos(int64_t v) {
  return v > 0 ? static_cast<double>(v) : 1.0;
}
// amount / rate, or 0 when the rate is not set (a hand-built ArchConfig in a test:
// parsed configs always have every rate >= 1): an unset rate does not bound.
double per(double amount, double rate) {
  return rate > 0 ? amount / rate : 0.0;
}
double nonneg(int64_t v) {
  return v > 0 ? static_cast<double>(v) : 0.0;
}
double d(uint64_t v) {
  return static_cast<double>(v);
}

uint64_t to_ns(double seconds_times_1e9) {
  return seconds_times_1e9 <= 0 ? 0 : static_cast<uint64_t>(std::ceil(seconds_times_1e9 - 1e-9));
}

double pipe_lanes(const ArchConfig& c, Pipe pipe) {
  switch (pipe) {
    case Pipe::kFp32:
      return nonneg(c.fp32_lanes_per_clock);
    case Pipe::kFp64:
      return nonneg(c.fp64_lanes_per_clock);
    case Pipe::kInt:
      return nonneg(c.int_lanes_per_clock);
    case Pipe::kSfu:
      return nonneg(c.sfu_lanes_per_clock);
    case Pipe::kLdst:
      return nonneg(c.ldst_lanes_per_clock);
    case Pipe::kTexture:
      return nonneg(c.texture_lanes_per_clock);
    case Pipe::kTensor:
    case Pipe::kControl:
      break;
  }
  return 0;  // not a lane-throughput pipe
}

double tensor_rate(const ArchConfig& c, TensorType type) {
  switch (type) {
    case TensorType::kF16:
      return nonneg(c.tensor_fma_per_clock_f16);
    case TensorType::kTf32:
      return nonneg(c.tensor_fma_per_clock_tf32);
    case TensorType::kI8:
      return nonneg(c.tensor_fma_per_clock_i8);
    case TensorType::kI4:
      return nonneg(c.tensor_fma_per_clock_i4);
    case TensorType::kF64:
      return nonneg(c.tensor_fma_per_clock_f64);
    case TensorType::kF8:
      return nonneg(c.tensor_fma_per_clock_f8);
  }
  return nonneg(c.tensor_fma_per_clock_f16);
}

// Where the grid's CTAs land (see the file comment).
struct Placement {
  double sms = 1;             // n
  double busiest_ctas = 0;    // k
  double fraction = 0;        // f
  double resident_warps = 1;  // W
  double waves = 0;
};

Placement place(const ArchConfig& config, const KernelStats& stats, double sm_share) {
  Placement p;
  const double n_sms = pos(config.sm_count);
  const double per_sm = stats.ctas_per_sm > 0 ? d(stats.ctas_per_sm) : 1.0;
  const double ctas = d(stats.ctas);
  double warps_per_cta = d(stats.warps_per_cta);
  if (warps_per_cta == 0) {
    warps_per_cta = std::max(1.0, std::ceil(d(stats.threads_per_cta) / pos(config.warp_size)));
  }
  if (ctas == 0) return p;
  const double want = std::min(1.0, ctas / (per_sm * n_sms));
  const double share = std::clamp(sm_share, 0.0, 1.0);
  p.sms = std::max(1.0, std::floor(n_sms * std::min(1.0, share / want) + 1e-9));
  p.busiest_ctas = std::ceil(ctas / p.sms);
  p.fraction = p.busiest_ctas / ctas;
  const auto& per_sm_insts = stats.sm_warp_instructions;
  if (p.sms == n_sms && per_sm_insts.size() == static_cast<size_t>(config.sm_count)) {
    uint64_t sum = 0, most = 0;
    for (uint64_t v : per_sm_insts) sum += v, most = std::max(most, v);
    if (sum > 0) p.fraction = d(most) / d(sum);
    if (stats.sm_ctas.size() == per_sm_insts.size()) {
      uint32_t most_ctas = 0;
      for (uint32_t v : stats.sm_ctas) most_ctas = std::max(most_ctas, v);
      if (most_ctas > 0) p.busiest_ctas = most_ctas;
    }
  }
  p.resident_warps = std::max(1.0, std::min(p.busiest_ctas, per_sm) * warps_per_cta);
  p.waves = ctas / (per_sm * p.sms);
  return p;
}

// The sectors each memory level sees (see the file comment for the fallbacks).
struct Sectors {
  bool have_l1 = false, have_l2 = false;
  double l1 = 0, l2 = 0, dram = 0;
};

Sectors sectors_of(const KernelStats& stats) {
  Sectors s;
  const double l1_visible =
      d(stats.global_loads.sectors + stats.global_stores.sectors + stats.local_loads.sectors +
        stats.local_stores.sectors + stats.texture_loads.sectors);
  s.have_l1 = stats.l1_hits + stats.l1_misses > 0;
  s.have_l2 = stats.l2_hits + stats.l2_misses > 0;
  s.l1 = s.have_l1 ? d(stats.l1_hits + stats.l1_misses) : l1_visible;
  s.l2 =
      s.have_l2 ? d(stats.l2_hits + stats.l2_misses) : l1_visible + d(stats.global_atomics.sectors);
  s.dram = d(stats.dram_read_sectors + stats.dram_write_sectors);
  if (s.dram == 0) s.dram = s.have_l2 ? d(stats.l2_misses) : s.l2;
  return s;
}

constexpr double kMinBandwidthShare = 1e-6;

}  // namespace

double dram_bytes_per_second(const ArchConfig& config) {
  return nonneg(config.memory_clock_mhz) * 1e6 * nonneg(config.memory_bus_width_bits) / 8.0 *
         nonneg(config.memory_transfers_per_clock);
}

double l2_bytes_per_second(const ArchConfig& config) {
  return nonneg(config.l2_bytes_per_clock) * nonneg(config.core_clock_mhz) * 1e6;
}

KernelDemand kernel_demand(const KernelStats& stats) {
  const Sectors s = sectors_of(stats);
  return KernelDemand{s.dram * kSectorBytes, s.l2 * kSectorBytes};
}

KernelTime model_kernel(const ArchConfig& config, const KernelStats& stats, double sm_share) {
  return model_kernel(config, stats, Shares{.sm = sm_share});
}

KernelTime model_kernel(const ArchConfig& config, const KernelStats& stats, const Shares& shares) {
  KernelTime t;
  t.launch_ns = static_cast<uint64_t>(nonneg(config.launch_overhead_ns));
  const Placement p = place(config, stats, shares.sm);
  t.waves = p.waves;
  const double f = p.fraction;
  const double n_device = pos(config.sm_count);
  const double schedulers = pos(config.warp_schedulers_per_sm);
  const double warp = pos(config.warp_size);
  const double w = p.resident_warps;

  // Issue and pipes.
  t.issue_cycles = f * d(stats.warp_instructions) / std::min(schedulers, w);
  for (int i = 0; i < kNumPipes; ++i) {
    const Pipe pipe = static_cast<Pipe>(i);
    const double insts = f * d(stats.pipe_warp_instructions[i]);
    if (pipe == Pipe::kTensor) {
      double cycles = 0, fmas = 0;
      for (int ty = 0; ty < kNumTensorTypes; ++ty) {
        fmas += d(stats.tensor_fmas[ty]);
        cycles +=
            per(f * d(stats.tensor_fmas[ty]), tensor_rate(config, static_cast<TensorType>(ty)));
      }
      if (fmas == 0 && insts > 0)
        cycles = per(insts * kFallbackTensorFmas, tensor_rate(config, TensorType::kF16));
      t.pipe_cycles[i] = cycles;
    } else if (pipe == Pipe::kControl) {
      t.pipe_cycles[i] = insts / schedulers;
    } else {
      t.pipe_cycles[i] = per(insts * warp, pipe_lanes(config, pipe));
    }
  }

  // Shared memory.
  const double wavefronts =
      stats.shared_wavefronts > 0 ? d(stats.shared_wavefronts) : d(stats.shared_requests);
  t.shared_cycles = per(f * wavefronts * kWavefrontBytes, nonneg(config.shared_bytes_per_clock));

  // The memory hierarchy, in sectors.
  const Sectors sectors = sectors_of(stats);
  const bool have_l1 = sectors.have_l1;
  const bool have_l2 = sectors.have_l2;
  const double l1_sectors = sectors.l1;
  const double l2_sectors = sectors.l2;
  const double dram_sectors = sectors.dram;
  const double clock_hz = pos(config.core_clock_mhz) * 1e6;
  const double dram_per_clock = dram_bytes_per_second(config) / clock_hz;
  t.l1_cycles = per(f * l1_sectors * kSectorBytes, nonneg(config.l1_bytes_per_clock));
  t.l2_cycles = per(f * l2_sectors * kSectorBytes, nonneg(config.l2_bytes_per_clock) / n_device);
  t.dram_cycles =
      dram_per_clock > 0 ? f * dram_sectors * kSectorBytes / (dram_per_clock / n_device) : 0;
  // Concurrent work sharing the device's bandwidth (Shares): the whole grid moves its
  // bytes through what is left to it, whatever each SM could take.
  if (shares.l2 < 1.0) {
    const double s = std::max(shares.l2, kMinBandwidthShare);
    t.l2_cycles = std::max(t.l2_cycles,
                           per(l2_sectors * kSectorBytes, nonneg(config.l2_bytes_per_clock) * s));
  }
  if (shares.dram < 1.0 && dram_per_clock > 0) {
    const double s = std::max(shares.dram, kMinBandwidthShare);
    t.dram_cycles = std::max(t.dram_cycles, dram_sectors * kSectorBytes / (dram_per_clock * s));
  }

  // Latency not hidden by the W resident warps.
  const double h1 = have_l1 ? d(stats.l1_hits) / d(stats.l1_hits + stats.l1_misses) : 0.0;
  const double h2 = have_l2 ? d(stats.l2_hits) / d(stats.l2_hits + stats.l2_misses) : 0.0;
  const double l1_lat = nonneg(config.l1_hit_latency_cycles);
  const double l2_lat = nonneg(config.l2_hit_latency_cycles);
  const double dram_lat = nonneg(config.dram_latency_ns) * pos(config.core_clock_mhz) / 1000.0;
  const double beyond_l1 = h2 * l2_lat + (1.0 - h2) * dram_lat;
  const double load_lat = h1 * l1_lat + (1.0 - h1) * beyond_l1;
  const double loads =
      d(stats.global_loads.requests + stats.local_loads.requests + stats.texture_loads.requests);
  const double atomics = d(stats.global_atomics.requests);
  const double shared = d(stats.shared_requests);
  const double others = std::max(0.0, d(stats.warp_instructions) - loads - atomics - shared);
  const double latency_sum = loads * load_lat + atomics * beyond_l1 +
                             shared * nonneg(config.shared_latency_cycles) +
                             others * nonneg(config.alu_latency_cycles);
  t.latency_cycles = f * latency_sum / w;

  // The largest bound.
  double best = 0;
  t.bound = Bound::kLaunch;
  auto consider = [&](double v, Bound b) {
    if (v > best) best = v, t.bound = b;
  };
  consider(t.issue_cycles, Bound::kIssue);
  for (int i = 0; i < kNumPipes; ++i) {
    if (t.pipe_cycles[i] > best) {
      best = t.pipe_cycles[i];
      t.bound = Bound::kPipe;
      t.busiest_pipe = static_cast<Pipe>(i);
    }
  }
  consider(t.shared_cycles, Bound::kShared);
  consider(t.l1_cycles, Bound::kL1);
  consider(t.l2_cycles, Bound::kL2);
  consider(t.dram_cycles, Bound::kDram);
  consider(t.latency_cycles, Bound::kLatency);

  if (p.busiest_ctas > 0) {
    t.tail_cycles = best * std::max(0.0, 1.0 - d(stats.ctas) / (p.sms * p.busiest_ctas));
  }
  t.cycles = static_cast<uint64_t>(std::ceil(best - 1e-9));
  t.ns = t.launch_ns + to_ns(static_cast<double>(t.cycles) * 1e9 / clock_hz);
  return t;
}

namespace {

// The links a copy crosses: the host link if either side is system memory, the peer
// link if either side is another device's memory, this device's DRAM otherwise (read
// and write both, when both sides are local). The slowest link sets the bandwidth and
// the latencies add up, after the engine's own start-up.
CopyTime over_links(const ArchConfig& c, bool host, bool peer, double device_bytes_per_second,
                    uint64_t bytes) {
  CopyTime t;
  double bw = device_bytes_per_second > 0 ? device_bytes_per_second : HUGE_VAL;
  double latency = nonneg(c.copy_engine_latency_ns);
  if (host) {
    if (c.host_link_bytes_per_second > 0) bw = std::min(bw, d(c.host_link_bytes_per_second));
    latency += nonneg(c.host_link_latency_ns);
  }
  if (peer) {
    if (c.peer_link_bytes_per_second > 0) bw = std::min(bw, d(c.peer_link_bytes_per_second));
    latency += nonneg(c.peer_link_latency_ns);
  }
  // An unset rate (a hand-built ArchConfig) does not bound: bytes_per_second stays 0.
  t.bytes_per_second = std::isfinite(bw) ? bw : 0.0;
  t.latency_ns = static_cast<uint64_t>(latency);
  t.ns = std::isfinite(bw) ? to_ns(d(bytes) * 1e9 / bw) : 0;
  return t;
}

}  // namespace

CopyTime model_copy(const ArchConfig& config, MemoryKind src, MemoryKind dst, uint64_t bytes) {
  const bool host = src == MemoryKind::kHost || dst == MemoryKind::kHost;
  const bool peer = src == MemoryKind::kPeer || dst == MemoryKind::kPeer;
  const double dram = dram_bytes_per_second(config);
  // Inside one device the engine reads and writes the same DRAM: half its bandwidth each way.
  const bool local = src == MemoryKind::kDevice && dst == MemoryKind::kDevice;
  return over_links(config, host, peer, local ? dram / 2.0 : dram, bytes);
}

CopyTime model_fill(const ArchConfig& config, MemoryKind dst, uint64_t bytes) {
  return over_links(config, dst == MemoryKind::kHost, dst == MemoryKind::kPeer,
                    dram_bytes_per_second(config), bytes);
}

uint64_t model_api_ns(const ArchConfig& config, ApiCost kind) {
  switch (kind) {
    case ApiCost::kCall:
      return static_cast<uint64_t>(nonneg(config.api_call_ns));
    case ApiCost::kLaunch:
      return static_cast<uint64_t>(nonneg(config.launch_api_ns));
    case ApiCost::kCopySubmit:
      return static_cast<uint64_t>(nonneg(config.copy_api_ns));
    case ApiCost::kSync:
      return static_cast<uint64_t>(nonneg(config.sync_api_ns));
  }
  return 0;
}

}  // namespace strata::hw::perf
