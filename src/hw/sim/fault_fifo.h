// The fault FIFO behind the FAULT_* registers: records in the order faults happened;
// FAULT_* read the oldest, FAULT_ACK pops it. Bounded: when full, further records are
// dropped and counted (the faulting channels still stop, so nothing is silently
// resumed). Thread-safe.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>

#include "hw/contract/fault.h"

namespace strata::hw::sim {

struct FaultEntry {
  uint32_t channel = 0;
  FaultKind kind = FaultKind::kNone;
  uint64_t address = 0;
  uint32_t pc = 0;
  uint32_t kernel_id = 0;
  uint32_t cta[3] = {0, 0, 0};
  uint32_t tid[3] = {0, 0, 0};
};

class FaultFifo {
 public:
  static constexpr size_t kCapacity = 256;

  // Returns false if the FIFO was full and the record was dropped.
  bool push(const FaultEntry& entry);
  std::optional<FaultEntry> front() const;
  // Removes the oldest record; returns whether records remain.
  bool pop();
  uint64_t dropped() const;

 private:
  mutable std::mutex mu_;
  std::deque<FaultEntry> entries_;
  uint64_t dropped_ = 0;
};

}  // namespace strata::hw::sim
