#include "hal/context.h"

#include "base/log.h"

namespace strata::hal {

StatusOr<std::shared_ptr<Queue>> Context::create_queue() {
  STRATA_LOG_DEBUG("hal: context {} create_queue", static_cast<void*>(this));
  RETURN_IF_ERROR(status());
  return do_create_queue();
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
