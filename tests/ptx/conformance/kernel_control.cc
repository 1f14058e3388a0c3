// Kernel conformance cases: bra/call/ret/exit/trap/nanosleep/special registers (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> control_cases() { return {}; }

}  // namespace strata::ptx_conformance
