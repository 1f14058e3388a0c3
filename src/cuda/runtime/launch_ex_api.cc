// cudaLaunchKernelExC and cudaLaunchCooperativeKernel (on cuLaunchKernelEx), and the
// function and cache-preference calls around launches: cudaFuncSetCacheConfig,
// cudaDeviceSet/GetCacheConfig, cudaDeviceSet/GetSharedMemConfig,
// cudaFuncSetSharedMemConfig, cudaFuncGetName, cudaFuncGetParamInfo, cudaGetFuncBySymbol.
// The _ptsz launch variants are in launch_ex_api_per_thread.cc.
//
// Cache and shared-memory-bank preferences are hints CUDA lets devices ignore; Strata's
// SMs have 4-byte shared memory banks and no L1/shared split to choose, so valid values
// are accepted (the context-wide cache preference is reported back) and change nothing.
#include <cstddef>

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/launch.h"
#include "cuda/runtime/launch_ex.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

// The runtime's launch attributes are the driver's, value for value and byte for byte.
static_assert(sizeof(cudaLaunchAttribute) == sizeof(CUlaunchAttribute));
static_assert(offsetof(cudaLaunchAttribute, val) == offsetof(CUlaunchAttribute, value));
static_assert(sizeof(cudaLaunchAttributeValue) == sizeof(CUlaunchAttributeValue));
static_assert(static_cast<int>(cudaLaunchAttributeCooperative) == CU_LAUNCH_ATTRIBUTE_COOPERATIVE);
static_assert(static_cast<int>(cudaLaunchAttributeLaunchCompletionEvent) ==
              CU_LAUNCH_ATTRIBUTE_LAUNCH_COMPLETION_EVENT);
static_assert(static_cast<int>(cudaLaunchAttributeNvlinkUtilCentricScheduling) ==
              CU_LAUNCH_ATTRIBUTE_NVLINK_UTIL_CENTRIC_SCHEDULING);
static_assert(static_cast<int>(cudaFuncCachePreferEqual) == CU_FUNC_CACHE_PREFER_EQUAL);

namespace strata::cuda::runtime {

cudaError_t launch_ex(const cudaLaunchConfig_t* config, const void* func, void** args,
                      cudaStream_t stream) {
  if (config == nullptr) return record(cudaErrorInvalidValue);
  if (config->numAttrs > 0 && config->attrs == nullptr) return record(cudaErrorInvalidValue);
  KernelRecord* kernel = find_kernel(func);
  if (kernel == nullptr) return record(cudaErrorInvalidDeviceFunction);
  // Without attributes this is cudaLaunchKernel.
  const auto* attrs = reinterpret_cast<const CUlaunchAttribute*>(config->attrs);
  return launch(kernel, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, stream,
                std::span<const CUlaunchAttribute>(attrs, config->numAttrs));
}

cudaError_t launch_cooperative(const void* func, dim3 grid, dim3 block, void** args,
                               size_t shared_mem, cudaStream_t stream) {
  KernelRecord* kernel = find_kernel(func);
  if (kernel == nullptr) return record(cudaErrorInvalidDeviceFunction);
  CUlaunchAttribute cooperative{};
  cooperative.id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
  cooperative.value.cooperative = 1;
  return launch(kernel, grid, block, args, shared_mem, stream, {&cooperative, 1});
}

}  // namespace strata::cuda::runtime

namespace {

// The kernel's CUfunction on the current device (loading its module), for the
// function queries; errors are recorded.
cudaError_t function_of(const void* func, CUfunction* function) {
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(rt::kernel_function(kernel, rt::current_device(), function));
}

}  // namespace

extern "C" {

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return rt::launch_ex(config, func, args, config != nullptr ? config->stream : nullptr);
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                        size_t sharedMem, cudaStream_t stream) {
  return rt::launch_cooperative(func, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaFuncSetCacheConfig(const void* func, cudaFuncCache cacheConfig) {
  CUfunction function = nullptr;
  if (cudaError_t error = function_of(func, &function); error != cudaSuccess) return error;
  return rt::record(cuFuncSetCacheConfig(function, static_cast<CUfunc_cache>(cacheConfig)));
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache cacheConfig) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuCtxSetCacheConfig(static_cast<CUfunc_cache>(cacheConfig)));
}

cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache* pCacheConfig) {
  if (pCacheConfig == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUfunc_cache config = CU_FUNC_CACHE_PREFER_NONE;
  CUresult result = cuCtxGetCacheConfig(&config);
  if (result == CUDA_SUCCESS) *pCacheConfig = static_cast<cudaFuncCache>(config);
  return rt::record(result);
}

cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig* pConfig) {
  if (pConfig == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  *pConfig = cudaSharedMemBankSizeFourByte;
  return cudaSuccess;
}

cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
    return rt::record(cudaErrorInvalidValue);
  }
  return rt::enter_device();
}

cudaError_t cudaFuncSetSharedMemConfig(const void* func, cudaSharedMemConfig config) {
  CUfunction function = nullptr;
  if (cudaError_t error = function_of(func, &function); error != cudaSuccess) return error;
  if (config < cudaSharedMemBankSizeDefault || config > cudaSharedMemBankSizeEightByte) {
    return rt::record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaFuncGetName(const char** name, const void* func) {
  if (name == nullptr) return rt::record(cudaErrorInvalidValue);
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  *name = kernel->device_name.c_str();  // registered for the program's life
  return cudaSuccess;
}

cudaError_t cudaGetFuncBySymbol(cudaFunction_t* functionPtr, const void* symbolPtr) {
  if (functionPtr == nullptr) return rt::record(cudaErrorInvalidValue);
  CUfunction function = nullptr;
  if (cudaError_t error = function_of(symbolPtr, &function); error != cudaSuccess) return error;
  *functionPtr = function;
  return cudaSuccess;
}

cudaError_t cudaFuncGetParamInfo(const void* func, size_t paramIndex, size_t* paramOffset,
                                 size_t* paramSize) {
  CUfunction function = nullptr;
  if (cudaError_t error = function_of(func, &function); error != cudaSuccess) return error;
  return rt::record(cuFuncGetParamInfo(function, paramIndex, paramOffset, paramSize));
}

}  // extern "C"
