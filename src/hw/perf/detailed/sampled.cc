#include "hw/perf/detailed/sampled.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace strata::hw::perf {
namespace {

// Where a warp's main-loop iterations start (indices into its issues).
std::vector<uint32_t> iteration_starts(const WarpTrace& w, int64_t head) {
  std::vector<uint32_t> starts;
  if (head < 0) return starts;
  for (uint32_t i = 0; i < w.issues.size(); ++i)
    if (w.issues[i].pc == static_cast<uint64_t>(head)) starts.push_back(i);
  return starts;
}

// `w` without its issues [cut_begin, cut_end) and their accesses and sectors.
WarpTrace splice(const WarpTrace& w, uint32_t cut_begin, uint32_t cut_end) {
  WarpTrace out;
  const uint32_t removed = cut_end - cut_begin;
  out.issues.reserve(w.issues.size() - removed);
  out.issues.insert(out.issues.end(), w.issues.begin(), w.issues.begin() + cut_begin);
  out.issues.insert(out.issues.end(), w.issues.begin() + cut_end, w.issues.end());
  for (const TraceAccess& a : w.accesses) {
    if (a.issue >= cut_begin && a.issue < cut_end) continue;
    TraceAccess b = a;
    if (a.issue >= cut_end) b.issue -= removed;
    if (a.kind != TraceAccessKind::kShared) {
      b.first = static_cast<uint32_t>(out.sectors.size());
      out.sectors.insert(out.sectors.end(), w.sectors.begin() + a.first,
                         w.sectors.begin() + a.first + a.count);
    }
    out.accesses.push_back(b);
  }
  return out;
}

// One wave: CTAs [first, first + count) of the trace, and each warp's iteration starts.
class Wave {
 public:
  Wave(const DetailedParams& p, const KernelTrace& t, const KernelStats& s, size_t first,
       size_t count, int64_t head)
      : p_(p), t_(t), s_(s), first_(first), count_(count) {
    for (size_t c = first; c < first + count; ++c)
      for (const WarpTrace& w : t.ctas[c].warps) {
        starts_.push_back(iteration_starts(w, head));
        max_iterations_ = std::max<uint64_t>(max_iterations_, starts_.back().size());
        total_iterations_ += starts_.back().size();
      }
  }

  uint64_t total_iterations() const { return total_iterations_; }
  uint64_t max_iterations() const { return max_iterations_; }

  // Iterations removed from the longest warp when keeping k (R(k)).
  uint64_t removed(uint64_t k) const {
    return max_iterations_ > k + 1 ? max_iterations_ - k - 1 : 0;
  }

  // The wave replayed with every warp cut to k iterations (step 3 of sampled.h).
  DetailedResult replay(uint64_t k, uint64_t* kept_iterations) const {
    *kept_iterations = 0;
    for (const std::vector<uint32_t>& s : starts_)
      *kept_iterations += std::min<uint64_t>(s.size(), k + 1);
    if (first_ == 0 && count_ == t_.ctas.size() && removed(k) == 0)
      return model_kernel_detailed(p_, t_, s_);  // the whole trace as it is
    KernelTrace sub;
    sub.sm_count = t_.sm_count;
    sub.warps_per_cta = t_.warps_per_cta;
    sub.threads_per_cta = t_.threads_per_cta;
    sub.regs_per_thread = t_.regs_per_thread;
    sub.shared_bytes_per_cta = t_.shared_bytes_per_cta;
    sub.total_ctas = t_.total_ctas;
    sub.code = t_.code;
    size_t warp = 0;
    for (size_t c = first_; c < first_ + count_; ++c) {
      const CtaTrace& cta = t_.ctas[c];
      CtaTrace& out = sub.ctas.emplace_back();
      out.linear = cta.linear;
      out.warps.reserve(cta.warps.size());
      for (const WarpTrace& w : cta.warps) {
        const std::vector<uint32_t>& s = starts_[warp++];
        if (s.size() > k + 1) {
          out.warps.push_back(splice(w, s[k], s.back()));
        } else {
          out.warps.push_back(w);
        }
      }
    }
    return model_kernel_detailed(p_, sub, s_);
  }

