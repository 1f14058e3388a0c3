// The detailed model's bandwidth-limited queues (the caches are hw/perf/cache.h's
// SectorCache, the same model the functional statistics use).
//
// BandwidthQueue: a server of `rate` items per cycle. serve(t, n) starts when both the
// request (at cycle t) and the server are ready, occupies it for n / rate cycles, and
// returns the cycle its last item leaves: start + (n - 1) / rate (a single item at an
// idle server leaves at t). Add the level's latency to get the data's arrival.
#pragma once

#include <cstdint>

namespace strata::hw::perf::detailed {

class BandwidthQueue {
 public:
  explicit BandwidthQueue(double rate) : rate_(rate > 0 ? rate : 1.0) {}
  double serve(double t, uint64_t n) {
    const double start = t > free_ ? t : free_;
    free_ = start + static_cast<double>(n) / rate_;
    return start + static_cast<double>(n == 0 ? 0 : n - 1) / rate_;
  }

 private:
  double rate_;
  double free_ = 0;
};

}  // namespace strata::hw::perf::detailed
