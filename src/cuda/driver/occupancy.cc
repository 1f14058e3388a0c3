#include "cuda/driver/occupancy.h"

#include <algorithm>

namespace strata::cuda::driver {
namespace {

int64_t round_up(int64_t value, int64_t unit) {
  return (value + unit - 1) / unit * unit;
}

}  // namespace

int64_t max_active_blocks_per_sm(const hw::ArchConfig& arch, const OccupancyInput& in) {
  int64_t thread_limit = arch.max_threads_per_block;
  if (in.max_threads_per_block > 0) thread_limit = std::min(thread_limit, in.max_threads_per_block);
  if (in.block_size <= 0 || in.block_size > thread_limit) return 0;
  const int64_t warps_per_block = (in.block_size + arch.warp_size - 1) / arch.warp_size;
  const int64_t max_warps_per_sm = arch.max_threads_per_sm / arch.warp_size;
  int64_t blocks = std::min<int64_t>(arch.max_blocks_per_sm, max_warps_per_sm / warps_per_block);

  if (in.regs_per_thread > 0) {
    const int64_t regs_per_warp =
        round_up(in.regs_per_thread * arch.warp_size, arch.register_alloc_unit);
    if (regs_per_warp * warps_per_block > arch.registers_per_block) return 0;
    const int64_t warps_by_regs = arch.registers_per_sm / regs_per_warp;
    blocks = std::min(blocks, warps_by_regs / warps_per_block);
  }

  const int64_t shared = in.static_shared_bytes + in.dynamic_shared_bytes;
  if (shared > arch.shared_bytes_per_block_optin) return 0;
  const int64_t shared_per_block =
      round_up(shared + arch.reserved_shared_bytes_per_block, kSharedAllocUnit);
  if (shared_per_block > 0) blocks = std::min(blocks, arch.shared_bytes_per_sm / shared_per_block);
  return std::max<int64_t>(blocks, 0);
}

}  // namespace strata::cuda::driver
