// cudaGetLastError, cudaPeekAtLastError, cudaGetErrorString, cudaGetErrorName.
#include "cuda/runtime/cuda_api.h"
#include "cuda/runtime/error_map.h"
#include "cuda/runtime/thread_state.h"

namespace rt = strata::cuda::runtime;

extern "C" {

cudaError_t cudaGetLastError(void) { return rt::take_last_error(); }

cudaError_t cudaPeekAtLastError(void) { return rt::peek_last_error(); }

const char* cudaGetErrorString(cudaError_t error) {
  const char* description = rt::error_description(error);
  return description != nullptr ? description : "unrecognized error code";
}

const char* cudaGetErrorName(cudaError_t error) {
  const char* name = rt::error_name(error);
  return name != nullptr ? name : "cudaErrorUnknown";
}

}  // extern "C"
