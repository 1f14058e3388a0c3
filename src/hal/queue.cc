#include "hal/queue.h"

#include <fmt/format.h>

#include "base/log.h"

namespace strata::hal {
namespace {

Status check_values(std::span<const SemaphoreValue> values, const char* what) {
  for (const SemaphoreValue& v : values) {
    if (v.semaphore == nullptr || v.value == 0) {
      return error(Code::kInvalidValue, fmt::format("submit: {} list has a null semaphore or value 0", what));
    }
  }
  return ok_status();
}

}  // namespace

Status Queue::submit(const std::shared_ptr<CommandBuffer>& command_buffer,
                     std::span<const SemaphoreValue> wait, std::span<const SemaphoreValue> signal,
                     const WorkReports& reports) {
  if (command_buffer != nullptr && !command_buffer->finalized()) {
    return error(Code::kInvalidValue, "submit: command buffer is not finalized");
  }
  RETURN_IF_ERROR(check_values(wait, "wait"));
  RETURN_IF_ERROR(check_values(signal, "signal"));
  STRATA_LOG_DEBUG("hal: queue {} submit ({} commands, {} waits, {} signals)", channel(),
                   command_buffer ? command_buffer->command_count() : 0, wait.size(), signal.size());
  if (reports.va % 8 != 0) {
    return error(Code::kInvalidValue, "submit: work report address is not 8-byte aligned");
  }
  return do_submit(command_buffer, wait, signal, reports);
}

Status Queue::wait_idle(std::chrono::nanoseconds timeout) {
  if (timeout.count() < 0) return error(Code::kInvalidValue, "wait_idle: negative timeout");
  STRATA_LOG_DEBUG("hal: queue {} wait_idle", channel());
  return do_wait_idle(timeout);
}

}  // namespace strata::hal
