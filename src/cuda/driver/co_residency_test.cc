// The cooperative-launch co-residency rule (launch_config.h, check_co_resident): a grid
// may have at most the CUDA Occupancy Calculator's blocks per SM x SMs blocks, else
// CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE. The limits below are worked out by hand from
// the calculator's rules for CC 8.0 (CUDA Programming Guide, "Technical Specifications
// per Compute Capability").
#include <cuda.h>
#include <gtest/gtest.h>

#include "cuda/driver/launch_config.h"

namespace strata::cuda::driver {
namespace {

hw::ArchConfig a100_like() {
  hw::ArchConfig a;
  a.warp_size = 32;
  a.sm_count = 108;
  a.max_threads_per_block = 1024;
  a.max_threads_per_sm = 2048;
  a.max_blocks_per_sm = 32;
  a.registers_per_sm = 65536;
  a.registers_per_block = 65536;
  a.register_alloc_unit = 256;
  a.shared_bytes_per_sm = 167936;
  a.shared_bytes_per_block = 49152;
  a.shared_bytes_per_block_optin = 166912;
  a.reserved_shared_bytes_per_block = 1024;
  return a;
}

sxbin::KernelDesc kernel(uint32_t regs, uint32_t shared) {
  sxbin::KernelDesc k;
  k.name = "coop";
  k.regs_per_thread = regs;
  k.shared_bytes = shared;
  return k;
}

LaunchShape grid(uint32_t blocks, uint32_t threads, uint32_t dynamic_shared = 0) {
  return {{blocks, 1, 1}, {threads, 1, 1}, dynamic_shared};
}

TEST(CoResidency, WarpLimited) {
  // 256 threads = 8 warps; 64 warps per SM -> 8 blocks per SM; 32 registers do not limit
  // (32 x 32 = 1024 per warp, 64 warps), no shared memory but the 1 KiB reserved ->
  // 164 blocks by shared memory.
  const auto k = kernel(32, 0);
  EXPECT_EQ(max_co_resident_blocks(k, a100_like(), grid(1, 256)), 8 * 108);
  EXPECT_TRUE(check_co_resident(k, a100_like(), grid(8 * 108, 256)).ok());
  Status s = check_co_resident(k, a100_like(), grid(8 * 108 + 1, 256));
  EXPECT_EQ(static_cast<int>(s.code()), static_cast<int>(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE));
}

TEST(CoResidency, RegisterAndSharedLimited) {
  // 128 registers: 4096 per warp, 16 warps per SM -> 4 blocks of 128 threads (4 warps).
  EXPECT_EQ(max_co_resident_blocks(kernel(128, 0), a100_like(), grid(1, 128)), 4 * 108);
  // 40 KiB static + 8 KiB dynamic + 1 KiB reserved = 49 KiB -> 167936 / 50176 = 3.
  EXPECT_EQ(max_co_resident_blocks(kernel(16, 40 * 1024), a100_like(), grid(1, 64, 8 * 1024)),
            3 * 108);
  EXPECT_FALSE(check_co_resident(kernel(16, 40 * 1024), a100_like(), grid(325, 64, 8192)).ok());
  // A 2-D grid counts all of its blocks.
  LaunchShape two_d{{18, 18, 1}, {64, 1, 1}, 8192};
  EXPECT_TRUE(check_co_resident(kernel(16, 40 * 1024), a100_like(), two_d).ok());  // 324
}

TEST(CoResidency, BlockThatDoesNotFitAllowsNone) {
  EXPECT_EQ(max_co_resident_blocks(kernel(255, 0), a100_like(), grid(1, 1024)), 0);
  EXPECT_FALSE(check_co_resident(kernel(255, 0), a100_like(), grid(1, 1024)).ok());
}

}  // namespace
}  // namespace strata::cuda::driver
