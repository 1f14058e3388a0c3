// SimGpu: the built-in simulator behind hw::create_sim_gpu (hw/contract/gpu.h). It
// decodes MMIO offsets (hw/contract/regs.def) onto its parts: the interrupt controller,
// the fault FIFO, the device clock and the command processor (which owns the channel
// and window registers). Unmapped offsets read 0 and ignore writes; writes to
// read-only registers are ignored. Thread-safe.
#pragma once

#include <atomic>
#include <memory>

#include "hw/config/arch_config.h"
#include "hw/contract/gpu.h"
#include "hw/sim/command_processor.h"
#include "hw/sim/device_clock.h"
#include "hw/sim/fault_fifo.h"
#include "hw/sim/interrupts.h"
#include "hw/sim/vram.h"

namespace strata::hw::sim {

inline constexpr uint32_t kContractRevision = 1;

class SimGpu final : public Gpu {
 public:
  // Fails if VRAM (config.vram_bytes) cannot be reserved.
  static StatusOr<std::unique_ptr<SimGpu>> create(const ArchConfig& config);
  ~SimGpu() override;

  uint32_t read_reg(uint32_t offset) override;
  void write_reg(uint32_t offset, uint32_t value) override;
  uint8_t* vram_base() override { return vram_->base(); }
  uint64_t vram_size() const override { return vram_->size(); }
  void set_interrupt_handler(std::function<void()> handler) override;

  DeviceClock& clock() { return clock_; }

 private:
  SimGpu(const ArchConfig& config, std::unique_ptr<Vram> vram);
  uint32_t read_fault_reg(uint32_t offset);

  const ArchConfig& config_;
  std::unique_ptr<Vram> vram_;
  DeviceClock clock_;
  FaultFifo faults_;
  Interrupts interrupts_;
  std::atomic<uint32_t> timer_hi_latch_{0};
  // Declared last: its thread uses the members above and stops first.
  std::unique_ptr<CommandProcessor> command_processor_;
};

}  // namespace strata::hw::sim
