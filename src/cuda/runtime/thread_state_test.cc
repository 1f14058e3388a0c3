#include "cuda/runtime/thread_state.h"

#include <gtest/gtest.h>

#include <thread>

namespace strata::cuda::runtime {
namespace {

TEST(ThreadStateTest, LastErrorIsPerThreadAndClearedByTake) {
  EXPECT_EQ(record(cudaErrorInvalidValue), cudaErrorInvalidValue);
  EXPECT_EQ(record(cudaSuccess), cudaSuccess);  // success does not clear
  std::thread other([] { EXPECT_EQ(peek_last_error(), cudaSuccess); });
  other.join();
  EXPECT_EQ(peek_last_error(), cudaErrorInvalidValue);
  EXPECT_EQ(take_last_error(), cudaErrorInvalidValue);
  EXPECT_EQ(take_last_error(), cudaSuccess);
  EXPECT_EQ(record(CUDA_ERROR_OUT_OF_MEMORY), cudaErrorMemoryAllocation);
  EXPECT_EQ(take_last_error(), cudaErrorMemoryAllocation);
}

TEST(ThreadStateTest, StickyErrorsPersistAcrossThreadsUntilCleared) {
  record(CUDA_ERROR_ILLEGAL_ADDRESS);
  EXPECT_EQ(take_last_error(), cudaErrorIllegalAddress);
  EXPECT_EQ(take_last_error(), cudaErrorIllegalAddress);
  record(cudaErrorInvalidConfiguration);  // the first sticky error stays
  EXPECT_EQ(sticky_error(), cudaErrorIllegalAddress);
  std::thread other([] { EXPECT_EQ(peek_last_error(), cudaErrorIllegalAddress); });
  other.join();
  clear_sticky_error();
  take_last_error();
  EXPECT_EQ(take_last_error(), cudaSuccess);
}

TEST(ThreadStateTest, CurrentDeviceIsPerThread) {
  set_current_device(1);
  std::thread other([] { EXPECT_EQ(current_device(), 0); });
  other.join();
  EXPECT_EQ(current_device(), 1);
  set_current_device(0);
}

}  // namespace
}  // namespace strata::cuda::runtime
