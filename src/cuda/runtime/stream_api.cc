// Streams: cudaStream_t is the driver's CUstream.
#include "cuda/runtime/api_common.h"

#include <memory>

#include "cuda/runtime/error_map.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned int flags) {
  if (stream == nullptr) return rt::record(cudaErrorInvalidValue);
  if ((flags & ~cudaStreamNonBlocking) != 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamCreate(stream, flags));
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) {
  return cudaStreamCreateWithFlags(stream, cudaStreamDefault);
}

cudaError_t cudaStreamCreateWithPriority(cudaStream_t* stream, unsigned int flags,
                                         int priority) {
  if (stream == nullptr) return rt::record(cudaErrorInvalidValue);
  if ((flags & ~cudaStreamNonBlocking) != 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamCreateWithPriority(stream, flags, priority));
}

cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  if (stream == nullptr || stream == cudaStreamLegacy || stream == cudaStreamPerThread) {
    return rt::record(cudaErrorInvalidResourceHandle);
  }
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamDestroy(stream));
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

cudaError_t cudaDeviceGetStreamPriorityRange(int* leastPriority, int* greatestPriority) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuCtxGetStreamPriorityRange(leastPriority, greatestPriority));
}

cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuStreamWaitEvent(stream, event, flags));
}

}  // extern "C"

#include "cuda/runtime/stream_host_api.inc"
