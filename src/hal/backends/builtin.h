// The backends compiled into the HAL, registered by the registry on first use.
#pragma once

#include <vector>

#include "hal/backend.h"

namespace strata::hal {

std::vector<BackendInfo> builtin_backends();

// Each built-in backend's registration (backends/<name>/).
BackendInfo strata_backend_info();
BackendInfo null_backend_info();

}  // namespace strata::hal
