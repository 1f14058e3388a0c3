// Fault kinds reported in FAULT_KIND. The KMD turns them into sticky context errors.
#pragma once

#include <cstdint>

namespace strata::hw {

enum class FaultKind : uint32_t {
  kNone = 0,
  kUnmapped = 1,         // no valid PTE                      -> cudaErrorIllegalAddress
  kWriteProtect = 2,     // write through a read-only PTE      -> cudaErrorIllegalAddress
  kMisaligned = 3,       // address not aligned to access size -> cudaErrorMisalignedAddress
  kAddressSpace = 4,     // shared/local access outside window -> cudaErrorIllegalAddress
  kIllegalInstruction = 5,  // undecodable word               -> cudaErrorIllegalInstruction
  kTrap = 6,             // TRAP 0                              -> cudaErrorLaunchFailure
  kAssert = 7,           // TRAP 1 (device assert)              -> cudaErrorAssert
  kInvalidPc = 8,        // branch/fetch outside the code       -> cudaErrorInvalidPc
  kBadPacket = 9,        // malformed packet in a ring          -> cudaErrorLaunchFailure
  kHazard = 10,          // control bits violated (STRATA_CHECK_HAZARDS; address = register)
                         //                                     -> cudaErrorIllegalInstruction
};

const char* fault_kind_name(FaultKind kind);

}  // namespace strata::hw
