// The device event scheduler: the modeled start and end time of every command the
// command processor executes (docs/hw-contract.md, "Clock model").
//
// Functional execution is unchanged (the command processor runs packets one at a time);
// the timeline only decides when each command would have run on the modeled device:
//
//   start = max(channel submit time + the command's latency,   (kHostTime, per channel)
//               channel ready time,                            (end of its previous command)
//               resource availability)
//   end   = start + modeled duration
//
// - Kernels: latency = timing.launch_overhead_ns; duration = perf::model_kernel(config,
//   stats, sm_share). The SMs are shared among concurrent kernels: each holds a fraction
//   sm_share = min(1, ctas / (ctas_per_sm x sm_count)) of them, capped at what running
//   kernels leave free at its start. Of the candidate starts (now, and the next few
//   times a running kernel ends) it takes the one at which it would end first.
// - Copies and fills: latency and duration from perf::model_copy / model_fill, on the
//   earliest free of max(1, device.async_engines) copy engines.
// - DRAM and L2 bandwidth are shared among the kernels and copies that run at once
//   (a fluid model, piecewise constant between events). Each command has a body (after
//   the launch overhead; a copy's latency comes before its interval) lasting T alone,
//   and demand rates u_dram = (its DRAM bytes / peak DRAM bandwidth) / T and u_l2
//   likewise (kernels: perf::kernel_demand; copies and fills: the bytes they read and
//   write in this device's DRAM, none through L2). A newcomer gets, at each moment,
//   min(u, 1 - the shares the placed commands hold then) of each memory and progresses
//   at 1 / (T x max over its memories of u / share). Placed commands are never revised
//   (online, so that the modeled times do not depend on whether the command processor
//   handled a release after them before or after the newcomer): beside a DRAM-bound
//   kernel a second DRAM-bound one moves its bytes only as the first leaves bandwidth
//   free, so the two take about as long as one after the other; compute-bound kernels
//   whose demands fit together do not slow; a device-to-device copy (DRAM read + write)
//   and a DRAM-bound kernel slow whichever of them comes second. A slowed kernel's
//   KernelTime is perf::model_kernel with the Shares it got on average.
// - Semaphore releases and timestamps happen at the channel's current time
//   max(submit, ready); an acquire moves the channel's ready time to the time its
//   releaser stored with the semaphore (kPacketSemTime).
//
// Modeled times depend only on the packets, their order within each channel, the host
// times in kHostTime packets and the order in which the command processor takes
// commands from different channels; never on host threads or wall time.
// Command-processor thread only, except latest_ns() (any thread).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/contract/packets.h"
#include "hw/perf/fast_model.h"
#include "hw/perf/kernel_stats.h"
#include "hw/sim/device_clock.h"

namespace strata::hw::sim {

class Timeline {
 public:
  struct Interval {
    uint64_t submit_ns = 0;
    uint64_t start_ns = 0;
    uint64_t end_ns = 0;
    double sm_share = 0;  // kernels only
  };

  // `clock` (the TIMER register) follows the latest modeled completion; `device` names
  // the device in the perf log.
  Timeline(const ArchConfig& config, uint32_t channels, DeviceClock* clock, uint32_t device = 0);

  // kHostTime: the channel's following packets were submitted at host time `ns`.
  void set_submit(uint32_t channel, uint64_t ns);
  // A channel reset (CH_CTRL): forget its submit and ready times.
  void reset(uint32_t channel);

