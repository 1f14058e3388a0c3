#include <cassert>
__global__ void warp_ops(int* out) {
  int v = threadIdx.x;
  int s = __shfl_down_sync(0xffffffff, v, 1) + __shfl_xor_sync(0xffffffff, v, 2) +
          __shfl_sync(0xffffffff, v, 0) + __shfl_up_sync(0xffffffff, v, 1);
  unsigned b = __ballot_sync(0xffffffff, v & 1);
  int all = __all_sync(0xffffffff, v >= 0), any = __any_sync(0xffffffff, v > 30);
  __syncwarp();
  out[threadIdx.x] = s + __popc(b) + all + any + __clz(v) + __brev(v) + __ffs(v);
  assert(out[threadIdx.x] != -12345);
}
