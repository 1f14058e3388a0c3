// CUDA intrinsics that compile to the "misc" PTX instructions: the SIMD video
// instructions (__vabsdiffu4 -> vabsdiff4, __vsadu4 -> vabsdiff4.add), sad (__sad,
// __usad), fns (__fns) and isspacep (__isGlobal, __isShared, __isLocal, __isConstant),
// checked against host references written from the CUDA Math API documentation.
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

#include "test_check.h"

constexpr int kThreads = 256;
constexpr int kOuts = 8;

__device__ unsigned g_word;
__constant__ unsigned c_words[4] = {1, 2, 3, 4};

__global__ void intrinsics(const unsigned* a, const unsigned* b, const unsigned* c, unsigned* out) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  const unsigned x = a[i], y = b[i], z = c[i];
  unsigned* o = out + kOuts * i;
  o[0] = __vabsdiffu4(x, y);
  o[1] = __vsadu4(x, y);
  o[2] = static_cast<unsigned>(__sad(static_cast<int>(x), static_cast<int>(y), z));
  o[3] = __usad(x, y, z);
  o[4] = __fns(x, y & 31, static_cast<int>(z % 65) - 32);
  o[5] = __fns(x, y & 31, 1);
  o[6] = __vabsdiffu4(x, __vabsdiffu4(y, z));
}

// Not inlined, so that the classification happens at run time on a generic pointer.
__device__ __noinline__ unsigned classify(const void* p) {
  return (__isGlobal(p) ? 1u : 0u) | (__isShared(p) ? 2u : 0u) | (__isLocal(p) ? 4u : 0u) |
         (__isConstant(p) ? 8u : 0u);
}

__global__ void spaces(const unsigned* global_buffer, unsigned* out, int pick) {
  __shared__ unsigned shared_words[64];
  unsigned local_words[8];
  shared_words[threadIdx.x] = threadIdx.x;
  for (int k = 0; k < 8; ++k) local_words[k] = k * threadIdx.x;
  __syncthreads();
  const void* ptrs[5] = {global_buffer, &g_word, &shared_words[threadIdx.x], &local_words[pick & 7],
                         &c_words[pick & 3]};
  unsigned bits = 0;
  for (int p = 0; p < 5; ++p) bits |= classify(ptrs[p]) << (4 * p);
  // Keep the local array in local memory and used.
  out[threadIdx.x] = bits;
  out[64 + threadIdx.x] =
      local_words[(pick + threadIdx.x) & 7] + shared_words[(threadIdx.x + 1) & 63];
}

// Host references (CUDA Math API: SIMD intrinsics, __sad, __usad, __fns).
unsigned absdiff_bytes(unsigned x, unsigned y) {
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) {
    const int p = (x >> (8 * k)) & 0xff, q = (y >> (8 * k)) & 0xff;
    r |= static_cast<unsigned>(p > q ? p - q : q - p) << (8 * k);
  }
  return r;
}
unsigned sad_bytes(unsigned x, unsigned y) {
  unsigned r = 0;
  for (int k = 0; k < 4; ++k) r += (absdiff_bytes(x, y) >> (8 * k)) & 0xff;
  return r;
}
unsigned fns_ref(unsigned mask, unsigned base, int offset) {
  if (offset == 0) return (mask >> base) & 1 ? base : 0xffffffffu;
  int left = offset > 0 ? offset : -offset;
  for (int pos = static_cast<int>(base); pos >= 0 && pos<32; pos += offset> 0 ? 1 : -1)
    if (((mask >> pos) & 1) && --left == 0) return static_cast<unsigned>(pos);
  return 0xffffffffu;
}

int main() {
  const int n = kThreads * 4;
  std::mt19937 rng(7);
  std::vector<unsigned> a(n), b(n), c(n);
  const unsigned edges[] = {0,           1,           0x7f,        0x80,        0xff,
                            0x80808080u, 0x7f7f7f7fu, 0xffffffffu, 0x80000000u, 0x7fffffffu};
  for (int i = 0; i < n; ++i) {
    a[i] = i % 5 == 0 ? edges[rng() % 10] : rng();
    b[i] = i % 7 == 0 ? edges[rng() % 10] : rng();
    c[i] = i % 3 == 0 ? edges[rng() % 10] : rng();
  }
  unsigned *da, *db, *dc, *dout;
  CHECK_CUDA(cudaMalloc(&da, n * 4));
  CHECK_CUDA(cudaMalloc(&db, n * 4));
  CHECK_CUDA(cudaMalloc(&dc, n * 4));
  CHECK_CUDA(cudaMalloc(&dout, n * 4 * kOuts));
  CHECK_CUDA(cudaMemcpy(da, a.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(db, b.data(), n * 4, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(dc, c.data(), n * 4, cudaMemcpyHostToDevice));
  intrinsics<<<n / kThreads, kThreads>>>(da, db, dc, dout);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> out(n * kOuts);
  CHECK_CUDA(cudaMemcpy(out.data(), dout, n * 4 * kOuts, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; ++i) {
    const unsigned x = a[i], y = b[i], z = c[i];
    const long long dx = static_cast<int>(x), dy = static_cast<int>(y);
    const unsigned want[7] = {absdiff_bytes(x, y),
                              sad_bytes(x, y),
                              z + static_cast<unsigned>(dx > dy ? dx - dy : dy - dx),
                              z + (x > y ? x - y : y - x),
                              fns_ref(x, y & 31, static_cast<int>(z % 65) - 32),
                              fns_ref(x, y & 31, 1),
                              absdiff_bytes(x, absdiff_bytes(y, z))};
    for (int k = 0; k < 7; ++k)
      EXPECT_TRUE(out[kOuts * i + k] == want[k],
                  "thread %d output %d: a=%08x b=%08x c=%08x expected %08x got %08x", i, k, x, y, z,
                  want[k], out[kOuts * i + k]);
  }

  spaces<<<1, 64>>>(da, dout, 5);
  CHECK_CUDA(cudaGetLastError());
  std::vector<unsigned> bits(128);
  CHECK_CUDA(cudaMemcpy(bits.data(), dout, 128 * 4, cudaMemcpyDeviceToHost));
  for (unsigned t = 0; t < 64; ++t) {
    const unsigned got = bits[t];
    EXPECT_TRUE((got & 0xf) == 1, "thread %u: global buffer classified %x", t, got & 0xf);
    EXPECT_TRUE(((got >> 4) & 0xf) == 1, "thread %u: __device__ variable classified %x", t,
                (got >> 4) & 0xf);
    EXPECT_TRUE(((got >> 8) & 0xf) == 2, "thread %u: __shared__ array classified %x", t,
                (got >> 8) & 0xf);
    EXPECT_TRUE(((got >> 12) & 0xf) == 4, "thread %u: local array classified %x", t,
                (got >> 12) & 0xf);
    // A __constant__ address is constant (whether it also counts as global is not
    // documented, so only the constant bit is checked).
    EXPECT_TRUE(((got >> 16) & 0xe) == 8, "thread %u: __constant__ array classified %x", t,
                (got >> 16) & 0xf);
    EXPECT_TRUE(bits[64 + t] == ((5 + t) & 7) * t + ((t + 1) & 63), "thread %u: data %u", t,
                bits[64 + t]);
  }
  CHECK_CUDA(cudaFree(da));
  CHECK_CUDA(cudaFree(db));
  CHECK_CUDA(cudaFree(dc));
  CHECK_CUDA(cudaFree(dout));
  std::printf("PASS misc_intrinsics\n");
  return 0;
}
