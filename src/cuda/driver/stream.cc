#include "cuda/driver/stream.h"

#include <algorithm>

#include "base/virtual_time.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/event.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/host_worker.h"
#include "fmt/format.h"
#include "prof/collector.h"

namespace strata::cuda::driver {
namespace {

// A semaphore list on the stack up to kInline entries, on the heap beyond.
class SmallSemaphoreList {
 public:
  static constexpr size_t kInline = 8;
  bool empty() const { return size_ == 0; }
  void push_back(hal::SemaphoreValue v) {
    if (heap_.empty() && size_ < kInline) {
      inline_[size_++] = std::move(v);
      return;
    }
    if (heap_.empty()) heap_.assign(inline_.begin(), inline_.begin() + size_);
    heap_.push_back(std::move(v));
    ++size_;
  }
  void append(std::span<const hal::SemaphoreValue> values) {
    for (const hal::SemaphoreValue& v : values) push_back(v);
  }
  std::span<const hal::SemaphoreValue> span() const {
    return heap_.empty() ? std::span<const hal::SemaphoreValue>(inline_.data(), size_)
                         : std::span<const hal::SemaphoreValue>(heap_);
  }

 private:
  std::array<hal::SemaphoreValue, kInline> inline_;
  size_t size_ = 0;
  std::vector<hal::SemaphoreValue> heap_;
};

}  // namespace

StatusOr<std::shared_ptr<Stream>> Stream::create(Context* context, Kind kind, unsigned int flags,
                                                 int priority) {
  static std::atomic<unsigned long long> next_id{1};
  std::shared_ptr<Stream> stream(new Stream(context, kind, flags));
  stream->id_ = next_id.fetch_add(1);
  stream->priority_ = std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority);
  if (kind != Kind::kLegacy) stream->owner_ = context->shared_from_this();
  auto queue = context->hal().create_queue(static_cast<uint32_t>(-stream->priority_));
  if (!queue.ok()) {
    if (queue.status().code() != Code::kOutOfMemory || !context->legacy_stream()) {
      return queue.status();
    }
    // No free hardware channel: share the legacy stream's. Sharing only serialises;
    // every cross-stream wait targets work submitted earlier, so it cannot deadlock.
    stream->queue_ = context->legacy_stream()->queue_;
  } else {
    stream->queue_ = std::move(queue).value();
  }
  ASSIGN_OR_RETURN(stream->timeline_, context->device().hal().create_semaphore(0));
  context->add_stream(stream.get());
  // The legacy stream's record follows its context's (Context::create).
  if (kind != Kind::kLegacy) context->activity().emit_stream_record(*stream);
  return stream;
}

Stream::~Stream() {
  if (host_worker_) host_worker_->close();  // queued host functions still run
  context_->remove_stream(this);
}

bool Stream::blocking() const {
  return kind_ != Kind::kLegacy && (flags_ & CU_STREAM_NON_BLOCKING) == 0;
}

hal::SemaphoreValue Stream::tail() const { return {timeline_, value_.load()}; }

Status Stream::submit(std::shared_ptr<hal::CommandBuffer> command_buffer,
                      std::span<const hal::SemaphoreValue> waits,
                      std::span<const hal::SemaphoreValue> signals,
                      std::shared_ptr<void> keep_alive) {
  return submit_on(*queue_, std::move(command_buffer), waits, signals, std::move(keep_alive));
}

Status Stream::submit_with_priority(int priority,
                                    std::shared_ptr<hal::CommandBuffer> command_buffer,
                                    std::shared_ptr<void> keep_alive) {
  priority = std::clamp(priority, kGreatestStreamPriority, kLeastStreamPriority);
  if (priority == priority_) {
    return submit(std::move(command_buffer), {}, {}, std::move(keep_alive));
  }
  hal::Queue* queue;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    std::shared_ptr<hal::Queue>& slot = priority_queues_[-priority];
    if (!slot) {
      auto created = context_->hal().create_queue(static_cast<uint32_t>(-priority));
      if (!created.ok() && created.status().code() != Code::kOutOfMemory) return created.status();
      slot = created.ok() ? std::move(created).value() : queue_;  // no free channel: share
    }
    queue = slot.get();
  }
  return submit_on(*queue, std::move(command_buffer), {}, {}, std::move(keep_alive));
}

