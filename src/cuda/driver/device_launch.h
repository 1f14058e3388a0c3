// The driver's half of CUDA dynamic parallelism (hw/contract/device_launch.h): the
// per-context device launch queue that grids append child launches to, and the kernel
// descriptors the loader writes so that a kernel's device-side address can be launched.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"
#include "hal/allocator.h"
#include "hal/command_buffer.h"
#include "hal/executable.h"

namespace strata::cuda::driver {

// One context's launch queue: a header plus kCapacityBytes of records, allocated on the
// first va() call (the first launch) and zero-filled. Its VA goes into the driver bank
// c[3] (sxbin::kDriverBankLaunchQueueVa). Thread-safe.
class DeviceLaunchQueue {
 public:
  static constexpr uint32_t kDefaultPendingLaunchCount = 2048;  // CUDA's default
  // Record space: 2048 launches with up to ~16 KiB of parameters each (a full queue
  // fails further launches with cudaErrorLaunchPendingCountExceeded).
  static constexpr uint64_t kCapacityBytes = 32ull << 20;

  explicit DeviceLaunchQueue(hal::Allocator* allocator) : allocator_(allocator) {}

  StatusOr<uint64_t> va();

  // cudaLimitDevRuntimePendingLaunchCount: launches a grid tree may have waiting; a
  // device launch beyond it fails with cudaErrorLaunchPendingCountExceeded. The caller
  // makes sure no work is pending (the header is rewritten).
  uint32_t pending_limit();
  Status set_pending_limit(uint32_t launches);

  // The call stack (bytes of local memory per thread) that device-launched kernels
  // whose stack follows cudaLimitStackSize get, as the driver's own launches do; the
  // header is written only when the value changes. Children inherit the stack limit.
  Status set_stack_bytes(uint32_t bytes);

 private:
  hal::Allocator* allocator_;
  std::mutex mutex_;
  uint32_t pending_limit_ = kDefaultPendingLaunchCount;
  uint32_t stack_bytes_ = 0;
  std::shared_ptr<hal::Buffer> buffer_;
};

// The kernel descriptors (hw::KernelDescriptor) of an executable's kernels, in kernel
// order, stride sizeof(hw::KernelDescriptor): allocate() reserves the memory (so that
// descriptor_va() is known while the module's symbol table is built), write() fills it
// once the module's constant banks exist.
class KernelDescriptors {
 public:
  Status allocate(hal::Allocator& allocator, size_t kernel_count);
  uint64_t descriptor_va(size_t kernel) const;
  // `kernels`: the binary's kernels, in executable order; `banks`: the module's banks.
  Status write(hal::Allocator& allocator, const hal::Executable& executable,
               std::span<const sxbin::KernelDesc> kernels,
               std::span<const hal::ConstBankBinding> banks);

 private:
  std::shared_ptr<hal::Buffer> buffer_;
};

}  // namespace strata::cuda::driver
