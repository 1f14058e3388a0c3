#include "hw/sim/interrupts.h"

namespace strata::hw::sim {

Interrupts::Interrupts() : thread_([this] { deliver_loop(); }) {}

Interrupts::~Interrupts() {
  {
    std::lock_guard lock(mu_);
    stop_ = true;
  }
  cv_.notify_all();
  thread_.join();
}

void Interrupts::raise(uint32_t bits) {
  std::lock_guard lock(mu_);
  const uint32_t gained = bits & ~status_ & enable_;
  status_ |= bits;
  if (gained != 0 || (bits & enable_) != 0) {
    pending_ = true;
    cv_.notify_all();
  }
}

uint32_t Interrupts::status() const {
  std::lock_guard lock(mu_);
  return status_;
}

void Interrupts::clear(uint32_t bits) {
  std::lock_guard lock(mu_);
  status_ &= ~bits;
}

uint32_t Interrupts::enable() const {
  std::lock_guard lock(mu_);
  return enable_;
}

void Interrupts::set_enable(uint32_t mask) {
  std::lock_guard lock(mu_);
  const uint32_t gained = status_ & mask & ~enable_;
  enable_ = mask;
  if (gained != 0) {
    pending_ = true;
    cv_.notify_all();
  }
}

void Interrupts::set_handler(std::function<void()> handler) {
  std::lock_guard lock(mu_);
  handler_ = std::move(handler);
}

void Interrupts::deliver_loop() {
  std::unique_lock lock(mu_);
  while (true) {
    cv_.wait(lock, [this] { return stop_ || pending_; });
    if (stop_) return;
    pending_ = false;
    if ((status_ & enable_) == 0 || !handler_) continue;
    std::function<void()> handler = handler_;
    lock.unlock();
    handler();
    lock.lock();
  }
}

}  // namespace strata::hw::sim