Status Stream::submit_on(hal::Queue& queue, std::shared_ptr<hal::CommandBuffer> command_buffer,
                         std::span<const hal::SemaphoreValue> waits,
                         std::span<const hal::SemaphoreValue> signals,
                         std::shared_ptr<void> keep_alive) {
  // The lists are built only when there is something to add, on the stack while they
  // are short, so that submissions do not allocate.
  SmallSemaphoreList all_waits;
  std::span<const hal::SemaphoreValue> wait_list = waits;
  auto add_wait = [&](hal::SemaphoreValue t) {
    if (t.value == 0) return;
    if (all_waits.empty()) all_waits.append(waits);
    all_waits.push_back(std::move(t));
    wait_list = all_waits.span();
  };
  // The legacy stream's implicit synchronisation.
  if (kind_ == Kind::kLegacy) {
    for (Stream* other : context_->blocking_streams(this)) add_wait(other->tail());
  } else if (blocking()) {
    add_wait(context_->legacy_stream()->tail());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  // Work that moves to another channel waits for the stream's work on the previous one.
  if (last_queue_ != nullptr && last_queue_ != &queue) add_wait({timeline_, value_.load()});
  uint64_t next = value_.load() + 1;
  const hal::SemaphoreValue own_signal{timeline_, next};
  SmallSemaphoreList all_signals;
  std::span<const hal::SemaphoreValue> signal_list(&own_signal, 1);
  if (!signals.empty()) {
    all_signals.append(signals);
    all_signals.push_back(own_signal);
    signal_list = all_signals.span();
  }
  // The profiler: the command buffer's work reports (activity.h).
  ActivityTracker::EntryPtr activity;
  if (prof::active() && command_buffer != nullptr && queue.reports_work()) {
    activity = context_->activity().prepare(*this, *command_buffer);
  }
  RETURN_IF_ERROR(queue.submit(command_buffer, wait_list, signal_list,
                               activity ? context_->activity().reports(*activity)
                                        : hal::WorkReports{}));
  if (activity) {
    context_->activity().commit(std::move(activity));
    context_->activity().harvest(/*wait=*/false);  // what completed meanwhile
  }
  last_queue_ = &queue;
  value_.store(next);
  if (keep_alive) retained_.emplace_back(next, std::move(keep_alive));
  if (!retained_.empty()) {
    auto done = timeline_->query();
    if (done.ok()) reap_locked(*done);
  }
  return ok_status();
}

StatusOr<std::shared_ptr<hal::CommandBuffer>> Stream::acquire_command_buffer() {
  {
    std::lock_guard<std::mutex> lock(recycled_mutex_);
    std::shared_ptr<hal::CommandBuffer>& oldest = recycled_[recycled_head_];
    // The queue drops completed submissions when polled: after a synchronisation the
    // oldest buffer is usually done but still referenced until then.
    if (recycled_count_ != 0 && oldest.use_count() != 1) {
      (void)queue_->wait_idle(std::chrono::nanoseconds(0));
    }
    // Only this ring holds it: the queue dropped it after its fence, so the GPU is done.
    if (recycled_count_ != 0 && oldest.use_count() == 1) {
      std::atomic_thread_fence(std::memory_order_acquire);
      std::shared_ptr<hal::CommandBuffer> cb = std::move(oldest);
      recycled_head_ = (recycled_head_ + 1) % kRecycledCommandBuffers;
      --recycled_count_;
      cb->reset();
      if (prof::active()) cb->describe_work(true);
      return cb;
    }
  }
  ASSIGN_OR_RETURN(std::shared_ptr<hal::CommandBuffer> cb, context_->hal().create_command_buffer());
  if (prof::active()) cb->describe_work(true);
  return cb;
}

void Stream::recycle(std::shared_ptr<hal::CommandBuffer> command_buffer) {
  std::lock_guard<std::mutex> lock(recycled_mutex_);
  if (recycled_count_ == kRecycledCommandBuffers) {  // full: forget the oldest
    recycled_[recycled_head_].reset();
    recycled_head_ = (recycled_head_ + 1) % kRecycledCommandBuffers;
    --recycled_count_;
  }
  recycled_[(recycled_head_ + recycled_count_) % kRecycledCommandBuffers] =
      std::move(command_buffer);
  ++recycled_count_;
}

void Stream::reap_locked(uint64_t completed) {
  while (!retained_.empty() && retained_.front().first <= completed) retained_.pop_front();
}

Status Stream::synchronize() {
  uint64_t target = value_.load();
  if (target > 0) {
    Status waited = timeline_->wait(target);
    context_->flush_printf_if_idle();
    RETURN_IF_ERROR(waited);
    // Let the queue drop its references to completed submissions now (a poll), so that
    // the reset below finds them free.
    (void)queue_->wait_idle(std::chrono::nanoseconds(0));
    if (prof::active()) context_->activity().harvest(/*wait=*/false);
  }
  std::lock_guard<std::mutex> lock(mutex_);
  reap_locked(target);
  // Completed recycled command buffers drop what they kept alive (executables,
  // semaphores), as a buffer the queue released used to.
  std::lock_guard<std::mutex> recycled_lock(recycled_mutex_);
  for (size_t i = 0; i < recycled_count_; ++i) {
    auto& cb = recycled_[(recycled_head_ + i) % kRecycledCommandBuffers];
    if (cb.use_count() == 1) cb->reset();
  }
  return ok_status();
}

Status Stream::query(bool observe) {
  uint64_t target = value_.load();
  if (target == 0) return ok_status();
  if (observe) return observe_completion(*timeline_, target, "stream has pending work");
  ASSIGN_OR_RETURN(uint64_t done, timeline_->query());
  if (done < target) return error(Code::kNotReady, "stream has pending work");
  return ok_status();
}

Status Stream::launch_host(std::function<void(const Status&)> fn) {
  std::lock_guard<std::mutex> host_lock(host_mutex_);
  if (!host_worker_) host_worker_ = HostWorker::start();
  // A barrier gathers the preceding work (and the implicit legacy-stream waits); the
  // worker waits for it, runs `fn`, then opens `gate`, which the work after it waits on.
  RETURN_IF_ERROR(submit(nullptr));
  uint64_t before = value_.load();
  ASSIGN_OR_RETURN(std::shared_ptr<hal::Semaphore> gate,
                   context_->device().hal().create_semaphore(0));
  hal::SemaphoreValue wait{gate, 1};
  RETURN_IF_ERROR(submit(nullptr, std::span<const hal::SemaphoreValue>(&wait, 1)));
  host_worker_->post([timeline = timeline_, before, gate, fn = std::move(fn)] {
    // In model time (base/virtual_time.h) the function runs on the worker when the work
    // before it has completed (the wait moves the worker's time there) and takes the
    // worker's CPU time; the gate's signal carries the time it ended at.
    Status status = timeline->wait(before);
    const uint64_t cpu_before = vt::cpu_ns();
    fn(status);
    vt::advance_by(vt::cpu_ns() - cpu_before);
    if (status.ok()) {
      (void)gate->signal(1);
    } else {
      gate->fail(status);
    }
  });
  return ok_status();
}

StatusOr<std::shared_ptr<Stream>> resolve_stream(Context& context, CUstream handle,
                                                 bool per_thread_default) {
  if (handle == CU_STREAM_LEGACY || (handle == nullptr && !per_thread_default)) {
    return context.legacy_stream();
  }
  if (handle == CU_STREAM_PER_THREAD || handle == nullptr) return context.per_thread_stream();
  std::shared_ptr<Stream> stream = handles().streams.find(handle);
  if (!stream) return error(Code::kInvalidHandle, fmt::format("stream {} is not a live stream",
                                                             fmt::ptr(handle)));
  if (&stream->context() != &context) {
    return error(Code::kInvalidHandle,
                 fmt::format("stream {} belongs to another context", fmt::ptr(handle)));
  }
  return stream;
}

}  // namespace strata::cuda::driver
