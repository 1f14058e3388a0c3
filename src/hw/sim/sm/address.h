// Address resolution for memory instructions: generic addresses through the shared and
// local windows or the channel's page tables; SHARED/LOCAL space offsets into the CTA's
// shared memory or the thread's local memory.
#pragma once

#include <cstdint>

#include "hw/sim/sm/state.h"

namespace strata::hw::sim {

// The address lane `lane` of a memory instruction accesses: [Ra + imm] where Ra is a
// 64-bit pair for GENERIC/GLOBAL/CONST and a 32-bit offset (wrapping) for SHARED/LOCAL;
// RZ as Ra makes the immediate absolute.
inline uint64_t lane_address(const ExecContext& c, const DecodedInst& in, int lane) {
  const uint32_t* a = c.row(in.a);
  const isa::MemSpace s = in.inst.space;
  if (s == isa::MemSpace::SHARED || s == isa::MemSpace::LOCAL) {
    return static_cast<uint32_t>(a[lane] + in.imm);
  }
  const uint64_t base = static_cast<uint64_t>(a[lane]) | (static_cast<uint64_t>(a[32 + lane]) << 32);
  return base + static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(in.imm)));
}

// Host pointer for `size` bytes at `addr` in `space` for `lane`, or nullptr with *fault
// set. Misaligned accesses fault kMisaligned; shared/local accesses outside the CTA's
// shared memory or the thread's local memory fault kAddressSpace; global accesses fault
// as the Tlb says. CONST space is read-only global memory.
uint8_t* resolve_address(ExecContext& c, isa::MemSpace space, uint64_t addr, uint32_t size, bool write, int lane,
                         FaultKind* fault);

}  // namespace strata::hw::sim
