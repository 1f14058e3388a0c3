// The strata backend's Queue: one KMD channel. A submission is [acquire per wait] +
// the command buffer's packets + [release per signal], followed by the KMD's fence.
// Submitted command buffers and semaphores stay referenced until their fence passes.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstring>
#include <mutex>

#include "base/log.h"
#include "base/virtual_time.h"
#include "hal/backends/strata/strata_backend.h"
#include "hw/contract/packets.h"
#include "hw/contract/report.h"
#include "hw/contract/regs.h"

namespace strata::hal::strata_backend {
namespace {

class StrataQueue final : public Queue {
 public:
  StrataQueue(std::shared_ptr<ContextState> state, std::weak_ptr<Context> context,
              kmd::ChannelId channel, uint32_t hw_channel)
      : state_(std::move(state)), context_(std::move(context)), channel_(channel), hw_(hw_channel) {}
  ~StrataQueue() override {
    kmd::KmdChannelDestroy d{channel_};
    (void)kmd::kmd_ioctl(kmd(), kmd::kIoctlChannelDestroy, &d);
  }

  int channel() const override { return static_cast<int>(hw_); }

 private:
  // A submission's references, held until its fence passes. The semaphores sit inline
  // up to kInlineSemaphores (a stream's launch has one or two), so that a submission
  // allocates nothing in the steady state.
  struct InFlight {
    static constexpr size_t kInlineSemaphores = 4;
    uint64_t fence = 0;
    std::shared_ptr<CommandBuffer> cb;
    std::array<SemaphoreValue, kInlineSemaphores> inline_semaphores;
    std::vector<SemaphoreValue> more_semaphores;
    void hold(std::span<const SemaphoreValue> values) {
      for (const SemaphoreValue& v : values) {
        if (held < kInlineSemaphores) {
          inline_semaphores[held++] = v;
        } else {
          more_semaphores.push_back(v);
        }
      }
    }
    size_t held = 0;
  };
  // in_flight_ as a ring of reusable records: [head_, head_ + count_) modulo its size.
  void push_in_flight(InFlight&& f) {
    if (count_ == in_flight_.size()) {
      std::vector<InFlight> bigger(std::max<size_t>(16, 2 * in_flight_.size()));
      for (size_t i = 0; i < count_; ++i) {
        bigger[i] = std::move(in_flight_[(head_ + i) % in_flight_.size()]);
      }
      in_flight_.swap(bigger);
      head_ = 0;
    }
    in_flight_[(head_ + count_) % in_flight_.size()] = std::move(f);
    ++count_;
  }
  void pop_in_flight() {
    in_flight_[head_] = InFlight{};
    head_ = (head_ + 1) % in_flight_.size();
    --count_;
  }

  kmd::KmdHandle kmd() const { return state_->device->kmd(); }

  Status context_status() {
    auto context = context_.lock();
    return context ? context->status() : ok_status();
  }

  static void fail_all(std::span<const SemaphoreValue> signal, const Status& status) {
    for (const SemaphoreValue& v : signal) v.semaphore->fail(status);
  }

  void emit_sem(hw::PacketOp op, const SemaphoreValue& v) {
    const size_t at = dwords_.size();
    dwords_.resize(at + 1 + sizeof(hw::SemPacket) / 4);
    dwords_[at] = hw::PacketHeader::make(op, sizeof(hw::SemPacket) / 4, hw::kPacketSemTime).raw;
    const hw::SemPacket p{semaphore_va(*v.semaphore), v.value};
    std::memcpy(&dwords_[at + 1], &p, sizeof(p));
  }

  bool reports_work() const override { return true; }

  void emit_report(const WorkReports& r) {
    const size_t at = dwords_.size();
    dwords_.resize(at + 1 + sizeof(hw::ReportPacket) / 4);
    dwords_[at] = hw::PacketHeader::make(hw::PacketOp::kReport, sizeof(hw::ReportPacket) / 4).raw;
    const bool pcs = r.va != 0 && r.counters && r.pc_va != 0 && r.pc_capacity != 0;
    const uint32_t flags =
        r.va == 0 || !r.counters ? 0u : hw::kReportCounters | (pcs ? hw::kReportPcCounters : 0u);
    const hw::ReportPacket p{r.va, flags, pcs ? r.pc_capacity : 0u, pcs ? r.pc_va : 0u};
    std::memcpy(&dwords_[at + 1], &p, sizeof(p));
  }

