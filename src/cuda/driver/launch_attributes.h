// cuLaunchKernelEx's launch attributes (CUlaunchAttribute): validation and what each asks
// of the launch. Pure function of the attribute list and the device's limits;
// thread-safe.
//
// How Strata honours each attribute (ids cuda.h declares for launches):
//   COOPERATIVE                      non-zero: a cooperative launch (cooperative_launch.h)
//   PRIORITY                         any value, clamped to the stream priority range: the
//                                    kernel runs at that priority instead of the stream's,
//                                    in stream order (Stream::submit_with_priority)
//   PROGRAMMATIC_STREAM_SERIALIZATION  allowed overlap with the previous kernel; Strata
//                                    fully serialises, which CUDA permits
//   PROGRAMMATIC_EVENT, LAUNCH_COMPLETION_EVENT  the event is recorded after the kernel:
//                                    a grid that has completed has had all its blocks
//                                    begin and trigger (the API checks the event:
//                                    CU_EVENT_DISABLE_TIMING, no CU_EVENT_RECORD_EXTERNAL)
//   ACCESS_POLICY_WINDOW             an L2 hint: validated (hitRatio in [0, 1], valid
//                                    properties, missProp not PERSISTING, num_bytes within
//                                    the device's maximum window when it has one), ignored
//   SYNCHRONIZATION_POLICY           a host-wait hint: a valid CUsynchronizationPolicy
//   MEM_SYNC_DOMAIN(_MAP)            valid domain / domains below the device's count
//   PREFERRED_SHARED_MEMORY_CARVEOUT  -1 or 0..100 percent; a hint
//   NVLINK_UTIL_CENTRIC_SCHEDULING   0 or 1; a hint
//   CLUSTER_DIMENSION, PREFERRED_CLUSTER_DIMENSION  the device has no thread block
//                                    clusters (CU_DEVICE_ATTRIBUTE_CLUSTER_LAUNCH 0): only
//                                    1x1x1, every launch's trivial clustering, is accepted;
//                                    anything else is kInvalidValue
//   CLUSTER_SCHEDULING_POLICY_PREFERENCE  a valid CUclusterSchedulingPolicy; a hint
//   DEVICE_UPDATABLE_KERNEL_NODE     graphs only: 0 or 1 (reported; the API refuses 1:
//                                    kInvalidValue outside a capture, as CUDA, and
//                                    kNotSupported inside one, not implemented yet)
//   IGNORE                           skipped
// Any other id is kInvalidValue.
#pragma once

#include <cuda.h>

#include <cstdint>
#include <span>

#include "base/status.h"

namespace strata::cuda::driver {

struct LaunchAttributeLimits {
  int64_t max_access_policy_window_bytes = 0;  // 0: no persisting L2 (not checked)
  int mem_sync_domain_count = 1;
};

struct LaunchAttributes {
  bool cooperative = false;
  bool has_priority = false;
  int priority = 0;
  CUevent programmatic_event = nullptr;  // record after the kernel
  int programmatic_event_flags = 0;
  CUevent completion_event = nullptr;  // record after the kernel
  int completion_event_flags = 0;
  bool device_updatable = false;  // DEVICE_UPDATABLE_KERNEL_NODE = 1
};

// Validates `attrs` (numAttrs entries; `attrs` may be null only when there are none).
// Errors: kInvalidValue naming the attribute and the bad value.
StatusOr<LaunchAttributes> parse_launch_attributes(std::span<const CUlaunchAttribute> attrs,
                                                   const LaunchAttributeLimits& limits);

}  // namespace strata::cuda::driver
