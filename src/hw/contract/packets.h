// Channel packets: what the command processor consumes from a ring. A packet is a
// header dword followed by `dwords` payload dwords. Payload layouts are the structs
// below (little-endian, naturally aligned, no padding surprises: static_asserts hold
// the sizes). Packets in one channel execute in order; a packet starts after the
// previous one has completed.
#pragma once

#include <cstddef>
#include <cstdint>

namespace strata::hw {

enum class PacketOp : uint8_t {
  kNop = 0,
  kLaunch = 1,          // LaunchPacket
  kCopy = 2,            // CopyPacket: DMA through the channel's page table
  kFill = 3,            // FillPacket
  kSemRelease = 4,      // SemPacket: store value (u64) at va
  kSemAcquire = 5,      // SemPacket: wait until the u64 at va >= value
  kTimestamp = 6,       // TimestampPacket: store the device clock (ns, u64) at va
  kIcacheInvalidate = 7,  // RangePacket: drop decoded code in [va, va + size)
  kHostTime = 8,        // HostTimePacket: the following packets were submitted at host
                        // virtual time ns (docs/hw-contract.md, "Clock model")
  kReport = 9,          // ReportPacket (report.h): arm / disarm work reports
};

// Header flag: raise INTR_STATUS.completion after this packet completes.
inline constexpr uint8_t kPacketInterrupt = 1u << 0;
// Header flag of kSemRelease / kSemAcquire: the semaphore is 16 bytes, {u64 value, u64
// modeled time ns}. A release stores the channel's modeled time at va + 8 before the
// value; an acquire makes the channel wait, in modeled time, until the time at va + 8.
inline constexpr uint8_t kPacketSemTime = 1u << 1;

struct PacketHeader {
  uint32_t raw;
  static constexpr PacketHeader make(PacketOp op, uint32_t payload_dwords, uint8_t flags = 0) {
    return PacketHeader{static_cast<uint32_t>(op) | (payload_dwords << 8) |
                        (static_cast<uint32_t>(flags) << 24)};
  }
  constexpr PacketOp op() const { return static_cast<PacketOp>(raw & 0xff); }
  constexpr uint32_t dwords() const { return (raw >> 8) & 0xffff; }
  constexpr uint8_t flags() const { return static_cast<uint8_t>(raw >> 24); }
};

inline constexpr int kMaxConstBanks = 8;

struct ConstBankBinding {
  uint64_t va;     // GPU virtual address of the bank's contents (0: unbound)
  uint32_t size;   // bytes
  uint32_t reserved;
};

// Launch a grid. Constant bank 0 holds the kernel parameters; the others are bound by
// the loader (see docs/hw-contract.md for the bank assignment the compiler uses).
struct LaunchPacket {
  uint64_t code_va;                 // first instruction (16-byte words)
  uint32_t code_size;               // bytes
  uint32_t kernel_id;               // echoed in fault records
  uint32_t grid[3];
  uint32_t block[3];
  uint32_t shared_bytes;            // static + dynamic shared memory per CTA
  uint32_t dynamic_shared_bytes;
  uint32_t regs_per_thread;
  uint32_t local_bytes_per_thread;
  uint32_t num_barriers;            // named CTA barriers used (1..16)
  uint32_t reserved;
  uint64_t grid_id;
  ConstBankBinding cbanks[kMaxConstBanks];
};
static_assert(sizeof(LaunchPacket) == 72 + 16 * kMaxConstBanks);
static_assert(offsetof(LaunchPacket, grid_id) == 64 && offsetof(LaunchPacket, cbanks) == 72);

struct CopyPacket {
  uint64_t src_va;
  uint64_t dst_va;
  uint64_t bytes;
};
static_assert(sizeof(CopyPacket) == 24);

struct FillPacket {
  uint64_t dst_va;
  uint64_t bytes;          // multiple of elem_size
  uint32_t value;          // pattern, low elem_size bytes used
  uint32_t elem_size;      // 1, 2 or 4
};

struct SemPacket {
  uint64_t va;             // 8-byte aligned
  uint64_t value;
};

struct TimestampPacket {
  uint64_t va;             // 8-byte aligned
};

struct RangePacket {
  uint64_t va;
  uint64_t size;
};

struct HostTimePacket {
  uint64_t ns;             // host virtual time of the submission (base/virtual_time.h)
};

}  // namespace strata::hw
