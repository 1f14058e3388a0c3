#include "hal/semaphore.h"

#include "base/log.h"

namespace strata::hal {

StatusOr<uint64_t> Semaphore::query() { return do_query(); }

Status Semaphore::signal(uint64_t value) {
  STRATA_LOG_DEBUG("hal: semaphore {} signal {}", static_cast<void*>(this), value);
  return do_signal(value);
}

Status Semaphore::wait(uint64_t value, std::chrono::nanoseconds timeout) {
  if (timeout.count() < 0) return error(Code::kInvalidValue, "semaphore wait: negative timeout");
  STRATA_LOG_DEBUG("hal: semaphore {} wait {} (timeout {} ns)", static_cast<void*>(this), value,
                   timeout == kInfiniteTimeout ? -1 : static_cast<long long>(timeout.count()));
  return do_wait(value, timeout);
}

void Semaphore::fail(Status status) {
  if (status.ok()) status = error(Code::kUnknown, "semaphore failed with an OK status");
  STRATA_LOG_DEBUG("hal: semaphore {} fail: {}", static_cast<void*>(this), status.to_string());
  do_fail(std::move(status));
}

Status Semaphore::failure_status() { return do_failure_status(); }

}  // namespace strata::hal
