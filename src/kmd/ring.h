// Ring: the producer side of a channel's ring buffer in VRAM.
//
// Packets are written whole and never straddle the ring's end: when one does not fit
// before the end, the rest of the ring is filled with a NOP packet and the packet
// starts at offset 0. One dword always stays free, so put == get means empty.
// Not thread-safe (the channel's submit lock guards it); committed_put() may be read
// from any thread.
#pragma once

#include <atomic>
#include <functional>
#include <cstdint>
#include <span>

#include "base/status.h"

namespace strata::kmd {

class Ring {
 public:
  // `base` is the host view of the ring; size_bytes a power of two >= 64.
  Ring(uint32_t* base, uint32_t size_bytes);

  uint32_t size_bytes() const { return size_; }
  uint32_t put() const { return put_; }
  uint32_t committed_put() const { return committed_.load(std::memory_order_acquire); }

  // Bytes writing a packet of `dwords` (header included) takes at the current put,
  // counting the NOP padding a wrap needs.
  uint32_t bytes_needed(uint32_t dwords) const;
  // Free bytes when the consumer is at `get`.
  uint32_t free_bytes(uint32_t get) const;
  // Writes one packet; the caller has checked free_bytes(get) >= bytes_needed(). The
  // packet is visible to the consumer once commit() publishes put.
  void write_packet(std::span<const uint32_t> packet);
  uint32_t commit();  // publishes and returns put
  void reset();       // put = 0 (after a channel reset)

  // Largest packet (dwords, header included) a ring of this size accepts.
  uint32_t max_packet_dwords() const { return size_ / 4 / 2; }

 private:
  uint32_t* base_;
  uint32_t size_;
  uint32_t put_ = 0;
  std::atomic<uint32_t> committed_{0};
};

// Checks that `dwords` is a sequence of whole, well-formed packets (known opcode,
// payload size matching the opcode) no larger than `max_packet_dwords` each, and
// calls `visit` for each packet. kInvalidValue naming the offending dword otherwise.
Status for_each_packet(std::span<const uint32_t> dwords, uint32_t max_packet_dwords,
                       const std::function<void(std::span<const uint32_t>)>& visit);

}  // namespace strata::kmd
