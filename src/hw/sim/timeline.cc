#include "hw/sim/timeline.h"

#include <algorithm>

#include "base/check.h"
#include "base/virtual_time.h"
#include "nlohmann/json.hpp"

namespace strata::hw::sim {
namespace {

constexpr size_t kMaxRunning = 256;  // older kernel intervals are dropped beyond this
constexpr double kMinShare = 1e-6;
constexpr int kMaxCandidates = 8;  // start times a kernel considers once some SMs are free

}  // namespace

Timeline::Timeline(const ArchConfig& config, uint32_t channels, DeviceClock* clock, uint32_t device)
    : config_(config),
      device_(device),
      channels_(channels),
      engine_free_(static_cast<size_t>(std::max<int64_t>(config.async_engines, 1)), 0),
      clock_(clock) {}

void Timeline::set_submit(uint32_t channel, uint64_t ns) {
  CHECK(channel < channels_.size());
  channels_[channel].submit_ns = ns;
}

void Timeline::reset(uint32_t channel) {
  CHECK(channel < channels_.size());
  channels_[channel] = Channel{};
}

uint64_t Timeline::now(uint32_t channel) const {
  const Channel& c = channels_[channel];
  return std::max(c.submit_ns, c.ready_ns);
}

uint64_t Timeline::kernel_earliest_start(uint32_t channel, uint32_t priority) const {
  const Channel& c = channels_[channel];
  // The model's duration includes the device-side launch overhead (KernelTime::launch_ns),
  // so the kernel's interval starts when the front end takes the launch.
  uint64_t start = std::max(c.submit_ns, c.ready_ns);
  for (size_t level = priority + 1; level < priority_start_.size(); ++level) {
    start = std::max(start, priority_start_[level]);
  }
  return start;
}

void Timeline::wait_until(uint32_t channel, uint64_t ns) {
  Channel& c = channels_[channel];
  c.ready_ns = std::max(c.ready_ns, ns);
}

void Timeline::complete(uint32_t channel, uint64_t end_ns) {
  Channel& c = channels_[channel];
  c.ready_ns = std::max(c.ready_ns, end_ns);
  clock_->advance_to(end_ns);
}

double Timeline::sm_free_at(uint64_t t) const {
  double used = 0;
  for (const Running& r : running_) {
    if (r.start_ns <= t && t < r.end_ns) used += r.share;
  }
  return std::max(0.0, 1.0 - used);
}

Timeline::Interval Timeline::kernel(uint32_t channel, const perf::KernelStats& stats,
                                    perf::KernelTime* time, uint32_t priority,
                                    const KernelModel* model) {
  auto model_at = [&](double share) {
    return model != nullptr ? (*model)(share) : perf::model_kernel(config_, stats, share);
  };
  Interval iv;
  iv.submit_ns = channels_[channel].submit_ns;
  uint64_t start = kernel_earliest_start(channel, priority);
  if (priority_start_.size() <= priority) priority_start_.resize(priority + 1, 0);
  // The fraction of the SMs the grid can fill.
  const double slots = static_cast<double>(stats.ctas_per_sm) *
                       static_cast<double>(std::max<int64_t>(config_.sm_count, 1));
  const double want =
      stats.ctas_per_sm == 0 ? 1.0 : std::min(1.0, static_cast<double>(stats.ctas) / slots);
  // Candidate starts: now, and each time a running kernel ends (SMs free up); the kernel
  // takes the one that ends it first (a small share now can finish later than the whole
  // device a little later). Running kernels are finite, so the search ends.
  double share = 0;
  bool found = false;
  for (int after_first = 0; after_first < kMaxCandidates;) {
    const double candidate = std::min(want, sm_free_at(start));
    if (candidate >= kMinShare) {
      const perf::KernelTime t = model_at(candidate);
      if (!found || start + t.ns < iv.start_ns + time->ns) {
        *time = t;
        iv.start_ns = start;
        share = candidate;
      }
      found = true;
      ++after_first;
      if (candidate >= want) break;
    }
    uint64_t next = UINT64_MAX;
    for (const Running& r : running_) {
      if (r.start_ns <= start && start < r.end_ns) next = std::min(next, r.end_ns);
    }
    if (next == UINT64_MAX) break;
    start = next;
  }
  if (!found) {  // unreachable: with nothing running the whole device is free
    share = want;
    *time = model_at(share);
    iv.start_ns = start;
  }
  start = iv.start_ns;
  iv.start_ns = start;
  iv.end_ns = start + time->ns;
  iv.sm_share = share;
  priority_start_[priority] = std::max(priority_start_[priority], start);
  if (running_.size() >= kMaxRunning) {
    auto oldest =
        std::min_element(running_.begin(), running_.end(),
                         [](const Running& a, const Running& b) { return a.end_ns < b.end_ns; });
    running_.erase(oldest);
  }
  if (iv.end_ns > iv.start_ns) running_.push_back(Running{iv.start_ns, iv.end_ns, share});
  complete(channel, iv.end_ns);
  return iv;
}

Timeline::Interval Timeline::place_copy(uint32_t channel, const perf::CopyTime& t) {
  Interval iv;
  const Channel& c = channels_[channel];
  iv.submit_ns = c.submit_ns;
  auto engine = std::min_element(engine_free_.begin(), engine_free_.end());
  iv.start_ns = std::max({c.submit_ns + t.latency_ns, c.ready_ns, *engine});
  iv.end_ns = iv.start_ns + t.ns;
  *engine = iv.end_ns;
  complete(channel, iv.end_ns);
  return iv;
}

Timeline::Interval Timeline::copy(uint32_t channel, perf::MemoryKind src, perf::MemoryKind dst,
                                  uint64_t bytes) {
  return place_copy(channel, perf::model_copy(config_, src, dst, bytes));
}

Timeline::Interval Timeline::fill(uint32_t channel, perf::MemoryKind dst, uint64_t bytes) {
  return place_copy(channel, perf::model_fill(config_, dst, bytes));
}

void perf_log_kernel(const Timeline& timeline, uint32_t channel, const LaunchPacket& packet,
                     const Timeline::Interval& iv, const perf::KernelTime& t,
                     const perf::KernelStats& st) {
  if (!vt::perf_log_enabled()) return;
  nlohmann::ordered_json j;
  j["device"] = timeline.device();
  j["channel"] = channel;
  j["op"] = "launch";
  j["kernel_id"] = packet.kernel_id;
  j["grid_id"] = packet.grid_id;
  j["grid"] = {packet.grid[0], packet.grid[1], packet.grid[2]};
  j["block"] = {packet.block[0], packet.block[1], packet.block[2]};
  j["submit_ns"] = iv.submit_ns;
  j["start_ns"] = iv.start_ns;
  j["end_ns"] = iv.end_ns;
  j["sm_share"] = iv.sm_share;
  nlohmann::ordered_json m;
  m["ns"] = t.ns;
  m["cycles"] = t.cycles;
  m["bound"] = perf::bound_name(t.bound);
  m["busiest_pipe"] = perf::pipe_name(t.busiest_pipe);
  m["issue_cycles"] = t.issue_cycles;
  nlohmann::ordered_json pipes;
  for (int p = 0; p < perf::kNumPipes; ++p) {
    pipes[perf::pipe_name(static_cast<perf::Pipe>(p))] = t.pipe_cycles[p];
  }
  m["pipe_cycles"] = pipes;
  m["shared_cycles"] = t.shared_cycles;
  m["l1_cycles"] = t.l1_cycles;
  m["l2_cycles"] = t.l2_cycles;
  m["dram_cycles"] = t.dram_cycles;
  m["latency_cycles"] = t.latency_cycles;
  m["tail_cycles"] = t.tail_cycles;
  m["launch_ns"] = t.launch_ns;
  m["waves"] = t.waves;
  j["model"] = m;
  const auto counts = [](const perf::MemoryCounts& c) {
    return nlohmann::ordered_json{{"requests", c.requests}, {"sectors", c.sectors}};
  };
  nlohmann::ordered_json k;
  k["ctas"] = st.ctas;
  k["threads_per_cta"] = st.threads_per_cta;
  k["regs_per_thread"] = st.regs_per_thread;
  k["shared_bytes_per_cta"] = st.shared_bytes_per_cta;
  k["ctas_per_sm"] = st.ctas_per_sm;
  k["theoretical_occupancy"] = st.theoretical_occupancy();
  k["warp_instructions"] = st.warp_instructions;
  k["thread_instructions"] = st.thread_instructions;
  nlohmann::ordered_json pw, pt;
  for (int p = 0; p < perf::kNumPipes; ++p) {
    const char* name = perf::pipe_name(static_cast<perf::Pipe>(p));
    pw[name] = st.pipe_warp_instructions[p];
    pt[name] = st.pipe_thread_instructions[p];
  }
  k["pipe_warp_instructions"] = pw;
  k["pipe_thread_instructions"] = pt;
  k["tensor_fmas"] = st.tensor_fmas;
  k["global_loads"] = counts(st.global_loads);
  k["global_stores"] = counts(st.global_stores);
  k["global_atomics"] = counts(st.global_atomics);
  k["local_loads"] = counts(st.local_loads);
  k["local_stores"] = counts(st.local_stores);
  k["texture_loads"] = counts(st.texture_loads);
  k["constant_requests"] = st.constant_requests;
  k["constant_wavefronts"] = st.constant_wavefronts;
  k["shared_requests"] = st.shared_requests;
  k["shared_wavefronts"] = st.shared_wavefronts;
  k["shared_bank_conflicts"] = st.shared_bank_conflicts;
  k["barrier_arrivals"] = st.barrier_arrivals;
  k["barrier_waits"] = st.barrier_waits;
  k["l1_hits"] = st.l1_hits;
  k["l1_misses"] = st.l1_misses;
  k["l2_hits"] = st.l2_hits;
  k["l2_misses"] = st.l2_misses;
  k["dram_read_sectors"] = st.dram_read_sectors;
  k["dram_write_sectors"] = st.dram_write_sectors;
  j["stats"] = k;
  vt::perf_log_write(j.dump());
}

const char* memory_kind_name(perf::MemoryKind kind) {
  switch (kind) {
    case perf::MemoryKind::kDevice:
      return "device";
    case perf::MemoryKind::kHost:
      return "host";
    case perf::MemoryKind::kPeer:
      return "peer";
  }
  return "?";
}

void perf_log_command(const Timeline& timeline, uint32_t channel, const char* op,
                      const Timeline::Interval& iv, uint64_t bytes, const char* src,
                      const char* dst) {
  if (!vt::perf_log_enabled()) return;
  nlohmann::ordered_json j;
  j["device"] = timeline.device();
  j["channel"] = channel;
  j["op"] = op;
  j["submit_ns"] = iv.submit_ns;
  j["start_ns"] = iv.start_ns;
  j["end_ns"] = iv.end_ns;
  if (bytes != 0) j["bytes"] = bytes;
  if (src != nullptr) j["src"] = src;
  if (dst != nullptr) j["dst"] = dst;
  vt::perf_log_write(j.dump());
}

}  // namespace strata::hw::sim
