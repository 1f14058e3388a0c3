#include "cuda/driver/launch_config.h"

#include <cuda.h>
#include <gtest/gtest.h>

#include <cstring>

namespace strata::cuda::driver {
namespace {

hw::ArchConfig arch() {
  hw::ArchConfig a;
  a.warp_size = 32;
  a.max_threads_per_block = 1024;
  a.max_block_dim_x = 1024;
  a.max_block_dim_y = 1024;
  a.max_block_dim_z = 64;
  a.max_grid_dim_x = 2147483647;
  a.max_grid_dim_y = 65535;
  a.max_grid_dim_z = 65535;
  a.registers_per_block = 65536;
  a.register_alloc_unit = 256;
  a.shared_bytes_per_block = 49152;
  a.shared_bytes_per_block_optin = 101376;
  return a;
}

sxbin::KernelDesc kernel() {
  sxbin::KernelDesc k;
  k.name = "k";
  k.regs_per_thread = 32;
  k.shared_bytes = 1024;
  k.params = {{0, 8, 8}, {8, 4, 4}, {16, 8, 8}};
  k.param_bytes = 24;
  return k;
}

LaunchShape shape(uint32_t gx, uint32_t bx, uint32_t by = 1, uint32_t bz = 1, uint32_t shm = 0) {
  return {{gx, 1, 1}, {bx, by, bz}, shm};
}

TEST(ValidateLaunch, AcceptsOrdinaryShapes) {
  EXPECT_TRUE(validate_launch(kernel(), arch(), shape(1000, 256), 0).ok());
  EXPECT_TRUE(validate_launch(kernel(), arch(), shape(1, 1024), 0).ok());
}

TEST(ValidateLaunch, RejectsBadDimensions) {
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(0, 32), 0).code(), Code::kInvalidValue);
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(1, 0), 0).code(), Code::kInvalidValue);
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(1, 1025), 0).code(), Code::kInvalidValue);
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(1, 32, 32, 2), 0).code(), Code::kInvalidValue);
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(1, 1, 1, 65), 0).code(), Code::kInvalidValue);
  LaunchShape tall{{1, 65536, 1}, {1, 1, 1}, 0};
  EXPECT_EQ(validate_launch(kernel(), arch(), tall, 0).code(), Code::kInvalidValue);
}

TEST(ValidateLaunch, SharedMemoryNeedsOptIn) {
  EXPECT_TRUE(validate_launch(kernel(), arch(), shape(1, 32, 1, 1, 48128), 0).ok());
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(1, 32, 1, 1, 48129), 0).code(),
            Code::kInvalidValue);
  EXPECT_TRUE(validate_launch(kernel(), arch(), shape(1, 32, 1, 1, 90000), 90000).ok());
  EXPECT_EQ(validate_launch(kernel(), arch(), shape(1, 32, 1, 1, 101000), 101000).code(),
            Code::kInvalidValue);
}

TEST(ValidateLaunch, TooManyRegistersIsOutOfResources) {
  sxbin::KernelDesc k = kernel();
  k.regs_per_thread = 255;
  EXPECT_EQ(validate_launch(k, arch(), shape(1, 1024), 0).code(), Code::kLaunchOutOfResources);
  EXPECT_TRUE(validate_launch(k, arch(), shape(1, 256), 0).ok());
}

TEST(ValidateLaunch, HonoursReqntidAndMaxntid) {
  sxbin::KernelDesc k = kernel();
  k.reqntid[0] = 128;
  EXPECT_TRUE(validate_launch(k, arch(), shape(1, 128), 0).ok());
  EXPECT_EQ(validate_launch(k, arch(), shape(1, 64), 0).code(), Code::kInvalidValue);
  k = kernel();
  k.max_threads_per_block = 256;
  EXPECT_EQ(validate_launch(k, arch(), shape(1, 512), 0).code(), Code::kInvalidValue);
}

TEST(PackParams, FromKernelParams) {
  uint64_t a = 0x1122334455667788;
  int32_t b = -7;
  uint64_t c = 42;
  void* params[] = {&a, &b, &c};
  auto block = pack_params(kernel(), params, nullptr);
  ASSERT_TRUE(block.ok());
  ASSERT_EQ(block->size(), 24u);
  uint64_t a2;
  int32_t b2;
  uint64_t c2;
  std::memcpy(&a2, block->data(), 8);
  std::memcpy(&b2, block->data() + 8, 4);
  std::memcpy(&c2, block->data() + 16, 8);
  EXPECT_EQ(a2, a);
  EXPECT_EQ(b2, b);
  EXPECT_EQ(c2, c);
}

TEST(PackParams, FromExtraBuffer) {
  uint8_t buffer[24];
  for (int i = 0; i < 24; ++i) buffer[i] = static_cast<uint8_t>(i);
  size_t size = sizeof(buffer);
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buffer, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  auto block = pack_params(kernel(), nullptr, extra);
  ASSERT_TRUE(block.ok());
  EXPECT_EQ(std::memcmp(block->data(), buffer, 24), 0);
  size = 16;
  EXPECT_EQ(pack_params(kernel(), nullptr, extra).status().code(), Code::kInvalidValue);
}

TEST(PackParams, RejectsBadArguments) {
  uint64_t a = 0;
  void* params[] = {&a, nullptr, &a};
  EXPECT_EQ(pack_params(kernel(), params, nullptr).status().code(), Code::kInvalidValue);
  EXPECT_EQ(pack_params(kernel(), nullptr, nullptr).status().code(), Code::kInvalidValue);
  void* extra[] = {CU_LAUNCH_PARAM_END};
  void* good[] = {&a, &a, &a};
  EXPECT_EQ(pack_params(kernel(), good, extra).status().code(), Code::kInvalidValue);
  sxbin::KernelDesc none;
  EXPECT_TRUE(pack_params(none, nullptr, nullptr).ok());
}

}  // namespace
}  // namespace strata::cuda::driver
