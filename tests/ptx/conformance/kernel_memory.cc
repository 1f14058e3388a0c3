// Kernel conformance cases: ld/st/atom/red/cvta/fence/membar (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> memory_cases() { return {}; }

}  // namespace strata::ptx_conformance
