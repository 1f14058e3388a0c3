// cudaFuncSetAttribute / cudaFuncGetAttributes, the occupancy API and the profiler
// range calls. Expectations: the CUDA Runtime API documentation, and occupancy
// computed on the host the way the CUDA Occupancy Calculator does (CC >= 7.0:
// registers allocated per warp in units of 256, shared memory in units of 128 bytes
// plus the reserved shared memory per block) from cudaGetDeviceProperties and the
// kernel's cudaFuncAttributes.
#include <cuda_profiler_api.h>
#include <cuda_runtime.h>

#include <algorithm>

#include "test_check.h"

// Writes a pattern across all of its dynamic shared memory and reads it back
// (neighbour's word, so the whole range is really shared), summing per block.
__global__ void dyn_shared(unsigned* out, unsigned words) {
  extern __shared__ unsigned smem[];
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) smem[i] = i * 2654435761u;
  __syncthreads();
  unsigned sum = 0;
  for (unsigned i = threadIdx.x; i < words; i += blockDim.x) sum += smem[(i + 1) % words];
  atomicAdd(&out[blockIdx.x], sum);
}

__global__ void light(float* x) {
  x[blockIdx.x * blockDim.x + threadIdx.x] += 1.0f;
}

__global__ void static_shared(float* x) {
  __shared__ float tile[4096];  // 16 KiB
  tile[threadIdx.x] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

static unsigned host_sum(unsigned words) {
  unsigned sum = 0;
  for (unsigned i = 0; i < words; ++i) sum += ((i + 1) % words) * 2654435761u;
  return sum;
}

static long round_up(long v, long unit) {
  return (v + unit - 1) / unit * unit;
}

// The Occupancy Calculator's blocks per SM.
static int host_occupancy(const cudaDeviceProp& p, const cudaFuncAttributes& a, int block,
                          size_t dyn) {
  if (block <= 0 || block > a.maxThreadsPerBlock) return 0;
  long warps = (block + p.warpSize - 1) / p.warpSize;
  long blocks = std::min<long>(p.maxBlocksPerMultiProcessor,
                               p.maxThreadsPerMultiProcessor / p.warpSize / warps);
  if (a.numRegs > 0) {
    long per_warp = round_up(long(a.numRegs) * p.warpSize, 256);
    if (per_warp * warps > p.regsPerBlock) return 0;
    blocks = std::min(blocks, p.regsPerMultiprocessor / per_warp / warps);
  }
  long shared = long(a.sharedSizeBytes) + long(dyn);
  if (shared > long(p.sharedMemPerBlockOptin)) return 0;
  long per_block = round_up(shared + long(p.reservedSharedMemPerBlock), 128);
  blocks = std::min(blocks, long(p.sharedMemPerMultiprocessor) / per_block);
  return int(blocks);
}

int main() {
  cudaDeviceProp prop;
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  CHECK_CUDA(cudaProfilerStart());

  // --- cudaFuncAttributeMaxDynamicSharedMemorySize -------------------------------------
  cudaFuncAttributes attr;
  CHECK_CUDA(cudaFuncGetAttributes(&attr, dyn_shared));
  EXPECT_TRUE(attr.sharedSizeBytes == 0, "static shared %zu", attr.sharedSizeBytes);
  EXPECT_TRUE(attr.maxDynamicSharedSizeBytes == 48 * 1024, "default max dynamic %d",
              attr.maxDynamicSharedSizeBytes);
  EXPECT_TRUE(prop.sharedMemPerBlockOptin > 64 * 1024, "opt-in %zu", prop.sharedMemPerBlockOptin);

  const unsigned blocks = 4, threads = 128;
  unsigned* out;
  CHECK_CUDA(cudaMalloc(&out, blocks * sizeof(unsigned)));

  // 64 KiB > 48 KiB: the launch must fail until the kernel opts in.
  const size_t big = 64 * 1024;
  dyn_shared<<<blocks, threads, big>>>(out, big / 4);
  cudaError_t launch_error = cudaGetLastError();
  EXPECT_TRUE(launch_error != cudaSuccess, "64 KiB dynamic shared launched without opt-in");
  EXPECT_TRUE(cudaGetLastError() == cudaSuccess, "launch error was sticky");

  CHECK_CUDA(
      cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, int(big)));
  CHECK_CUDA(cudaFuncGetAttributes(&attr, dyn_shared));
  EXPECT_TRUE(attr.maxDynamicSharedSizeBytes == int(big), "max dynamic %d",
              attr.maxDynamicSharedSizeBytes);
  unsigned host_out[blocks];
  for (size_t bytes : {big, size_t(prop.sharedMemPerBlockOptin)}) {
    if (bytes != big) {
      CHECK_CUDA(cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                      int(bytes)));
    }
    CHECK_CUDA(cudaMemset(out, 0, blocks * sizeof(unsigned)));
    dyn_shared<<<blocks, threads, bytes>>>(out, unsigned(bytes / 4));
    CHECK_CUDA(cudaGetLastError());
    CHECK_CUDA(cudaMemcpy(host_out, out, sizeof(host_out), cudaMemcpyDeviceToHost));
    for (unsigned b = 0; b < blocks; ++b) {
      EXPECT_TRUE(host_out[b] == host_sum(unsigned(bytes / 4)), "%zu B block %u: %u vs %u", bytes,
                  b, host_out[b], host_sum(unsigned(bytes / 4)));
    }
  }
  // Beyond the opt-in limit: cudaErrorInvalidValue; the attribute is unchanged.
  EXPECT_TRUE(cudaFuncSetAttribute(dyn_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                   int(prop.sharedMemPerBlockOptin) + 1) == cudaErrorInvalidValue,
              "over the opt-in limit accepted");
  EXPECT_TRUE(cudaGetLastError() == cudaErrorInvalidValue, "last error not recorded");
  // A launch above the attribute fails.
  dyn_shared<<<1, threads, prop.sharedMemPerBlockOptin + 1024>>>(out, 16);
  EXPECT_TRUE(cudaGetLastError() != cudaSuccess, "launch above the opt-in limit succeeded");

  // Static shared memory counts against the opt-in limit.
  CHECK_CUDA(cudaFuncGetAttributes(&attr, static_shared));
  EXPECT_TRUE(attr.sharedSizeBytes == 16384, "static shared %zu", attr.sharedSizeBytes);
  EXPECT_TRUE(
      cudaFuncSetAttribute(static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                           int(prop.sharedMemPerBlockOptin - 16384) + 1) == cudaErrorInvalidValue,
      "static + dynamic over the opt-in limit accepted");
  CHECK_CUDA(cudaFuncSetAttribute(static_shared, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                  int(prop.sharedMemPerBlockOptin - 16384)));

  // --- cudaFuncAttributePreferredSharedMemoryCarveout (-1 .. 100) -------------------------
  CHECK_CUDA(cudaFuncSetAttribute(light, cudaFuncAttributePreferredSharedMemoryCarveout, 50));
  CHECK_CUDA(cudaFuncGetAttributes(&attr, light));
  EXPECT_TRUE(attr.preferredShmemCarveout == 50, "carveout %d", attr.preferredShmemCarveout);
  CHECK_CUDA(cudaFuncSetAttribute(light, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxShared));
  EXPECT_TRUE(cudaFuncSetAttribute(light, cudaFuncAttributePreferredSharedMemoryCarveout, 101) ==
                  cudaErrorInvalidValue,
              "carveout 101 accepted");
  cudaGetLastError();
  EXPECT_TRUE(cudaFuncSetAttribute(reinterpret_cast<const void*>(&host_sum),
                                   cudaFuncAttributePreferredSharedMemoryCarveout,
                                   10) == cudaErrorInvalidDeviceFunction,
              "non-kernel accepted");
  cudaGetLastError();

  // --- Occupancy ------------------------------------------------------------------------
  struct Kernel {
    const void* func;
    const char* name;
  } kernels[] = {{reinterpret_cast<const void*>(light), "light"},
                 {reinterpret_cast<const void*>(static_shared), "static_shared"},
                 {reinterpret_cast<const void*>(dyn_shared), "dyn_shared"}};
  for (const Kernel& k : kernels) {
    CHECK_CUDA(cudaFuncGetAttributes(&attr, k.func));
    for (int block = 32; block <= 1024; block += 32) {
      for (size_t dyn : {size_t(0), size_t(1000), size_t(10000), size_t(40000)}) {
        int got = -1;
        CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&got, k.func, block, dyn));
        int want = host_occupancy(prop, attr, block, dyn);
        EXPECT_TRUE(got == want, "%s block %d dyn %zu: %d blocks, expected %d", k.name, block, dyn,
                    got, want);
        CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &got, k.func, block, dyn, cudaOccupancyDisableCachingOverride));
        EXPECT_TRUE(got == want, "%s WithFlags block %d: %d vs %d", k.name, block, got, want);
      }
    }
  }
  // cuda_runtime.h's cudaOccupancyMaxPotentialBlockSize: the block size with the most
  // resident threads per SM (the largest such size), and the grid that fills the device.
  int min_grid = 0, best_block = 0;
  CHECK_CUDA(cudaOccupancyMaxPotentialBlockSize(&min_grid, &best_block, static_shared, 0, 0));
  CHECK_CUDA(cudaFuncGetAttributes(&attr, static_shared));
  int want_block = 0, want_threads = 0;
  for (int block = std::min(attr.maxThreadsPerBlock, prop.maxThreadsPerBlock); block > 0;
       block -= 32) {
    int threads_per_sm = host_occupancy(prop, attr, block, 0) * block;
    if (threads_per_sm > want_threads) {
      want_threads = threads_per_sm;
      want_block = block;
    }
  }
  EXPECT_TRUE(best_block == want_block, "potential block %d, expected %d", best_block, want_block);
  EXPECT_TRUE(min_grid == host_occupancy(prop, attr, want_block, 0) * prop.multiProcessorCount,
              "min grid %d", min_grid);

  int n = 0;
  EXPECT_TRUE(cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&n, light, 128, 0, 0x80) ==
                  cudaErrorInvalidValue,
              "unknown flags accepted");
  cudaGetLastError();

  CHECK_CUDA(cudaProfilerStop());
  CHECK_CUDA(cudaFree(out));
  std::printf("PASS occupancy_attrs\n");
  return 0;
}
