#include "cuda/driver/compute_capability.h"

#include <mutex>
#include <set>
#include <string>

#include "base/log.h"
#include "cuda/driver/proven_target.h"

namespace strata::cuda::driver {

ComputeCapability reported_compute_capability(const hw::ArchConfig& arch) {
  int config = static_cast<int>(arch.compute_major * 10 + arch.compute_minor);
  if (config <= kProvenPtxTarget) {
    return {static_cast<int>(arch.compute_major), static_cast<int>(arch.compute_minor)};
  }
  static std::mutex mutex;
  static std::set<std::string> logged;
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (logged.insert(arch.name).second) {
      STRATA_LOG_INFO("arch config {} has compute capability {}.{}; Strata reports {}.{}, the highest PTX "
                      "target its conformance suite proves (docs/ptx-coverage.md)",
                      arch.name, arch.compute_major, arch.compute_minor, kProvenPtxTarget / 10,
                      kProvenPtxTarget % 10);
    }
  }
  return {kProvenPtxTarget / 10, kProvenPtxTarget % 10};
}

}  // namespace strata::cuda::driver
