#include "hw/contract/fault.h"

namespace strata::hw {

const char* fault_kind_name(FaultKind kind) {
  switch (kind) {
    case FaultKind::kNone: return "none";
    case FaultKind::kUnmapped: return "access to an unmapped address";
    case FaultKind::kWriteProtect: return "write to a read-only page";
    case FaultKind::kMisaligned: return "misaligned address";
    case FaultKind::kAddressSpace: return "access outside the shared/local window";
    case FaultKind::kIllegalInstruction: return "illegal instruction";
    case FaultKind::kTrap: return "trap";
    case FaultKind::kAssert: return "device-side assert";
    case FaultKind::kInvalidPc: return "invalid program counter";
    case FaultKind::kBadPacket: return "malformed channel packet";
    case FaultKind::kHazard: return "scheduling hazard (control bits do not cover a dependency)";
  }
  return "unknown fault";
}

}  // namespace strata::hw
