// Device-side launches (hw/contract/device_launch.h) through the ring: a parent grid
// publishes records by moving the queue's `top` (the records themselves are written
// here, as a compiled kernel would), and the command processor runs them.
#include "hw/contract/device_launch.h"

#include <gtest/gtest.h>

#include <vector>

#include "hw/sim/sim_test_util.h"
#include "isa/encode.h"
#include "isa/latency.h"

namespace strata::hw::sim {
namespace {

using testing::TestDevice;
using testing::wait_for;

constexpr uint64_t kCodeVa = 0x500000000ull;
constexpr uint64_t kCodePa = TestDevice::kDataBase;
constexpr uint64_t kDataVa = 0x600000000ull;
constexpr uint64_t kDataPa = TestDevice::kDataBase + 0x10000;
constexpr uint64_t kSemOffset = 0x1000;
constexpr uint64_t kParamsOffset = 0x2000;
constexpr uint64_t kBankOffset = 0x3000;        // c[3]: the queue VA at +56
constexpr uint64_t kDescriptorOffset = 0x3400;  // kernel descriptors
constexpr uint64_t kQueueOffset = 0x4000;
constexpr uint64_t kQueueCapacity = 0x2000;
constexpr uint64_t kParentCode = 0x000, kStoreCode = 0x100, kTrapCode = 0x200;

isa::Inst inst(isa::Opcode op) {
  isa::Inst i;
  i.op = op;
  return i;
}

// *(u32*)c[0][0] = value, with hazard-free control bits.
std::vector<isa::Inst> store_program(uint32_t value) {
  isa::Inst ldc = inst(isa::Opcode::LDC);
  ldc.rd = 0;
  ldc.type = isa::DataType::U64;
  ldc.space = isa::MemSpace::CONST;
  ldc.ctrl.wbar = 0;
  isa::Inst mov = inst(isa::Opcode::MOV);
  mov.rd = 2;
  mov.type = isa::DataType::U32;
  mov.b_imm = true;
  mov.imm = value;
  mov.ctrl.stall = isa::latency(mov).cycles;
  isa::Inst st = inst(isa::Opcode::ST);
  st.ra = 0;
  st.rb = 2;
  st.type = isa::DataType::U32;
  st.space = isa::MemSpace::GLOBAL;
  st.ctrl.wait = 1u << 0;
  return {ldc, mov, st, inst(isa::Opcode::EXIT)};
}

class DeviceLaunchTest : public ::testing::Test {
 protected:
  DeviceLaunchTest() {
    d_.map(kCodeVa, kCodePa, 0x1000, /*writable=*/false);
    d_.map(kDataVa, kDataPa, 0x8000);
    d_.setup_channel(0);
    load(kTrapCode, {inst(isa::Opcode::TRAP), inst(isa::Opcode::EXIT)});
    load(kStoreCode, store_program(0x1234));
    d_.write_u64(kDataPa + kBankOffset + kLaunchQueueBankOffset, kDataVa + kQueueOffset);
    DeviceLaunchQueueHeader h{};
    h.capacity = kQueueCapacity;
    h.pending_limit = 2048;
    write(kQueueOffset, h);
  }
  uint32_t load(uint64_t offset, const std::vector<isa::Inst>& program) {
    const std::vector<uint8_t> bytes = isa::encode_program(program);
    std::memcpy(d_.vram() + kCodePa + offset, bytes.data(), bytes.size());
    return static_cast<uint32_t>(bytes.size());
  }
  template <typename T>
  void write(uint64_t offset, const T& value) {
    std::memcpy(d_.vram() + kDataPa + offset, &value, sizeof(T));
  }
  uint32_t read_u32(uint64_t offset) {
    uint32_t v;
    std::memcpy(&v, d_.vram() + kDataPa + offset, 4);
    return v;
  }
  // Descriptor `index` for the code at `code_offset` (2 or 4 instructions).
  uint64_t descriptor(int index, uint64_t code_offset, uint32_t code_size, uint32_t kernel_id,
                      uint32_t param_bytes) {
    KernelDescriptor k{};
    k.code_va = kCodeVa + code_offset;
    k.code_size = code_size;
    k.kernel_id = kernel_id;
    k.regs_per_thread = 8;
    k.num_barriers = 1;
    k.param_bytes = param_bytes;
    k.magic = kKernelDescriptorMagic;
    write(kDescriptorOffset + index * sizeof(KernelDescriptor), k);
    return kDataVa + kDescriptorOffset + index * sizeof(KernelDescriptor);
  }
  // Writes a 128-byte record at `at` (bytes into the record space).
  void record(uint64_t at, uint64_t descriptor_va, uint64_t stream, uint32_t sequence,
              uint32_t state = kRecordLaunched, uint64_t param = 0) {
    DeviceLaunchRecord r{};
    r.descriptor_va = descriptor_va;
    r.grid[0] = r.grid[1] = r.grid[2] = 1;
    r.block[0] = 32;
    r.block[1] = r.block[2] = 1;
    r.record_bytes = 128;
    r.stream = stream;
    r.state = state;
    r.sequence = sequence;
    write(kQueueOffset + sizeof(DeviceLaunchQueueHeader) + at, r);
    write(kQueueOffset + sizeof(DeviceLaunchQueueHeader) + at + sizeof(r), param);
  }
  // Launches a parent that publishes `records` 128-byte records (it sets `top`).
  void launch_parent(uint32_t records) {
    const uint32_t size = load(kParentCode, store_program(records * 128));
    d_.write_u64(kDataPa + kParamsOffset, kDataVa + kQueueOffset);  // &header.top
    LaunchPacket p{};
    p.code_va = kCodeVa + kParentCode;
    p.code_size = size;
    p.kernel_id = 1;
    p.grid[0] = p.grid[1] = p.grid[2] = 1;
    p.block[0] = 1;
    p.block[1] = p.block[2] = 1;
    p.regs_per_thread = 8;
    p.num_barriers = 1;
    p.cbanks[0] = ConstBankBinding{kDataVa + kParamsOffset, 8, 0};
    p.cbanks[kLaunchQueueBank] = ConstBankBinding{kDataVa + kBankOffset, 64, 0};
    d_.write_packet(0, PacketOp::kLaunch, p);
    d_.write_packet(0, PacketOp::kSemRelease, SemPacket{kDataVa + kSemOffset, 1});
    d_.doorbell(0);
  }
  bool finished() { return d_.read_u64(kDataPa + kSemOffset) == 1 || d_.ch_reg(0, REG_CH_STATUS); }

