#include "base/status.h"

namespace strata {

const char* code_name(Code code) {
  switch (code) {
#define STRATA_CODE_CASE(c) \
  case Code::c:             \
    return #c;
    STRATA_CODE_CASE(kOk)
    STRATA_CODE_CASE(kInvalidValue)
    STRATA_CODE_CASE(kOutOfMemory)
    STRATA_CODE_CASE(kNotInitialized)
    STRATA_CODE_CASE(kDeinitialized)
    STRATA_CODE_CASE(kNoDevice)
    STRATA_CODE_CASE(kInvalidDevice)
    STRATA_CODE_CASE(kInvalidImage)
    STRATA_CODE_CASE(kInvalidContext)
    STRATA_CODE_CASE(kNoBinaryForGpu)
    STRATA_CODE_CASE(kInvalidPtx)
    STRATA_CODE_CASE(kUnsupportedPtxVersion)
    STRATA_CODE_CASE(kInvalidSource)
    STRATA_CODE_CASE(kFileNotFound)
    STRATA_CODE_CASE(kInvalidHandle)
    STRATA_CODE_CASE(kNotFound)
    STRATA_CODE_CASE(kNotReady)
    STRATA_CODE_CASE(kIllegalAddress)
    STRATA_CODE_CASE(kLaunchOutOfResources)
    STRATA_CODE_CASE(kLaunchTimeout)
    STRATA_CODE_CASE(kHardwareStackError)
    STRATA_CODE_CASE(kIllegalInstruction)
    STRATA_CODE_CASE(kMisalignedAddress)
    STRATA_CODE_CASE(kInvalidAddressSpace)
    STRATA_CODE_CASE(kInvalidPc)
    STRATA_CODE_CASE(kLaunchFailed)
    STRATA_CODE_CASE(kAssert)
    STRATA_CODE_CASE(kNotPermitted)
    STRATA_CODE_CASE(kNotSupported)
    STRATA_CODE_CASE(kInvalidConfiguration)
    STRATA_CODE_CASE(kUnknown)
#undef STRATA_CODE_CASE
  }
  return "kUnknown";
}

std::string Status::to_string() const {
  if (ok()) return "kOk";
  return std::string(code_name(code_)) + ": " + message_;
}

}  // namespace strata
