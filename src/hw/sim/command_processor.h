// The command processor: owns the per-channel registers (CH_*) and the shared/local
// window registers, and runs one thread that consumes packets from the channel rings.
//
// Ring protocol (docs/hw-contract.md): a ring is CH_RING_SIZE bytes (a power of two,
// at least 64) at VRAM physical address CH_RING_BASE (4 KiB aligned). The KMD writes
// packets at PUT, wrapping at the end of the ring, then writes CH_PUT (the doorbell).
// The command processor executes packets from GET in order, advancing GET after each
// completes; a packet may wrap around the end of the ring. Channels are interleaved
// one packet at a time, highest CH_PRIORITY level first: between packets, a runnable
// channel of a higher level always goes before any of a lower level; within a level the
// channel whose next packet was submitted first (its kHostTime, ties by channel index)
// goes first, so with one submitting host thread packets run in submission order
// whatever the wall-clock interleaving, and the modeled times, which depend on the order
// in which commands are placed, are reproducible. A packet in flight is never preempted.
// A channel waiting in kSemAcquire never blocks the others;
// waiting acquires are re-checked after any progress, any doorbell, and at least every
// kAcquirePollInterval (to notice semaphores written by the host).
//
// A fault (bad ring configuration, malformed packet, DMA or SM fault) pushes a record
// into the fault FIFO, sets CH_STATUS = 1 (the channel stops, GET stays at the faulting
// packet) and raises INTR_STATUS.fault. Writing CH_CTRL with bit 1 resets the channel.
//
// Modeled time: the command processor schedules every command on its Timeline
// (timeline.h), which advances `clock` to the latest modeled completion. Functional
// execution order is as above; only modeled times come from the timeline.
//
// Thread-safe: register reads/writes may come from any thread.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/perf/cache.h"
#include "hw/contract/regs.h"
#include "hw/sim/device_clock.h"
#include "hw/sim/fault_fifo.h"
#include "hw/sim/interrupts.h"
#include "hw/sim/packet_exec.h"
#include "hw/sim/timeline.h"

namespace strata::hw::sim {

class CommandProcessor {
 public:
  static constexpr uint32_t kNumChannels = 64;
  static constexpr uint32_t kMinRingBytes = 64;
  static constexpr std::chrono::microseconds kAcquirePollInterval{100};

  CommandProcessor(const ArchConfig& config, uint8_t* vram, uint64_t vram_size,
                   DeviceClock* clock, FaultFifo* faults, Interrupts* interrupts);
  ~CommandProcessor();  // stops the thread after the packet in flight

  // `reg` is one of REG_CH_*; `channel` < kNumChannels.
  uint32_t read_channel_reg(uint32_t channel, Reg reg);
  void write_channel_reg(uint32_t channel, Reg reg, uint32_t value);
  // REG_SHARED_WINDOW_* / REG_LOCAL_WINDOW_*.
  uint32_t read_window_reg(Reg reg);
  void write_window_reg(Reg reg, uint32_t value);

 private:
  struct Channel {
    uint64_t ring_base = 0;
    uint32_t ring_size = 0;
    uint32_t put = 0;
    uint32_t get = 0;
    uint64_t pt_base = 0;
    uint32_t ctrl = 0;
    uint32_t status = 0;
    uint32_t asid = 0;
    uint32_t priority = 0;    // CH_PRIORITY, 0..kMaxChannelPriority
    uint64_t generation = 0;  // bumped by reset: stale completions are discarded
  };
  enum class Step { kIdle, kProgress, kBlocked };

  void run();
  Step step(uint32_t index);
  // When the channel's next packet was submitted (host virtual time): the ns of a
  // kHostTime at its head, else the channel's current submit time. CP thread only.
  uint64_t head_submit_ns(uint32_t index, const Channel& c) const;
  void fault(uint32_t index, uint64_t generation, const FaultEntry& entry);

  const ArchConfig& config_;
  uint8_t* const vram_;
  const uint64_t vram_size_;
  DeviceClock* const clock_;
  FaultFifo* const faults_;
  Interrupts* const interrupts_;
  ProgramCache programs_;           // command-processor thread only
  perf::CacheState caches_{config_};  // the device's L2 (hw/perf/cache.h); command-processor thread only
  perf::SectorCache detailed_l2_;     // the detailed model's L2 share (hw/perf/detailed/params.h)
  Timeline timeline_;               // command-processor thread only (but latest_ns)
  uint64_t timeline_generation_[kNumChannels] = {};  // channel generation the timeline saw
  ReportState reports_[kNumChannels];  // kReport state; command-processor thread only
  std::vector<uint32_t> payload_;   // command-processor thread only

  std::mutex mu_;
  std::condition_variable wake_;
  Channel channels_[kNumChannels];
  uint64_t shared_window_ = 0;
  uint64_t local_window_ = 0;
  uint64_t doorbells_ = 0;  // incremented by every doorbell / control write
  bool stop_ = false;
  std::thread thread_;
};

}  // namespace strata::hw::sim
