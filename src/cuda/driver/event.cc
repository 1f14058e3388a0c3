#include "cuda/driver/event.h"

#include <chrono>
#include <cstring>
#include <thread>

#include "base/log.h"
#include "base/virtual_time.h"
#include "cuda/driver/context.h"
#include "cuda/driver/device.h"
#include "cuda/driver/stream.h"
#include "fmt/format.h"
#include "prof/collector.h"

namespace strata::cuda::driver {

Status observe_completion(hal::Semaphore& semaphore, uint64_t value, const char* not_ready) {
  // Let the simulator catch up (bounded: the work may wait for the host).
  const auto deadline = std::chrono::steady_clock::now() + kObserveWait;
  while (true) {
    ASSIGN_OR_RETURN(uint64_t done, semaphore.query());
    if (done >= value) break;
    if (std::chrono::steady_clock::now() >= deadline) {
      vt::advance_by(kNotReadyPollNs);
      return error(Code::kNotReady, not_ready);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(20));
  }
  // Done in the simulator; done in model time once the host's time has reached it.
  if (vt::now_ns() < semaphore.signal_time_ns()) {
    vt::advance_by(kNotReadyPollNs);
    return error(Code::kNotReady, not_ready);
  }
  return ok_status();
}

StatusOr<std::shared_ptr<Event>> Event::create(Context& context, unsigned int flags) {
  constexpr unsigned int kKnown =
      CU_EVENT_BLOCKING_SYNC | CU_EVENT_DISABLE_TIMING | CU_EVENT_INTERPROCESS;
  if ((flags & ~kKnown) != 0) {
    return error(Code::kInvalidValue, fmt::format("cuEventCreate: unknown flags {:#x}", flags));
  }
  if ((flags & CU_EVENT_INTERPROCESS) != 0 && (flags & CU_EVENT_DISABLE_TIMING) == 0) {
    return error(Code::kInvalidValue,
                 "cuEventCreate: CU_EVENT_INTERPROCESS requires CU_EVENT_DISABLE_TIMING");
  }
  if ((flags & CU_EVENT_INTERPROCESS) != 0) {
    // CUDA IPC does not exist in Strata (api_ipc.cc): rejected as on systems without it.
    STRATA_LOG_WARN(
        "driver: cuEventCreate: CU_EVENT_INTERPROCESS events are not supported "
        "(Strata has no CUDA IPC); returning CUDA_ERROR_NOT_SUPPORTED");
    return error(Code::kNotSupported, "cuEventCreate: CU_EVENT_INTERPROCESS is not supported");
  }
  std::shared_ptr<Event> event(new Event(context.shared_from_this(), flags));
  ASSIGN_OR_RETURN(event->semaphore_, context.device().hal().create_semaphore(0));
  if ((flags & CU_EVENT_DISABLE_TIMING) == 0) {
    ASSIGN_OR_RETURN(event->timestamp_, context.hal().allocator().allocate_host(8));
  }
  return event;
}

Status Event::record(Stream& stream) {
  if (&stream.context() != context_.get()) {
    return error(Code::kInvalidHandle, "cuEventRecord: the stream and the event belong to "
                                       "different contexts");
  }
  std::shared_ptr<hal::CommandBuffer> cb;
  if (timestamp_) {
    ASSIGN_OR_RETURN(cb, stream.acquire_command_buffer());
    RETURN_IF_ERROR(cb->write_timestamp(timestamp_->va()));
    RETURN_IF_ERROR(cb->finalize());
  }
  std::lock_guard<std::mutex> lock(mutex_);
  hal::SemaphoreValue signal{semaphore_, value_ + 1};
  RETURN_IF_ERROR(stream.submit(cb, {}, std::span<const hal::SemaphoreValue>(&signal, 1)));
  if (cb) stream.recycle(std::move(cb));
  ++value_;
  return ok_status();
}

hal::SemaphoreValue Event::recorded() {
  std::lock_guard<std::mutex> lock(mutex_);
  return {semaphore_, value_};
}

Status Event::synchronize() {
  hal::SemaphoreValue r = recorded();
  if (r.value == 0) return ok_status();
  Status waited = r.semaphore->wait(r.value);
  context_->flush_printf_if_idle();
  if (prof::active()) context_->activity().harvest(/*wait=*/false);
  return waited;
}

Status Event::query(bool observe) {
  hal::SemaphoreValue r = recorded();
  if (r.value == 0) return ok_status();
  if (observe) return observe_completion(*r.semaphore, r.value, "event has not completed");
  ASSIGN_OR_RETURN(uint64_t done, r.semaphore->query());
  if (done < r.value) return error(Code::kNotReady, "event has not completed");
  return ok_status();
}

StatusOr<uint64_t> Event::timestamp() {
  if (!timestamp_) {
    return error(Code::kInvalidHandle, "cuEventElapsedTime: event created with "
                                       "CU_EVENT_DISABLE_TIMING");
  }
  if (recorded().value == 0) {
    return error(Code::kInvalidHandle, "cuEventElapsedTime: event has not been recorded");
  }
  RETURN_IF_ERROR(query());
  uint64_t ns;
  std::memcpy(&ns, timestamp_->host_ptr(), sizeof(ns));
  return ns;
}

StatusOr<float> Event::elapsed_ms(Event& start, Event& end) {
  ASSIGN_OR_RETURN(uint64_t t0, start.timestamp());
  ASSIGN_OR_RETURN(uint64_t t1, end.timestamp());
  double ms = (static_cast<double>(t1) - static_cast<double>(t0)) / 1e6;
  return static_cast<float>(ms);
}

}  // namespace strata::cuda::driver
