#include "kmd/ring.h"

#include <fmt/format.h>

#include <atomic>
#include <cstring>

#include "base/check.h"
#include "hw/contract/packets.h"
#include "hw/contract/report.h"

namespace strata::kmd {
namespace {

// Payload dwords each opcode requires (kNop: any).
int payload_dwords(hw::PacketOp op) {
  switch (op) {
    case hw::PacketOp::kNop: return -1;
    case hw::PacketOp::kLaunch: return sizeof(hw::LaunchPacket) / 4;
    case hw::PacketOp::kCopy: return sizeof(hw::CopyPacket) / 4;
    case hw::PacketOp::kFill: return sizeof(hw::FillPacket) / 4;
    case hw::PacketOp::kSemRelease:
    case hw::PacketOp::kSemAcquire: return sizeof(hw::SemPacket) / 4;
    case hw::PacketOp::kTimestamp: return sizeof(hw::TimestampPacket) / 4;
    case hw::PacketOp::kIcacheInvalidate: return sizeof(hw::RangePacket) / 4;
    case hw::PacketOp::kHostTime: return sizeof(hw::HostTimePacket) / 4;
    case hw::PacketOp::kReport: return sizeof(hw::ReportPacket) / 4;
  }
  return -2;
}

}  // namespace

Ring::Ring(uint32_t* base, uint32_t size_bytes) : base_(base), size_(size_bytes) {
  CHECK(size_bytes >= 64 && (size_bytes & (size_bytes - 1)) == 0);
}

uint32_t Ring::bytes_needed(uint32_t dwords) const {
  const uint32_t bytes = dwords * 4;
  const uint32_t to_end = size_ - put_;
  return bytes <= to_end ? bytes : to_end + bytes;
}

uint32_t Ring::free_bytes(uint32_t get) const {
  const uint32_t used = (put_ - get) & (size_ - 1);
  return size_ - 4 - used;
}

void Ring::write_packet(std::span<const uint32_t> packet) {
  const uint32_t bytes = static_cast<uint32_t>(packet.size()) * 4;
  CHECK(bytes < size_);
  if (bytes > size_ - put_) {
    const uint32_t pad_dwords = (size_ - put_) / 4;
    base_[put_ / 4] = hw::PacketHeader::make(hw::PacketOp::kNop, pad_dwords - 1).raw;
    put_ = 0;
  }
  std::memcpy(base_ + put_ / 4, packet.data(), bytes);
  put_ = (put_ + bytes) & (size_ - 1);
}

uint32_t Ring::commit() {
  std::atomic_thread_fence(std::memory_order_release);
  committed_.store(put_, std::memory_order_release);
  return put_;
}

void Ring::reset() {
  put_ = 0;
  committed_.store(0, std::memory_order_release);
}

Status for_each_packet(std::span<const uint32_t> dwords, uint32_t max_packet_dwords,
                       const std::function<void(std::span<const uint32_t>)>& visit) {
  size_t i = 0;
  while (i < dwords.size()) {
    const hw::PacketHeader header{dwords[i]};
    const int expected = payload_dwords(header.op());
    if (expected == -2) {
      return error(Code::kInvalidValue,
                   fmt::format("packet at dword {}: unknown opcode {}", i,
                               static_cast<int>(header.op())));
    }
    const uint32_t payload = header.dwords();
    if (expected >= 0 && payload != static_cast<uint32_t>(expected)) {
      return error(Code::kInvalidValue,
                   fmt::format("packet at dword {}: opcode {} needs {} payload dwords, header says {}",
                               i, static_cast<int>(header.op()), expected, payload));
    }
    if (payload + 1 > max_packet_dwords) {
      return error(Code::kInvalidValue,
                   fmt::format("packet at dword {}: {} dwords exceed the ring's limit of {}", i,
                               payload + 1, max_packet_dwords));
    }
    if (payload >= dwords.size() - i) {
      return error(Code::kInvalidValue,
                   fmt::format("packet at dword {}: truncated ({} payload dwords, {} left)", i,
                               payload, dwords.size() - i - 1));
    }
    visit(dwords.subspan(i, payload + 1));
    i += payload + 1;
  }
  return ok_status();
}

}  // namespace strata::kmd
