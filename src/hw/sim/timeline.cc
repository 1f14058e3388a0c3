#include "hw/sim/timeline.h"

#include <algorithm>
#include <cmath>

#include "base/check.h"
#include "base/virtual_time.h"
#include "nlohmann/json.hpp"

namespace strata::hw::sim {
namespace {

constexpr size_t kMaxJobs = 256;  // the oldest-ending jobs are dropped beyond this
constexpr double kMinShare = 1e-6;
constexpr int kMaxCandidates = 8;  // start times a kernel considers once some SMs are free
constexpr int kMaxFluidSteps = 1 << 16;

// A fluid-schedule time (double ns) as an end: the next whole ns, ignoring rounding noise.
uint64_t to_end(double t) {
  return t <= 0 ? 0 : static_cast<uint64_t>(std::ceil(t - 1e-6));
}

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
  for (const Job& j : jobs_) {
    if (j.engine < 0 && j.start_ns <= t && t < j.end_ns) used += j.sm_share;
  }
  return std::max(0.0, 1.0 - used);
}

double Timeline::dram_ns_of(double bytes) const {
  const double peak = perf::dram_bytes_per_second(config_);
  return peak > 0 ? bytes * 1e9 / peak : 0.0;
}

double Timeline::l2_ns_of(double bytes) const {
  const double peak = perf::l2_bytes_per_second(config_);
  return peak > 0 ? bytes * 1e9 / peak : 0.0;
}

// The newcomer's fluid schedule (timeline.h): between consecutive events (its body
// starting or ending, a placed job's share changing) it gets min(its demand, what the
// placed jobs leave) of each memory and progresses at the slower of the two rates.
Timeline::Fluid Timeline::share_bandwidth(const Job& job) const {
  Fluid f;
  double left = std::max(0.0, job.alone_ns);
  double t = job.body_ns;
  f.end = t + left;
  const double ud = left > 0 ? std::min(1.0, job.dram_ns / left) : 0.0;
  const double ul = left > 0 ? std::min(1.0, job.l2_ns / left) : 0.0;
  if (left == 0 || (ud == 0 && ul == 0)) return f;  // nothing to share
  std::vector<const Segment*> held;
  for (const Job& j : jobs_) {
    if (j.end_ns <= t) continue;
    for (const Segment& s : j.profile) {
      if (s.to > t) held.push_back(&s);
    }
  }
  for (int step = 0; step < kMaxFluidSteps; ++step) {
    double used_d = 0, used_l = 0, next = HUGE_VAL;
    for (const Segment* s : held) {
      if (s->from <= t && t < s->to) {
        used_d += s->dram, used_l += s->l2;
        next = std::min(next, s->to);
      } else if (s->from > t) {
        next = std::min(next, s->from);
      }
    }
    const double share_d = std::min(ud, std::max(0.0, 1.0 - used_d));
    const double share_l = std::min(ul, std::max(0.0, 1.0 - used_l));
    const double kd = ud <= share_d ? 1.0 : share_d > 0 ? ud / share_d : HUGE_VAL;
    const double kl = ul <= share_l ? 1.0 : share_l > 0 ? ul / share_l : HUGE_VAL;
    const double k = std::max(kd, kl);
    const double finish = std::isfinite(k) ? t + left * k : HUGE_VAL;
    if (!std::isfinite(finish) && !std::isfinite(next)) break;  // cannot happen
    const double to = std::min(finish, next);
    if (share_d > 0 || share_l > 0) {
      if (!f.profile.empty() && f.profile.back().to == t && f.profile.back().dram == share_d &&
          f.profile.back().l2 == share_l) {
        f.profile.back().to = to;
      } else {
        f.profile.push_back(Segment{t, to, share_d, share_l});
      }
    }
    if (k > 1) (kd >= kl ? f.dram_slowed_ns : f.l2_slowed_ns) += to - t;
    if (finish <= next) {
      f.end = finish;
      return f;
    }
    if (std::isfinite(k)) left = std::max(0.0, left - (next - t) / k);
    t = next;
  }
  f.end = t + left;  // not reached: the placed jobs' segments end
  return f;
}

const Timeline::Job& Timeline::commit(Job job, const Fluid& fluid) {
  job.end_ns = std::max(job.start_ns, to_end(fluid.end));
  job.profile = fluid.profile;
  if (jobs_.size() >= kMaxJobs) {
    jobs_.erase(std::min_element(jobs_.begin(), jobs_.end(),
                                 [](const Job& a, const Job& b) { return a.end_ns < b.end_ns; }));
  }
  jobs_.push_back(std::move(job));
  complete(jobs_.back().channel, jobs_.back().end_ns);
  return jobs_.back();
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
  const perf::KernelDemand demand = perf::kernel_demand(stats);
  const auto job_at = [&](uint64_t at, double share, const perf::KernelTime& t) {
    Job j;
    j.channel = channel;
    j.sm_share = share;
    j.start_ns = at;
    const uint64_t launch = std::min(t.launch_ns, t.ns);
    j.body_ns = static_cast<double>(at + launch);
    j.alone_ns = static_cast<double>(t.ns - launch);
    j.dram_ns = dram_ns_of(demand.dram_bytes);
    j.l2_ns = l2_ns_of(demand.l2_bytes);
    return j;
  };
  // Candidate starts: now, and each time a running kernel ends (SMs free up); the kernel
  // takes the one that ends it first (a small share now can finish later than the whole
  // device a little later), bandwidth included. Running kernels are finite, so the
  // search ends.
  Job best;
  Fluid best_fluid;
  uint64_t best_end = 0;
  bool found = false;
  for (int after_first = 0; after_first < kMaxCandidates;) {
    const double candidate = std::min(want, sm_free_at(start));
    if (candidate >= kMinShare) {
      const perf::KernelTime t = model_at(candidate);
      Job j = job_at(start, candidate, t);
      Fluid fluid = share_bandwidth(j);
      const uint64_t end = std::max(start, to_end(fluid.end));
      if (!found || end < best_end) {
        *time = t;
        best = std::move(j);
        best_fluid = std::move(fluid);
        best_end = end;
      }
      found = true;
      ++after_first;
      if (candidate >= want) break;
    }
    uint64_t next = UINT64_MAX;
    for (const Job& r : jobs_) {
      if (r.engine < 0 && r.start_ns <= start && start < r.end_ns) next = std::min(next, r.end_ns);
    }
    if (next == UINT64_MAX) break;
    start = next;
  }
  if (!found) {  // unreachable: with nothing running the whole device is free
    *time = model_at(want);
    best = job_at(start, want, *time);
    best_fluid = share_bandwidth(best);
  }
  const Job& placed = commit(std::move(best), best_fluid);
  iv.start_ns = placed.start_ns;
  iv.end_ns = placed.end_ns;
  iv.sm_share = placed.sm_share;
  if (iv.end_ns != iv.start_ns + time->ns) {
    // Slowed by bandwidth sharing: the model with the average share it got of the memory
    // that held it back.
    const double body = static_cast<double>(iv.end_ns) - placed.body_ns;
    const bool by_dram = best_fluid.dram_slowed_ns >= best_fluid.l2_slowed_ns;
    perf::Shares shares{.sm = placed.sm_share};
    if (by_dram && placed.dram_ns > 0) shares.dram = std::min(1.0, placed.dram_ns / body);
    if (!by_dram && placed.l2_ns > 0) shares.l2 = std::min(1.0, placed.l2_ns / body);
    if (model == nullptr) *time = perf::model_kernel(config_, stats, shares);
    time->ns = iv.end_ns - iv.start_ns;
    time->cycles = static_cast<uint64_t>(std::ceil(
        body * static_cast<double>(std::max<int64_t>(config_.core_clock_mhz, 1)) / 1e3 - 1e-6));
    time->bound = by_dram ? perf::Bound::kDram : perf::Bound::kL2;
  }
  priority_start_[priority] = std::max(priority_start_[priority], iv.start_ns);
  return iv;
}

Timeline::Interval Timeline::place_copy(uint32_t channel, const perf::CopyTime& t,
                                        double dram_bytes) {
  Interval iv;
  const Channel& c = channels_[channel];
  iv.submit_ns = c.submit_ns;
  auto engine = std::min_element(engine_free_.begin(), engine_free_.end());
  Job j;
  j.channel = channel;
  j.engine = static_cast<int>(engine - engine_free_.begin());
  j.start_ns = std::max({c.submit_ns + t.latency_ns, c.ready_ns, *engine});
  j.body_ns = static_cast<double>(j.start_ns);
  j.alone_ns = static_cast<double>(t.ns);
  j.dram_ns = dram_ns_of(dram_bytes);
  const Fluid fluid = share_bandwidth(j);
  const Job& placed = commit(std::move(j), fluid);
  iv.start_ns = placed.start_ns;
  iv.end_ns = placed.end_ns;
  *engine = iv.end_ns;
  return iv;
}

Timeline::Interval Timeline::copy(uint32_t channel, perf::MemoryKind src, perf::MemoryKind dst,
                                  uint64_t bytes) {
  // The engine reads or writes this device's DRAM for each side that lives in it.
  const int local = (src == perf::MemoryKind::kDevice) + (dst == perf::MemoryKind::kDevice);
  return place_copy(channel, perf::model_copy(config_, src, dst, bytes),
                    static_cast<double>(bytes) * local);
}

Timeline::Interval Timeline::fill(uint32_t channel, perf::MemoryKind dst, uint64_t bytes) {
  return place_copy(channel, perf::model_fill(config_, dst, bytes),
                    dst == perf::MemoryKind::kDevice ? static_cast<double>(bytes) : 0.0);
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
