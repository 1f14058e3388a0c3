// Execution of one channel packet (hw/contract/packets.h) by the command processor.
// Called on the command-processor thread only, with no lock held.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include "hw/config/arch_config.h"
#include "hw/contract/packets.h"
#include "hw/sim/device_clock.h"
#include "hw/sim/fault_fifo.h"
#include "hw/sim/memory.h"

namespace strata::hw::sim {

class Program;

// Decoded programs keyed by (address-space id, code VA, code size). Command-processor
// thread only (not thread-safe). The KMD must invalidate (kIcacheInvalidate) after
// rewriting or remapping code; stale entries are otherwise reused, as an icache would.
class ProgramCache {
 public:
  std::shared_ptr<const Program> find(uint32_t asid, uint64_t va, uint64_t size) const;
  void insert(uint32_t asid, uint64_t va, uint64_t size, std::shared_ptr<const Program> program);
  // Drops every program (any address space) overlapping [va, va + size).
  void invalidate(uint64_t va, uint64_t size);
  size_t size() const { return programs_.size(); }

 private:
  std::map<std::tuple<uint32_t, uint64_t, uint64_t>, std::shared_ptr<const Program>> programs_;
};

struct PacketContext {
  uint32_t channel = 0;
  uint32_t asid = 0;
  const PageWalker* walker = nullptr;
  const ArchConfig* config = nullptr;
  DeviceClock* clock = nullptr;
  ProgramCache* programs = nullptr;
  uint64_t shared_window = 0;
  uint64_t local_window = 0;
};

struct PacketOutcome {
  enum Kind { kDone, kBlocked, kFault };
  Kind kind = kDone;
  FaultEntry fault;  // kind == kFault (channel filled in)

  static PacketOutcome done() { return {}; }
  static PacketOutcome blocked() { return {kBlocked, {}}; }
  static PacketOutcome fault_at(uint32_t channel, FaultKind kind, uint64_t address) {
    PacketOutcome o{kFault, {}};
    o.fault.channel = channel;
    o.fault.kind = kind;
    o.fault.address = address;
    return o;
  }
};

// Executes the packet `op` with `dwords` payload dwords. A payload whose size does not
// match the op's struct, or an unknown op, is a kBadPacket fault. kSemAcquire whose
// condition does not hold yet returns kBlocked (retry later; nothing was changed).
PacketOutcome execute_packet(const PacketContext& ctx, PacketOp op, const uint32_t* payload,
                             uint32_t dwords);

// kLaunch (launch.cc): validates the packet against the config, fetches and decodes the
// code through the page tables (cached), runs the grid and advances the clock; then runs
// the grids it launched from the device (device_launch.h) before completing.
PacketOutcome execute_launch(const PacketContext& ctx, const LaunchPacket& packet);

// The grid alone (launch.cc), without the grids it launches from the device: what
// execute_launch and device_launch.cc run for each grid.
PacketOutcome run_grid(const PacketContext& ctx, const LaunchPacket& packet);

}  // namespace strata::hw::sim
