#include "cuda/runtime/launch.h"

#include <fmt/format.h>

#include <string>

#include "base/log.h"
#include "cuda/runtime/context.h"
#include "cuda/runtime/thread_state.h"

namespace strata::cuda::runtime {

cudaError_t check_launch_config(const DeviceLimits& limits, dim3 grid, dim3 block,
                                size_t shared_mem, std::string* why) {
  const unsigned g[3] = {grid.x, grid.y, grid.z};
  const unsigned b[3] = {block.x, block.y, block.z};
  for (int i = 0; i < 3; ++i) {
    const char axis = static_cast<char>('x' + i);
    if (g[i] == 0 || g[i] > static_cast<unsigned>(limits.max_grid[i])) {
      *why = fmt::format("grid.{} = {} is outside 1..{}", axis, g[i], limits.max_grid[i]);
      return cudaErrorInvalidConfiguration;
    }
    if (b[i] == 0 || b[i] > static_cast<unsigned>(limits.max_block[i])) {
      *why = fmt::format("block.{} = {} is outside 1..{}", axis, b[i], limits.max_block[i]);
      return cudaErrorInvalidConfiguration;
    }
  }
  uint64_t threads = uint64_t{block.x} * block.y * block.z;
  if (threads > static_cast<uint64_t>(limits.max_threads_per_block)) {
    *why = fmt::format("{} threads per block exceed the device limit of {}", threads,
                       limits.max_threads_per_block);
    return cudaErrorInvalidConfiguration;
  }
  int max_shared = std::max(limits.max_shared_per_block, limits.max_shared_per_block_optin);
  if (shared_mem > static_cast<size_t>(max_shared)) {
    *why = fmt::format("{} bytes of dynamic shared memory exceed the device limit of {}",
                       shared_mem, max_shared);
    return cudaErrorInvalidConfiguration;
  }
  return cudaSuccess;
}

cudaError_t launch(KernelRecord* kernel, dim3 grid, dim3 block, void** args, size_t shared_mem,
                   cudaStream_t stream, std::span<const CUlaunchAttribute> attrs) {
  if (cudaError_t sticky = sticky_error(); sticky != cudaSuccess) return record(sticky);
  int device = current_device();
  CUresult result = activate_device(device);
  if (result != CUDA_SUCCESS) return record(result);
  DeviceLimits limits;
  result = device_limits(device, &limits);
  if (result != CUDA_SUCCESS) return record(result);
  std::string why;
  if (check_launch_config(limits, grid, block, shared_mem, &why) != cudaSuccess) {
    STRATA_LOG_INFO("cudart: launch of '{}': {}", kernel->device_name, why);
    return record(cudaErrorInvalidConfiguration);
  }
  CUfunction function = nullptr;
  result = kernel_function(kernel, device, &function);
  if (result != CUDA_SUCCESS) return record(result);
  // Static plus dynamic shared memory must fit what the kernel may use.
  int static_shared = 0;
  int max_dynamic = 0;
  if (cuFuncGetAttribute(&static_shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, function) ==
          CUDA_SUCCESS &&
      cuFuncGetAttribute(&max_dynamic, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                         function) == CUDA_SUCCESS) {
    uint64_t allowed = static_cast<uint64_t>(
        std::max<int64_t>(int64_t{static_shared} + max_dynamic, limits.max_shared_per_block));
    if (static_shared + shared_mem > allowed) {
      STRATA_LOG_INFO("cudart: launch of '{}': {} bytes of static and {} of dynamic shared "
                      "memory exceed the {} allowed", kernel->device_name, static_shared,
                      shared_mem, allowed);
      return record(cudaErrorInvalidConfiguration);
    }
  }
  int max_threads = 0;
  if (cuFuncGetAttribute(&max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, function) ==
          CUDA_SUCCESS &&
      max_threads > 0 && uint64_t{block.x} * block.y * block.z > uint64_t(max_threads)) {
    STRATA_LOG_INFO("cudart: launch of '{}': the kernel's resources allow at most {} threads "
                    "per block", kernel->device_name, max_threads);
    return record(cudaErrorLaunchOutOfResources);
  }
  if (!attrs.empty()) {
    CUlaunchConfig config{};
    config.gridDimX = grid.x;
    config.gridDimY = grid.y;
    config.gridDimZ = grid.z;
    config.blockDimX = block.x;
    config.blockDimY = block.y;
    config.blockDimZ = block.z;
    config.sharedMemBytes = static_cast<unsigned>(shared_mem);
    config.hStream = stream;
    config.attrs = const_cast<CUlaunchAttribute*>(attrs.data());
    config.numAttrs = static_cast<unsigned>(attrs.size());
    return record(cuLaunchKernelEx(&config, function, args, nullptr));
  }
  result = cuLaunchKernel(function, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                          static_cast<unsigned>(shared_mem), stream, args, nullptr);
  return record(result);
}

}  // namespace strata::cuda::runtime
