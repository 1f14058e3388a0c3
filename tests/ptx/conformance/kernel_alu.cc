// Kernel conformance cases: multi-instruction ALU forms such as carry chains (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> alu_cases() { return {}; }

}  // namespace strata::ptx_conformance
