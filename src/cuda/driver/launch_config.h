// Launch validation and kernel-parameter packing for cuLaunchKernel: pure functions of
// the kernel descriptor, the device limits and the caller's arguments (no HAL), so the
// rules are unit-testable on their own. Thread-safe.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"
#include "hw/config/arch_config.h"

namespace strata::cuda::driver {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  uint64_t count() const { return uint64_t{x} * y * z; }
};

struct LaunchShape {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamic_shared_bytes = 0;
};

// Checks `shape` against the device limits and the kernel's needs, as cuLaunchKernel
// does. `max_dynamic_shared_bytes` is the function's
// CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES exactly as set (below or, opted in,
// above the default limit); 0: never set, default_max_dynamic_shared applies.
// Errors: kInvalidValue (zero or too-large dimensions, too many threads, too much shared
// memory, a block that violates .reqntid/.maxntid), kLaunchOutOfResources (registers).
Status validate_launch(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch,
                       const LaunchShape& shape, uint32_t max_dynamic_shared_bytes);

// Cooperative launches: the most blocks of `kernel` with `shape`'s block and dynamic
// shared memory that can be resident on the device at once (the occupancy calculator's
// blocks per SM, occupancy.h, x SMs).
int64_t max_co_resident_blocks(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch,
                               const LaunchShape& shape);
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE (a Status carrying that code) when the grid
// has more blocks than max_co_resident_blocks: they could not all be resident at once,
// and a grid-wide barrier could deadlock.
Status check_co_resident(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch,
                         const LaunchShape& shape);

// The default (no opt-in) dynamic shared memory a kernel may request.
uint32_t default_max_dynamic_shared(const sxbin::KernelDesc& kernel, const hw::ArchConfig& arch);

// Builds the c[0] parameter block (kernel.param_bytes bytes) from cuLaunchKernel's
// kernelParams (one pointer per parameter, in declaration order) or `extra`
// (CU_LAUNCH_PARAM_BUFFER_POINTER / CU_LAUNCH_PARAM_BUFFER_SIZE / CU_LAUNCH_PARAM_END).
// Exactly one of them must describe the parameters (both null is fine for a kernel
// without parameters). The pointers are the caller's; they must be readable.
// Errors: kInvalidValue (both given, a null parameter pointer, a malformed or too short
// `extra` buffer, missing parameters).
StatusOr<std::vector<uint8_t>> pack_params(const sxbin::KernelDesc& kernel, void** kernel_params,
                                           void** extra);
// The same into `block`, of exactly kernel.param_bytes (the caller's storage: no
// allocation).
Status pack_params_into(const sxbin::KernelDesc& kernel, void** kernel_params, void** extra,
                        std::span<uint8_t> block);

}  // namespace strata::cuda::driver
