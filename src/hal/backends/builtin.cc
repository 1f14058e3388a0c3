#include "hal/backends/builtin.h"

namespace strata::hal {

std::vector<BackendInfo> builtin_backends() { return {strata_backend_info(), null_backend_info()}; }

}  // namespace strata::hal
