// The device clock: the latest modeled completion time (ns) of any command the device
// has executed, on Strata's one virtual clock (docs/hw-contract.md, "Clock model").
// The TIMER register reads it; it never decreases. Modeled start and end times of
// commands come from the event scheduler (timeline.h), which advances this clock; it
// never follows host wall time, so results are deterministic. Thread-safe.
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>

namespace strata::hw::sim {

class DeviceClock {
 public:
  uint64_t now_ns() const { return now_ns_.load(std::memory_order_acquire); }
  // Moves the clock to max(now, ns) and returns the new time.
  uint64_t advance_to(uint64_t ns) {
    uint64_t seen = now_ns_.load(std::memory_order_relaxed);
    while (ns > seen && !now_ns_.compare_exchange_weak(seen, ns, std::memory_order_acq_rel)) {
    }
    return std::max(seen, ns);
  }
  // Advances the clock by `ns` and returns the new time.
  uint64_t advance(uint64_t ns) { return now_ns_.fetch_add(ns, std::memory_order_acq_rel) + ns; }

 private:
  std::atomic<uint64_t> now_ns_{0};
};

}  // namespace strata::hw::sim
