#include "hal/fault.h"

#include <fmt/format.h>

#include "kmd/fault_status.h"

namespace strata::hal {

Code fault_code(hw::FaultKind kind) { return kmd::fault_code(kind); }

Status DeviceFault::to_status() const {
  std::string where;
  if (kernel_id != 0) {
    const std::string kernel =
        kernel_name.empty() ? fmt::format("kernel id {}", kernel_id) : fmt::format("kernel '{}'", kernel_name);
    const std::string module = executable_name.empty() ? "" : fmt::format(" (module '{}')", executable_name);
    where = fmt::format(" in {}{} block ({},{},{}) thread ({},{},{}) pc {}", kernel, module, cta[0],
                        cta[1], cta[2], tid[0], tid[1], tid[2], pc);
  }
  return error(fault_code(kind), fmt::format("device fault on channel {}: {} at 0x{:x}{}", channel,
                                             hw::fault_kind_name(kind), address, where));
}

}  // namespace strata::hal
