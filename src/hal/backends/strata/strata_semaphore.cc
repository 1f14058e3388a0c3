// The strata backend's Semaphore: a 16-byte slot {u64 value, u64 modeled time of the
// signal} in the device's host-memory semaphore arena, written by the GPU (kSemRelease
// with kPacketSemTime) and the host (its virtual time), read by both. A host wait that
// succeeds moves the waiter's virtual time to the signal's time (base/virtual_time.h). Host waits sleep on
// the KMD's interrupt event counter and check pending signals' fences, so a fault in
// the signalling context fails the semaphore with that context's fault Status.
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <vector>

#include "base/virtual_time.h"
#include "hal/backends/strata/strata_backend.h"

namespace strata::hal::strata_backend {
namespace {

using Clock = std::chrono::steady_clock;

class StrataSemaphore final : public Semaphore {
 public:
  StrataSemaphore(std::shared_ptr<StrataDevice> device, uint64_t* slot)
      : device_(std::move(device)), slot_(slot) {}
  ~StrataSemaphore() override { device_->free_slot(slot_); }

  uint64_t va() const { return reinterpret_cast<uint64_t>(slot_); }
  const std::shared_ptr<StrataDevice>& device() const { return device_; }
  uint64_t value() const { return std::atomic_ref<uint64_t>(*slot_).load(std::memory_order_acquire); }
  // The modeled time stored with the value (written before it).
  uint64_t time() const { return std::atomic_ref<uint64_t>(slot_[1]).load(std::memory_order_acquire); }

  void add_pending(std::weak_ptr<Context> context, kmd::ChannelId channel, uint64_t fence) {
    std::lock_guard lock(mu_);
    pending_.push_back(Pending{std::move(context), channel, fence});
  }

 private:
  struct Pending {
    std::weak_ptr<Context> context;
    kmd::ChannelId channel;
    uint64_t fence;
  };

  StatusOr<uint64_t> do_query() override {
    RETURN_IF_ERROR(check_pending());
    return value();
  }

  Status do_signal(uint64_t v) override {
    {
      std::lock_guard lock(mu_);
      if (!failure_.ok()) return failure_;
      const uint64_t current = value();
      if (v <= current) {
        return error(Code::kInvalidValue,
                     fmt::format("semaphore signal to {}: not above the current value {}", v, current));
      }
      std::atomic_ref<uint64_t>(slot_[1]).store(vt::now_ns(), std::memory_order_release);
      std::atomic_ref<uint64_t>(*slot_).store(v, std::memory_order_release);
    }
    device_->notify();
    return ok_status();
  }

  // Fails the semaphore if a pending signal's submission was lost to a fault; drops
  // completed ones.
  Status check_pending() {
    std::vector<Pending> pending;
    {
      std::lock_guard lock(mu_);
      if (!failure_.ok()) return failure_;
      pending = pending_;
    }
    for (const Pending& p : pending) {
      kmd::KmdFenceWait w{p.channel, 0, p.fence, 0};
      Status s = kmd::kmd_ioctl(device_->kmd(), kmd::kIoctlFenceWait, &w);
      if (s.ok() || s.code() == Code::kNotReady || s.code() == Code::kInvalidHandle) {
        if (s.ok() || s.code() == Code::kInvalidHandle) remove(p);
        continue;
      }
      auto context = p.context.lock();
      Status rich = context ? context->status() : s;
      do_fail(rich.ok() ? s : rich);
      return failure_status();
    }
    return ok_status();
  }

  void remove(const Pending& p) {
    std::lock_guard lock(mu_);
    std::erase_if(pending_, [&](const Pending& q) { return q.channel == p.channel && q.fence == p.fence; });
  }

  Status do_wait(uint64_t v, std::chrono::nanoseconds timeout) override {
    const auto start = Clock::now();
    while (true) {
      const uint64_t seen = device_->event_count();
      if (value() >= v) {
        if (timeout.count() != 0) vt::advance_to(time());
        return ok_status();
      }
      RETURN_IF_ERROR(check_pending());
      const auto elapsed = Clock::now() - start;
      if (timeout != kInfiniteTimeout && elapsed >= timeout) {
        return error(Code::kNotReady, fmt::format("timed out waiting for semaphore value {} (now {})", v, value()));
      }
      const auto left = timeout == kInfiniteTimeout ? std::chrono::nanoseconds(std::chrono::seconds(1))
                                                    : timeout - elapsed;
      device_->wait_event(seen, std::chrono::duration_cast<std::chrono::nanoseconds>(left));
    }
  }

  void do_fail(Status status) override {
    {
      std::lock_guard lock(mu_);
      if (!failure_.ok()) return;
      failure_ = std::move(status);
    }
    device_->notify();
  }

  uint64_t do_signal_time_ns() override { return time(); }

  Status do_failure_status() override {
    std::lock_guard lock(mu_);
    return failure_;
  }

  std::shared_ptr<StrataDevice> device_;
  uint64_t* slot_;
  std::mutex mu_;
  Status failure_;
  std::vector<Pending> pending_;
};

}  // namespace

StatusOr<std::shared_ptr<Semaphore>> create_semaphore(std::shared_ptr<StrataDevice> device,
                                                      uint64_t initial_value) {
  ASSIGN_OR_RETURN(uint64_t* slot, device->allocate_slot());
  std::atomic_ref<uint64_t>(slot[1]).store(0, std::memory_order_release);
  std::atomic_ref<uint64_t>(*slot).store(initial_value, std::memory_order_release);
  return std::shared_ptr<Semaphore>(std::make_shared<StrataSemaphore>(std::move(device), slot));
}

uint64_t semaphore_va(Semaphore& semaphore) {
  auto* s = dynamic_cast<StrataSemaphore*>(&semaphore);
  return s == nullptr ? 0 : s->va();
}

const std::shared_ptr<StrataDevice>* semaphore_device(Semaphore& semaphore) {
  auto* s = dynamic_cast<StrataSemaphore*>(&semaphore);
  return s == nullptr ? nullptr : &s->device();
}

void semaphore_add_pending(Semaphore& semaphore, std::weak_ptr<Context> context,
                           kmd::ChannelId channel, uint64_t fence) {
  if (auto* s = dynamic_cast<StrataSemaphore*>(&semaphore)) s->add_pending(std::move(context), channel, fence);
}

}  // namespace strata::hal::strata_backend
