// Test helpers for the simulated GPU: a device on the strata-g1 config, hand-written
// page tables and a ring driven through MMIO, the way the KMD drives real hardware.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <vector>

#include "hw/config/arch_config.h"
#include "hw/contract/fault.h"
#include "hw/contract/gpu.h"
#include "hw/contract/packets.h"
#include "hw/contract/page_table.h"
#include "hw/contract/regs.h"

namespace strata::hw::sim::testing {

const ArchConfig& test_config();  // strata-g1, loaded once

class TestDevice {
 public:
  static constexpr uint64_t kPtRoot = 0x100000;       // tables from 1 MiB
  static constexpr uint64_t kRingBase = 0x800000;      // rings from 8 MiB, 64 KiB apart
  static constexpr uint64_t kDataBase = 0x1000000;     // data pages from 16 MiB

  TestDevice();
  Gpu& gpu() { return *gpu_; }
  uint8_t* vram() { return gpu_->vram_base(); }

  // Maps [va, va + bytes) to VRAM [pa, ...) with 4 KiB pages.
  void map(uint64_t va, uint64_t pa, uint64_t bytes, bool writable = true);
  // Maps one 2 MiB page.
  void map_huge(uint64_t va, uint64_t pa, bool writable = true);
  // Maps host memory (page aligned) at its own address, as UVA does.
  void map_sysmem(void* host, uint64_t bytes, bool writable = true);

  // Programs channel `ch` (ring of `ring_bytes`, root table kPtRoot) and enables it.
  void setup_channel(uint32_t ch, uint32_t ring_bytes = 4096, uint32_t asid = 1);
  // Writes a packet at the channel's write pointer (wrapping); does not ring.
  void write_packet_bytes(uint32_t ch, PacketOp op, const void* payload, uint32_t bytes,
                    uint8_t flags = 0);
  template <typename T>
  void write_packet(uint32_t ch, PacketOp op, const T& payload, uint8_t flags = 0) {
    write_packet_bytes(ch, op, &payload, sizeof(T), flags);
  }
  void write_raw_dword(uint32_t ch, uint32_t dword);
  void doorbell(uint32_t ch);
  uint32_t reg(uint32_t offset) { return gpu_->read_reg(offset); }
  uint32_t ch_reg(uint32_t ch, Reg r) { return gpu_->read_reg(channel_reg(ch, r)); }
  void set_ch_reg(uint32_t ch, Reg r, uint32_t v) { gpu_->write_reg(channel_reg(ch, r), v); }
  // Resets the channel and the helper's write pointer.
  void reset_channel(uint32_t ch);

  uint64_t read_u64(uint64_t pa);
  void write_u64(uint64_t pa, uint64_t value);

 private:
  uint64_t table_for(uint64_t table, int index);
  uint64_t* entry(uint64_t table, int index);

  std::unique_ptr<Gpu> gpu_;
  uint64_t next_table_ = kPtRoot + kPageSize;
  std::vector<uint32_t> put_;
  std::vector<uint32_t> ring_size_;
};

// Polls `pred` until it holds or `timeout` passes; returns its last value.
bool wait_for(const std::function<bool()>& pred,
              std::chrono::milliseconds timeout = std::chrono::milliseconds(5000));

}  // namespace strata::hw::sim::testing