  Status do_submit(const std::shared_ptr<CommandBuffer>& cb, std::span<const SemaphoreValue> wait,
                   std::span<const SemaphoreValue> signal, const WorkReports& reports) override {
    if (cb != nullptr && command_buffer_context(*cb) != state_.get()) {
      return error(Code::kInvalidValue, "submit: command buffer belongs to another context or backend");
    }
    for (const auto* list : {&wait, &signal}) {
      for (const SemaphoreValue& v : *list) {
        if (semaphore_va(*v.semaphore) == 0) {
          return error(Code::kInvalidValue, "submit: semaphore belongs to another backend");
        }
      }
    }
    if (Status s = context_status(); !s.ok()) {
      fail_all(signal, s);
      return s;
    }
    for (const SemaphoreValue& v : wait) {
      if (Status s = v.semaphore->failure_status(); !s.ok()) {
        fail_all(signal, s);
        return s;
      }
      if (Status s = map_foreign_arena(*v.semaphore); !s.ok()) {
        fail_all(signal, s);
        return s;
      }
    }
    std::lock_guard lock(mu_);
    reclaim_locked();
    dwords_.clear();
    for (const SemaphoreValue& v : wait) emit_sem(hw::PacketOp::kSemAcquire, v);
    if (cb != nullptr) {
      const auto& body = command_buffer_dwords(*cb);
      if (reports.va != 0) emit_report(reports);
      dwords_.insert(dwords_.end(), body.begin(), body.end());
      if (reports.va != 0) emit_report(WorkReports{});
    }
    for (const SemaphoreValue& v : signal) emit_sem(hw::PacketOp::kSemRelease, v);
    kmd::KmdSubmit s{channel_, static_cast<uint32_t>(dwords_.size()), dwords_.data(), 0};
    Status status = kmd::kmd_ioctl(kmd(), kmd::kIoctlSubmit, &s);
    if (!status.ok()) {
      Status rich = context_status();
      if (!rich.ok()) status = rich;
      fail_all(signal, status);
      return status;
    }
    for (const SemaphoreValue& v : signal) semaphore_add_pending(*v.semaphore, context_, channel_, s.fence);
    InFlight f;
    f.fence = s.fence;
    f.cb = cb;
    f.hold(wait);
    f.hold(signal);
    push_in_flight(std::move(f));
    last_fence_ = s.fence;
    return ok_status();
  }

  // A semaphore of another device of this backend: its arena (host memory) is mapped
  // read-only into this context at its host address on first use, so the acquire
  // packet reads it like the device's own arena. The GPU re-checks a waiting acquire at
  // least every 100 us (docs/hw-contract.md), so the other device's release is seen
  // without a doorbell here.
  Status map_foreign_arena(Semaphore& semaphore) {
    const std::shared_ptr<StrataDevice>* owner = semaphore_device(semaphore);
    if (owner == nullptr || owner->get() == state_->device.get()) return ok_status();
    std::lock_guard lock(state_->foreign_arenas_mu);
    if (state_->foreign_arenas.count(owner->get()) != 0) return ok_status();
    kmd::KmdHostMap map{state_->id, 0, (*owner)->arena_va(), (*owner)->arena_bytes()};
    RETURN_IF_ERROR(kmd::kmd_ioctl(kmd(), kmd::kIoctlHostMap, &map));
    state_->foreign_arenas[owner->get()] = *owner;
    return ok_status();
  }

  // Drops references held by completed submissions. Requires mu_.
  void reclaim_locked() {
    while (count_ != 0) {
      kmd::KmdFenceWait w{channel_, 0, in_flight_[head_].fence, 0};
      if (!kmd::kmd_ioctl(kmd(), kmd::kIoctlFenceWait, &w).ok()) return;
      pop_in_flight();
    }
  }

  Status do_wait_idle(std::chrono::nanoseconds timeout) override {
    uint64_t fence;
    {
      std::lock_guard lock(mu_);
      fence = last_fence_;
    }
    if (fence == 0) return context_status();
    const uint64_t ns = timeout == kInfiniteTimeout ? UINT64_MAX : static_cast<uint64_t>(timeout.count());
    kmd::KmdFenceWait w{channel_, 0, fence, ns};
    Status s = kmd::kmd_ioctl(kmd(), kmd::kIoctlFenceWait, &w);
    if (!s.ok() && s.code() != Code::kNotReady) {
      Status rich = context_status();
      return rich.ok() ? s : rich;
    }
    if (s.ok()) {
      // A blocking wait: the caller's host time moves to the modeled completion. A poll
      // (timeout 0) only reclaims.
      if (timeout.count() != 0) vt::advance_to(w.completed_ns);
      std::lock_guard lock(mu_);
      reclaim_locked();
    }
    return s;
  }

  std::shared_ptr<ContextState> state_;
  std::weak_ptr<Context> context_;
  kmd::ChannelId channel_;
  uint32_t hw_;
  std::mutex mu_;
  std::vector<uint32_t> dwords_;
  std::vector<InFlight> in_flight_;
  size_t head_ = 0;
  size_t count_ = 0;
  uint64_t last_fence_ = 0;
};

}  // namespace

StatusOr<std::shared_ptr<Queue>> create_queue(std::shared_ptr<ContextState> state,
                                              std::weak_ptr<Context> context, uint32_t priority) {
  static_assert(kMaxQueuePriority == hw::kMaxChannelPriority);
  kmd::KmdChannelCreate c{state->id, 0, 0, 0, priority};
  RETURN_IF_ERROR(kmd::kmd_ioctl(state->device->kmd(), kmd::kIoctlChannelCreate, &c));
  return std::shared_ptr<Queue>(std::make_shared<StrataQueue>(std::move(state), std::move(context),
                                                              c.channel, c.hw_channel));
}

}  // namespace strata::hal::strata_backend
