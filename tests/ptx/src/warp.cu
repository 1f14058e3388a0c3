// Atomics, warp shuffles and votes, cooperative groups.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
__global__ void atomics(int* i, unsigned long long* u, float* f, double* d) {
  atomicAdd(i, 1);
  atomicCAS(i + 1, 0, threadIdx.x);
  atomicMax(i + 2, threadIdx.x);
  atomicExch(u, 5ull);
  atomicAdd(f, 1.0f);
  atomicAdd(d, 2.0);
  atomicInc((unsigned*)i + 3, 100u);
  atomicOr(i + 4, 1 << (threadIdx.x & 31));
  __threadfence();
}
__global__ void shuffles(int* out) {
  int v = threadIdx.x;
  for (int o = 16; o > 0; o /= 2) v += __shfl_down_sync(0xffffffff, v, o);
  unsigned b = __ballot_sync(0xffffffff, v & 1);
  int all = __all_sync(0xffffffff, v > 0);
  int any = __any_sync(0xffffffff, v > 100);
  float x = __shfl_xor_sync(0xffffffff, (float)v, 1);
  out[threadIdx.x] = v + b + all + any + (int)x + __popc(b) + __clz(v) + __ffs(v);
}
__global__ void groups(int* out) {
  cg::thread_block block = cg::this_thread_block();
  cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
  int v = cg::reduce(tile, (int)threadIdx.x, cg::plus<int>());
  block.sync();
  if (tile.thread_rank() == 0) out[blockIdx.x * 8 + tile.meta_group_rank()] = v;
}
__global__ void grid_sync(int* out) {
  cg::grid_group g = cg::this_grid();
  out[g.thread_rank()] = 1;
  g.sync();
  out[g.thread_rank()] += out[0];
}
