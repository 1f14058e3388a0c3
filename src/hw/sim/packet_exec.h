// Execution of one channel packet (hw/contract/packets.h) by the command processor.
// Called on the command-processor thread only, with no lock held.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <tuple>

#include "hw/config/arch_config.h"
#include "hw/contract/packets.h"
#include "hw/sim/fault_fifo.h"
#include "hw/sim/report.h"
#include "hw/sim/memory.h"
#include "hw/sim/timeline.h"

namespace strata::hw::perf {
class CacheState;  // hw/perf/cache.h
class SectorCache;
}  // namespace strata::hw::perf

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
  uint32_t priority = 0;  // CH_PRIORITY
  const PageWalker* walker = nullptr;
  const ArchConfig* config = nullptr;
  Timeline* timeline = nullptr;   // modeled times (timeline.h)
  const uint8_t* vram = nullptr;  // this device's VRAM (copies: which memory a page is in)
  uint64_t vram_size = 0;
  ProgramCache* programs = nullptr;
  perf::CacheState* caches = nullptr;  // the device's L2 contents, kept from grid to grid
  perf::SectorCache* detailed_l2 = nullptr;  // the detailed model's L2 share, kept likewise
  uint64_t shared_window = 0;
  uint64_t local_window = 0;
  ReportState* report_state = nullptr;  // the channel's (kReport arms it)
  // The work report of the packet being executed, when the channel reports: launches,
  // copies and fills fill in their times (and a launch its counters, when asked).
  WorkReport* report = nullptr;
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

// Executes the packet `op` with `dwords` payload dwords and header `flags`. A payload
// whose size does not match the op's struct, or an unknown op, is a kBadPacket fault.
// kSemAcquire whose condition does not hold yet returns kBlocked (retry later; nothing
// was changed). Each command's modeled times go to ctx.timeline.
PacketOutcome execute_packet(const PacketContext& ctx, PacketOp op, const uint32_t* payload,
                             uint32_t dwords, uint8_t flags = 0);

// Which memory the page holding `va` lives in, for the copy models: this device's VRAM
// (kDevice), another simulated device's VRAM or a copy-only (kPteCopyOnly) mapping
// (kPeer), or system memory (kHost).
perf::MemoryKind memory_kind(const PacketContext& ctx, uint64_t va);

// The VRAM of every simulated device in the process (each command processor registers
// its own), so that memory_kind can tell peer memory from system memory. Thread-safe.
void register_device_memory(const uint8_t* base, uint64_t size);
void unregister_device_memory(const uint8_t* base);

// kLaunch (launch.cc): validates the packet against the config, fetches and decodes the
// code through the page tables (cached), runs the grid and schedules it on the timeline; then runs
// the grids it launched from the device (device_launch.h) before completing.
PacketOutcome execute_launch(const PacketContext& ctx, const LaunchPacket& packet);

// The grid alone (launch.cc), without the grids it launches from the device: what
// execute_launch and device_launch.cc run for each grid.
PacketOutcome run_grid(const PacketContext& ctx, const LaunchPacket& packet);

}  // namespace strata::hw::sim
