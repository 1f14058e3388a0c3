// The runtime's extensible and cooperative launches, shared by the default and the
// per-thread-default-stream (_ptsz) entry points. Errors are recorded as the thread's
// last error: cudaErrorInvalidValue (null config, attributes missing),
// cudaErrorInvalidDeviceFunction (not a registered kernel), then as launch() (launch.h).
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// cudaLaunchKernelExC on `stream` (the caller maps a null stream for _ptsz).
cudaError_t launch_ex(const cudaLaunchConfig_t* config, const void* func, void** args,
                      cudaStream_t stream);

// cudaLaunchCooperativeKernel: a launch with CU_LAUNCH_ATTRIBUTE_COOPERATIVE.
cudaError_t launch_cooperative(const void* func, dim3 grid, dim3 block, void** args,
                               size_t shared_mem, cudaStream_t stream);

}  // namespace strata::cuda::runtime
