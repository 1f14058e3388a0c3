#include "hw/perf/detailed/params.h"

#include <algorithm>

#include "hw/perf/cache.h"

namespace strata::hw::perf {
namespace {

// Defaults, used only where the config has no field for a quantity (yet) or a field is
// 0. Each says where it comes from; "placeholder" marks a number with no cited source,
// to be replaced by a config field (issue 5, item 2).
struct Defaults {
  // Variable-latency classes of isa/latencies.def that are not memory, in core cycles.
  static constexpr uint32_t kMufu = 18;  // placeholder: MUFU dependent-issue latency of the order
                                         // Jia et al. (arXiv:1804.06826) report for Volta
  static constexpr uint32_t kIterative =
      60;  // placeholder: IDIV/IREM expand to an instruction sequence of ~15 dependent ALU/MUFU
           // steps on NVIDIA GPUs
  static constexpr uint32_t kSpecial = 20;  // placeholder: S2R through the CBU
  static constexpr uint32_t kShuffle = 24;  // placeholder: SHFL through the MIO crossbar
  static constexpr uint32_t kTensor =
      32;  // Sun et al., arXiv:2206.02874: mma.m16n8k16 f16 latency on A100 of about 32 cycles
  static constexpr uint32_t kBarrier = 20;  // placeholder: BAR release after the last arrival
  static constexpr uint32_t kOperandRead =
      4;  // placeholder: the LSU has read a late source this long after issue
  // When the config's fields are 0 (configs built in code).
  static constexpr uint32_t kShared = 23;  // A100 shared load latency (Abdelkhalik et al.,
                                           // arXiv:2208.11174), as arch/strata-g1.toml
  static constexpr uint32_t kL1Hit =
      33;  // A100 L1 hit latency (same source), as arch/strata-g1.toml
  static constexpr uint32_t kL2Hit =
      200;  // A100 L2 hit latency (same source), as arch/strata-g1.toml
  static constexpr uint32_t kDramNs = 300;  // as arch/strata-g1.toml's dram_latency_ns
  // Lanes per SM per clock of the control pipe (branches, S2R, votes, shuffles): one
  // warp instruction per scheduler per clock (placeholder: no config field).
  static constexpr uint32_t kControlLanesPerScheduler = 32;
  // Tensor work of one warp HMMA instruction, in multiply-adds, when its shape or input
  // type has no rate (b1, or a config without the field): m16n8k16 (2048).
  static constexpr uint32_t kHmmaFmas = 2048;
};

double positive(int64_t v, double fallback) {
  return v > 0 ? static_cast<double>(v) : fallback;
}

}  // namespace

DetailedParams detailed_params(const ArchConfig& c) {
  DetailedParams p;
  p.schedulers = static_cast<uint32_t>(std::max<int64_t>(1, c.warp_schedulers_per_sm));
  p.max_warps_per_sm = static_cast<uint32_t>(std::max<int64_t>(1, c.max_threads_per_sm / 32));
  const double s = p.schedulers;
  // 32 lanes of a warp instruction over the lanes one scheduler owns.
  auto interval = [&](int64_t lanes_per_sm) {
    return lanes_per_sm > 0 ? 32.0 * s / static_cast<double>(lanes_per_sm) : 1.0;
  };
  p.pipe_interval[static_cast<int>(Pipe::kFp32)] = interval(c.fp32_lanes_per_clock);
  p.pipe_interval[static_cast<int>(Pipe::kFp64)] = interval(c.fp64_lanes_per_clock);
  p.pipe_interval[static_cast<int>(Pipe::kInt)] = interval(c.int_lanes_per_clock);
  p.pipe_interval[static_cast<int>(Pipe::kSfu)] = interval(c.sfu_lanes_per_clock);
  p.pipe_interval[static_cast<int>(Pipe::kLdst)] = interval(c.ldst_lanes_per_clock);
  p.pipe_interval[static_cast<int>(Pipe::kTexture)] = interval(c.texture_lanes_per_clock);
  p.pipe_interval[static_cast<int>(Pipe::kControl)] = 32.0 / Defaults::kControlLanesPerScheduler;
  p.pipe_interval[static_cast<int>(Pipe::kTensor)] =
      c.tensor_fma_per_clock_f16 > 0
          ? Defaults::kHmmaFmas * s / static_cast<double>(c.tensor_fma_per_clock_f16)
          : 1.0;  // an HMMA whose shape or type is unknown: timed as m16n8k16 f16
  auto rate = [](int64_t v) { return v > 0 ? static_cast<double>(v) : 0.0; };
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kF16)] = rate(c.tensor_fma_per_clock_f16);
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kTf32)] = rate(c.tensor_fma_per_clock_tf32);
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kI8)] = rate(c.tensor_fma_per_clock_i8);
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kI4)] = rate(c.tensor_fma_per_clock_i4);
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kF64)] = rate(c.tensor_fma_per_clock_f64);
  p.tensor_fmas_per_cycle[static_cast<int>(TensorType::kF8)] = rate(c.tensor_fma_per_clock_f8);

  p.mufu_latency = Defaults::kMufu;
  p.iterative_latency = Defaults::kIterative;
  p.special_latency = Defaults::kSpecial;
  p.shuffle_latency = Defaults::kShuffle;
  p.tensor_latency = Defaults::kTensor;
  p.barrier_latency = Defaults::kBarrier;
  p.operand_read_cycles = Defaults::kOperandRead;

  const double clock_mhz = positive(c.core_clock_mhz, 1000);
  p.core_clock_mhz = clock_mhz;
  p.launch_overhead_ns = static_cast<uint64_t>(std::max<int64_t>(0, c.launch_overhead_ns));
  p.shared_latency = static_cast<uint32_t>(positive(c.shared_latency_cycles, Defaults::kShared));
  p.l1_hit_latency = static_cast<uint32_t>(positive(c.l1_hit_latency_cycles, Defaults::kL1Hit));
  p.l2_hit_latency = static_cast<uint32_t>(positive(c.l2_hit_latency_cycles, Defaults::kL2Hit));
  p.dram_latency = static_cast<uint32_t>(
      positive(c.dram_latency_ns, Defaults::kDramNs) * clock_mhz / 1000.0 + 0.5);

  // Bandwidths. The device's L2 and DRAM are shared by all SMs; the detailed model runs
  // one representative SM and gives it 1/sm_count of each (all SMs assumed alike).
  const double sms = positive(c.sm_count, 1);
  p.shared_wavefronts_per_cycle = positive(c.shared_bytes_per_clock, 128) / 128.0;
  p.l1_sectors_per_cycle = positive(c.l1_bytes_per_clock, 128) / 32.0;
  p.l2_sectors_per_cycle = positive(c.l2_bytes_per_clock, 64 * sms) / 32.0 / sms;
  const double dram_bytes_per_second = positive(c.memory_clock_mhz, 1000) * 1e6 *
                                       positive(c.memory_bus_width_bits, 256) / 8.0 *
                                       positive(c.memory_transfers_per_clock, 1);
  p.dram_sectors_per_cycle = dram_bytes_per_second / (clock_mhz * 1e6) / 32.0 / sms;
  p.l1_bytes = static_cast<uint64_t>(std::max<int64_t>(0, c.l1_bytes));
  p.l1_ways = l1_ways(c);  // hw/perf/cache.h: the statistics' cache model's associativity
  p.l2_bytes = static_cast<uint64_t>(std::max<int64_t>(0, c.l2_bytes)) / static_cast<uint64_t>(sms);
  p.l2_ways = l2_ways(c);
  p.device_sms = static_cast<uint32_t>(sms);
  return p;
}

}  // namespace strata::hw::perf
