// Cooperative launches (cuLaunchCooperativeKernel, CU_LAUNCH_ATTRIBUTE_COOPERATIVE): the
// grid workspace that cooperative groups synchronise through. (The co-residency rule is
// check_co_resident, launch_config.h.)
//
// CUDA's device code (cooperative_groups/details/driver_abi.h, sync.h) finds the grid
// workspace at the address %envreg1 (high word) : %envreg2 (low word); a null address
// means "not a cooperative launch" (grid_group::is_valid() is false, sync() traps). The
// workspace is {u32 wsSize, u32 barrier}: grid.sync() counts arrivals on `barrier` with
// atomics and flips its bit 31 once per barrier, so the word must start at 0.
//
// On Strata %envregN is the launch environment, constant bank c[4] (sxbin.h). Each
// cooperative launch gets an environment of its own, one buffer holding that bank and
// the workspace, so cooperative grids in flight on different streams never share a
// barrier word. The launch keeps its environment until it completes; then the buffer
// goes back to the context's CooperativeEnvironments for a later launch, so launching
// in a loop does not allocate device memory each time.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"
#include "hal/allocator.h"
#include "hal/command_buffer.h"

namespace strata::cuda::driver {

// Grid workspace layout (CUDA's, cooperative_groups/details/driver_abi.h).
inline constexpr uint32_t kGridWorkspaceSizeOffset = 0;     // u32 wsSize: the bytes below
inline constexpr uint32_t kGridWorkspaceBarrierOffset = 4;  // u32 barrier
inline constexpr uint32_t kGridWorkspaceBytes = 8;
// The registers that carry its address.
inline constexpr uint32_t kGridWorkspaceEnvRegHi = 1;
inline constexpr uint32_t kGridWorkspaceEnvRegLo = 2;

// A cooperative launch's environment: `bank` (c[4]) to bind, `keep_alive` to hold until
// the launch completes (releasing it recycles the buffer), and the workspace's VA (as
// %envreg1:%envreg2 hold it).
struct CooperativeEnvironment {
  hal::ConstBankBinding bank;
  std::shared_ptr<void> keep_alive;
  uint64_t workspace_va = 0;
};

// The environments of one context. Thread-safe.
class CooperativeEnvironments {
 public:
  // At most this many idle buffers are kept for reuse; more are freed.
  static constexpr size_t kMaxIdle = 16;

  explicit CooperativeEnvironments(hal::Allocator* allocator)
      : allocator_(allocator), idle_(std::make_shared<Idle>()) {}

  // An environment with the bank written and the workspace's barrier at 0: a recycled
  // buffer whose last launch has completed, or a new one (kOutOfMemory if none fits).
  StatusOr<CooperativeEnvironment> acquire();

 private:
  struct Idle {
    std::mutex mutex;
    std::vector<std::shared_ptr<hal::Buffer>> buffers;
  };
  hal::Allocator* allocator_;
  std::shared_ptr<Idle> idle_;  // shared with the keep-alives, which may outlive us
};

}  // namespace strata::cuda::driver
