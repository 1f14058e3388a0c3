// DeviceFault: what the HAL user learns when the GPU faults (illegal address, trap,
// assert, bad packet, ...). A fault is recorded against the Context whose channel
// faulted; the context's status becomes the fault's Status for good (sticky, as CUDA
// documents for illegal address, assert and launch failure), every semaphore with a
// signal pending in that context fails with the same Status, and later submissions to
// the context's queues fail. Other contexts, and new contexts on the same Device, are
// unaffected.
#pragma once

#include <cstdint>
#include <string>

#include "base/status.h"
#include "hw/contract/fault.h"

namespace strata::hal {

struct DeviceFault {
  hw::FaultKind kind = hw::FaultKind::kNone;
  uint64_t address = 0;        // faulting address (VA) where the kind has one
  uint32_t pc = 0;             // instruction index in the kernel
  uint32_t cta[3] = {0, 0, 0};
  uint32_t tid[3] = {0, 0, 0};
  uint32_t kernel_id = 0;      // Executable::kernel_id() of the launch; 0: not a kernel
  std::string executable_name; // resolved from kernel_id; empty if unknown
  std::string kernel_name;     // resolved from kernel_id; empty if unknown
  int channel = -1;            // hardware channel that faulted

  // "illegal address: access to an unmapped address at 0x7f00001000 in kernel 'k'
  //  (module 'm') block (1,0,0) thread (3,0,0) pc 12" with the CUDA-like code of
  // fault_code(kind).
  Status to_status() const;
};

// The Status code a fault kind maps to (kIllegalAddress, kMisalignedAddress, ...).
Code fault_code(hw::FaultKind kind);

}  // namespace strata::hal
