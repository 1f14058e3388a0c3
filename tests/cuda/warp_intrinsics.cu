// Warp intrinsics and CTA barrier reductions as CUDA programs use them: __shfl*_sync
// with widths, __ballot/__all/__any/__uni_sync, __activemask, __match_any/all_sync,
// __reduce_*_sync, __syncwarp, __syncthreads_count/and/or, a named barrier with a thread
// count, and the clock registers. Expected values are computed on the host from the
// CUDA Programming Guide's definitions.
#include <algorithm>
#include <cstdint>
#include <vector>

#include "test_check.h"

constexpr int kBlock = 128;
constexpr int kBlocks = 3;
constexpr int kThreads = kBlock * kBlocks;
constexpr int kOut = 24;  // results per thread

__device__ unsigned envreg2() {
  unsigned v;
  asm volatile("mov.u32 %0, %%envreg2;" : "=r"(v));
  return v;
}
__device__ unsigned long long globaltimer() {
  unsigned long long v;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(v));
  return v;
}

__global__ void warp_ops(const unsigned* in, unsigned* out) {
  const int g = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned lane = threadIdx.x % 32;
  const unsigned a = in[g];
  unsigned* o = out + g * kOut;
  o[0] = __shfl_sync(0xffffffffu, a, (lane * 7) % 32);
  o[1] = __shfl_sync(0xffffffffu, a, 3, 8);  // lane 3 of each 8-lane segment
  o[2] = __shfl_up_sync(0xffffffffu, a, 2, 16);
  o[3] = __shfl_down_sync(0xffffffffu, a, 5);
  o[4] = __shfl_xor_sync(0xffffffffu, a, 6, 16);
  o[5] = __ballot_sync(0xffffffffu, a & 1);
  o[6] = __all_sync(0xffffffffu, a & 2) | __any_sync(0xffffffffu, a & 4) << 1 |
         __uni_sync(0xffffffffu, a & 8) << 2;
  o[7] = __match_any_sync(0xffffffffu, a % 5);
  int pred = 0;
  o[8] = __match_all_sync(0xffffffffu, static_cast<unsigned long long>(lane / 16) << 40, &pred);
  o[9] = pred;
  o[10] = __reduce_add_sync(0xffffffffu, a);
  o[11] = __reduce_min_sync(0xffffffffu, static_cast<int>(a));
  o[12] = __reduce_max_sync(0xffffffffu, a);
  o[13] = __reduce_and_sync(0xffffffffu, a) ^ __reduce_or_sync(0xffffffffu, a) ^
          __reduce_xor_sync(0xffffffffu, a);
  // Divergent: odd lanes reduce among themselves, even lanes shuffle among themselves.
  if (lane & 1) {
    o[14] = __reduce_add_sync(0xaaaaaaaau, a);
  } else {
    o[14] = __shfl_sync(0x55555555u, a, lane ^ 2);
  }
  // __syncwarp orders shared-memory accesses within the warp.
  __shared__ unsigned sh[kBlock];
  sh[threadIdx.x] = a;
  __syncwarp();
  o[15] = sh[(threadIdx.x & ~31u) | ((lane + 1) % 32)];
  __syncthreads();
  // CTA barrier reductions.
  o[16] = __syncthreads_count(a & 1);
  o[17] = __syncthreads_and(a & 16) | __syncthreads_or(a & 32) << 1;
  // Named barrier 1 for warps 0-1, 2 for warps 2-3 (64 threads each).
  sh[threadIdx.x] = a + 1;
  if (threadIdx.x < 64) {
    asm volatile("bar.sync 1, 64;" ::: "memory");
  } else {
    asm volatile("bar.sync 2, 64;" ::: "memory");
  }
  o[18] = sh[threadIdx.x ^ 32];
  const long long c0 = clock64();
  const unsigned long long t0 = globaltimer();
  unsigned x = a;
  for (int i = 0; i < 100; ++i) x = x * 3 + i;
  __nanosleep(100);
  const long long c1 = clock64();
  const unsigned long long t1 = globaltimer();
  o[19] = c1 > c0;
  o[20] = t1 >= t0;
  o[21] = x;
  o[22] = envreg2();
  o[23] = __activemask();
}

// Collectives over "the non-exited threads in mask": a 48-thread block (its second warp
// has 16 threads) whose threads 40..47 and every lane 7 mod 8 return first.
__global__ void exited_members(const unsigned* in, unsigned* out) {
  const unsigned t = threadIdx.x;
  if (t >= 40 || t % 8 == 7) return;
  const unsigned a = in[t];
  out[t * 4 + 0] = __reduce_add_sync(0xffffffffu, a);
  out[t * 4 + 1] = __reduce_max_sync(0xffffffffu, a);
  out[t * 4 + 2] = __ballot_sync(0xffffffffu, a & 1);
  int pred = 0;
  __match_all_sync(0xffffffffu, 5u, &pred);
  out[t * 4 + 3] = pred;
}

