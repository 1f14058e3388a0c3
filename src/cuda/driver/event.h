// Event: a CUevent. Recording queues a device timestamp (unless
// CU_EVENT_DISABLE_TIMING) and a signal of the event's timeline semaphore on a stream;
// queries and waits look at the value of the latest record. An event never recorded is
// complete. Elapsed time comes from the device clock. Thread-safe.
#pragma once

#include <cuda.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>

#include "base/status.h"
#include "hal/buffer.h"
#include "hal/semaphore.h"

namespace strata::cuda::driver {

class Context;
class Stream;

class Event {
 public:
  static StatusOr<std::shared_ptr<Event>> create(Context& context, unsigned int flags);

  CUevent handle() { return reinterpret_cast<CUevent>(this); }
  Context& context() const { return *context_; }
  unsigned int flags() const { return flags_; }

  Status record(Stream& stream);
  Status synchronize();
  // OK when the latest record completed (or there is none), kNotReady otherwise.
  // `observe`: the application asked (cuEventQuery): answered in model time
  // (observe_completion).
  Status query(bool observe = false);
  // The latest record, as something a stream can wait for (value 0: none).
  hal::SemaphoreValue recorded();

  // cuEventElapsedTime: ms between two completed records. kInvalidHandle if either was
  // never recorded or has timing disabled, kNotReady if either is still pending.
  static StatusOr<float> elapsed_ms(Event& start, Event& end);

 private:
  Event(std::shared_ptr<Context> context, unsigned int flags)
      : context_(std::move(context)), flags_(flags) {}
  StatusOr<uint64_t> timestamp();

  std::shared_ptr<Context> context_;
  unsigned int flags_;
  std::shared_ptr<hal::Semaphore> semaphore_;
  std::shared_ptr<hal::Buffer> timestamp_;  // 8 bytes of host-pinned memory
  std::mutex mutex_;
  uint64_t value_ = 0;
};

// How a query the application makes (cuEventQuery, cuStreamQuery) answers in model time
// (docs/hw-contract.md, "Clock model"): it first lets the simulator finish the work
// (waiting up to kObserveWait of wall time, since the work may wait for the host), then
// reports completion only if the caller's host virtual time has reached the modeled
// completion time the semaphore carries. Each "not ready" costs the caller at least
// kNotReadyPollNs of virtual time, so a polling loop ends after a number of polls that
// depends only on modeled times (with STRATA_HOST_TIME=none).
inline constexpr std::chrono::milliseconds kObserveWait{200};
inline constexpr uint64_t kNotReadyPollNs = 100;
Status observe_completion(hal::Semaphore& semaphore, uint64_t value, const char* not_ready);

}  // namespace strata::cuda::driver
