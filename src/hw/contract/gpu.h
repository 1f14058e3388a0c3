// The hardware contract as a C++ interface: the narrow seam between the KMD and a
// GPU implementation (the built-in simulator today; an FPGA or silicon PCIe device
// later). Everything the KMD does to the GPU goes through these four calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

namespace strata::hw {

struct ArchConfig;

class Gpu {
 public:
  virtual ~Gpu() = default;

  // MMIO (BAR0). Thread-safe. Offsets and meanings: hw/contract/regs.def.
  virtual uint32_t read_reg(uint32_t offset) = 0;
  virtual void write_reg(uint32_t offset, uint32_t value) = 0;

  // The VRAM aperture (BAR1): VRAM physical address p is vram_base()[p]. The KMD writes
  // page tables and rings here; CPU mappings of device memory go through it. Lazily
  // committed: untouched pages cost no host memory.
  virtual uint8_t* vram_base() = 0;
  virtual uint64_t vram_size() const = 0;

  // Called (from a GPU thread) whenever INTR_STATUS gains an enabled bit. The handler
  // reads and clears INTR_STATUS itself. Set before enabling interrupts.
  virtual void set_interrupt_handler(std::function<void()> handler) = 0;
};

// The simulator (hw/sim). `config` must outlive the Gpu.
std::unique_ptr<Gpu> create_sim_gpu(const ArchConfig& config);

}  // namespace strata::hw
