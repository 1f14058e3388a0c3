// Occupancy: how many blocks of a kernel fit on one SM, computed the way NVIDIA's CUDA
// Occupancy Calculator does from the architecture limits (warps, blocks, registers,
// shared memory) and the kernel's resource use. Pure functions; thread-safe.
#pragma once

#include <cstdint>

#include "hw/config/arch_config.h"

namespace strata::cuda::driver {

// Shared memory is allocated to blocks in units of this many bytes (CUDA Occupancy
// Calculator, "Shared Memory Allocation Unit Size", CC 7.0 and later).
inline constexpr int64_t kSharedAllocUnit = 128;

struct OccupancyInput {
  int64_t block_size = 0;       // threads per block, > 0
  int64_t regs_per_thread = 0;  // 0: registers do not limit
  int64_t static_shared_bytes = 0;
  int64_t dynamic_shared_bytes = 0;
  int64_t max_threads_per_block = 0;  // the kernel's limit (0: the device's)
};

// Resident blocks per SM: the minimum of the warp, block-slot, register and shared
// memory limits. Registers are allocated per warp, rounded up to
// arch.register_alloc_unit; shared memory per block is static + dynamic + the reserved
// per-block shared memory, rounded up to kSharedAllocUnit, out of shared_bytes_per_sm.
// 0 when one block alone does not fit (too many threads, registers or shared memory).
int64_t max_active_blocks_per_sm(const hw::ArchConfig& arch, const OccupancyInput& in);

}  // namespace strata::cuda::driver
