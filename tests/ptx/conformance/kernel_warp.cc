// Kernel conformance cases: shfl/vote/match/redux/activemask/bar/barrier (see kernel_cases.h).
#include "kernel_cases.h"

namespace strata::ptx_conformance {

std::vector<KernelCase> warp_cases() { return {}; }

}  // namespace strata::ptx_conformance
