// The registration ABI called by nvcc-generated host code (crt/host_runtime.h).
#include "cuda/runtime/registration_abi.h"

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/cuda_api.h"
#include "cuda/runtime/launch.h"
#include "cuda/runtime/launch_config.h"
#include "cuda/runtime/registry.h"
#include "cuda/runtime/thread_state.h"

using strata::cuda::runtime::FatbinRecord;
using strata::cuda::runtime::KernelRecord;

namespace {

FatbinRecord* record_of(void** handle) { return reinterpret_cast<FatbinRecord*>(handle); }

}  // namespace

extern "C" {

void** __cudaRegisterFatBinary(void* fatCubin) {
  return reinterpret_cast<void**>(strata::cuda::runtime::register_fatbin(fatCubin));
}

void __cudaRegisterFatBinaryEnd(void** fatCubinHandle) {
  // Modules load lazily, per device, at first use; nothing to do here.
}

void __cudaUnregisterFatBinary(void** fatCubinHandle) {
  if (fatCubinHandle != nullptr) strata::cuda::runtime::unregister_fatbin(record_of(fatCubinHandle));
}

// Called by nvcc's host code before the first host access to a __managed__ variable of
// the translation unit: loads the fatbin's module on the current device, which publishes
// the variables' managed addresses. Returns nonzero on success (nvcc's code calls again
// after a failure).
char __cudaInitModule(void** fatCubinHandle) {
  if (fatCubinHandle == nullptr) return 0;
  namespace rt = strata::cuda::runtime;
  if (rt::enter_device() != cudaSuccess) return 0;
  CUmodule module = nullptr;
  CUresult result = rt::fatbin_module(record_of(fatCubinHandle), rt::current_device(), &module);
  if (result != CUDA_SUCCESS) {
    rt::record(result);
    return 0;
  }
  return 1;
}

void __cudaRegisterManagedVar(void** fatCubinHandle, void** hostVarPtrAddress, char* deviceAddress,
                              const char* deviceName, int ext, size_t size, int constant,
                              int global) {
  strata::cuda::runtime::register_managed_variable(record_of(fatCubinHandle), hostVarPtrAddress,
                                                   deviceName, size);
}

void __cudaRegisterFunction(void** fatCubinHandle, const char* hostFun, char* deviceFun,
                            const char* deviceName, int thread_limit, uint3* tid, uint3* bid,
                            dim3* bDim, dim3* gDim, int* wSize) {
  strata::cuda::runtime::register_function(record_of(fatCubinHandle), hostFun, deviceName);
}

void __cudaRegisterVar(void** fatCubinHandle, char* hostVar, char* deviceAddress,
                       const char* deviceName, int ext, size_t size, int constant, int global) {
  strata::cuda::runtime::register_variable(record_of(fatCubinHandle), hostVar, deviceName, size,
                                           constant != 0);
}

unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                     struct CUstream_st* stream) {
  strata::cuda::runtime::push_launch_config({gridDim, blockDim, sharedMem, stream});
  return 0;
}

cudaError_t __cudaPopCallConfiguration(dim3* gridDim, dim3* blockDim, size_t* sharedMem,
                                       void* stream) {
  strata::cuda::runtime::LaunchConfig config;
  if (!strata::cuda::runtime::pop_launch_config(&config)) {
    return strata::cuda::runtime::record(cudaErrorMissingConfiguration);
  }
  *gridDim = config.grid;
  *blockDim = config.block;
  *sharedMem = config.shared_mem;
  *static_cast<cudaStream_t*>(stream) = config.stream;
  return cudaSuccess;
}

cudaError_t __cudaGetKernel(cudaKernel_t* kernel, const void* host_function) {
  if (kernel == nullptr) return strata::cuda::runtime::record(cudaErrorInvalidValue);
  KernelRecord* record = strata::cuda::runtime::find_kernel(host_function);
  if (record == nullptr) return strata::cuda::runtime::record(cudaErrorInvalidDeviceFunction);
  *kernel = reinterpret_cast<cudaKernel_t>(record);
  return cudaSuccess;
}

cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim, void** args,
                               size_t sharedMem, cudaStream_t stream) {
  if (kernel == nullptr) return strata::cuda::runtime::record(cudaErrorInvalidDeviceFunction);
  return strata::cuda::runtime::launch(reinterpret_cast<KernelRecord*>(kernel), gridDim,
                                       blockDim, args, sharedMem, stream);
}

cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                    void** args, size_t sharedMem, cudaStream_t stream) {
  // Per-thread default stream compilation: the null stream means this thread's stream.
  if (stream == nullptr) stream = cudaStreamPerThread;
  return __cudaLaunchKernel(kernel, gridDim, blockDim, args, sharedMem, stream);
}

}  // extern "C"
