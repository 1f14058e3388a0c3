// Cases computed by hand as the CUDA Occupancy Calculator does for CC 8.0 (A100:
// 64 warps, 32 blocks, 64K registers in units of 256 per warp, 164 KiB shared per SM,
// 1 KiB reserved per block, 163 KiB per block with opt-in).
#include "cuda/driver/occupancy.h"

#include <gtest/gtest.h>

namespace strata::cuda::driver {
namespace {

hw::ArchConfig a100() {
  hw::ArchConfig a;
  a.warp_size = 32;
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

int64_t blocks(int64_t threads, int64_t regs, int64_t static_shared = 0, int64_t dynamic = 0,
               int64_t kernel_max_threads = 0) {
  return max_active_blocks_per_sm(a100(),
                                  {threads, regs, static_shared, dynamic, kernel_max_threads});
}

TEST(Occupancy, WarpLimited) {
  EXPECT_EQ(blocks(256, 32), 8);   // 64 warps / 8; 32 regs x 32 = 1024 per warp, 64 warps fit
  EXPECT_EQ(blocks(1024, 32), 2);  // 64 / 32 warps
  EXPECT_EQ(blocks(97, 0), 16);    // 97 threads round up to 4 warps
}

TEST(Occupancy, BlockSlotLimited) {
  EXPECT_EQ(blocks(32, 0), 32);  // 64 warps would allow 64; 32 block slots
  EXPECT_EQ(blocks(1, 16), 32);
}

TEST(Occupancy, RegisterLimited) {
  EXPECT_EQ(blocks(128, 64), 8);    // 2048 regs/warp -> 32 warps -> 8 blocks of 4 warps
  EXPECT_EQ(blocks(256, 37), 6);    // 1184 -> 1280 regs/warp -> 51 warps -> 6 blocks of 8
  EXPECT_EQ(blocks(256, 128), 2);   // 4096 regs/warp -> 16 warps -> 2 blocks
  EXPECT_EQ(blocks(1024, 255), 0);  // 8192 regs/warp x 32 warps > 64K registers per block
}

TEST(Occupancy, SharedMemoryLimited) {
  EXPECT_EQ(blocks(128, 32, 49152), 3);        // 50176 B per block -> 3 in 164 KiB
  EXPECT_EQ(blocks(128, 32, 0, 100000), 1);    // 101024 -> 101120 B
  EXPECT_EQ(blocks(128, 32, 1000, 1000), 16);  // 3024 -> 3072 B: 54 fit; 16 by warps
  EXPECT_EQ(blocks(64, 0, 4000, 0), 32);       // 5024 -> 5120 B: 32 fit exactly
  EXPECT_EQ(blocks(64, 0, 4300, 0), 31);       // 5324 -> 5376 B: 31 fit
  EXPECT_EQ(blocks(128, 32, 0, 166912), 1);    // exactly the opt-in limit
  EXPECT_EQ(blocks(128, 32, 0, 166913), 0);    // over it
}

TEST(Occupancy, BlockTooLarge) {
  EXPECT_EQ(blocks(0, 32), 0);
  EXPECT_EQ(blocks(1025, 32), 0);
  EXPECT_EQ(blocks(512, 32, 0, 0, 256), 0);  // the kernel's .maxntid
  EXPECT_EQ(blocks(256, 32, 0, 0, 256), 8);
}

}  // namespace
}  // namespace strata::cuda::driver
