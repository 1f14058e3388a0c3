// cudaDriverGetVersion, cudaRuntimeGetVersion.
#include "cuda/runtime/cuda_api.h"
#include "cuda/runtime/thread_state.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaRuntimeGetVersion(int* runtimeVersion) {
  if (runtimeVersion == nullptr) return rt::record(cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaDriverGetVersion(int* driverVersion) {
  if (driverVersion == nullptr) return rt::record(cudaErrorInvalidValue);
  // Like CUDA: 0 (and success) when no driver can be initialised.
  int version = 0;
  if (cuDriverGetVersion(&version) != CUDA_SUCCESS) version = 0;
  *driverVersion = version;
  return cudaSuccess;
}

}  // extern "C"