  TestDevice d_;
  const uint32_t trap_size_ = 32, store_size_ = 64;
};

TEST_F(DeviceLaunchTest, ChildRunsBeforeTheParentCompletes) {
  const uint64_t store = descriptor(0, kStoreCode, store_size_, 10, 8);
  const uint64_t trap = descriptor(1, kTrapCode, trap_size_, 11, 0);
  record(0, trap, kStreamPerBlockNull, 0, kRecordReserved);  // never published: dropped
  record(128, store, kStreamPerBlockNull, 0, kRecordLaunched, kDataVa + 0x80);
  launch_parent(2);
  ASSERT_TRUE(wait_for([&] { return finished(); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u) << "fault kind " << d_.reg(REG_FAULT_KIND);
  EXPECT_EQ(read_u32(0x80), 0x1234u);
  // The child ran at depth 1 with its own (empty) record space after its parent's.
  DeviceLaunchQueueHeader h;
  std::memcpy(&h, d_.vram() + kDataPa + kQueueOffset, sizeof(h));
  EXPECT_EQ(h.depth, 1u);
  EXPECT_EQ(h.top, 256u);
}

TEST_F(DeviceLaunchTest, TailLaunchesRunAfterTheOtherWork) {
  const uint64_t tail = descriptor(0, kTrapCode, trap_size_, 20, 0);
  const uint64_t other = descriptor(1, kTrapCode, trap_size_, 21, 0);
  record(0, tail, kStreamTailLaunch, 0);
  record(128, other, kFirstNamedStream, 1);
  launch_parent(2);
  ASSERT_TRUE(wait_for([&] { return finished(); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 1u);
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kTrap));
  EXPECT_EQ(d_.reg(REG_FAULT_KERNEL_ID), 21u);  // the first grid to run
}

TEST_F(DeviceLaunchTest, LaunchesRunInPublicationOrder) {
  const uint64_t later = descriptor(0, kTrapCode, trap_size_, 30, 0);
  const uint64_t earlier = descriptor(1, kTrapCode, trap_size_, 31, 0);
  record(0, later, kStreamPerBlockNull, 1);
  record(128, earlier, kStreamPerBlockNull, 0);
  launch_parent(2);
  ASSERT_TRUE(wait_for([&] { return finished(); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 1u);
  EXPECT_EQ(d_.reg(REG_FAULT_KERNEL_ID), 31u);
}

TEST_F(DeviceLaunchTest, CopyRecordsRunInStreamOrder) {
  const uint64_t store = descriptor(0, kStoreCode, store_size_, 10, 8);
  // Sequence 0: copy 4 bytes 0xabcd to 0x80; sequence 1: a kernel stores 0x1234 there.
  write(0x90, uint32_t{0xabcd});
  record(0, 0, kFirstNamedStream, 0);
  DeviceLaunchRecord copy;
  std::memcpy(&copy, d_.vram() + kDataPa + kQueueOffset + sizeof(DeviceLaunchQueueHeader),
              sizeof(copy));
  copy.kind = kRecordCopy;
  write(kQueueOffset + sizeof(DeviceLaunchQueueHeader), copy);
  write(kQueueOffset + sizeof(DeviceLaunchQueueHeader) + sizeof(copy),
        DeviceCopyArgs{kDataVa + 0x80, kDataVa + 0x90, 4});
  record(128, store, kFirstNamedStream, 1, kRecordLaunched, kDataVa + 0x80);
  launch_parent(2);
  ASSERT_TRUE(wait_for([&] { return finished(); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 0u) << "fault kind " << d_.reg(REG_FAULT_KIND);
  EXPECT_EQ(read_u32(0x80), 0x1234u);  // the copy ran first
}

TEST_F(DeviceLaunchTest, BadDescriptorIsABadPacketAtTheRecord) {
  record(0, kDataVa + 0x100, kStreamPerBlockNull, 0);  // zeros: no descriptor magic
  launch_parent(1);
  ASSERT_TRUE(wait_for([&] { return finished(); }));
  ASSERT_EQ(d_.ch_reg(0, REG_CH_STATUS), 1u);
  EXPECT_EQ(d_.reg(REG_FAULT_KIND), static_cast<uint32_t>(FaultKind::kBadPacket));
  const uint64_t addr = d_.reg(REG_FAULT_ADDR_LO) | (uint64_t{d_.reg(REG_FAULT_ADDR_HI)} << 32);
  EXPECT_EQ(addr, kDataVa + kQueueOffset + sizeof(DeviceLaunchQueueHeader));
}

}  // namespace
}  // namespace strata::hw::sim
