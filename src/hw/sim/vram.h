// Device memory of the simulated GPU: one anonymous host mapping of vram_bytes,
// reserved without committing (MAP_NORESERVE), so untouched VRAM costs no host memory.
// Reads of never-written VRAM return zeros. Not copyable; unmapped on destruction.
#pragma once

#include <cstdint>
#include <memory>

#include "base/status.h"

namespace strata::hw::sim {

class Vram {
 public:
  // Fails with kOutOfMemory if the host cannot reserve `bytes` of address space.
  static StatusOr<std::unique_ptr<Vram>> create(uint64_t bytes);
  ~Vram();
  Vram(const Vram&) = delete;
  Vram& operator=(const Vram&) = delete;

  uint8_t* base() const { return base_; }
  uint64_t size() const { return size_; }

 private:
  Vram(uint8_t* base, uint64_t size) : base_(base), size_(size) {}
  uint8_t* base_;
  uint64_t size_;
};

}  // namespace strata::hw::sim
