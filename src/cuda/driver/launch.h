// cuLaunchKernel's work: validate the launch, pack the parameters into c[0], bind the
// module's constant banks, and queue a HAL dispatch on the stream. Thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "base/status.h"
#include "cuda/driver/launch_config.h"
#include "hal/command_buffer.h"

namespace strata::cuda::driver {

class Function;
class Stream;

// Records the dispatch of `function` with the packed c[0] block `params` into `cb` (the
// module's banks, the driver bank, the device heap and stack as cuLaunchKernel binds
// them); the caller has validated `shape`. Used by launches and by CUDA graphs.
// `environment`, when given, replaces the launch environment c[4] (%envreg) the module
// binds: a cooperative launch's (cooperative_launch.h), which the caller keeps alive
// until the dispatch completes.
Status record_kernel(Function& function, const LaunchShape& shape, std::span<const uint8_t> params,
                     hal::CommandBuffer& cb, const hal::ConstBankBinding* environment = nullptr);

// What a launch asks beyond its shape (cuLaunchCooperativeKernel, cuLaunchKernelEx).
struct LaunchOptions {
  // Cooperative: every block co-resident (kCooperativeLaunchTooLarge otherwise, as
  // CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE) and a grid workspace of its own for
  // cooperative groups' grid.sync().
  bool cooperative = false;
  // The launch priority attribute: run at this CUDA priority (clamped) rather than the
  // stream's (Stream::submit_with_priority).
  std::optional<int> priority;
};

Status launch_kernel(Function& function, const LaunchShape& shape, Stream& stream,
                     void** kernel_params, void** extra, const LaunchOptions& options = {});

}  // namespace strata::cuda::driver
