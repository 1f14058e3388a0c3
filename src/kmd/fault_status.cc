#include "kmd/fault_status.h"

#include <fmt/format.h>

namespace strata::kmd {

Code fault_code(hw::FaultKind kind) {
  switch (kind) {
    case hw::FaultKind::kUnmapped:
    case hw::FaultKind::kWriteProtect:
    case hw::FaultKind::kAddressSpace: return Code::kIllegalAddress;
    case hw::FaultKind::kMisaligned: return Code::kMisalignedAddress;
    case hw::FaultKind::kIllegalInstruction:
    case hw::FaultKind::kHazard: return Code::kIllegalInstruction;
    case hw::FaultKind::kAssert: return Code::kAssert;
    case hw::FaultKind::kInvalidPc: return Code::kInvalidPc;
    case hw::FaultKind::kTrap:
    case hw::FaultKind::kBadPacket:
    case hw::FaultKind::kNone: return Code::kLaunchFailed;
  }
  return Code::kLaunchFailed;
}

Status fault_status(const KmdContextQueryFault& r) {
  std::string where;
  if (r.kernel_id != 0) {
    where = fmt::format(" in kernel id {} block ({},{},{}) thread ({},{},{}) pc {}", r.kernel_id,
                        r.cta[0], r.cta[1], r.cta[2], r.tid[0], r.tid[1], r.tid[2], r.pc);
  }
  return error(fault_code(r.kind),
               fmt::format("device fault on channel {}: {} at 0x{:x}{}", r.channel,
                           hw::fault_kind_name(r.kind), r.address, where));
}

}  // namespace strata::kmd
