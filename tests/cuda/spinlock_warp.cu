// All 32 lanes of one warp take the same spin lock in turn. With independent thread
// scheduling (Volta+) the lock holder must make progress while its siblings spin.
#include "test_check.h"

__global__ void locked_increments(int* lock, int* counter, int* order, int rounds) {
  for (int r = 0; r < rounds; ++r) {
    bool done = false;
    while (!done) {
      if (atomicCAS(lock, 0, 1) == 0) {
        int seen = *reinterpret_cast<volatile int*>(counter);
        order[seen] = threadIdx.x;
        *reinterpret_cast<volatile int*>(counter) = seen + 1;
        __threadfence();
        atomicExch(lock, 0);
        done = true;
      }
    }
  }
}

int main() {
  const int lanes = 32, rounds = 4;
  int *lock, *counter, *order;
  CHECK_CUDA(cudaMalloc(&lock, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&counter, sizeof(int)));
  CHECK_CUDA(cudaMalloc(&order, lanes * rounds * sizeof(int)));
  CHECK_CUDA(cudaMemset(lock, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(counter, 0, sizeof(int)));
  CHECK_CUDA(cudaMemset(order, 0xff, lanes * rounds * sizeof(int)));
  locked_increments<<<1, lanes>>>(lock, counter, order, rounds);
  CHECK_CUDA(cudaGetLastError());
  int total = 0;
  int seen[lanes * rounds];
  CHECK_CUDA(cudaMemcpy(&total, counter, sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(seen, order, sizeof(seen), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(total == lanes * rounds, "counter %d, expected %d", total, lanes * rounds);
  int per_lane[lanes] = {};
  for (int i = 0; i < lanes * rounds; ++i) {
    EXPECT_TRUE(seen[i] >= 0 && seen[i] < lanes, "order[%d] = %d", i, seen[i]);
    ++per_lane[seen[i]];
  }
  for (int l = 0; l < lanes; ++l)
    EXPECT_TRUE(per_lane[l] == rounds, "lane %d took the lock %d times", l, per_lane[l]);
  CHECK_CUDA(cudaFree(lock));
  CHECK_CUDA(cudaFree(counter));
  CHECK_CUDA(cudaFree(order));
  std::printf("PASS spinlock_warp\n");
  return 0;
}
