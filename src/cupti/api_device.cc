// Device support and chip name queries (cupti_activity.h, cupti_target.h).
#define CUPTI_LIB 1
#include <cupti_activity.h>
#include <cupti_target.h>

#include <algorithm>
#include <iterator>

#include "base/log.h"
#include "cupti/driver.h"
#include "cupti/entry.h"
#include "cupti/session.h"

using strata::cupti::finish;
using strata::cupti::Session;

namespace {

struct ComputeCapability {
  int major, minor;
};

// The compute capabilities this version of CUPTI supports (cuptiComputeCapabilitySupported):
// those CUDA 13.0 builds for (`nvcc --list-gpu-arch`: compute_75 to compute_121; CUDA 13.0
// dropped Maxwell, Pascal and Volta, CUDA 13.0 release notes) less 8.8, for which NVIDIA's
// libcupti.so.13 of the same toolkit answers 0. The compute capabilities Strata's driver
// reports for the configs of arch/ are among them.
constexpr ComputeCapability kSupported[] = {
    {7, 5}, {8, 0}, {8, 6}, {8, 7}, {8, 9}, {9, 0}, {10, 0}, {10, 3}, {11, 0}, {12, 0}, {12, 1},
};

bool supported(int major, int minor) {
  return std::any_of(std::begin(kSupported), std::end(kSupported),
                     [&](ComputeCapability cc) { return cc.major == major && cc.minor == minor; });
}

}  // namespace

extern "C" {

CUptiResult CUPTIAPI cuptiComputeCapabilitySupported(int major, int minor, int* support) {
  if (support == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *support = supported(major, minor) ? 1 : 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiDeviceSupported(CUdevice dev, int* support) {
  using strata::cupti::device_attribute;
  if (support == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *support = 0;
  // Strata's CUPTI records through Strata's driver only: with another, nothing is supported.
  if (CUptiResult r = Session::get().initialize(); r != CUPTI_SUCCESS) return finish(r);
  int major = 0, minor = 0;
  if (CUptiResult r = device_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &major);
      r != CUPTI_SUCCESS) {
    return finish(r);
  }
  if (CUptiResult r = device_attribute(dev, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &minor);
      r != CUPTI_SUCCESS) {
    return finish(r);
  }
  *support = supported(major, minor) ? 1 : 0;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiDeviceGetChipName(CUpti_Device_GetChipName_Params* pParams) {
  // As NVIDIA's: the struct size must be this header's and pPriv NULL.
  if (pParams == nullptr || pParams->structSize != CUpti_Device_GetChipName_Params_STRUCT_SIZE ||
      pParams->pPriv != nullptr) {
    return finish(CUPTI_ERROR_INVALID_PARAMETER);
  }
  Session& session = Session::get();
  if (CUptiResult r = session.initialize(); r != CUPTI_SUCCESS) return finish(r);
  int count = 0;
  if (CUptiResult r = strata::cupti::device_count(&count); r != CUPTI_SUCCESS) return finish(r);
  if (pParams->deviceIndex >= static_cast<size_t>(count)) return finish(CUPTI_ERROR_INVALID_DEVICE);
  const char* name = session.chip_name(static_cast<uint32_t>(pParams->deviceIndex));
  if (name == nullptr) {
    STRATA_LOG_WARN(
        "libcupti: cuptiDeviceGetChipName: device {} has no context yet; Strata's driver "
        "describes a device when its first context is created",
        pParams->deviceIndex);
    return finish(CUPTI_ERROR_NOT_READY);
  }
  pParams->pChipName = name;
  return CUPTI_SUCCESS;
}

}  // extern "C"
