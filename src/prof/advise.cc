// The advisor (advise.h): verdicts from a kernel group's metrics and the device config.
#include "prof/advise.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>
#include <tuple>

namespace strata::prof {
namespace {

using Map = std::map<std::string, double>;

std::optional<double> get(const Map& m, const std::string& name) {
  auto it = m.find(name);
  if (it == m.end() || !std::isfinite(it->second)) return std::nullopt;
  return it->second;
}

std::string fmt_ns(double ns) {
  if (ns >= 1e9) return fmt::format("{:.3f} s", ns * 1e-9);
  if (ns >= 1e6) return fmt::format("{:.3f} ms", ns * 1e-6);
  if (ns >= 1e3) return fmt::format("{:.3f} us", ns * 1e-3);
  return fmt::format("{:.0f} ns", ns);
}
std::string fmt_rate(double bytes_per_second) {
  return fmt::format("{:.1f} GB/s", bytes_per_second * 1e-9);
}
std::string fmt_bytes(double bytes) {
  if (bytes >= 1e9) return fmt::format("{:.2f} GB", bytes * 1e-9);
  if (bytes >= 1e6) return fmt::format("{:.2f} MB", bytes * 1e-6);
  if (bytes >= 1e3) return fmt::format("{:.2f} kB", bytes * 1e-3);
  return fmt::format("{:.0f} B", bytes);
}

// Peak DRAM bandwidth of the config, bytes/s (hw/perf/fast_model.h's formula).
std::optional<double> dram_peak(const DeviceConfig& cfg) {
  if (auto derived = get(cfg, "derived.dram_bytes_per_second"); derived && *derived > 0)
    return derived;  // the driver's record of the timing model's peak
  auto clock = get(cfg, "device.memory_clock_mhz");
  auto width = get(cfg, "device.memory_bus_width_bits");
  auto transfers = get(cfg, "timing.memory_transfers_per_clock");
  if (!clock || !width || !transfers) return std::nullopt;
  return *clock * 1e6 * *width / 8.0 * *transfers;
}

// Nsight Compute's pipe names (metrics.def) with what each runs and how to relieve it.
struct PipeAdvice {
  const char* pipe;
  const char* metric;
  const char* suggestion;
};
constexpr PipeAdvice kPipeAdvice[] = {
    {"fma", "sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_elapsed",
     "FP32 arithmetic is saturated: do less of it (hoist loop-invariant math, reuse "
     "results), move matrix work to the tensor cores (mma / WMMA), or use packed FP16x2"},
    {"fp64", "sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_elapsed",
     "FP64 arithmetic is saturated: use FP32 where precision allows (the FP64 pipe is "
     "much narrower on this device)"},
    {"alu", "sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_elapsed",
     "integer and logic instructions are saturated: simplify index arithmetic, hoist address "
     "computations out of loops, replace divisions and modulos by shifts and masks"},
    {"xu", "sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_elapsed",
     "transcendentals and conversions are saturated: avoid conversions in inner loops, "
     "precompute or tabulate sin/exp/rsqrt results, or use cheaper approximations"},
    {"lsu", "sm__inst_executed_pipe_lsu.avg.pct_of_peak_sustained_elapsed",
     "load/store instructions are saturated: use wider accesses (float4, int4) so fewer "
     "instructions move the same bytes, and keep reused values in registers"},
    {"tex", "sm__inst_executed_pipe_tex.avg.pct_of_peak_sustained_elapsed",
     "texture fetches are saturated: fetch fewer texels (reuse them through shared memory)"},
    {"cbu", "sm__inst_executed_pipe_cbu.avg.pct_of_peak_sustained_elapsed",
     "branch, barrier and warp-level instructions are saturated: unroll loops, remove "
     "__syncthreads() that are not needed, replace shuffles by shared-memory reductions"},
    {"tensor", "sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
     "the tensor cores are saturated: this is the device's matrix peak; only a lower "
     "precision (TF32 -> FP16 -> INT8) raises it"},
};

// Strata's stall reasons in Nsight Compute's names (metrics.def), with their meaning and
// what relieves a kernel whose warps mostly wait for that reason.
struct StallAdvice {
  const char* reason;
  const char* meaning;
  const char* suggestion;
};
constexpr StallAdvice kStallReasons[] = {
    {"long_scoreboard", "waiting for memory (L1TEX: global, local, texture)",
     "hide memory latency: issue several independent loads before using the first (unroll), "
     "keep more warps resident, or stage reused data in shared memory"},
    {"wait", "waiting on a fixed-latency dependency",
     "shorten dependency chains: interleave independent computations (ILP), e.g. several "
     "accumulators instead of one"},
    {"barrier", "waiting at a CTA barrier",
     "balance the work between a block's warps and remove __syncthreads() that are not "
     "needed; smaller blocks wait for fewer warps"},
    {"math_pipe_throttle", "waiting for a busy pipe",
     "spread the work over more pipes (mix instruction types) or use a cheaper instruction"},
    {"not_selected", "eligible but not selected",
     "the schedulers have enough eligible warps: fewer instructions per result will help more "
     "than more warps"},
};

Verdict primary_verdict(const KernelGroup& g, const DeviceConfig& cfg, bool* have) {
  *have = true;
  const Map& m = g.metrics;
  const double mean_ns = g.launches > 0 ? static_cast<double>(g.total_ns) / g.launches : 0;
  std::optional<double> overhead = get(cfg, "timing.launch_overhead_ns");
  if (!overhead) overhead = get(g.counters, "launch_ns");
  if (overhead && *overhead > 0 && mean_ns > 0 && mean_ns <= kLaunchBoundFactor * *overhead) {
    return {VerdictKind::kLaunchBound, std::min(1.0, *overhead / mean_ns),
            fmt::format("{} launch{} of {} on average; the launch overhead alone is {} "
                        "(timing.launch_overhead_ns): {:.0f}% of each launch (threshold: "
                        "mean duration <= {} x overhead)",
                        g.launches, g.launches == 1 ? "" : "es", fmt_ns(mean_ns), fmt_ns(*overhead),
                        100.0 * *overhead / mean_ns, kLaunchBoundFactor),
            "give each launch more work (a grid-stride loop over more elements, or fuse this "
            "kernel with its neighbours); capture repeated launch sequences in a CUDA graph"};
  }
  const auto sm = get(m, "sm__throughput.avg.pct_of_peak_sustained_elapsed");
  const auto dram = get(m, "dram__throughput.avg.pct_of_peak_sustained_elapsed");
  const auto l2 = get(m, "lts__throughput.avg.pct_of_peak_sustained_elapsed");
  if (!sm && !dram && !l2) {
    *have = false;
    return {};
  }
  const double sm_pct = sm.value_or(0);
  const double mem_pct = std::max(dram.value_or(0), l2.value_or(0));
  const std::string units = fmt::format("SM throughput {:.1f}%, DRAM {:.1f}%, L2 {:.1f}% of peak",
                                        sm_pct, dram.value_or(0), l2.value_or(0));
  if (std::max(sm_pct, mem_pct) >= kBoundPct && mem_pct >= sm_pct) {
    const bool is_dram = dram.value_or(0) >= l2.value_or(0);
    std::string evidence;
    if (is_dram) {
      evidence = fmt::format("DRAM throughput {:.1f}% of peak", *dram);
      const auto rate = get(m, "dram__bytes.sum.per_second");
      const auto peak = dram_peak(cfg);
      if (rate && peak) evidence += fmt::format(" ({} of {})", fmt_rate(*rate), fmt_rate(*peak));
      const auto rd = get(m, "dram__bytes_read.sum");
      const auto wr = get(m, "dram__bytes_write.sum");
      if (rd && wr) evidence += fmt::format("; read {}, wrote {}", fmt_bytes(*rd), fmt_bytes(*wr));
    } else {
      evidence = fmt::format("L2 throughput {:.1f}% of peak", *l2);
      if (const auto hit = get(m, "lts__t_sector_hit_rate.pct"))
        evidence += fmt::format(" (L2 hit rate {:.1f}%)", *hit);
    }
    evidence += fmt::format("; {} (threshold {:.0f}%)", units, kBoundPct);
    return {VerdictKind::kMemoryBound, mem_pct / 100.0, evidence,
            is_dram ? "move fewer bytes: fuse this kernel with its producer or consumer, keep "
                      "reused data in shared memory or registers, use narrower types (FP16, "
                      "BF16, INT8); at this throughput the kernel runs at DRAM speed"
                    : "improve locality: tile the accesses so that data is reused from L1 or "
                      "shared memory instead of L2"};
  }
  if (sm_pct >= kBoundPct) {
    // The busiest of the pipes, or issue itself.
    std::string unit = "instruction issue";
    std::string suggestion =
        "issue is saturated: execute fewer instructions (unroll loops, hoist invariant "
        "work, vectorise memory accesses)";
    double best = get(m, "smsp__issue_active.avg.pct_of_peak_sustained_elapsed").value_or(0);
    for (const PipeAdvice& p : kPipeAdvice) {
      const auto v = get(m, p.metric);
      if (v && *v > best) {
        best = *v;
        unit = fmt::format("the {} pipe", p.pipe);
        suggestion = p.suggestion;
      }
    }
    return {VerdictKind::kComputeBound, sm_pct / 100.0,
            fmt::format("busiest unit: {} at {:.1f}% of peak; {} (threshold {:.0f}%)", unit, best,
                        units, kBoundPct),
            suggestion};
  }
  // Neither bounds it: latency.
  std::string evidence = fmt::format("no unit reaches {:.0f}% of its peak: {}", kBoundPct, units);
  std::string suggestion =
      "hide latency: more resident warps (occupancy) and more independent work per thread "
      "(unroll, several loads in flight before their first use)";
  const auto waves = get(m, "launch__waves_per_multiprocessor");
  if (waves && *waves < 1.0) {
    evidence += fmt::format(
        "; the grid fills {:.0f}% of one wave of the SMs' block slots "
        "(launch__waves_per_multiprocessor {:.2f})",
        100.0 * *waves, *waves);
    suggestion =
        "launch more blocks (the grid leaves SMs or block slots idle), or more "
        "threads per block";
  }
  double top = 0;
  const StallAdvice* top_reason = nullptr;
  for (const StallAdvice& r : kStallReasons) {
    const auto v = get(m, fmt::format("smsp__warp_issue_stalled_{}_per_warp_active.pct", r.reason));
    if (v && *v > top) top = *v, top_reason = &r;
  }
  if (top_reason != nullptr) {
    evidence +=
        fmt::format("; warps spent {:.1f}% of their active cycles {}", top, top_reason->meaning);
    if (!(waves && *waves < 1.0)) suggestion = top_reason->suggestion;
  }
  if (const auto achieved = get(m, "sm__warps_active.avg.pct_of_peak_sustained_active"))
    evidence += fmt::format("; achieved occupancy {:.1f}%", *achieved);
  const auto lat = get(g.counters, "latency_cycles");
  const auto cycles = get(g.counters, "model_cycles");
  // The fast model's decomposition; under the detailed model the stalls above say it.
  if (lat && cycles && *cycles > 0 && !get(g.counters, "detailed_cycles"))
    evidence += fmt::format("; unhidden memory latency is {:.0f} of the model's {:.0f} cycles",
                            *lat, *cycles);
  return {VerdictKind::kLatencyBound, 1.0 - std::max(sm_pct, mem_pct) / 100.0, evidence,
          suggestion};
}

std::optional<Verdict> occupancy_verdict(const KernelGroup& g) {
  const auto theo = get(g.metrics, "sm__maximum_warps_per_active_cycle_pct");
  if (!theo || *theo >= kOccupancyLimitedPct) return std::nullopt;
  // The binding limit: the counters' limiter, else the smallest limit metric.
  static constexpr const char* kLimits[] = {"blocks", "warps", "registers", "shared_mem"};
  std::string limiter;
  if (const auto l = get(g.counters, "occupancy_limiter"); l && *l >= 1 && *l <= 4)
    limiter = kLimits[static_cast<int>(*l) - 1];
  std::string limits;
  double smallest = 1e300;
  for (const char* name : kLimits) {
    const auto v = get(g.metrics, fmt::format("launch__occupancy_limit_{}", name));
    if (!v) continue;
    limits += fmt::format("{}{} {:.0f}", limits.empty() ? "" : ", ", name, *v);
    if (*v < smallest && limiter.empty()) smallest = *v;
  }
  if (limiter.empty()) {
    for (const char* name : kLimits) {
      const auto v = get(g.metrics, fmt::format("launch__occupancy_limit_{}", name));
      if (v && *v == smallest) {
        limiter = name;
        break;
      }
    }
  }
  if (limiter.empty()) limiter = "unknown";
  std::string evidence =
      fmt::format("theoretical occupancy {:.1f}% (threshold {:.0f}%), limited by {}", *theo,
                  kOccupancyLimitedPct, limiter);
  if (!limits.empty()) evidence += fmt::format("; blocks per SM allowed by: {}", limits);
  if (const auto r = get(g.metrics, "launch__registers_per_thread"); r && limiter == "registers")
    evidence += fmt::format("; {:.0f} registers per thread", *r);
  if (const auto b = get(g.metrics, "launch__block_size"))
    evidence += fmt::format("; {:.0f} threads per block", *b);
  if (const auto a = get(g.metrics, "sm__warps_active.avg.pct_of_peak_sustained_active"))
    evidence += fmt::format("; achieved occupancy {:.1f}%", *a);
  std::string suggestion;
  if (limiter == "registers")
    suggestion =
        "use fewer registers per thread: __launch_bounds__(threads, minBlocks) or "
        "-maxrregcount, or keep fewer values live across the loop";
  else if (limiter == "shared_mem")
    suggestion =
        "use less shared memory per block (smaller tiles, or reuse one buffer), or "
        "opt in to the larger carve-out";
  else if (limiter == "blocks")
    suggestion = "use larger blocks: the SM's block slots run out before its warp slots";
  else
    suggestion = "choose a block size that divides the SM's thread limit";
  return Verdict{VerdictKind::kOccupancyLimited, 1.0 - *theo / 100.0, evidence, suggestion};
}

std::optional<Verdict> coalescing_verdict(const KernelGroup& g) {
  // Sectors moved against the bytes the threads asked for (any access width); databases
  // without that metric fall back to sectors per request against 4-byte accesses.
  std::string evidence;
  double worst = 0;
  for (const auto& [op, what] : {std::pair{"ld", "loads"}, std::pair{"st", "stores"}}) {
    const auto spr = get(g.metrics, fmt::format("l1tex__average_t_sectors_per_request_pipe_lsu_mem_"
                                                "global_op_{}.ratio",
                                                op));
    const auto req =
        get(g.metrics, fmt::format("l1tex__t_requests_pipe_lsu_mem_global_op_{}.sum", op));
    const auto sec =
        get(g.metrics, fmt::format("l1tex__t_sectors_pipe_lsu_mem_global_op_{}.sum", op));
    const auto used = get(g.metrics, fmt::format("smsp__sass_average_data_bytes_per_sector_mem_"
                                                 "global_op_{}.pct",
                                                 op));
    if (!spr || !req || *req == 0) continue;
    if (used) {
      if (*used >= 100.0 / kUncoalescedFactor) continue;
      worst = std::max(worst, 1.0 - *used / 100.0);
      evidence += fmt::format(
          "{}global {}: {:.1f}% of the bytes moved were requested ({:.1f} sectors per request, "
          "{:.0f} sectors / {:.0f} requests)",
          evidence.empty() ? "" : "; ", what, *used, *spr, sec.value_or(0), *req);
      continue;
    }
    const double limit = kIdealSectorsPerRequest * kUncoalescedFactor;
    if (*spr <= limit) continue;
    worst = std::max(worst, 1.0 - kIdealSectorsPerRequest / *spr);
    evidence += fmt::format(
        "{}global {}: {:.1f} sectors per request ({:.0f} sectors / {:.0f} requests; ideal "
        "{:.0f} for 4-byte accesses by a full warp)",
        evidence.empty() ? "" : "; ", what, *spr, sec.value_or(0), *req, kIdealSectorsPerRequest);
  }
  if (evidence.empty()) return std::nullopt;
  evidence += fmt::format("; threshold: less than {:.0f}% of the bytes moved used",
                          100.0 / kUncoalescedFactor);
  return Verdict{VerdictKind::kUncoalesced, worst, evidence,
                 "make consecutive threads access consecutive addresses: index with "
                 "threadIdx.x in the fastest-moving dimension, use a structure of arrays, or "
                 "stage strided accesses through shared memory"};
}

std::optional<Verdict> bank_verdict(const KernelGroup& g) {
  const auto conflicts = get(g.metrics, "l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum");
  const auto wavefronts = get(g.metrics, "l1tex__data_pipe_lsu_wavefronts_mem_shared.sum");
  if (!conflicts || !wavefronts || *wavefronts <= 0) return std::nullopt;
  const double share = *conflicts / *wavefronts;
  if (share < kBankConflictShare) return std::nullopt;
  std::string evidence = fmt::format(
      "{:.0f} of {:.0f} shared-memory wavefronts ({:.1f}%) are bank conflicts (threshold "
      "{:.0f}%)",
      *conflicts, *wavefronts, 100.0 * share, 100.0 * kBankConflictShare);
  if (const auto req = get(g.metrics, "smsp__sass_inst_executed_op_shared.sum"); req && *req > 0)
    evidence += fmt::format("; {:.1f} wavefronts per shared instruction", *wavefronts / *req);
  return Verdict{VerdictKind::kBankConflicts, share, evidence,
                 "pad shared arrays so that a warp's column accesses fall in different banks "
                 "(e.g. float tile[32][33] instead of [32][32]), or swizzle the index"};
}

std::optional<Verdict> divergence_verdict(const KernelGroup& g) {
  const auto ratio = get(g.metrics, "smsp__thread_inst_executed_per_inst_executed.ratio");
  if (!ratio || *ratio <= 0 || *ratio >= 32.0 * (1.0 - kDivergenceMargin)) return std::nullopt;
  std::string evidence =
      fmt::format("{:.1f} active threads per warp instruction on average, of 32 (threshold {:.1f})",
                  *ratio, 32.0 * (1.0 - kDivergenceMargin));
  const auto block = get(g.metrics, "launch__block_size");
  if (block && std::fmod(*block, 32.0) != 0)
    evidence +=
        fmt::format("; blocks of {:.0f} threads leave their last warp partly empty", *block);
  return Verdict{VerdictKind::kDivergence, 1.0 - *ratio / 32.0, evidence,
                 "make whole warps take the same path: branch on warp-uniform values, sort or "
                 "bin the work so that neighbouring threads do the same thing, use block sizes "
                 "that are multiples of 32"};
}

// The line with the largest score (> 0), or null.
template <typename F>
const SourceLine* top_line(const std::vector<SourceLine>& lines, F&& score) {
  const SourceLine* best = nullptr;
  double best_score = 0;
  for (const SourceLine& s : lines) {
    const double v = score(s);
    if (v > best_score) best = &s, best_score = v;
  }
  return best;
}

std::string line_name(const SourceLine& s) {
  return s.ptx ? fmt::format("{} PTX line {}", s.file, s.line) : fmt::format("{}:{}", s.file, s.line);
}

double share_pct(double part, double whole) {
  return whole > 0 ? 100.0 * part / whole : 0.0;
}

// Verdict::where for a kernel verdict (advise.h, "Source lines").
std::string where_for(VerdictKind kind, const std::vector<SourceLine>& lines) {
  double total = 0;
  const SourceLine* s = nullptr;
  switch (kind) {
    case VerdictKind::kUncoalesced: {
      const auto excess = [](const SourceLine& l) {
        return static_cast<double>(l.global_sectors) - static_cast<double>(l.global_bytes) / 32.0;
      };
      for (const SourceLine& l : lines) total += std::max(0.0, excess(l));
      if ((s = top_line(lines, excess)) == nullptr) return "";
      return fmt::format(
          "{}: {} global sectors in {} requests ({:.2f} per request) for {} requested, {:.1f}% "
          "of the bytes moved used; {:.0f}% of the kernel's excess sectors",
          line_name(*s), s->global_sectors, s->global_requests,
          s->global_requests ? static_cast<double>(s->global_sectors) / s->global_requests : 0.0,
          fmt_bytes(static_cast<double>(s->global_bytes)),
          share_pct(static_cast<double>(s->global_bytes), 32.0 * s->global_sectors),
          share_pct(excess(*s), total));
    }
    case VerdictKind::kBankConflicts: {
      const auto conflicts = [](const SourceLine& l) {
        return static_cast<double>(l.shared_bank_conflicts);
      };
      for (const SourceLine& l : lines) total += conflicts(l);
      if ((s = top_line(lines, conflicts)) == nullptr) return "";
      return fmt::format(
          "{}: {} bank conflicts in {} shared requests ({} wavefronts); {:.0f}% of the kernel's "
          "conflicts",
          line_name(*s), s->shared_bank_conflicts, s->shared_requests, s->shared_wavefronts,
          share_pct(conflicts(*s), total));
    }
    case VerdictKind::kDivergence: {
      const auto idle = [](const SourceLine& l) {
        return 32.0 * static_cast<double>(l.warp_instructions) -
               static_cast<double>(l.thread_instructions);
      };
      for (const SourceLine& l : lines) total += std::max(0.0, idle(l));
      if ((s = top_line(lines, idle)) == nullptr) return "";
      return fmt::format(
          "{}: {:.1f} active threads per warp instruction over {} warp instructions; {:.0f}% of "
          "the kernel's idle lanes",
          line_name(*s),
          s->warp_instructions ? static_cast<double>(s->thread_instructions) / s->warp_instructions
                               : 0.0,
          s->warp_instructions, share_pct(idle(*s), total));
    }
    case VerdictKind::kMemoryBound: {
      const auto sectors = [](const SourceLine& l) {
        return static_cast<double>(l.global_sectors + l.local_sectors);
      };
      for (const SourceLine& l : lines) total += sectors(l);
      if ((s = top_line(lines, sectors)) == nullptr) return "";
      return fmt::format("{}: {} global and local sectors; {:.0f}% of the kernel's", line_name(*s),
                         s->global_sectors + s->local_sectors, share_pct(sectors(*s), total));
    }
    case VerdictKind::kComputeBound:
    case VerdictKind::kLatencyBound: {
      const auto warps = [](const SourceLine& l) { return static_cast<double>(l.warp_instructions); };
      for (const SourceLine& l : lines) total += warps(l);
      if ((s = top_line(lines, warps)) == nullptr) return "";
      return fmt::format("{}: {} warp instructions; {:.0f}% of the kernel's", line_name(*s),
                         s->warp_instructions, share_pct(warps(*s), total));
    }
    default:
      return "";
  }
}

}  // namespace

const char* verdict_name(VerdictKind kind) {
  switch (kind) {
    case VerdictKind::kLaunchBound:
      return "launch-bound";
    case VerdictKind::kMemoryBound:
      return "memory-bound";
    case VerdictKind::kComputeBound:
      return "compute-bound";
    case VerdictKind::kLatencyBound:
      return "latency-bound";
    case VerdictKind::kOccupancyLimited:
      return "occupancy-limited";
    case VerdictKind::kUncoalesced:
      return "uncoalesced";
    case VerdictKind::kBankConflicts:
      return "bank-conflicts";
    case VerdictKind::kDivergence:
      return "divergence";
    case VerdictKind::kTransferBound:
      return "transfer-bound";
    case VerdictKind::kSerialisedStreams:
      return "serialised-streams";
  }
  return "unknown";
}

std::vector<Verdict> advise_kernel(const KernelGroup& group, const DeviceConfig& config) {
  std::vector<Verdict> out;
  if (group.metrics.empty()) return out;
  bool have = false;
  Verdict primary = primary_verdict(group, config, &have);
  std::vector<Verdict> secondary;
  for (auto v : {occupancy_verdict(group), coalescing_verdict(group), bank_verdict(group),
                 divergence_verdict(group)})
    if (v) secondary.push_back(std::move(*v));
  std::stable_sort(secondary.begin(), secondary.end(),
                   [](const Verdict& a, const Verdict& b) { return a.severity > b.severity; });
  if (have) out.push_back(std::move(primary));
  for (auto& v : secondary) out.push_back(std::move(v));
  for (Verdict& v : out) v.where = where_for(v.kind, group.source);
  return out;
}

std::vector<Verdict> advise_program(const std::vector<StreamWork>& work,
                                    const DeviceConfig& config) {
  std::vector<Verdict> out;
  double kernel_ns = 0, copy_ns = 0, copy_bytes = 0;
  uint64_t copies = 0;
  for (const StreamWork& w : work) {
    const double d = w.end > w.start ? static_cast<double>(w.end - w.start) : 0.0;
    if (w.kind == StreamWork::Kind::kMemcpy)
      copy_ns += d, copy_bytes += static_cast<double>(w.bytes), ++copies;
    else if (w.kind == StreamWork::Kind::kKernel)
      kernel_ns += d;
  }
  if (copy_ns > 0 && copy_ns >= kTransferBoundRatio * kernel_ns) {
    std::string evidence = fmt::format(
        "{} copies moved {} in {} ({}), while kernels ran {} (threshold: copy time >= {:.1f} x "
        "kernel time)",
        copies, fmt_bytes(copy_bytes), fmt_ns(copy_ns), fmt_rate(copy_bytes / (copy_ns * 1e-9)),
        fmt_ns(kernel_ns), kTransferBoundRatio);
    if (const auto link = get(config, "link.host_link_bytes_per_second"))
      evidence += fmt::format("; host link peak {}", fmt_rate(*link));
    out.push_back({VerdictKind::kTransferBound, copy_ns / (copy_ns + kernel_ns), evidence,
                   "keep data on the device between kernels, batch small copies into large "
                   "ones, and overlap copies with kernels (pinned host memory, cudaMemcpyAsync "
                   "on a second stream)"});
  }
  // Serialised streams, per process and device.
  std::map<std::pair<uint64_t, uint32_t>, std::vector<const StreamWork*>> by_device;
  for (const StreamWork& w : work) by_device[{w.pid, w.device_id}].push_back(&w);
  for (auto& [key, items] : by_device) {
    std::map<uint64_t, double> busy;
    for (const StreamWork* w : items) busy[w->stream_id] += static_cast<double>(w->end - w->start);
    if (busy.size() < 2) continue;
    std::sort(items.begin(), items.end(),
              [](const StreamWork* a, const StreamWork* b) { return a->start < b->start; });
    // Sweep: the interval reaching furthest so far; another stream's work starting before
    // its end overlaps it.
    bool overlap = false;
    const StreamWork* reach = nullptr;
    for (const StreamWork* w : items) {
      if (reach != nullptr && w->start < reach->end && w->stream_id != reach->stream_id) {
        overlap = true;
        break;
      }
      if (reach == nullptr || w->end > reach->end) reach = w;
    }
    if (overlap) continue;
    double total = 0, largest = 0;
    std::string streams;
    for (const auto& [id, ns] : busy) {
      total += ns, largest = std::max(largest, ns);
      streams += fmt::format("{}stream {} busy {}", streams.empty() ? "" : ", ", id, fmt_ns(ns));
    }
    out.push_back({VerdictKind::kSerialisedStreams, total > 0 ? (total - largest) / total : 0,
                   fmt::format("device {}: {} streams carried work ({}) and no two of them ever "
                               "overlapped",
                               key.second, busy.size(), streams),
                   "let the streams run concurrently: create them with cudaStreamNonBlocking "
                   "(work on the legacy default stream serialises with every stream), replace "
                   "cudaDeviceSynchronize between them by cudaStreamWaitEvent, and use pinned "
                   "host memory for asynchronous copies"});
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const Verdict& a, const Verdict& b) { return a.severity > b.severity; });
  return out;
}

