#include "hal/context.h"

#include <fmt/format.h>

#include "base/log.h"

namespace strata::hal {

StatusOr<std::shared_ptr<Queue>> Context::create_queue(uint32_t priority) {
  STRATA_LOG_DEBUG("hal: context {} create_queue (priority {})", static_cast<void*>(this),
                   priority);
  if (priority > kMaxQueuePriority) {
    return error(Code::kInvalidValue,
                 fmt::format("create_queue: priority {} is above {}", priority, kMaxQueuePriority));
  }
  RETURN_IF_ERROR(status());
  return do_create_queue(priority);
}

StatusOr<std::shared_ptr<CommandBuffer>> Context::create_command_buffer() {
  return do_create_command_buffer();
}

StatusOr<std::shared_ptr<Executable>> Context::load_executable(const ExecutableSpec& spec) {
  RETURN_IF_ERROR(Executable::validate(spec));
  STRATA_LOG_DEBUG("hal: context {} load_executable '{}' ({} bytes, {} kernels)",
                   static_cast<void*>(this), spec.name, spec.code.size(), spec.kernels.size());
  return do_load_executable(spec);
}

Status Context::status() {
  auto f = do_fault();
  return f ? f->to_status() : ok_status();
}

std::optional<DeviceFault> Context::fault() { return do_fault(); }

}  // namespace strata::hal
