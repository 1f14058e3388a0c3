// CUdevice_attribute values derived from the architecture config.
//
// Every attribute cuda.h declares (up to CU_DEVICE_ATTRIBUTE_MAX) has a defined value:
// limits come from hw::ArchConfig; capabilities Strata has answer 1, those it does not
// (IPC, MPS, ...) answer 0 or the limit 0. An attribute number that
// cuda.h does not declare yields Code::kInvalidValue. Pure function; thread-safe.
#pragma once

#include <cuda.h>

#include "base/status.h"
#include "hw/config/arch_config.h"

namespace strata::cuda::driver {

// `ordinal` is the device's index (reported as the PCI device id).
StatusOr<int> device_attribute(const hw::ArchConfig& config, int ordinal, int attribute);

}  // namespace strata::cuda::driver
