__device__ int lock_word;
__global__ void atomics(int* ci, unsigned long long* cu, float* cf, double* cd, int* mx) {
  atomicAdd(ci, 1);
  atomicAdd(cu, 2ull);
  atomicAdd(cf, 0.5f);
  atomicAdd(cd, 0.25);
  atomicMax(mx, (int)threadIdx.x);
  atomicMin(mx + 1, -(int)threadIdx.x);
  atomicCAS(ci + 1, 0, 7);
  atomicExch(ci + 2, 3);
  atomicInc((unsigned*)ci + 3, 100u);
  atomicAnd(ci + 4, 0xff); atomicOr(ci + 5, 2); atomicXor(ci + 6, 1);
}
__global__ void spin_lock(int* counter) {
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&lock_word, 0, 1) != 0) {}
    __threadfence();
    *counter += 1;
    __threadfence();
    atomicExch(&lock_word, 0);
  }
}
