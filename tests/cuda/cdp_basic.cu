// CUDA dynamic parallelism (CDP2): kernels launching kernels. Every expectation is
// computed on the host from the CUDA programming guide's rules: a child sees the
// parent's global writes made before the launch, and the host sees every child's
// writes once the parent grid completes.
#include <cstdint>
#include <cstdio>
#include <vector>

#include "test_check.h"

// ---- one level: every block launches its own child grid ------------------------------
__global__ void fill_child(int* out, int base, int scale) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[base + i] = scale * i + base;
}

__global__ void fill_parent(int* out, int* errors) {
  if (threadIdx.x == 0) {
    int base = blockIdx.x * 128;
    fill_child<<<2, 64>>>(out, base, blockIdx.x + 1);
    errors[blockIdx.x] = cudaGetLastError();
  }
}

// ---- two levels, and parameters of several types and alignments ----------------------
struct Packed {
  char tag;
  double weight;
  short small;
};

__global__ void leaf(long long* out, int slot, char c, double d, Packed p, short s, int* source) {
  int i = threadIdx.x;
  out[slot * 16 + i] = static_cast<long long>(c) * 1000000 + static_cast<long long>(d * 1000) +
                       p.tag * 100 + static_cast<long long>(p.weight) + p.small + s +
                       source[slot] + i;
}

__global__ void middle(long long* out, int* source, int first_slot) {
  int slot = first_slot + threadIdx.x;
  source[slot] = 7 * slot;  // written before the launch: the child must see it
  Packed p{static_cast<char>(slot), 2.0 * slot, static_cast<short>(-slot)};
  leaf<<<1, 16>>>(out, slot, static_cast<char>('a' + slot), 0.5 * slot, p, static_cast<short>(3), source);
}

__global__ void top(long long* out, int* source) {
  middle<<<1, 3>>>(out, source, 3 * blockIdx.x);
}

// ---- grid/block shapes, dynamic shared memory, a kernel without parameters ------------
__device__ int no_param_hits;

__global__ void no_params() { atomicAdd(&no_param_hits, 1); }

__global__ void shaped(int* out) {
  extern __shared__ int scratch[];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int threads = blockDim.x * blockDim.y * blockDim.z;
  int b = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
  scratch[t] = t * 2;
  __syncthreads();
  out[b * threads + t] = scratch[threads - 1 - t] + 1000 * b;
}

__global__ void shape_parent(int* out) {
  shaped<<<dim3(2, 3, 1), dim3(4, 2, 2), 16 * sizeof(int)>>>(out);
  no_params<<<3, 5>>>();
}

// ---- device services in children: malloc/free and printf -------------------------------
__global__ void heap_child(int* out) {
  int* p = static_cast<int*>(malloc(16 * sizeof(int)));
  out[threadIdx.x] = p != nullptr ? 1 : 0;
  if (p != nullptr) {
    p[threadIdx.x % 16] = 100 + threadIdx.x;
    out[threadIdx.x] += p[threadIdx.x % 16];
    free(p);
  }
}

// Device-side cudaMalloc/cudaFree share the heap with malloc/free (CUDA programming
// guide); memory from cudaMalloc in the parent is usable by its child.
__global__ void use_buffer(int* buffer, int* out) {
  buffer[threadIdx.x] = 3 * threadIdx.x;
  out[threadIdx.x] = buffer[threadIdx.x] + 1;
}

__global__ void cuda_malloc_parent(int* out, int* status) {
  int* buffer = nullptr;
  status[0] = cudaMalloc(reinterpret_cast<void**>(&buffer), 32 * sizeof(int));
  status[1] = buffer != nullptr;
  if (buffer != nullptr) use_buffer<<<1, 32>>>(buffer, out);
  // The child runs before the parent grid completes, but not necessarily before this
  // thread continues, so the buffer is not freed here; free a second allocation.
  int* other = nullptr;
  status[2] = cudaMalloc(reinterpret_cast<void**>(&other), 64);
  status[3] = cudaFree(other);
}

__global__ void printf_grandchild(int value) { printf("grandchild says %d\n", value); }

__global__ void printf_child() { printf_grandchild<<<1, 1>>>(42); }

__global__ void services_parent(int* out) {
  heap_child<<<1, 8>>>(out);
  printf_child<<<1, 1>>>();
}

