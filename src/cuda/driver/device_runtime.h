// DeviceRuntime: the driver's half of CUDA's device-side services for one context — the
// printf FIFO and the assert record that kernels reach through the driver bank c[3]
// (layouts: compiler/sxbin/sxbin.h, "DEVICE PRINTF" and "DEVICE ASSERT"), the device
// heap behind malloc/free (compiler/devrt/heap_layout.h), and the context's limits
// (cuCtxSetLimit / cuCtxGetLimit).
//
// One device buffer holds the bank (kDriverBankBytes), the assert record and the FIFO;
// it is allocated on the first bank() call (the first launch) and again after the FIFO
// size changes. flush_printf prints the FIFO's complete records to stdout in FIFO order
// (so each thread's output is in program order) and empties it; callers flush only when
// no work is pending in the context (a kernel still running could be mid-record).
// Thread-safe.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "base/status.h"
#include "compiler/sxbin/sxbin.h"
#include "cuda/driver/cooperative_launch.h"
#include "cuda/driver/device_launch.h"
#include "hal/allocator.h"
#include "hal/command_buffer.h"
#include "hal/fault.h"

namespace strata::cuda::driver {

class DeviceRuntime {
 public:
  static constexpr uint64_t kDefaultPrintfFifoBytes = 1ull << 20;  // CUDA's default, 1 MiB
  static constexpr uint64_t kMinPrintfFifoBytes = 64;

  explicit DeviceRuntime(hal::Allocator* allocator)
      : allocator_(allocator), launch_queue_(allocator), cooperative_environments_(allocator) {}

  // Dynamic parallelism: the queue whose VA the bank carries (kDriverBankLaunchQueueVa).
  DeviceLaunchQueue& launch_queue() { return launch_queue_; }

  // The binding of c[3] for a launch; allocates and zero-fills the buffer on first use.
  StatusOr<hal::ConstBankBinding> bank();

  // The launch environment c[4] (%envreg0..31, compiler/sxbin/sxbin.h) of an ordinary
  // launch: all zero, so cooperative groups see no grid workspace. Allocated on first
  // use and kept for the context's life; the loader also puts it in the kernel
  // descriptors, so device-side launches see it too. A cooperative launch binds its own
  // (cooperative_launch.h).
  StatusOr<hal::ConstBankBinding> null_environment();
  // Cooperative launches' own environments and grid workspaces, recycled.
  CooperativeEnvironments& cooperative_environments() { return cooperative_environments_; }

  // CU_LIMIT_PRINTF_FIFO_SIZE. Setting it (at least kMinPrintfFifoBytes, else
  // kInvalidValue) prints what the old FIFO holds and drops it; the next launch
  // allocates the new size. The caller makes sure no work is pending.
  uint64_t printf_fifo_size();
  Status set_printf_fifo_size(uint64_t bytes);

  // Prints the FIFO's records to stdout and resets it. The caller makes sure no work
  // is pending. Reads that fail (a faulted device) are reported, not fatal.
  Status flush_printf();

  // CUDA's assertion line for an assert fault, "file:line: function: block: [x,y,z],
  // thread: [x,y,z] Assertion `message` failed.", from the assert record and the
  // fault's block/thread; nullopt when no complete record exists.
  std::optional<std::string> assert_line(const hal::DeviceFault& fault);

  // ---- Device heap (malloc/free) ----
  static constexpr uint64_t kDefaultHeapBytes = 8ull << 20;  // CUDA's default, 8 MiB

  // CU_LIMIT_MALLOC_HEAP_SIZE. Setting it fails with kInvalidValue once a kernel that
  // calls malloc/free has been launched (CUDA's rule), or above the heap's 64 GiB.
  uint64_t heap_size();
  Status set_heap_size(uint64_t bytes);
  // Before a launch of a kernel that calls malloc/free: allocates and initialises the
  // heap on first use (kOutOfMemory when the heap size does not fit) and publishes its
  // VA in the bank. The heap lives as long as the context: memory malloc returns stays
  // valid across launches until freed.
  Status prepare_heap();

  // ---- Limits (cuCtxSetLimit / cuCtxGetLimit) ----
  // CU_LIMIT_STACK_SIZE, bytes per thread (CUDA's default 1 KiB). A kernel with
  // recursion gets sxbin::kStackBytesPerLimitByte times it as call stack (sxbin.h, CALL
  // STACK); at most kMaxStackSize (kInvalidValue above). Setting it waits for the
  // context's work, as CUDA may (the caller synchronises).
  static constexpr uint64_t kMaxStackSize = 1ull << 20;
  uint64_t stack_size();
  Status set_stack_size(uint64_t bytes);
  // The per-thread local memory a launch of `kernel` gets: its frame plus a call stack
  // for the current stack size. Raises the stack size to the kernel's known need (its
  // local memory: all of it without recursion, its own frame with) when that is
  // larger, as CUDA's driver does for each launch.
  uint32_t launch_local_bytes(const sxbin::KernelDesc& kernel);

  // CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT: the most device-runtime (dynamic
  // parallelism) launches that may be outstanding at once; CUDA's default 2048; > 0.
  static constexpr uint64_t kDefaultPendingLaunchCount = 2048;
  uint64_t pending_launch_count();
  Status set_pending_launch_count(uint64_t count);
  // CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH: the deepest grid nesting level at which a device
  // thread may synchronise on its children; CUDA's default 2, at most 24 (kInvalidValue
  // above).
  static constexpr uint64_t kDefaultSyncDepth = 2;
  static constexpr uint64_t kMaxSyncDepth = 24;
  uint64_t sync_depth();
  Status set_sync_depth(uint64_t depth);
  // CU_LIMIT_MAX_L2_FETCH_GRANULARITY (bytes, 0..128) and CU_LIMIT_PERSISTING_L2_CACHE_SIZE:
  // performance hints that CUDA documents may be clamped; stored clamped to 128 and
  // to `max_bytes` (the device's persisting L2 maximum) and reported back.
  static constexpr uint64_t kDefaultL2FetchGranularity = 64;
  static constexpr uint64_t kMaxL2FetchGranularity = 128;
  uint64_t l2_fetch_granularity();
  void set_l2_fetch_granularity(uint64_t bytes);
  uint64_t persisting_l2_size();
  void set_persisting_l2_size(uint64_t bytes, uint64_t max_bytes);

 private:
  static constexpr uint64_t kAssertOffset = 64;   // after the bank
  static constexpr uint64_t kFifoOffset = 128;
  Status allocate_locked();
  std::optional<std::string> read_string(uint64_t va);
  Status flush_locked();

  hal::Allocator* allocator_;
  std::mutex mutex_;
  uint64_t fifo_bytes_ = kDefaultPrintfFifoBytes;
  std::shared_ptr<hal::Buffer> buffer_;
  std::shared_ptr<hal::Buffer> null_environment_;
  // Device heap and limits (guarded by mutex_).
  uint64_t heap_bytes_ = kDefaultHeapBytes;
  std::shared_ptr<hal::Buffer> heap_;
  uint64_t stack_bytes_ = sxbin::kDefaultStackLimit;
  uint64_t pending_launch_count_ = kDefaultPendingLaunchCount;
  uint64_t sync_depth_ = kDefaultSyncDepth;
  uint64_t l2_fetch_granularity_ = kDefaultL2FetchGranularity;
  uint64_t persisting_l2_bytes_ = 0;
  DeviceLaunchQueue launch_queue_;
  CooperativeEnvironments cooperative_environments_;
};

}  // namespace strata::cuda::driver
