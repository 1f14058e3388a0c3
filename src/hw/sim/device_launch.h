// Device-side launches (CUDA dynamic parallelism) in the command processor: after a
// grid's CTAs have finished, run the grids it published in its launch queue, each with
// its own descendants, in the order of hw/contract/device_launch.h. Command-processor
// thread only.
#pragma once

#include <cstdint>

#include "hw/contract/packets.h"
#include "hw/sim/packet_exec.h"

namespace strata::hw::sim {

// The launch queue VA the packet's c[3] names, or 0 (no bank, bank too short, or 0).
uint64_t launch_queue_of(const PacketContext& ctx, const LaunchPacket& packet);

// Prepares the queue for a grid launched by a packet: empty, depth 0, nothing pending.
PacketOutcome reset_launch_queue(const PacketContext& ctx, uint64_t queue_va);

// Runs every grid that `parent` (at nesting `depth`, whose records start at byte
// `start` of the record space) published, and their descendants. `pending_outside`:
// launches waiting elsewhere in the tree. Returns the first fault, if any.
PacketOutcome run_device_launches(const PacketContext& ctx, const LaunchPacket& parent,
                                  uint64_t queue_va, uint32_t depth, uint64_t start,
                                  uint32_t pending_outside);

}  // namespace strata::hw::sim
