// Shared prologue of runtime API calls that touch the device.
#pragma once

#include "cuda/runtime/context.h"
#include "cuda/runtime/cuda_api.h"
#include "cuda/runtime/registry.h"
#include "cuda/runtime/thread_state.h"

namespace strata::cuda::runtime {

// Returns cudaErrorCudartUnloading once the runtime is unloading at exit, the process's
// sticky error if there is one, else makes the current device's primary context current
// (initialising the driver on first use). The result is already recorded as the
// thread's last error.
inline cudaError_t enter_device() {
  if (runtime_unloading()) return record(cudaErrorCudartUnloading);  // see registry.h
  if (cudaError_t sticky = sticky_error(); sticky != cudaSuccess) return record(sticky);
  return record(activate_current_device());
}

}  // namespace strata::cuda::runtime