std::string format_advice(const Advice& advice) {
  std::string out;
  auto session = [&](const char* key) {
    auto it = advice.session.find(key);
    return it == advice.session.end() ? std::string("unknown") : it->second;
  };
  out += fmt::format("Strata advisor: timing mode {}, arch {}\n", session("timing_mode"),
                     session("arch"));
  if (!advice.has_metrics)
    out +=
        "note: the database has no STRATA_KERNEL_METRICS rows; profile with "
        "`strata prof --metrics` for per-kernel verdicts\n";
  int index = 0;
  for (const KernelAdvice& k : advice.kernels) {
    const KernelGroup& g = k.group;
    out +=
        fmt::format("\nKernel {}: {}\n  {} launch{}, total {} ({:.1f}% of kernel time), mean {}\n",
                    ++index, g.name, g.launches, g.launches == 1 ? "" : "es",
                    fmt_ns(static_cast<double>(g.total_ns)), 100.0 * k.time_share,
                    fmt_ns(g.launches ? static_cast<double>(g.total_ns) / g.launches : 0.0));
    if (k.verdicts.empty()) out += "  no verdict: no metrics for this kernel\n";
    int rank = 0;
    for (const Verdict& v : k.verdicts) {
      out += fmt::format("  {}. [{}] {}\n", ++rank, verdict_name(v.kind), v.evidence);
      if (!v.where.empty()) out += fmt::format("     at: {}\n", v.where);
      out += fmt::format("     suggestion: {}\n", v.suggestion);
    }
  }
  out += "\nProgram:\n";
  if (advice.program.empty()) out += "  no program-level verdict\n";
  int rank = 0;
  for (const Verdict& v : advice.program) {
    out += fmt::format("  {}. [{}] {}\n     suggestion: {}\n", ++rank, verdict_name(v.kind),
                       v.evidence, v.suggestion);
  }
  return out;
}

}  // namespace strata::prof
