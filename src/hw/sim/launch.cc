// kLaunch: validate, fetch and decode the code (cached), run the grid on the SMs, then
// the grids it launched from the device (device_launch.h).
#include <vector>

#include "base/log.h"
#include "hw/sim/copy_engine.h"
#include "hw/sim/device_launch.h"
#include "hw/sim/packet_exec.h"
#include "hw/sim/sm/exec.h"
#include "hw/sim/sm/hazard_check.h"

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
  return run_device_launches(ctx, packet, queue, /*depth=*/0, /*start=*/0, /*pending_outside=*/0);
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
  launch.shared_window = ctx.shared_window;
  launch.local_window = ctx.local_window;
  launch.start_time_ns = ctx.clock->now_ns();
  launch.check_hazards = hazard_check_from_environment();
  GridStats stats;
  const FaultRecord record = execute_grid(launch, &stats);
  // The grid's time is spent whether or not it faulted part-way.
  ctx.clock->advance(kernel_duration_ns(*ctx.config, stats.warp_instructions,
                                        stats.warp_instructions_per_sm));
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
