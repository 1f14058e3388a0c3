// Kernel conformance cases: wmma/mma/ldmatrix/stmatrix (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> tensor_cases() { return {}; }

}  // namespace strata::ptx_conformance
