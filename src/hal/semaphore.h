// Semaphore: a timeline semaphore (a monotonically increasing u64), the HAL's one
// synchronisation primitive. CUDA events, stream waits and stream synchronisation are
// built on it.
//
// - The host signals (signal) and waits (wait) on it; queues signal and wait on it in
//   submissions and command buffers (queue.h, command_buffer.h). A semaphore created on
//   a Device may be used by every queue of every Context on that Device, and waited on
//   (not signalled) by queues of other Devices of the same backend (cross-device
//   ordering, e.g. copies between devices).
// - A semaphore can fail: a device fault in a context that has a signal of this
//   semaphore pending fails it with the fault's Status (fault.h); fail() does so
//   explicitly. A failed semaphore stays failed: query/wait/signal return that Status.
//   Device-side waiters in other contexts are not released by a failure.
// Thread-safe. Shared ownership; the backend keeps a semaphore alive while submitted
// work refers to it.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>

#include "base/status.h"

namespace strata::hal {

inline constexpr std::chrono::nanoseconds kInfiniteTimeout = std::chrono::nanoseconds::max();

class Semaphore {
 public:
  virtual ~Semaphore() = default;
  Semaphore(const Semaphore&) = delete;
  Semaphore& operator=(const Semaphore&) = delete;

  // The current value, or the failure Status.
  StatusOr<uint64_t> query();

  // Host signal: sets the value to `value`, which must be greater than the current one
  // (kInvalidValue otherwise), and wakes host and device waiters.
  Status signal(uint64_t value);

  // Blocks until the value is >= `value` (OK), the semaphore fails (its Status) or
  // `timeout` passes (kNotReady, "timed out"). timeout 0 polls.
  Status wait(uint64_t value, std::chrono::nanoseconds timeout = kInfiniteTimeout);

  // Fails the semaphore with `status` (must not be OK; an OK status becomes kUnknown).
  // The first failure wins. Wakes all waiters.
  void fail(Status status);

  // OK, or the Status it failed with.
  Status failure_status();

  // The modeled time (host virtual time base, ns; docs/hw-contract.md "Clock model") at
  // which the current value was signalled; 0 where the backend does not model time.
  uint64_t signal_time_ns() { return do_signal_time_ns(); }

 protected:
  Semaphore() = default;
  virtual StatusOr<uint64_t> do_query() = 0;
  virtual Status do_signal(uint64_t value) = 0;
  virtual Status do_wait(uint64_t value, std::chrono::nanoseconds timeout) = 0;
  virtual void do_fail(Status status) = 0;
  virtual Status do_failure_status() = 0;
  virtual uint64_t do_signal_time_ns() { return 0; }
};

// A (semaphore, value) pair: "wait until >= value" or "signal to value".
struct SemaphoreValue {
  std::shared_ptr<Semaphore> semaphore;
  uint64_t value = 0;
};

}  // namespace strata::hal
