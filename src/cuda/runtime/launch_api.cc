// cudaLaunchKernel and cudaFuncGetAttributes: kernels named by host stub address.
#include "cuda/runtime/api_common.h"
#include "cuda/runtime/launch.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem, cudaStream_t stream) {
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  return rt::launch(kernel, gridDim, blockDim, args, sharedMem, stream);
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes* attr, const void* func) {
  if (attr == nullptr) return rt::record(cudaErrorInvalidValue);
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUfunction function = nullptr;
  CUresult result = rt::kernel_function(kernel, rt::current_device(), &function);
  if (result != CUDA_SUCCESS) return rt::record(result);
  *attr = cudaFuncAttributes{};
  int shared = 0, constant = 0, local = 0;
  const struct {
    int* value;
    CUfunction_attribute attribute;
  } fields[] = {
      {&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES},
      {&constant, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES},
      {&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES},
      {&attr->maxThreadsPerBlock, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
      {&attr->numRegs, CU_FUNC_ATTRIBUTE_NUM_REGS},
      {&attr->ptxVersion, CU_FUNC_ATTRIBUTE_PTX_VERSION},
      {&attr->binaryVersion, CU_FUNC_ATTRIBUTE_BINARY_VERSION},
      {&attr->cacheModeCA, CU_FUNC_ATTRIBUTE_CACHE_MODE_CA},
      {&attr->maxDynamicSharedSizeBytes, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES},
      {&attr->preferredShmemCarveout, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT},
  };
  for (const auto& f : fields) {
    result = cuFuncGetAttribute(f.value, f.attribute, function);
    if (result != CUDA_SUCCESS) return rt::record(result);
  }
  attr->sharedSizeBytes = static_cast<size_t>(shared);
  attr->constSizeBytes = static_cast<size_t>(constant);
  attr->localSizeBytes = static_cast<size_t>(local);
  return cudaSuccess;
}

}  // extern "C"
