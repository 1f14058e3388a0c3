// Events: cudaEvent_t is the driver's CUevent.
#include "cuda/runtime/api_common.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaEventCreateWithFlags(cudaEvent_t* event, unsigned int flags) {
  if (event == nullptr) return rt::record(cudaErrorInvalidValue);
  constexpr unsigned kKnown = cudaEventBlockingSync | cudaEventDisableTiming |
                              cudaEventInterprocess;
  if ((flags & ~kKnown) != 0) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  // cudaEvent* flags have the values of CU_EVENT_*.
  return rt::record(cuEventCreate(event, flags));
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  return cudaEventCreateWithFlags(event, cudaEventDefault);
}

cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuEventRecord(event, stream));
}

cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuEventSynchronize(event));
}

cudaError_t cudaEventQuery(cudaEvent_t event) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  CUresult result = cuEventQuery(event);
  // cudaErrorNotReady is a status, not an error: it does not become the last error.
  if (result == CUDA_ERROR_NOT_READY) return cudaErrorNotReady;
  return rt::record(result);
}

cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t end) {
  if (ms == nullptr) return rt::record(cudaErrorInvalidValue);
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuEventElapsedTime(ms, start, end));
}

cudaError_t cudaEventDestroy(cudaEvent_t event) {
  if (cudaError_t error = rt::enter_device(); error != cudaSuccess) return error;
  return rt::record(cuEventDestroy(event));
}

}  // extern "C"
