// cuLaunchKernel's work: validate the launch, pack the parameters into c[0], bind the
// module's constant banks, and queue a HAL dispatch on the stream. Thread-safe.
#pragma once

#include "base/status.h"
#include "cuda/driver/launch_config.h"

namespace strata::cuda::driver {

class Function;
class Stream;

Status launch_kernel(Function& function, const LaunchShape& shape, Stream& stream,
                     void** kernel_params, void** extra);

}  // namespace strata::cuda::driver
