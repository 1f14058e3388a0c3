#include "cuda/driver/stream.h"

#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/handles.h"
#include "cuda/driver/host_worker.h"
#include "fmt/format.h"

namespace strata::cuda::driver {

StatusOr<std::shared_ptr<Stream>> Stream::create(Context* context, Kind kind, unsigned int flags) {
  static std::atomic<unsigned long long> next_id{1};
  std::shared_ptr<Stream> stream(new Stream(context, kind, flags));
  stream->id_ = next_id.fetch_add(1);
  if (kind != Kind::kLegacy) stream->owner_ = context->shared_from_this();
  auto queue = context->hal().create_queue();
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
  // The lists are built only when there is something to add, so that the common case (a
  // non-blocking stream, no extra semaphores) does not allocate.
  std::vector<hal::SemaphoreValue> all_waits;
  std::span<const hal::SemaphoreValue> wait_list = waits;
  auto add_wait = [&](hal::SemaphoreValue t) {
    if (t.value == 0) return;
    if (all_waits.empty()) all_waits.assign(waits.begin(), waits.end());
    all_waits.push_back(std::move(t));
    wait_list = all_waits;
  };
  // The legacy stream's implicit synchronisation.
  if (kind_ == Kind::kLegacy) {
    for (Stream* other : context_->blocking_streams(this)) add_wait(other->tail());
  } else if (blocking()) {
    add_wait(context_->legacy_stream()->tail());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  uint64_t next = value_.load() + 1;
  const hal::SemaphoreValue own_signal{timeline_, next};
  std::vector<hal::SemaphoreValue> all_signals;
  std::span<const hal::SemaphoreValue> signal_list(&own_signal, 1);
  if (!signals.empty()) {
    all_signals.assign(signals.begin(), signals.end());
    all_signals.push_back(own_signal);
    signal_list = all_signals;
  }
  RETURN_IF_ERROR(queue_->submit(command_buffer, wait_list, signal_list));
  value_.store(next);
  if (keep_alive) retained_.emplace_back(next, std::move(keep_alive));
  if (!retained_.empty()) {
    auto done = timeline_->query();
    if (done.ok()) reap_locked(*done);
  }
  return ok_status();
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
  }
  std::lock_guard<std::mutex> lock(mutex_);
  reap_locked(target);
  return ok_status();
}

Status Stream::query() {
  uint64_t target = value_.load();
  if (target == 0) return ok_status();
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
    Status status = timeline->wait(before);
    fn(status);
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
