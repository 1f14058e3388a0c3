// kLaunch: validate, fetch and decode the code (cached), run the grid on the SMs, then
// the grids it launched from the device (device_launch.h).
#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "base/log.h"
#include "hw/sim/copy_engine.h"
#include "hw/sim/device_launch.h"
#include "hw/sim/packet_exec.h"
#include "hw/sim/sm/exec.h"
#include "hw/perf/detailed/model.h"
#include "hw/perf/detailed/params.h"
#include "hw/perf/detailed/sampled.h"
#include "hw/sim/sm/hazard_check.h"
#include "hw/sim/sm/trace_hook.h"
#include "hw/perf/replay.h"

namespace strata::hw::sim {
namespace {

constexpr uint64_t kMaxCodeBytes = 64ull << 20;
constexpr uint32_t kMaxNamedBarriers = 16;
constexpr uint32_t kMaxRegsPerThread = 255;

bool dims_ok(const uint32_t dims[3], int64_t max_x, int64_t max_y, int64_t max_z) {
  return dims[0] >= 1 && dims[1] >= 1 && dims[2] >= 1 && dims[0] <= max_x && dims[1] <= max_y &&
         dims[2] <= max_z;
}

// Hardware-level sanity of a launch: what the KMD/driver must already have checked.
bool launch_ok(const ArchConfig& c, const LaunchPacket& p) {
  if (p.code_size == 0 || p.code_size % 16 != 0 || p.code_size > kMaxCodeBytes) return false;
  if (!dims_ok(p.grid, c.max_grid_dim_x, c.max_grid_dim_y, c.max_grid_dim_z)) return false;
  if (!dims_ok(p.block, c.max_block_dim_x, c.max_block_dim_y, c.max_block_dim_z)) return false;
  const uint64_t threads = uint64_t{p.block[0]} * p.block[1] * p.block[2];
  if (threads > static_cast<uint64_t>(c.max_threads_per_block)) return false;
  if (p.shared_bytes > c.shared_bytes_per_block_optin || p.dynamic_shared_bytes > p.shared_bytes) {
    return false;
  }
  if (p.num_barriers > kMaxNamedBarriers || p.regs_per_thread > kMaxRegsPerThread) return false;
  for (const ConstBankBinding& bank : p.cbanks) {
    if (bank.va == 0 && bank.size != 0) return false;
    if (bank.size > static_cast<uint64_t>(c.const_bytes)) return false;
  }
  return true;
}

// STRATA_TIMING: `fast` (default), `detailed` or `sampled` (docs/perf-model.md). Read once.
enum class Timing { kFast, kDetailed, kSampled };
Timing timing_mode() {
  static const Timing timing = [] {
    const char* env = std::getenv("STRATA_TIMING");
    if (env == nullptr || *env == '\0' || std::string(env) == "fast") return Timing::kFast;
    if (std::string(env) == "detailed") return Timing::kDetailed;
    if (std::string(env) == "sampled") return Timing::kSampled;
    STRATA_LOG_WARN("STRATA_TIMING={}: unknown timing model (fast, detailed, sampled); using fast",
                    env);
    return Timing::kFast;
  }();
  return timing;
}

// STRATA_SAMPLE_ABOVE=N: under STRATA_TIMING=detailed, a grid whose SM 0 trace holds
// more than N warp instructions is sampled (hw/perf/detailed/sampled.h). Unset or 0:
// never. Read once.
uint64_t sample_threshold() {
  static const uint64_t threshold = [] {
    const char* env = std::getenv("STRATA_SAMPLE_ABOVE");
    return env == nullptr ? uint64_t{0} : std::strtoull(env, nullptr, 10);
  }();
  return threshold;
}

}  // namespace

PacketOutcome execute_launch(const PacketContext& ctx, const LaunchPacket& packet) {
  // Device-side launches: the grid's children (and theirs) run after its CTAs, before
  // the packet completes (hw/contract/device_launch.h).
  const uint64_t queue = launch_queue_of(ctx, packet);
  if (queue != 0) {
    PacketOutcome o = reset_launch_queue(ctx, queue);
    if (o.kind != PacketOutcome::kDone) return o;
  }
  PacketOutcome o = run_grid(ctx, packet);
  if (o.kind != PacketOutcome::kDone || queue == 0) return o;
  // The packet's report is its own grid's; the grids it launches report nothing.
  PacketContext children = ctx;
  children.report = nullptr;
  return run_device_launches(children, packet, queue, /*depth=*/0, /*start=*/0,
                             /*pending_outside=*/0);
}

PacketOutcome run_grid(const PacketContext& ctx, const LaunchPacket& packet) {
  if (!launch_ok(*ctx.config, packet)) {
    STRATA_LOG_DEBUG("channel {}: launch packet of kernel {} rejected", ctx.channel,
                     packet.kernel_id);
    PacketOutcome o = PacketOutcome::fault_at(ctx.channel, FaultKind::kBadPacket, packet.code_va);
    o.fault.kernel_id = packet.kernel_id;
    return o;
  }
  std::shared_ptr<const Program> program =
      ctx.programs->find(ctx.asid, packet.code_va, packet.code_size);
  if (program == nullptr) {
    std::vector<uint8_t> code(packet.code_size);
    DmaResult r = dma_read(*ctx.walker, packet.code_va, packet.code_size, code.data());
    if (!r.ok()) {
      PacketOutcome o = PacketOutcome::fault_at(ctx.channel, r.fault, r.address);
      o.fault.kernel_id = packet.kernel_id;
      return o;
    }
    program = decode_program(code.data(), code.size());
    if (program == nullptr) {
      PacketOutcome o =
          PacketOutcome::fault_at(ctx.channel, FaultKind::kIllegalInstruction, packet.code_va);
      o.fault.kernel_id = packet.kernel_id;
      return o;
    }
    ctx.programs->insert(ctx.asid, packet.code_va, packet.code_size, program);
  }

  GridLaunch launch;
  launch.packet = &packet;
  launch.program = program.get();
  launch.memory = ctx.walker;
  launch.config = ctx.config;
  launch.caches = ctx.caches;
  launch.shared_window = ctx.shared_window;
  launch.local_window = ctx.local_window;
  // %globaltimer: the earliest modeled start (before SM availability is known).
  launch.start_time_ns = ctx.timeline->kernel_earliest_start(ctx.channel, ctx.priority) +
                         static_cast<uint64_t>(std::max<int64_t>(ctx.config->launch_overhead_ns, 0));
  launch.check_hazards = hazard_check_from_environment();
  // kReportPcCounters (hw/contract/report.h): the grid's per-instruction counts.
  std::vector<PcCounters> pc_records;
  constexpr uint32_t kPcFlags = kReportCounters | kReportPcCounters;
  const bool pc_report = ctx.report != nullptr &&
                         (ctx.report_state->flags & kPcFlags) == kPcFlags &&
                         ctx.report_state->pc_capacity > 0;
  if (pc_report) launch.pc_counters = &pc_records;
  GridStats stats;
  // The detailed model replays SM 0's recorded warps cycle by cycle (hw/perf/detailed/).
  const Timing timing = timing_mode();
  const bool detailed = timing != Timing::kFast;
  perf::KernelTrace trace;
  // STRATA_RECORD_DIR: every kernel's trace and statistics go to a file (perf/replay.h).
  const bool recording = perf::record_dir() != nullptr;
  const FaultRecord record = detailed || recording ? execute_grid_traced(launch, &stats, &trace)
                                                   : execute_grid(launch, &stats);
  // The grid's time is spent whether or not it faulted part-way.
  perf::KernelStats& ks = stats.kernel;
  if (ks.warp_instructions == 0 && ks.sm_warp_instructions.empty()) {
    // Statistics the SM core did not fill in: the grid-level counts.
    ks.warp_instructions = stats.warp_instructions;
    ks.thread_instructions = stats.thread_instructions;
    ks.sm_warp_instructions = stats.warp_instructions_per_sm;
  }
  if (ks.ctas == 0) ks.ctas = uint64_t{packet.grid[0]} * packet.grid[1] * packet.grid[2];
  if (recording)
    perf::record_kernel(*ctx.config, ctx.timeline->device(), packet.kernel_id, packet.grid_id,
                        packet.grid, packet.block, ks, &trace);
  perf::KernelTime time;
  Timeline::Interval iv;
  std::optional<perf::DetailedResult> detailed_result;
  if (detailed) {
    perf::DetailedParams params = perf::detailed_params(*ctx.config);
    const bool sample =
        timing == Timing::kSampled || perf::should_sample(trace, sample_threshold());
    // A full replay keeps the device's detailed L2 warm from kernel to kernel; sampling
    // replays windows of the first wave repeatedly, so it starts from an empty L2.
    if (!sample) params.l2_state = ctx.detailed_l2;
    const perf::DetailedResult result = sample ? perf::model_kernel_sampled(params, trace, ks)
                                               : perf::model_kernel_detailed(params, trace, ks);
    if (sample) {
      STRATA_LOG_DEBUG(
          "kernel {}: sampled: {} of {} waves, {} of {} loop iterations simulated, x{:.2f}",
          packet.kernel_id, result.waves_simulated, result.waves_total,
          result.iterations_simulated, result.iterations_total, result.extrapolation);
    }
    STRATA_LOG_DEBUG("kernel {}: detailed model: {} cycles for {} CTAs on SM 0, achieved occupancy {:.3f}",
                     packet.kernel_id, result.cycles, result.ctas, result.achieved_occupancy);
    // The timeline's share is of the device's CTA slots; the detailed model wants the
    // fraction of the slots the grid can fill that it holds.
    const double slots = static_cast<double>(std::max<uint32_t>(ks.ctas_per_sm, 1)) *
                         static_cast<double>(std::max<int64_t>(ctx.config->sm_count, 1));
    const double want = std::min(1.0, static_cast<double>(std::max<uint64_t>(ks.ctas, 1)) / slots);
    const Timeline::KernelModel model = [&](double share) {
      return perf::detailed_kernel_time(result, params, std::min(1.0, share / want));
    };
    iv = ctx.timeline->kernel(ctx.channel, ks, &time, ctx.priority, &model);
    if (ctx.report != nullptr) detailed_result = result;
  } else {
    iv = ctx.timeline->kernel(ctx.channel, ks, &time, ctx.priority);
  }
  if (ctx.report != nullptr) {
    ctx.report->op = static_cast<uint32_t>(ReportOp::kLaunch);
    ctx.report->submit_ns = iv.submit_ns;
    ctx.report->start_ns = iv.start_ns;
    ctx.report->end_ns = iv.end_ns;
    ctx.report->grid_id = packet.grid_id;
    if ((ctx.report_state->flags & kReportCounters) != 0) {
      const ReportTiming mode = timing == Timing::kFast       ? ReportTiming::kFast
                                : timing == Timing::kDetailed ? ReportTiming::kDetailed
                                                              : ReportTiming::kSampled;
      fill_counters(ks, time, detailed_result ? &*detailed_result : nullptr, mode,
                    &ctx.report->counters);
    }
  }
  perf_log_kernel(*ctx.timeline, ctx.channel, packet, iv, time, ks);
  // The pc records before the report (the command processor stores it once the packet
  // is done); an unmapped record faults the channel unless the grid faulted first.
  uint64_t pc_fault_va = 0;
  const bool pc_stored = !pc_report || store_pc_counters(*ctx.walker, ctx.report_state, pc_records,
                                                         &ctx.report->counters, &pc_fault_va);
  if (record.kind == FaultKind::kNone && !pc_stored) {
    PacketOutcome o = PacketOutcome::fault_at(ctx.channel, FaultKind::kUnmapped, pc_fault_va);
    o.fault.kernel_id = packet.kernel_id;
    return o;
  }
  if (record.kind == FaultKind::kNone) return PacketOutcome::done();
  PacketOutcome o = PacketOutcome::fault_at(ctx.channel, record.kind, record.address);
  o.fault.pc = record.pc;
  o.fault.kernel_id = packet.kernel_id;
  for (int i = 0; i < 3; ++i) {
    o.fault.cta[i] = record.cta[i];
    o.fault.tid[i] = record.tid[i];
  }
  return o;
}

}  // namespace strata::hw::sim
