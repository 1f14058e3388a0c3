// The device clock: ONE virtual clock in nanoseconds for the whole simulated GPU
// (TIMER_LO/HI, kTimestamp, GridLaunch::start_time_ns, %globaltimer). It starts at 0
// and advances only by modeled command durations, never by host wall time, so results
// are deterministic and independent of host speed and thread count.
//
// The durations come from a deliberately simple analytical model, a placeholder for
// the event-driven performance model (docs/hw-contract.md, "Clock model"):
//   kernel = launch_overhead_ns + max over SMs(warp instructions on that SM)
//                                 / (warp_schedulers_per_sm x core clock)
//   copy   = 2 x bytes / DRAM bandwidth          (read + write)
//   fill   = bytes / DRAM bandwidth              (write)
//   DRAM bandwidth = memory_clock x bus width / 8 x memory_transfers_per_clock
// Thread-safe.
#pragma once

#include <atomic>
#include <cstdint>
#include <vector>

#include "hw/config/arch_config.h"

namespace strata::hw::sim {

class DeviceClock {
 public:
  uint64_t now_ns() const { return now_ns_.load(std::memory_order_acquire); }
  // Advances the clock by `ns` and returns the new time.
  uint64_t advance(uint64_t ns) {
    return now_ns_.fetch_add(ns, std::memory_order_acq_rel) + ns;
  }

 private:
  std::atomic<uint64_t> now_ns_{0};
};

// Modeled durations (ns, rounded up). `warp_instructions_per_sm` may be empty, in which
// case `warp_instructions` is spread evenly over the config's SMs.
uint64_t kernel_duration_ns(const ArchConfig& config, uint64_t warp_instructions,
                            const std::vector<uint64_t>& warp_instructions_per_sm);
uint64_t copy_duration_ns(const ArchConfig& config, uint64_t bytes);
uint64_t fill_duration_ns(const ArchConfig& config, uint64_t bytes);
// Bytes per second the model assumes for device memory.
double dram_bytes_per_second(const ArchConfig& config);

}  // namespace strata::hw::sim
