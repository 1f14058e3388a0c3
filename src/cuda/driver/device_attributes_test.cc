#include "cuda/driver/device_attributes.h"

#include "cuda/driver/compute_capability.h"
#include "cuda/driver/proven_target.h"

#include <gtest/gtest.h>

namespace strata::cuda::driver {
namespace {

hw::ArchConfig test_arch() {
  hw::ArchConfig a;
  a.name = "test";
  a.compute_major = 7;  // below any proven PTX target, so reported as configured
  a.compute_minor = 5;
  a.sm_count = 7;
  a.core_clock_mhz = 1500;
  a.memory_clock_mhz = 7000;
  a.memory_bus_width_bits = 256;
  a.l2_bytes = 4 << 20;
  a.const_bytes = 65536;
  a.async_engines = 2;
  a.warp_size = 32;
  a.max_threads_per_block = 1024;
  a.max_block_dim_x = 1024;
  a.max_block_dim_y = 1024;
  a.max_block_dim_z = 64;
  a.max_grid_dim_x = 2147483647;
  a.max_grid_dim_y = 65535;
  a.max_grid_dim_z = 65535;
  a.max_threads_per_sm = 1536;
  a.max_blocks_per_sm = 16;
  a.registers_per_sm = 65536;
  a.registers_per_block = 65536;
  a.register_alloc_unit = 256;
  a.shared_bytes_per_sm = 102400;
  a.shared_bytes_per_block = 49152;
  a.shared_bytes_per_block_optin = 101376;
  a.reserved_shared_bytes_per_block = 1024;
  return a;
}

TEST(DeviceAttributes, LimitsComeFromTheConfig) {
  hw::ArchConfig a = test_arch();
  auto v = [&](CUdevice_attribute attr) { return *device_attribute(a, 0, attr); };
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT), 7);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), 7);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), 5);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_CLOCK_RATE), 1500000);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z), 64);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN), 101376);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR), 1536);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_WARP_SIZE), 32);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING), 1);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK), 1024);
}

// A config above what the conformance suite proves is reported at the proven target.
TEST(DeviceAttributes, ComputeCapabilityIsClampedToTheProvenPtxTarget) {
  hw::ArchConfig a = test_arch();
  a.compute_major = 12;
  a.compute_minor = 0;
  ASSERT_LT(kProvenPtxTarget, 120);
  auto v = [&](CUdevice_attribute attr) { return *device_attribute(a, 0, attr); };
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR), kProvenPtxTarget / 10);
  EXPECT_EQ(v(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR), kProvenPtxTarget % 10);
  a.compute_major = kProvenPtxTarget / 10;
  a.compute_minor = kProvenPtxTarget % 10;
  EXPECT_EQ(reported_compute_capability(a).major * 10 + reported_compute_capability(a).minor, kProvenPtxTarget);
}

TEST(DeviceAttributes, EveryDeclaredAttributeHasAValue) {
  hw::ArchConfig a = test_arch();
  for (int attr = 1; attr < CU_DEVICE_ATTRIBUTE_MAX; ++attr) {
    EXPECT_TRUE(device_attribute(a, 0, attr).ok()) << "attribute " << attr;
  }
}

TEST(DeviceAttributes, UnknownIsInvalidValue) {
  hw::ArchConfig a = test_arch();
  EXPECT_EQ(device_attribute(a, 0, 0).status().code(), Code::kInvalidValue);
  EXPECT_EQ(device_attribute(a, 0, CU_DEVICE_ATTRIBUTE_MAX).status().code(), Code::kInvalidValue);
  EXPECT_EQ(device_attribute(a, 0, -5).status().code(), Code::kInvalidValue);
  EXPECT_EQ(device_attribute(a, 0, 100000).status().code(), Code::kInvalidValue);
}

}  // namespace
}  // namespace strata::cuda::driver
