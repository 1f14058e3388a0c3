// The detailed timing model's parameters (hw/perf/detailed/model.h): everything it
// needs from the architecture config, in the units the cycle loop uses. The config is
// the source; detailed_params() is the ONE place that turns it into these numbers and
// that supplies a documented default (params.cc, each with its source) for the few
// quantities the config does not have a field for yet, or when a field is 0 (configs
// built in code by tests).
//
// Tests may build a DetailedParams by hand to check the model's mechanics against
// numbers they chose.
#pragma once

#include <array>
#include <cstdint>

#include "hw/config/arch_config.h"
#include "hw/perf/cache.h"
#include "hw/perf/kernel_stats.h"

namespace strata::hw::perf {

struct DetailedParams {
  uint32_t schedulers = 4;         // warp schedulers per SM (each issues <= 1 instruction a cycle)
  uint32_t max_warps_per_sm = 64;  // for the achieved occupancy
  // Cycles between two warp instructions one scheduler sends to a pipe (initiation
  // interval): 32 lanes / (the SM's lanes per clock / schedulers). Below 1: the pipe
  // never limits a scheduler that issues once a cycle.
  std::array<double, kNumPipes> pipe_interval{1, 1, 1, 1, 1, 1, 1, 1};
  // Tensor-core multiply-adds per cycle of the whole SM, by input type (TensorType); an
  // HMMA of shape m x n x k occupies its scheduler's tensor pipe for
  // m * n * k * schedulers / this cycles. 0: the HMMA uses pipe_interval[kTensor].
  std::array<double, kNumTensorTypes> tensor_fmas_per_cycle{};
  // Latencies (core cycles) of the variable-latency classes of isa/latencies.def that
  // are not memory (the fixed classes come from that table itself).
  uint32_t mufu_latency = 18;
  uint32_t iterative_latency = 60;
  uint32_t special_latency = 20;
  uint32_t shuffle_latency = 24;
  uint32_t tensor_latency = 32;
  uint32_t barrier_latency = 20;     // from the last arrival to the release of the warps
  uint32_t operand_read_cycles = 4;  // late source reads (rbar) are done this long after issue
  // Memory: load-to-use latencies when nothing queues, and per-cycle rates of this SM.
  uint32_t shared_latency = 23;
  uint32_t l1_hit_latency = 33;
  uint32_t l2_hit_latency = 200;
  uint32_t dram_latency = 500;
  double shared_wavefronts_per_cycle = 1.0;
  double l1_sectors_per_cycle = 4.0;
  double l2_sectors_per_cycle = 1.0;    // this SM's share of the device's L2 bandwidth
  double dram_sectors_per_cycle = 0.5;  // this SM's share of the device's DRAM bandwidth
  uint64_t l1_bytes = 128 * 1024;       // L1 + shared capacity, before the CTAs' shared memory
  uint32_t l1_ways = 4;
  uint64_t l2_bytes = 256 * 1024;  // this SM's share of the device's L2
  uint32_t l2_ways = 16;
  // Kernel time.
  double core_clock_mhz = 1000;
  uint64_t launch_overhead_ns = 0;
  // The device's SM count, by which the L2 capacity and the L2/DRAM bandwidths above were
  // divided; 0: unknown. A grid with fewer CTAs than SMs leaves SMs idle, so the
  // representative SM's share is then of the busy SMs instead (model_kernel_detailed).
  uint32_t device_sms = 0;
  // When set, the representative SM's L2 share lives here and keeps its contents from
  // kernel to kernel, as the device's L2 does (the command processor owns it; it is
  // emptied when the share's size changes). Null: each kernel starts with an empty L2.
  SectorCache* l2_state = nullptr;
};

// The parameters for `config` (see params.cc for every default and its source).
DetailedParams detailed_params(const ArchConfig& config);

}  // namespace strata::hw::perf
