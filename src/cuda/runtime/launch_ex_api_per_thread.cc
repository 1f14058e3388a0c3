// cudaLaunchKernelExC_ptsz and cudaLaunchCooperativeKernel_ptsz: the launches of
// launch_ex_api.cc for `nvcc --default-stream per-thread` programs, where the null stream
// is the calling thread's default stream (see per_thread_api.cc).
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/launch_ex.h"

namespace rt = strata::cuda::runtime;

namespace {

cudaStream_t per_thread(cudaStream_t stream) {
  return stream == nullptr ? cudaStreamPerThread : stream;
}

}  // namespace

extern "C" {

cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t* config, const void* func, void** args) {
  return rt::launch_ex(config, func, args,
                       per_thread(config != nullptr ? config->stream : nullptr));
}

cudaError_t cudaLaunchCooperativeKernel(const void* func, dim3 gridDim, dim3 blockDim, void** args,
                                        size_t sharedMem, cudaStream_t stream) {
  return rt::launch_cooperative(func, gridDim, blockDim, args, sharedMem, per_thread(stream));
}

}  // extern "C"
