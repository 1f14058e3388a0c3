#include "cuda/runtime/error_map.h"

#include <gtest/gtest.h>

#include <set>
#include <string>

namespace strata::cuda::runtime {
namespace {

TEST(ErrorMapTest, EveryToolkitErrorHasNameAndDescription) {
  int count = 0;
#define X(name)                                                   \
  {                                                               \
    ++count;                                                      \
    ASSERT_NE(error_name(name), nullptr) << #name;                \
    EXPECT_STREQ(error_name(name), #name);                        \
    ASSERT_NE(error_description(name), nullptr) << #name;         \
    EXPECT_GT(std::string(error_description(name)).size(), 0u);   \
  }
#include "toolkit_error_list.inc"
#undef X
  EXPECT_GT(count, 100);
}

TEST(ErrorMapTest, CudaWording) {
  EXPECT_STREQ(error_description(cudaSuccess), "no error");
  EXPECT_STREQ(error_description(cudaErrorInvalidValue), "invalid argument");
  EXPECT_STREQ(error_description(cudaErrorIllegalAddress),
               "an illegal memory access was encountered");
  EXPECT_STREQ(error_description(cudaErrorInvalidConfiguration),
               "invalid configuration argument");
  EXPECT_STREQ(error_description(cudaErrorNoKernelImageForDevice),
               "no kernel image is available for execution on the device");
  EXPECT_EQ(error_name(static_cast<cudaError_t>(12345)), nullptr);
}

TEST(ErrorMapTest, DriverResultsMapToRuntimeErrors) {
  EXPECT_EQ(to_cuda_error(CUDA_SUCCESS), cudaSuccess);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_OUT_OF_MEMORY), cudaErrorMemoryAllocation);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_NOT_INITIALIZED), cudaErrorInitializationError);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_INVALID_IMAGE), cudaErrorInvalidKernelImage);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_NO_BINARY_FOR_GPU), cudaErrorNoKernelImageForDevice);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_INVALID_HANDLE), cudaErrorInvalidResourceHandle);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_NOT_FOUND), cudaErrorSymbolNotFound);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_ILLEGAL_ADDRESS), cudaErrorIllegalAddress);
  EXPECT_EQ(to_cuda_error(CUDA_ERROR_LAUNCH_FAILED), cudaErrorLaunchFailure);
  EXPECT_EQ(to_cuda_error(static_cast<CUresult>(4242)), cudaErrorUnknown);
  // Every mapped result lands on an error the runtime can name.
  for (int value = 0; value < 1000; ++value) {
    cudaError_t mapped = to_cuda_error(static_cast<CUresult>(value));
    EXPECT_NE(error_name(mapped), nullptr) << value;
  }
}

TEST(ErrorMapTest, StickyErrors) {
  EXPECT_TRUE(is_sticky(cudaErrorIllegalAddress));
  EXPECT_TRUE(is_sticky(cudaErrorLaunchFailure));
  EXPECT_TRUE(is_sticky(cudaErrorAssert));
  EXPECT_FALSE(is_sticky(cudaErrorInvalidConfiguration));
  EXPECT_FALSE(is_sticky(cudaErrorInvalidValue));
  EXPECT_FALSE(is_sticky(cudaErrorNotReady));
}

}  // namespace
}  // namespace strata::cuda::runtime
