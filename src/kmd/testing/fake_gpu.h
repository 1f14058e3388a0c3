// FakeGpu: a small stand-in for the Strata GPU, for testing the KMD and HAL without
// the full simulator. It implements the register file, a lazily committed VRAM, page
// walks (hw::sim::PageWalker) and a command processor for every packet except
// kLaunch, which faults with kBadPacket. Faults (unmapped/misaligned DMA) are reported
// through the FAULT_* registers like the real hardware. Thread-safe.
#pragma once

#include <cstdint>
#include <memory>

#include "hw/contract/gpu.h"

namespace strata::kmd::testing {

struct FakeGpuOptions {
  uint64_t vram_bytes = 256ull << 20;
  uint32_t num_channels = 8;
  uint32_t num_sms = 4;
};

std::unique_ptr<hw::Gpu> create_fake_gpu(const FakeGpuOptions& options = {});

}  // namespace strata::kmd::testing
