// Kernel conformance cases: cp.async/mbarrier (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> async_cases() { return {}; }

}  // namespace strata::ptx_conformance
