// How a hardware fault record becomes a Status: the code CUDA reports for the kind,
// and a message naming kind, address, channel, kernel id, block and thread. The HAL
// adds kernel and module names on top.
#pragma once

#include "base/status.h"
#include "hw/contract/fault.h"
#include "kmd/uapi.h"

namespace strata::kmd {

// kIllegalAddress, kMisalignedAddress, kIllegalInstruction, kAssert, kInvalidPc,
// kLaunchFailed.
Code fault_code(hw::FaultKind kind);

// `record` must have faulted == 1.
Status fault_status(const KmdContextQueryFault& record);

}  // namespace strata::kmd
