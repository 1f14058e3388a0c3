// Built only while the SM core (hw/sim/sm, target strata_hw_sm) is absent from the
// tree: a launch then faults with kIllegalInstruction, and says why in the log.
#include "base/log.h"
#include "hw/sim/packet_exec.h"

namespace strata::hw::sim {

PacketOutcome execute_launch(const PacketContext& ctx, const LaunchPacket& packet) {
  STRATA_LOG_ERROR("channel {}: kernel {} cannot run: this build has no SM core (strata_hw_sm)",
                   ctx.channel, packet.kernel_id);
  PacketOutcome o =
      PacketOutcome::fault_at(ctx.channel, FaultKind::kIllegalInstruction, packet.code_va);
  o.fault.kernel_id = packet.kernel_id;
  return o;
}

}  // namespace strata::hw::sim
