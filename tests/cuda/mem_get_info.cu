// cudaMemGetInfo: total is the device's memory (cudaDeviceProp::totalGlobalMem), free
// drops by at least an allocation's size while it lives and recovers after cudaFree;
// null outputs are cudaErrorInvalidValue.
#include "test_check.h"

int main() {
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  size_t free0 = 0, total = 0;
  CHECK_CUDA(cudaMemGetInfo(&free0, &total));
  EXPECT_TRUE(total == prop.totalGlobalMem, "total %zu, totalGlobalMem %zu", total,
              prop.totalGlobalMem);
  EXPECT_TRUE(free0 > 0 && free0 <= total, "free %zu of %zu", free0, total);

  const size_t bytes = 64u << 20;
  void* p = nullptr;
  CHECK_CUDA(cudaMalloc(&p, bytes));
  size_t free1 = 0, total1 = 0;
  CHECK_CUDA(cudaMemGetInfo(&free1, &total1));
  EXPECT_TRUE(total1 == total, "total changed: %zu -> %zu", total, total1);
  EXPECT_TRUE(free1 + bytes <= free0, "free %zu -> %zu after a %zu-byte cudaMalloc", free0, free1,
              bytes);
  CHECK_CUDA(cudaFree(p));
  size_t free2 = 0;
  CHECK_CUDA(cudaMemGetInfo(&free2, &total1));
  EXPECT_TRUE(free2 >= free1 + bytes, "free %zu -> %zu after cudaFree", free1, free2);

  EXPECT_TRUE(cudaMemGetInfo(nullptr, &total1) == cudaErrorInvalidValue, "null free");
  EXPECT_TRUE(cudaMemGetInfo(&free2, nullptr) == cudaErrorInvalidValue, "null total");
  EXPECT_TRUE(cudaGetLastError() == cudaErrorInvalidValue, "last error");
  EXPECT_TRUE(cudaGetLastError() == cudaSuccess, "last error cleared");
  std::printf("PASS mem_get_info\n");
  return 0;
}
