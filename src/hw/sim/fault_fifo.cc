#include "hw/sim/fault_fifo.h"

#include "base/log.h"

namespace strata::hw::sim {

bool FaultFifo::push(const FaultEntry& entry) {
  std::lock_guard lock(mu_);
  if (entries_.size() >= kCapacity) {
    ++dropped_;
    STRATA_LOG_WARN("fault FIFO full: dropped a {} fault on channel {}",
                    fault_kind_name(entry.kind), entry.channel);
    return false;
  }
  entries_.push_back(entry);
  return true;
}

std::optional<FaultEntry> FaultFifo::front() const {
  std::lock_guard lock(mu_);
  if (entries_.empty()) return std::nullopt;
  return entries_.front();
}

bool FaultFifo::pop() {
  std::lock_guard lock(mu_);
  if (!entries_.empty()) entries_.pop_front();
  return !entries_.empty();
}

uint64_t FaultFifo::dropped() const {
  std::lock_guard lock(mu_);
  return dropped_;
}

}  // namespace strata::hw::sim
