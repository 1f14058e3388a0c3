#include "hw/sim/sim_test_util.h"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>

namespace strata::hw::sim::testing {

const ArchConfig& test_config() {
  static const ArchConfig config = [] {
    auto c = load_arch_config("strata-g1");
    if (!c.ok()) {
      ADD_FAILURE() << c.status().to_string();
      std::abort();
    }
    return *c;
  }();
  return config;
}

TestDevice::TestDevice()
    : gpu_(create_sim_gpu(test_config())),
      put_(64, 0),
      ring_size_(64, 0) {
  if (gpu_ == nullptr) std::abort();
}

uint64_t* TestDevice::entry(uint64_t table, int index) {
  return reinterpret_cast<uint64_t*>(vram() + table + 8 * index);
}

uint64_t TestDevice::table_for(uint64_t table, int index) {
  uint64_t* e = entry(table, index);
  if ((*e & kPteValid) == 0) {
    *e = next_table_ | kPteValid;
    next_table_ += kPageSize;
  }
  return *e & kPteAddrMask;
}

void TestDevice::map(uint64_t va, uint64_t pa, uint64_t bytes, bool writable) {
  for (uint64_t off = 0; off < bytes; off += kPageSize) {
    const uint64_t v = va + off;
    uint64_t t = table_for(kPtRoot, pt_index(v, 4));
    t = table_for(t, pt_index(v, 3));
    t = table_for(t, pt_index(v, 2));
    *entry(t, pt_index(v, 1)) = (pa + off) | kPteValid | (writable ? kPteWritable : 0);
  }
}

void TestDevice::map_huge(uint64_t va, uint64_t pa, bool writable) {
  uint64_t t = table_for(kPtRoot, pt_index(va, 4));
  t = table_for(t, pt_index(va, 3));
  *entry(t, pt_index(va, 2)) = pa | kPteValid | kPteHuge | (writable ? kPteWritable : 0);
}

void TestDevice::map_sysmem(void* host, uint64_t bytes, bool writable) {
  const uint64_t va = reinterpret_cast<uintptr_t>(host);
  for (uint64_t off = 0; off < bytes; off += kPageSize) {
    const uint64_t v = va + off;
    uint64_t t = table_for(kPtRoot, pt_index(v, 4));
    t = table_for(t, pt_index(v, 3));
    t = table_for(t, pt_index(v, 2));
    *entry(t, pt_index(v, 1)) = v | kPteValid | kPteSysmem | (writable ? kPteWritable : 0);
  }
}

void TestDevice::setup_channel(uint32_t ch, uint32_t ring_bytes, uint32_t asid) {
  const uint64_t base = kRingBase + ch * 0x10000ull;
  set_ch_reg(ch, REG_CH_RING_BASE_LO, static_cast<uint32_t>(base));
  set_ch_reg(ch, REG_CH_RING_BASE_HI, static_cast<uint32_t>(base >> 32));
  set_ch_reg(ch, REG_CH_RING_SIZE, ring_bytes);
  set_ch_reg(ch, REG_CH_PT_BASE_LO, static_cast<uint32_t>(kPtRoot));
  set_ch_reg(ch, REG_CH_PT_BASE_HI, 0);
  set_ch_reg(ch, REG_CH_ASID, asid);
  set_ch_reg(ch, REG_CH_CTRL, 0x3);  // reset + enable
  put_[ch] = 0;
  ring_size_[ch] = ring_bytes;
}

void TestDevice::write_raw_dword(uint32_t ch, uint32_t dword) {
  const uint64_t base = kRingBase + ch * 0x10000ull;
  std::memcpy(vram() + base + put_[ch], &dword, 4);
  put_[ch] = (put_[ch] + 4) & (ring_size_[ch] - 1);
}

void TestDevice::write_packet_bytes(uint32_t ch, PacketOp op, const void* payload, uint32_t bytes,
                              uint8_t flags) {
  ASSERT_EQ(bytes % 4, 0u);
  write_raw_dword(ch, PacketHeader::make(op, bytes / 4, flags).raw);
  for (uint32_t i = 0; i < bytes / 4; ++i) {
    uint32_t d;
    std::memcpy(&d, static_cast<const uint8_t*>(payload) + 4 * i, 4);
    write_raw_dword(ch, d);
  }
}

void TestDevice::doorbell(uint32_t ch) {
  std::atomic_thread_fence(std::memory_order_release);
  set_ch_reg(ch, REG_CH_PUT, put_[ch]);
}

void TestDevice::reset_channel(uint32_t ch) {
  set_ch_reg(ch, REG_CH_CTRL, 0x3);
  put_[ch] = 0;
}

uint64_t TestDevice::read_u64(uint64_t pa) {
  return std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(vram() + pa))
      .load(std::memory_order_acquire);
}

void TestDevice::write_u64(uint64_t pa, uint64_t value) {
  std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(vram() + pa))
      .store(value, std::memory_order_release);
}

bool wait_for(const std::function<bool()>& pred, std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > deadline) return pred();
    std::this_thread::sleep_for(std::chrono::microseconds(50));
  }
  return true;
}

}  // namespace strata::hw::sim::testing
