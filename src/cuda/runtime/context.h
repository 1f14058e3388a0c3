// The runtime's implicit contexts: the driver is initialised on first use and each
// device's primary context is retained once and made current on the calling thread
// before any work for that device. Thread-safe.
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// cuInit(0) once per process; the result is remembered.
CUresult init_driver();

// Validates `device`, retains its primary context (first time only) and makes it current
// on this thread. Errors: CUDA_ERROR_INVALID_DEVICE, driver init failures.
CUresult activate_device(int device);

// activate_device(current_device()).
CUresult activate_current_device();

// Forgets the retained primary context of `device` after cudaDeviceReset so the next
// activation retains a fresh one; bumps the device's generation.
void forget_device_context(int device);

// Incremented every time the device's context is reset; modules loaded in an older
// generation are stale.
unsigned device_generation(int device);

// Launch limits of a device, read once from the driver.
struct DeviceLimits {
  int max_threads_per_block = 0;
  int max_block[3] = {0, 0, 0};
  int max_grid[3] = {0, 0, 0};
  int max_shared_per_block = 0;
  int max_shared_per_block_optin = 0;
  int cc_major = 0;
  int cc_minor = 0;
};
CUresult device_limits(int device, DeviceLimits* limits);

}  // namespace strata::cuda::runtime
