#include "hw/sim/sm/trace_hook.h"

#include "hw/sim/sm/program.h"
#include "isa/encode.h"

namespace strata::hw::sim {

std::unique_ptr<perf::TraceRecorder> make_trace_recorder(const GridLaunch& launch) {
  perf::KernelTrace header;
  const LaunchPacket& p = *launch.packet;
  header.sm_count =
      launch.config->sm_count > 0 ? static_cast<uint32_t>(launch.config->sm_count) : 1;
  header.threads_per_cta = p.block[0] * p.block[1] * p.block[2];
  header.warps_per_cta = (header.threads_per_cta + 31) / 32;
  header.regs_per_thread = p.regs_per_thread;
  header.shared_bytes_per_cta = p.shared_bytes;
  header.total_ctas = static_cast<uint64_t>(p.grid[0]) * p.grid[1] * p.grid[2];
  const Program& program = *launch.program;
  header.code.resize(static_cast<size_t>(program.size()) * isa::kInstBytes);
  for (uint32_t pc = 0; pc < program.size(); ++pc) {
    const isa::Word w = isa::encode(program.code()[pc].inst);
    for (int i = 0; i < 8; ++i) {
      header.code[16 * pc + i] = static_cast<uint8_t>(w.lo >> (8 * i));
      header.code[16 * pc + 8 + i] = static_cast<uint8_t>(w.hi >> (8 * i));
    }
  }
  return std::make_unique<perf::TraceRecorder>(std::move(header));
}

FaultRecord execute_grid_traced(const GridLaunch& launch, GridStats* stats,
                                perf::KernelTrace* trace) {
  if (launch.packet == nullptr || launch.program == nullptr || launch.config == nullptr) {
    *trace = perf::KernelTrace{};
    return execute_grid(launch, stats);  // rejects the launch
  }
  const std::unique_ptr<perf::TraceRecorder> recorder = make_trace_recorder(launch);
  GridLaunch l = launch;
  l.trace = recorder.get();
  const FaultRecord fault = execute_grid(l, stats);
  *trace = recorder->finish();
  return fault;
}

void trace_issue(ExecContext& ctx, uint32_t exec) {
  if (ctx.cta->sm != 0) return;
  if (ctx.trace_warp == nullptr)
    ctx.trace_warp = ctx.worker->trace->warp(ctx.cta->linear, ctx.warp->index);
  ctx.trace_warp->issues.push_back({ctx.pc - 1, ctx.group, exec});
}

void trace_memory(ExecContext& ctx, AccessKind kind, const uint64_t* sectors, uint32_t count) {
  perf::WarpTrace* w = ctx.trace_warp;
  if (w == nullptr || ctx.cta->sm != 0 || w->issues.empty()) return;
  const uint32_t issue = static_cast<uint32_t>(w->issues.size() - 1);
  w->accesses.push_back({issue, static_cast<perf::TraceAccessKind>(kind),
                         static_cast<uint32_t>(w->sectors.size()), count});
  w->sectors.insert(w->sectors.end(), sectors, sectors + count);
}

void trace_shared(ExecContext& ctx, uint32_t wavefronts) {
  perf::WarpTrace* w = ctx.trace_warp;
  if (w == nullptr || ctx.cta->sm != 0 || w->issues.empty()) return;
  w->accesses.push_back(
      {static_cast<uint32_t>(w->issues.size() - 1), perf::TraceAccessKind::kShared, 0, wavefronts});
}

static_assert(
    static_cast<int>(AccessKind::kLoad) == static_cast<int>(perf::TraceAccessKind::kLoad) &&
        static_cast<int>(AccessKind::kStore) == static_cast<int>(perf::TraceAccessKind::kStore) &&
        static_cast<int>(AccessKind::kAtomic) == static_cast<int>(perf::TraceAccessKind::kAtomic) &&
        static_cast<int>(AccessKind::kLocalLoad) ==
            static_cast<int>(perf::TraceAccessKind::kLocalLoad) &&
        static_cast<int>(AccessKind::kLocalStore) ==
            static_cast<int>(perf::TraceAccessKind::kLocalStore) &&
        static_cast<int>(AccessKind::kTexture) ==
            static_cast<int>(perf::TraceAccessKind::kTexture) &&
        static_cast<int>(AccessKind::kLoadL2) == static_cast<int>(perf::TraceAccessKind::kLoadL2),
    "perf::TraceAccessKind mirrors AccessKind");

}  // namespace strata::hw::sim