  // The channel's submit time: the last kHostTime (0 after a reset).
  uint64_t submit_ns(uint32_t channel) const { return channels_[channel].submit_ns; }
  // The channel's current time, max(submit, ready): when a release or timestamp on it
  // happens.
  uint64_t now(uint32_t channel) const;
  // Earliest start of a kernel's interval on the channel before SM availability is
  // known; its CTAs start launch_overhead_ns later (GridLaunch::start_time_ns,
  // %globaltimer).
  uint64_t kernel_earliest_start(uint32_t channel, uint32_t priority = 0) const;
  // Schedules a kernel with the statistics of its functional execution; *time receives
  // the model's answer. `priority` is the channel's CH_PRIORITY: a kernel never starts
  // before a kernel the command processor dispatched earlier from a higher-priority
  // channel (the front end dispatches the higher level first).
  // `model` (optional) times the kernel for a share of the SMs instead of the fast model
  // (STRATA_TIMING=detailed passes the detailed model's answer).
  using KernelModel = std::function<perf::KernelTime(double sm_share)>;
  Interval kernel(uint32_t channel, const perf::KernelStats& stats, perf::KernelTime* time,
                  uint32_t priority = 0, const KernelModel* model = nullptr);
  Interval copy(uint32_t channel, perf::MemoryKind src, perf::MemoryKind dst, uint64_t bytes);
  Interval fill(uint32_t channel, perf::MemoryKind dst, uint64_t bytes);
  // kSemAcquire satisfied: the channel cannot continue before `ns`.
  void wait_until(uint32_t channel, uint64_t ns);

  // The latest modeled completion so far (monotonic): the TIMER register. Thread-safe.
  uint64_t latest_ns() const { return clock_->now_ns(); }

  uint32_t device() const { return device_; }
  const ArchConfig& config() const { return config_; }

 private:
  struct Channel {
    uint64_t submit_ns = 0;
    uint64_t ready_ns = 0;
  };
  // The shares of the device's DRAM and L2 bandwidth a command held over [from, to).
  struct Segment {
    double from, to, dram, l2;
  };
  // A placed kernel or copy: its SM or engine interval and the bandwidth it held.
  struct Job {
    uint32_t channel = 0;
    int engine = -1;        // copies: the copy engine; kernels: -1
    double sm_share = 0;    // kernels: the fraction of the SMs held
    uint64_t start_ns = 0;  // the interval
    uint64_t end_ns = 0;
    double body_ns = 0;            // its memory traffic starts (after launch overhead)
    double alone_ns = 0;           // the body's duration with all the bandwidth it wants
    double dram_ns = 0;            // the body's DRAM bytes at the device's peak DRAM bandwidth
    double l2_ns = 0;              // likewise for L2
    std::vector<Segment> profile;  // bandwidth shares held over the body
  };
  // A newcomer's bandwidth schedule beside the placed jobs.
  struct Fluid {
    double end = 0;
    std::vector<Segment> profile;
    double dram_slowed_ns = 0;  // time its progress was limited by DRAM sharing
    double l2_slowed_ns = 0;    // ... by L2 sharing
  };
  Fluid share_bandwidth(const Job& job) const;
  const Job& commit(Job job, const Fluid& fluid);  // records it; ends its channel's command
  double sm_free_at(uint64_t t) const;
  Interval place_copy(uint32_t channel, const perf::CopyTime& t, double dram_bytes);
  void complete(uint32_t channel, uint64_t end_ns);
  double dram_ns_of(double bytes) const;
  double l2_ns_of(double bytes) const;

  const ArchConfig& config_;
  const uint32_t device_;
  std::vector<Channel> channels_;
  std::vector<Job> jobs_;                 // kernels and copies placed (the latest-ending)
  std::vector<uint64_t> engine_free_;     // copy engines
  std::vector<uint64_t> priority_start_;  // latest kernel start per CH_PRIORITY level
  DeviceClock* const clock_;
};

// The command processor's STRATA_PERF_LOG lines (base/virtual_time.h; no-ops when the
// log is off).
void perf_log_kernel(const Timeline& timeline, uint32_t channel, const LaunchPacket& packet,
                     const Timeline::Interval& interval, const perf::KernelTime& time,
                     const perf::KernelStats& stats);
// `src`/`dst`: where a copy's or fill's bytes live ("device", "host", "peer"; null: none).
void perf_log_command(const Timeline& timeline, uint32_t channel, const char* op,
                      const Timeline::Interval& interval, uint64_t bytes = 0,
                      const char* src = nullptr, const char* dst = nullptr);
const char* memory_kind_name(perf::MemoryKind kind);  // "device", "host", "peer"

}  // namespace strata::hw::sim
