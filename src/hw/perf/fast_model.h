// The fast timing model (the default, STRATA_TIMING=fast): modeled durations computed
// from a kernel's statistics (kernel_stats.h) and the architecture config, with no
// per-benchmark constants. The formulas are documented in docs/perf-model.md.
//
// Kernels: the busiest SM's time is the maximum of its bounds (issue, each pipe's
// throughput, shared-memory wavefronts, L1, L2 and DRAM bandwidth shares, and memory
// latency not hidden by the achievable occupancy), plus the tail of the last wave, plus
// the device-side launch overhead. `sm_share` (0, 1] is the fraction of the SMs the
// kernel gets when it runs concurrently with others (the event scheduler's choice).
//
// Copies: engines move data over the link between the two memories (PCIe/CXL/
// chip-to-chip for system memory, the peer link between devices, DRAM read + write
// inside a device), each with a bandwidth and a latency from the config.
#pragma once

#include <array>
#include <cstdint>

#include "hw/config/arch_config.h"
#include "hw/perf/kernel_stats.h"

namespace strata::hw::perf {

// What bounds a kernel: the largest term of the model.
enum class Bound : uint8_t { kIssue, kPipe, kShared, kL1, kL2, kDram, kLatency, kLaunch };
const char* bound_name(
    Bound bound);  // "issue", "pipe", "shared", "l1", "l2", "dram", "latency", "launch"

struct KernelTime {
  uint64_t ns = 0;      // total modeled duration, launch overhead included
  uint64_t cycles = 0;  // core cycles of the busiest SM (without launch overhead)
  Bound bound = Bound::kIssue;
  Pipe busiest_pipe = Pipe::kFp32;  // meaningful when bound == kPipe
  // Each term in core cycles on the busiest SM (for the report and the advisor).
  double issue_cycles = 0;
  std::array<double, kNumPipes> pipe_cycles{};
  double shared_cycles = 0;
  double l1_cycles = 0;
  double l2_cycles = 0;
  double dram_cycles = 0;
  double latency_cycles = 0;
  double tail_cycles = 0;  // extra cycles of the last, partial wave
  uint64_t launch_ns = 0;
  double waves = 0;  // ctas / (ctas_per_sm x SMs available)
};

KernelTime model_kernel(const ArchConfig& config, const KernelStats& stats, double sm_share = 1.0);

// What a kernel gets of the device when concurrent work shares it (the event
// scheduler's choice, hw/sim/timeline.h): `sm` as above; `dram` and `l2` are the
// fractions of the device's whole DRAM and L2 bandwidth left to it, in (0, 1] (smaller
// values are raised to 1e-6). Each SM still moves at most its 1/sm_count share of the
// device's bandwidth, so the DRAM term becomes
//   max(the busiest SM's term above, the grid's DRAM bytes / (dram x peak DRAM bandwidth))
// and the L2 term likewise: with dram = l2 = 1 the result equals the overload above, and
// halving `dram` doubles the DRAM term of a grid spread over every SM.
struct Shares {
  double sm = 1.0;
  double dram = 1.0;
  double l2 = 1.0;
};
KernelTime model_kernel(const ArchConfig& config, const KernelStats& stats, const Shares& shares);

// The bytes a kernel moves through DRAM and through L2 (the sectors model_kernel bounds
// by bandwidth, with the same fallbacks when a cache counter is missing): divided by
// the device's peak rates below they give the seconds the grid needs at the whole
// device's bandwidth, from which the event scheduler computes its demand rate.
struct KernelDemand {
  double dram_bytes = 0;
  double l2_bytes = 0;
};
KernelDemand kernel_demand(const KernelStats& stats);

// Where a copy's bytes live.
enum class MemoryKind : uint8_t { kDevice, kHost, kPeer };
// A copy or fill takes latency_ns (engine start-up and link latency) and then ns (the
// transfer, bytes / bytes_per_second); its total time is latency_ns + ns.
struct CopyTime {
  uint64_t ns = 0;
  double bytes_per_second = 0;  // of the bottleneck link
  uint64_t latency_ns = 0;
};
// A copy engine moving `bytes` from `src` to `dst` memory (kDevice both: inside VRAM).
CopyTime model_copy(const ArchConfig& config, MemoryKind src, MemoryKind dst, uint64_t bytes);
// A fill (memset) of `bytes` in `dst` memory.
CopyTime model_fill(const ArchConfig& config, MemoryKind dst, uint64_t bytes);

// Host-side modeled cost of an API call (virtual_time.h): what the config's [host]
// section says the driver spends on it.
enum class ApiCost : uint8_t { kCall, kLaunch, kCopySubmit, kSync };
uint64_t model_api_ns(const ArchConfig& config, ApiCost kind);

// Peak DRAM bandwidth of `config`: memory clock x bus width / 8 x transfers per clock.
double dram_bytes_per_second(const ArchConfig& config);
// Peak L2 bandwidth of `config`: l2_bytes_per_clock x core clock.
double l2_bytes_per_second(const ArchConfig& config);

}  // namespace strata::hw::perf
