// cudaHostRegister of host ranges that share a page, as two small malloc'd buffers do:
// each registration must succeed (CUDA registers byte ranges; only overlapping ranges
// are cudaErrorHostMemoryAlreadyRegistered), kernels and async copies must reach both,
// and unregistering one must leave the other usable. Expected values are computed on
// the host.
#include <cstdint>
#include <cstdio>
#include <cstdlib>

#include "test_check.h"

__global__ void add(int* data, int n, int value) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += value;
}

static void expect_values(const int* data, int n, int base, const char* what) {
  for (int i = 0; i < n; ++i) {
    EXPECT_TRUE(data[i] == base + i, "%s[%d] = %d, expected %d", what, i, data[i], base + i);
  }
}

int main() {
  CHECK_CUDA(cudaSetDevice(0));
  // One 4 KiB-aligned block holding two 256-int ranges back to back plus a third that
  // starts in the middle of the second page: a and b share page 0, b and c share page 1.
  constexpr int kN = 256;
  auto* block = static_cast<int*>(std::aligned_alloc(4096, 8 * 4096));
  EXPECT_TRUE(block != nullptr, "aligned_alloc failed");
  int* a = block + 16;          // bytes [64, 1088): page 0
  int* b = block + 800;         // bytes [3200, 4224): page 0 into page 1
  int* c = block + 1024 + 900;  // bytes [7696, 8720): page 1 into page 2
  for (int i = 0; i < kN; ++i) {
    a[i] = 1000 + i;
    b[i] = 2000 + i;
    c[i] = 3000 + i;
  }
  CHECK_CUDA(cudaHostRegister(a, kN * sizeof(int), cudaHostRegisterDefault));
  CHECK_CUDA(cudaHostRegister(b, kN * sizeof(int), cudaHostRegisterMapped));
  CHECK_CUDA(cudaHostRegister(c, kN * sizeof(int), cudaHostRegisterPortable));

  // Overlapping byte ranges are still an error, shared page or not.
  cudaError_t overlap = cudaHostRegister(a + kN / 2, kN * sizeof(int), cudaHostRegisterDefault);
  EXPECT_TRUE(overlap == cudaErrorHostMemoryAlreadyRegistered, "overlapping register: %s",
              cudaGetErrorName(overlap));
  cudaGetLastError();

  // Kernels reach all three through their host pointers (unified addressing) and
  // through cudaHostGetDevicePointer.
  int* b_dev = nullptr;
  CHECK_CUDA(cudaHostGetDevicePointer(reinterpret_cast<void**>(&b_dev), b, 0));
  add<<<1, kN>>>(a, kN, 1);
  add<<<1, kN>>>(b_dev, kN, 2);
  add<<<1, kN>>>(c, kN, 3);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  expect_values(a, kN, 1001, "a");
  expect_values(b, kN, 2002, "b");
  expect_values(c, kN, 3003, "c");

  // Unregister a: b (which shares page 0 with a) must stay mapped for kernels and copies.
  CHECK_CUDA(cudaHostUnregister(a));
  int* d = nullptr;
  CHECK_CUDA(cudaMalloc(&d, kN * sizeof(int)));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  CHECK_CUDA(cudaMemcpyAsync(d, b, kN * sizeof(int), cudaMemcpyHostToDevice, stream));
  add<<<1, kN, 0, stream>>>(d, kN, 10);
  add<<<1, kN, 0, stream>>>(b, kN, 5);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_values(b, kN, 2007, "b after unregistering a");
  int back[kN];
  CHECK_CUDA(cudaMemcpy(back, d, sizeof(back), cudaMemcpyDeviceToHost));
  expect_values(back, kN, 2012, "copy of b");

  // a can be registered again, next to b, and unregistering it twice is an error.
  CHECK_CUDA(cudaHostRegister(a, kN * sizeof(int), cudaHostRegisterDefault));
  CHECK_CUDA(cudaHostUnregister(a));
  cudaError_t twice = cudaHostUnregister(a);
  EXPECT_TRUE(twice == cudaErrorHostMemoryNotRegistered, "second unregister: %s",
              cudaGetErrorName(twice));
  cudaGetLastError();

  // Unregister b: c (sharing page 1 with b) still works; then c goes too.
  CHECK_CUDA(cudaHostUnregister(b));
  add<<<1, kN, 0, stream>>>(c, kN, 4);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_values(c, kN, 3007, "c after unregistering b");
  CHECK_CUDA(cudaHostUnregister(c));

  // A range over several pages (edge pages shared, whole pages between) next to a
  // small one sharing its last page: unregistering and registering the large one again
  // keeps the small one working.
  constexpr int kLong = 2600;       // 10400 bytes
  int* e = block + 3 * 1024 + 100;  // bytes [12688, 23088): pages 3 to 5
  int* f = block + 5 * 1024 + 900;  // bytes [24080, 25104): pages 5 to 6
  for (int i = 0; i < kLong; ++i) e[i] = 4000 + i;
  for (int i = 0; i < kN; ++i) f[i] = 5000 + i;
  CHECK_CUDA(cudaHostRegister(e, kLong * sizeof(int), cudaHostRegisterDefault));
  CHECK_CUDA(cudaHostRegister(f, kN * sizeof(int), cudaHostRegisterDefault));
  add<<<(kLong + 255) / 256, 256, 0, stream>>>(e, kLong, 1);
  add<<<1, kN, 0, stream>>>(f, kN, 1);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_values(e, kLong, 4001, "e");
  expect_values(f, kN, 5001, "f");
  CHECK_CUDA(cudaHostUnregister(e));
  add<<<1, kN, 0, stream>>>(f, kN, 1);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_values(f, kN, 5002, "f after unregistering e");
  CHECK_CUDA(cudaHostRegister(e, kLong * sizeof(int), cudaHostRegisterDefault));
  add<<<(kLong + 255) / 256, 256, 0, stream>>>(e, kLong, 1);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_values(e, kLong, 4002, "e registered again");
  CHECK_CUDA(cudaHostUnregister(f));
  add<<<(kLong + 255) / 256, 256, 0, stream>>>(e, kLong, 1);
  CHECK_CUDA(cudaStreamSynchronize(stream));
  expect_values(e, kLong, 4003, "e after unregistering f");
  CHECK_CUDA(cudaHostUnregister(e));

  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(d));
  std::free(block);
  std::printf("PASS host_register_shared_page\n");
  return 0;
}
