// cudaFuncSetAttribute, cudaOccupancyMaxActiveBlocksPerMultiprocessor(WithFlags) and
// cudaProfilerStart/Stop: kernels named by host stub address, on the current device's
// CUfunction. cuda_runtime.h's templates (cudaOccupancyMaxPotentialBlockSize, ...) build
// on these.
#include <cudaProfiler.h>
#pragma GCC visibility push(default)  // exported, like everything cuda_api.h declares
#include <cuda_profiler_api.h>
#pragma GCC visibility pop

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

namespace {

// The current device's CUfunction for the kernel whose host stub is `func`.
cudaError_t current_function(const void* func, CUfunction* function) {
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(rt::kernel_function(kernel, rt::current_device(), function));
}

}  // namespace

extern "C" {

cudaError_t cudaFuncSetAttribute(const void* func, cudaFuncAttribute attr, int value) {
  CUfunction function = nullptr;
  if (cudaError_t error = current_function(func, &function); error != cudaSuccess) return error;
  if (attr != cudaFuncAttributeMaxDynamicSharedMemorySize &&
      attr != cudaFuncAttributePreferredSharedMemoryCarveout) {
    return rt::record(cudaErrorInvalidValue);
  }
  // The runtime's attribute numbers are the driver's CU_FUNC_ATTRIBUTE_* values.
  return rt::record(cuFuncSetAttribute(function, static_cast<CUfunction_attribute>(attr), value));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, const void* func,
                                                                   int blockSize,
                                                                   size_t dynamicSMemSize,
                                                                   unsigned int flags) {
  if (numBlocks == nullptr) return rt::record(cudaErrorInvalidValue);
  CUfunction function = nullptr;
  if (cudaError_t error = current_function(func, &function); error != cudaSuccess) return error;
  return rt::record(cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, function, blockSize, dynamicSMemSize, flags));
}

cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, const void* func,
                                                          int blockSize, size_t dynamicSMemSize) {
  return cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
      numBlocks, func, blockSize, dynamicSMemSize, cudaOccupancyDefault);
}

cudaError_t cudaProfilerStart(void) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuProfilerStart());
}

cudaError_t cudaProfilerStop(void) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuProfilerStop());
}

}  // extern "C"