int main() {
  // One level.
  const int blocks = 4;
  int *out, *errors;
  CHECK_CUDA(cudaMalloc(&out, blocks * 128 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&errors, blocks * sizeof(int)));
  CHECK_CUDA(cudaMemset(out, 0xff, blocks * 128 * sizeof(int)));
  CHECK_CUDA(cudaMemset(errors, 0xff, blocks * sizeof(int)));
  fill_parent<<<blocks, 32>>>(out, errors);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> host(blocks * 128), host_errors(blocks);
  CHECK_CUDA(cudaMemcpy(host.data(), out, host.size() * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(host_errors.data(), errors, blocks * sizeof(int), cudaMemcpyDeviceToHost));
  for (int b = 0; b < blocks; ++b) {
    EXPECT_TRUE(host_errors[b] == cudaSuccess, "block %d: device cudaGetLastError = %d", b, host_errors[b]);
    for (int i = 0; i < 128; ++i) {
      int expected = (b + 1) * i + b * 128;
      EXPECT_TRUE(host[b * 128 + i] == expected, "fill: out[%d] = %d, expected %d", b * 128 + i,
                  host[b * 128 + i], expected);
    }
  }

  // Two levels: 2 top blocks x 3 middle threads x 16 leaf threads.
  const int slots = 6;
  long long* leaves;
  int* source;
  CHECK_CUDA(cudaMalloc(&leaves, slots * 16 * sizeof(long long)));
  CHECK_CUDA(cudaMalloc(&source, slots * sizeof(int)));
  CHECK_CUDA(cudaMemset(leaves, 0, slots * 16 * sizeof(long long)));
  CHECK_CUDA(cudaMemset(source, 0, slots * sizeof(int)));
  top<<<2, 1>>>(leaves, source);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<long long> host_leaves(slots * 16);
  CHECK_CUDA(cudaMemcpy(host_leaves.data(), leaves, host_leaves.size() * sizeof(long long),
                        cudaMemcpyDeviceToHost));
  for (int slot = 0; slot < slots; ++slot) {
    for (int i = 0; i < 16; ++i) {
      long long c = 'a' + slot;
      long long expected = c * 1000000 + static_cast<long long>(0.5 * slot * 1000) + slot * 100 +
                           static_cast<long long>(2.0 * slot) + (-slot) + 3 + 7 * slot + i;
      EXPECT_TRUE(host_leaves[slot * 16 + i] == expected, "leaf slot %d thread %d: %lld, expected %lld",
                  slot, i, host_leaves[slot * 16 + i], expected);
    }
  }

  // Shapes and dynamic shared memory.
  const int shaped_blocks = 6, shaped_threads = 16;
  int* shaped_out;
  CHECK_CUDA(cudaMalloc(&shaped_out, shaped_blocks * shaped_threads * sizeof(int)));
  CHECK_CUDA(cudaMemset(shaped_out, 0, shaped_blocks * shaped_threads * sizeof(int)));
  shape_parent<<<1, 1>>>(shaped_out);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> host_shaped(shaped_blocks * shaped_threads);
  CHECK_CUDA(cudaMemcpy(host_shaped.data(), shaped_out, host_shaped.size() * sizeof(int),
                        cudaMemcpyDeviceToHost));
  for (int b = 0; b < shaped_blocks; ++b) {
    for (int t = 0; t < shaped_threads; ++t) {
      int expected = (shaped_threads - 1 - t) * 2 + 1000 * b;
      EXPECT_TRUE(host_shaped[b * shaped_threads + t] == expected, "shaped[%d][%d] = %d, expected %d",
                  b, t, host_shaped[b * shaped_threads + t], expected);
    }
  }
  int hits = 0;
  CHECK_CUDA(cudaMemcpyFromSymbol(&hits, no_param_hits, sizeof(int)));
  EXPECT_TRUE(hits == 15, "no_params ran %d threads, expected 15", hits);

  // malloc/free and printf in device-launched grids.
  int* heap_out;
  CHECK_CUDA(cudaMalloc(&heap_out, 8 * sizeof(int)));
  CHECK_CUDA(cudaMemset(heap_out, 0, 8 * sizeof(int)));
  services_parent<<<1, 1>>>(heap_out);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> host_heap(8);
  CHECK_CUDA(cudaMemcpy(host_heap.data(), heap_out, 8 * sizeof(int), cudaMemcpyDeviceToHost));
  for (int t = 0; t < 8; ++t)
    EXPECT_TRUE(host_heap[t] == 101 + t, "heap child thread %d: %d, expected %d", t, host_heap[t], 101 + t);
  CHECK_CUDA(cudaFree(heap_out));

  // Device-side cudaMalloc/cudaFree.
  int *buffer_out, *status;
  CHECK_CUDA(cudaMalloc(&buffer_out, 32 * sizeof(int)));
  CHECK_CUDA(cudaMalloc(&status, 4 * sizeof(int)));
  CHECK_CUDA(cudaMemset(buffer_out, 0, 32 * sizeof(int)));
  CHECK_CUDA(cudaMemset(status, 0xff, 4 * sizeof(int)));
  cuda_malloc_parent<<<1, 1>>>(buffer_out, status);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<int> host_buffer(32), host_status(4);
  CHECK_CUDA(cudaMemcpy(host_buffer.data(), buffer_out, 32 * sizeof(int), cudaMemcpyDeviceToHost));
  CHECK_CUDA(cudaMemcpy(host_status.data(), status, 4 * sizeof(int), cudaMemcpyDeviceToHost));
  EXPECT_TRUE(host_status[0] == cudaSuccess && host_status[1] == 1 && host_status[2] == cudaSuccess &&
                  host_status[3] == cudaSuccess,
              "device cudaMalloc/cudaFree: %d %d %d %d", host_status[0], host_status[1],
              host_status[2], host_status[3]);
  for (int t = 0; t < 32; ++t)
    EXPECT_TRUE(host_buffer[t] == 3 * t + 1, "cudaMalloc'd buffer thread %d: %d", t, host_buffer[t]);
  CHECK_CUDA(cudaFree(buffer_out));
  CHECK_CUDA(cudaFree(status));

  CHECK_CUDA(cudaFree(out));
  CHECK_CUDA(cudaFree(errors));
  CHECK_CUDA(cudaFree(leaves));
  CHECK_CUDA(cudaFree(source));
  CHECK_CUDA(cudaFree(shaped_out));
  std::printf("PASS cdp_basic\n");
  return 0;
}
