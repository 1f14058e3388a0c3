// __managed__ variables across translation units (-rdc=true): one is defined in
// managed_vars_rdc_lib.cu and used here through `extern __managed__`; kernels of both
// files update it, and the host sees one variable.
#include <cuda_runtime.h>

#include "test_check.h"

extern __managed__ int shared_counter;  // managed_vars_rdc_lib.cu: initialised to 100
__managed__ int step = 11;

__global__ void add_step() {
  atomicAdd(&shared_counter, step);
}
__global__ void add_one();  // managed_vars_rdc_lib.cu

int main() {
  EXPECT_TRUE(shared_counter == 100 && step == 11, "initialisers %d %d", shared_counter, step);
  add_step<<<1, 4>>>();
  add_one<<<1, 2>>>();
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(shared_counter == 100 + 4 * 11 + 2, "shared_counter = %d", shared_counter);
  int value = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&value, shared_counter, sizeof(value)));
  EXPECT_TRUE(value == shared_counter, "cudaMemcpyFromSymbol -> %d", value);
  step = -1;
  add_step<<<1, 6>>>();
  CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_TRUE(shared_counter == 146 - 6, "shared_counter = %d after step = -1", shared_counter);
  std::printf("PASS managed_vars_rdc\n");
  return 0;
}
