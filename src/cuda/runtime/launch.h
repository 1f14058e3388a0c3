// Kernel launch: configuration checks, lazy module load, cuLaunchKernel. Thread-safe.
#pragma once

#include <span>

#include "cuda/runtime/cuda_api.h"
#include "cuda/runtime/registry.h"

namespace strata::cuda::runtime {

// Launches on the calling thread's current device. Errors (recorded as the thread's last
// error): cudaErrorInvalidConfiguration for a zero or oversized grid/block or too much
// shared memory (not sticky); cudaErrorNoKernelImageForDevice when the fatbin has no
// usable PTX; a sticky error from an earlier device fault; driver errors mapped.
// With `attrs` (cudaLaunchKernelEx, cudaLaunchCooperativeKernel) the driver launch is
// cuLaunchKernelEx with those attributes, else cuLaunchKernel.
cudaError_t launch(KernelRecord* kernel, dim3 grid, dim3 block, void** args, size_t shared_mem,
                   cudaStream_t stream, std::span<const CUlaunchAttribute> attrs = {});

// The configuration check alone (exposed for tests): cudaSuccess or
// cudaErrorInvalidConfiguration, with `why` describing the violated limit.
struct DeviceLimits;
cudaError_t check_launch_config(const DeviceLimits& limits, dim3 grid, dim3 block,
                                size_t shared_mem, std::string* why);

}  // namespace strata::cuda::runtime