int main() {
  std::vector<unsigned> in(kThreads);
  uint32_t s = 12345;
  for (unsigned& v : in) {
    s = s * 1664525u + 1013904223u;
    v = s >> 3;
  }
  unsigned *din, *dout;
  CHECK_CUDA(cudaMalloc(&din, kThreads * sizeof(unsigned)));
  CHECK_CUDA(cudaMalloc(&dout, kThreads * kOut * sizeof(unsigned)));
  CHECK_CUDA(cudaMemcpy(din, in.data(), kThreads * sizeof(unsigned), cudaMemcpyHostToDevice));
  warp_ops<<<kBlocks, kBlock>>>(din, dout);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> out(kThreads * kOut);
  CHECK_CUDA(cudaMemcpy(out.data(), dout, out.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));

  for (int g = 0; g < kThreads; ++g) {
    const int lane = g % 32, w = g - lane, t = g % kBlock, cta = g - t;
    const unsigned* o = &out[g * kOut];
    auto at = [&](int l) { return in[w + l]; };
    unsigned want[kOut] = {};
    want[0] = at(lane * 7 % 32);
    want[1] = at((lane & ~7) + 3);
    want[2] = lane % 16 >= 2 ? at(lane - 2) : at(lane);
    want[3] = lane + 5 < 32 ? at(lane + 5) : at(lane);
    want[4] = at(lane ^ 6);
    bool all2 = true, any4 = false, uni8 = true;
    unsigned add = 0, mx = 0, an = ~0u, orr = 0, xr = 0, same5 = 0;
    int mn = INT32_MAX;
    for (int l = 0; l < 32; ++l) {
      want[5] |= (at(l) & 1) << l;
      all2 = all2 && (at(l) & 2);
      any4 = any4 || (at(l) & 4);
      uni8 = uni8 && ((at(l) & 8) != 0) == ((at(0) & 8) != 0);
      if (at(l) % 5 == at(lane) % 5) same5 |= 1u << l;
      add += at(l);
      mn = std::min(mn, static_cast<int>(at(l)));
      mx = std::max(mx, at(l));
      an &= at(l);
      orr |= at(l);
      xr ^= at(l);
    }
    want[6] = all2 | any4 << 1 | uni8 << 2;
    want[7] = same5;
    want[8] = 0;  // the two halves of the warp differ
    want[9] = 0;
    want[10] = add;
    want[11] = static_cast<unsigned>(mn);
    want[12] = mx;
    want[13] = an ^ orr ^ xr;
    if (lane & 1) {
      unsigned odd = 0;
      for (int l = 1; l < 32; l += 2) odd += at(l);
      want[14] = odd;
    } else {
      want[14] = at(lane ^ 2);
    }
    want[15] = at((lane + 1) % 32);
    unsigned count = 0;
    bool and16 = true, or32 = false;
    for (int i = 0; i < kBlock; ++i) {
      count += in[cta + i] & 1;
      and16 = and16 && (in[cta + i] & 16);
      or32 = or32 || (in[cta + i] & 32);
    }
    want[16] = count;
    want[17] = and16 | or32 << 1;
    want[18] = in[cta + (t ^ 32)] + 1;
    want[19] = 1;
    want[20] = 1;
    unsigned x = in[g];
    for (int i = 0; i < 100; ++i) x = x * 3 + i;
    want[21] = x;
    want[22] = 0;
    want[23] = 0xffffffffu;
    for (int k = 0; k < kOut; ++k)
      EXPECT_TRUE(o[k] == want[k], "thread %d result %d: got 0x%x, expected 0x%x", g, k, o[k],
                  want[k]);
  }

  CHECK_CUDA(cudaMemset(dout, 0, 48 * 4 * sizeof(unsigned)));
  exited_members<<<1, 48>>>(din, dout);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> ex(48 * 4);
  CHECK_CUDA(cudaMemcpy(ex.data(), dout, ex.size() * sizeof(unsigned), cudaMemcpyDeviceToHost));
  auto live = [](unsigned t) { return t < 40 && t % 8 != 7; };
  for (unsigned t = 0; t < 48; ++t) {
    unsigned add = 0, mx = 0, bal = 0;
    for (unsigned j = t - t % 32; j < t - t % 32 + 32 && j < 48; ++j) {
      if (!live(j)) continue;
      add += in[j];
      mx = std::max(mx, in[j]);
      bal |= (in[j] & 1) << (j % 32);
    }
    const unsigned want[4] = {add, mx, bal, 1};
    for (int k = 0; k < 4; ++k) {
      const unsigned got = ex[t * 4 + k], expect = live(t) ? want[k] : 0;
      EXPECT_TRUE(got == expect, "exited_members thread %u result %d: got 0x%x, expected 0x%x", t,
                  k, got, expect);
    }
  }
  CHECK_CUDA(cudaFree(din));
  CHECK_CUDA(cudaFree(dout));
  std::printf("PASS warp_intrinsics\n");
  return 0;
}
