// Per-thread default stream variants of the stream-ordered managed memory APIs
// (see per_thread_api.cc): the null stream means the calling thread's default stream.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/managed_memory.h"

namespace rt = strata::cuda::runtime;

namespace {

cudaStream_t per_thread(cudaStream_t stream) {
  return stream == nullptr ? cudaStreamPerThread : stream;
}

}  // namespace

extern "C" {

cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void* devPtr, size_t length,
                                     unsigned int flags) {
  return rt::attach_managed(per_thread(stream), devPtr, length, flags);
}

cudaError_t cudaMemPrefetchAsync(const void* devPtr, size_t count, cudaMemLocation location,
                                 unsigned int flags, cudaStream_t stream) {
  return rt::prefetch_managed(devPtr, count, location, flags, per_thread(stream));
}

}  // extern "C"