 private:
  const DetailedParams& p_;
  const KernelTrace& t_;
  const KernelStats& s_;
  size_t first_, count_;
  std::vector<std::vector<uint32_t>> starts_;  // per warp, CTA-major
  uint64_t max_iterations_ = 0, total_iterations_ = 0;
};

struct WaveEstimate {
  double cycles = 0;      // the wave's estimated cycles
  DetailedResult replay;  // the replay the estimate extends
  uint64_t iterations_total = 0, iterations_simulated = 0;
};

// Steps 3 and 4 of sampled.h for one wave.
WaveEstimate sample_wave(const Wave& wave, const SamplingParams& sampling) {
  WaveEstimate e;
  e.iterations_total = wave.total_iterations();
  uint64_t k = 1;
  double prev_cycles = 0, prev_rate = 0;
  uint64_t prev_removed = 0;
  int windows = 0;
  for (bool first = true;; first = false) {
    const uint64_t removed = wave.removed(k);
    e.replay = wave.replay(k, &e.iterations_simulated);
    const double cycles = static_cast<double>(e.replay.cycles);
    if (removed == 0) {  // the whole wave: exact
      e.cycles = cycles;
      return e;
    }
    if (!first && prev_removed >= removed + std::max<uint64_t>(1, sampling.min_window)) {
      const double rate = (cycles - prev_cycles) / static_cast<double>(prev_removed - removed);
      ++windows;
      if (windows >= 2 && rate > 0 && std::abs(rate - prev_rate) <= sampling.tolerance * rate) {
        e.cycles = cycles + rate * static_cast<double>(removed);
        return e;
      }
      prev_rate = rate;
    }
    prev_cycles = cycles;
    prev_removed = removed;
    k *= 2;
  }
}

void accumulate(DetailedResult* total, const DetailedResult& r) {
  total->ctas += r.ctas;
  total->warp_instructions += r.warp_instructions;
  total->thread_instructions += r.thread_instructions;
  for (int i = 0; i < kNumStallReasons; ++i) total->stall_cycles[i] += r.stall_cycles[i];
  total->idle_scheduler_cycles += r.idle_scheduler_cycles;
  total->l1_hits += r.l1_hits;
  total->l1_misses += r.l1_misses;
  total->l2_hits += r.l2_hits;
  total->l2_misses += r.l2_misses;
  total->shared_wavefronts += r.shared_wavefronts;
}

}  // namespace

int64_t find_main_loop(const KernelTrace& trace, size_t first, size_t count) {
  std::map<uint32_t, uint64_t> taken;  // backward-branch target -> times taken
  const size_t end = std::min(trace.ctas.size(), first + count);
  for (size_t c = first; c < end; ++c)
    for (const WarpTrace& w : trace.ctas[c].warps)
      for (size_t i = 1; i < w.issues.size(); ++i)
        if (w.issues[i].pc <= w.issues[i - 1].pc) ++taken[w.issues[i].pc];
  int64_t head = -1;
  uint64_t best = 0;
  for (const auto& [pc, n] : taken) {
    if (n > best) {  // ascending pcs: the lowest wins a tie
      best = n;
      head = pc;
    }
  }
  return head;
}

bool should_sample(const KernelTrace& trace, uint64_t threshold) {
  return threshold > 0 && trace.warp_instructions() > threshold;
}

DetailedResult model_kernel_sampled(const DetailedParams& params, const KernelTrace& trace,
                                    const KernelStats& stats, const SamplingParams& sampling) {
  const uint32_t max_warps = std::max<uint32_t>(1, params.max_warps_per_sm);
  const uint32_t warps_per_cta = std::max<uint32_t>(1, trace.warps_per_cta);
  const size_t slots =
      stats.ctas_per_sm > 0 ? stats.ctas_per_sm : std::max<uint32_t>(1, max_warps / warps_per_cta);
  const size_t ctas = trace.ctas.size();
  const uint64_t full_waves = ctas / slots;
  const size_t partial = ctas % slots;

  DetailedResult result;
  result.sampled = true;
  result.main_loop_pc = find_main_loop(trace, 0, std::min(slots, ctas));
  result.waves_total = full_waves + (partial > 0 ? 1 : 0);
  double cycles = 0, replay_cycles = 0, occupancy_cycles = 0;
  auto add = [&](const WaveEstimate& e, uint64_t times) {
    cycles += e.cycles * static_cast<double>(times);
    replay_cycles += static_cast<double>(e.replay.cycles);
    occupancy_cycles += e.replay.achieved_occupancy * static_cast<double>(e.replay.cycles);
    accumulate(&result, e.replay);
    result.iterations_total += e.iterations_total * times;
    result.iterations_simulated += e.iterations_simulated;
    ++result.waves_simulated;
  };
  if (full_waves > 0) {
    const Wave wave(params, trace, stats, 0, slots, result.main_loop_pc);
    add(sample_wave(wave, sampling), full_waves);
  }
  if (partial > 0) {
    const Wave wave(params, trace, stats, full_waves * slots, partial, result.main_loop_pc);
    if (full_waves == 0) {
      add(sample_wave(wave, sampling), 1);  // the only wave: sampled as the first
    } else {
      WaveEstimate whole;  // the last partial wave: simulated whole
      whole.iterations_total = wave.total_iterations();
      whole.replay = wave.replay(wave.max_iterations(), &whole.iterations_simulated);
      whole.cycles = static_cast<double>(whole.replay.cycles);
      add(whole, 1);
    }
  }
  result.cycles = static_cast<uint64_t>(std::llround(cycles));
  result.extrapolation = replay_cycles > 0 ? cycles / replay_cycles : 1.0;
  result.achieved_occupancy = replay_cycles > 0 ? occupancy_cycles / replay_cycles : 0.0;
  const double clock_mhz = params.core_clock_mhz > 0 ? params.core_clock_mhz : 1000;
  result.ns =
      static_cast<uint64_t>(std::llround(static_cast<double>(result.cycles) * 1000.0 / clock_mhz)) +
      params.launch_overhead_ns;
  return result;
}

DetailedResult model_kernel_sampled(const ArchConfig& config, const KernelTrace& trace,
                                    const KernelStats& stats, const SamplingParams& sampling) {
  return model_kernel_sampled(detailed_params(config), trace, stats, sampling);
}

}  // namespace strata::hw::perf
