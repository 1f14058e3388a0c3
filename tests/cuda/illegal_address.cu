// A store to an address no GPU maps faults the context: cudaErrorIllegalAddress is
// reported on synchronisation and, being sticky, by every later call.
#include <string>

#include "test_check.h"

__global__ void write_to(int* p) { *p = 1; }

int main() {
  int* valid;
  CHECK_CUDA(cudaMalloc(&valid, sizeof(int)));
  write_to<<<1, 1>>>(reinterpret_cast<int*>(0x10));
  cudaError_t launch = cudaGetLastError();
  EXPECT_TRUE(launch == cudaSuccess || launch == cudaErrorIllegalAddress, "launch: %s",
              cudaGetErrorName(launch));
  cudaError_t sync = cudaDeviceSynchronize();
  EXPECT_TRUE(sync == cudaErrorIllegalAddress, "synchronize: %s", cudaGetErrorName(sync));
  EXPECT_TRUE(std::string(cudaGetErrorString(sync)) ==
                  "an illegal memory access was encountered",
              "message: %s", cudaGetErrorString(sync));
  // Sticky: later calls keep failing, and cudaGetLastError does not clear it.
  int h = 0;
  cudaError_t copy = cudaMemcpy(&h, valid, sizeof(int), cudaMemcpyDeviceToHost);
  EXPECT_TRUE(copy == cudaErrorIllegalAddress, "memcpy after fault: %s", cudaGetErrorName(copy));
  void* more = nullptr;
  cudaError_t alloc = cudaMalloc(&more, 16);
  EXPECT_TRUE(alloc == cudaErrorIllegalAddress, "malloc after fault: %s",
              cudaGetErrorName(alloc));
  write_to<<<1, 1>>>(valid);
  cudaError_t relaunch = cudaGetLastError();
  EXPECT_TRUE(relaunch == cudaErrorIllegalAddress, "launch after fault: %s",
              cudaGetErrorName(relaunch));
  EXPECT_TRUE(cudaGetLastError() == cudaErrorIllegalAddress, "last error was cleared");
  EXPECT_TRUE(cudaDeviceSynchronize() == cudaErrorIllegalAddress, "sync after fault");
  std::printf("PASS illegal_address\n");
  return 0;
}
