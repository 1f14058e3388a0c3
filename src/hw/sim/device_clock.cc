#include "hw/sim/device_clock.h"

#include <algorithm>
#include <cmath>

namespace strata::hw::sim {
namespace {

uint64_t ceil_ns(double seconds) {
  const double ns = std::ceil(seconds * 1e9);
  if (!(ns > 0)) return 0;
  if (ns >= 1.8e19) return UINT64_MAX / 2;  // saturate absurd durations
  return static_cast<uint64_t>(ns);
}

}  // namespace

double dram_bytes_per_second(const ArchConfig& config) {
  return static_cast<double>(config.memory_clock_mhz) * 1e6 *
         (static_cast<double>(config.memory_bus_width_bits) / 8.0) *
         static_cast<double>(config.memory_transfers_per_clock);
}

uint64_t kernel_duration_ns(const ArchConfig& config, uint64_t warp_instructions,
                            const std::vector<uint64_t>& warp_instructions_per_sm) {
  uint64_t busiest = 0;
  if (!warp_instructions_per_sm.empty()) {
    busiest = *std::max_element(warp_instructions_per_sm.begin(), warp_instructions_per_sm.end());
  } else {
    const uint64_t sms = static_cast<uint64_t>(std::max<int64_t>(config.sm_count, 1));
    busiest = (warp_instructions + sms - 1) / sms;
  }
  const double issue_per_second = static_cast<double>(std::max<int64_t>(config.warp_schedulers_per_sm, 1)) *
                                  static_cast<double>(std::max<int64_t>(config.core_clock_mhz, 1)) * 1e6;
  return static_cast<uint64_t>(std::max<int64_t>(config.launch_overhead_ns, 0)) +
         ceil_ns(static_cast<double>(busiest) / issue_per_second);
}

uint64_t copy_duration_ns(const ArchConfig& config, uint64_t bytes) {
  const double bw = dram_bytes_per_second(config);
  return bw > 0 ? ceil_ns(2.0 * static_cast<double>(bytes) / bw) : 0;
}

uint64_t fill_duration_ns(const ArchConfig& config, uint64_t bytes) {
  const double bw = dram_bytes_per_second(config);
  return bw > 0 ? ceil_ns(static_cast<double>(bytes) / bw) : 0;
}

}  // namespace strata::hw::sim
