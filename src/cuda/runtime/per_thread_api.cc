// The per-thread default stream variants of the runtime API (cudaMemcpy_ptds,
// cudaMemcpyAsync_ptsz, ...) that binaries built with `nvcc --default-stream per-thread`
// call. Defining CUDA_API_PER_THREAD_DEFAULT_STREAM before the toolkit headers makes
// them declare every API under its variant's name (cudaMemcpy -> cudaMemcpy_ptds, and
// likewise cuStreamSynchronize -> cuStreamSynchronize_ptsz in cuda.h), so each
// definition below is checked against the toolkit's own declaration and the driver
// calls here use the driver's per-thread variants.
//
// In them the null stream means the calling thread's default stream, and a call without
// a stream argument orders its work on that stream and returns once it is done.
// Variants exist for every stream-ordered API the runtime implements.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/api_common.h"

#include <memory>

#include "cuda/runtime/error_map.h"
#include "cuda/runtime/launch.h"
#include "cuda/runtime/memory_copy.h"
#include "cuda/runtime/registry.h"

namespace rt = strata::cuda::runtime;

namespace {

cudaStream_t per_thread(cudaStream_t stream) {
  return stream == nullptr ? cudaStreamPerThread : stream;
}

// Waits for the thread's default stream after `queued` work went onto it.
cudaError_t finish(cudaError_t queued) {
  if (queued != cudaSuccess) return queued;
  return rt::record(cuStreamSynchronize(CU_STREAM_PER_THREAD));
}

}  // namespace

extern "C" {

cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, cudaMemcpyKind kind) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return finish(rt::record(rt::copy(dst, src, count, kind, cudaStreamPerThread, true)));
}

cudaError_t cudaMemcpyAsync(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                            cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(rt::copy(dst, src, count, kind, per_thread(stream), true));
}

cudaError_t cudaMemset(void* devPtr, int value, size_t count) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (count == 0) return cudaSuccess;
  return rt::record(cuMemsetD8(reinterpret_cast<CUdeviceptr>(devPtr),
                               static_cast<unsigned char>(value), count));
}

cudaError_t cudaMemsetAsync(void* devPtr, int value, size_t count, cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  if (count == 0) return cudaSuccess;
  return rt::record(cuMemsetD8Async(reinterpret_cast<CUdeviceptr>(devPtr),
                                    static_cast<unsigned char>(value), count, stream));
}

cudaError_t cudaMemcpyToSymbol(const void* symbol, const void* src, size_t count, size_t offset,
                               cudaMemcpyKind kind) {
  return finish(rt::symbol_copy(symbol, const_cast<void*>(src), count, offset, kind,
                                /*to_symbol=*/true, cudaStreamPerThread, /*async=*/true));
}

cudaError_t cudaMemcpyFromSymbol(void* dst, const void* symbol, size_t count, size_t offset,
                                 cudaMemcpyKind kind) {
  return finish(rt::symbol_copy(symbol, dst, count, offset, kind, /*to_symbol=*/false,
                                cudaStreamPerThread, /*async=*/true));
}

cudaError_t cudaMemcpyToSymbolAsync(const void* symbol, const void* src, size_t count,
                                    size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return rt::symbol_copy(symbol, const_cast<void*>(src), count, offset, kind,
                         /*to_symbol=*/true, per_thread(stream), /*async=*/true);
}

cudaError_t cudaMemcpyFromSymbolAsync(void* dst, const void* symbol, size_t count,
                                      size_t offset, cudaMemcpyKind kind, cudaStream_t stream) {
  return rt::symbol_copy(symbol, dst, count, offset, kind, /*to_symbol=*/false,
                         per_thread(stream), /*async=*/true);
}

cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamSynchronize(stream));
}

cudaError_t cudaStreamQuery(cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUresult result = cuStreamQuery(stream);
  if (result == CUDA_ERROR_NOT_READY) return cudaErrorNotReady;
  return rt::record(result);
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamWaitEvent(stream, event, flags));
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuEventRecord(event, stream));
}

cudaError_t cudaLaunchKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                             size_t sharedMem, cudaStream_t stream) {
  rt::KernelRecord* kernel = rt::find_kernel(func);
  if (kernel == nullptr) return rt::record(cudaErrorInvalidDeviceFunction);
  return rt::launch(kernel, gridDim, blockDim, args, sharedMem, per_thread(stream));
}

}  // extern "C"

#include "cuda/runtime/stream_host_api.inc"
