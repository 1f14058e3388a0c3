// DeviceRuntime: the driver's half of CUDA's device-side services for one context — the
// printf FIFO and the assert record that kernels reach through the driver bank c[3]
// (layouts: compiler/sxbin/sxbin.h, "DEVICE PRINTF" and "DEVICE ASSERT").
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
#include "hal/allocator.h"
#include "hal/command_buffer.h"
#include "hal/fault.h"

namespace strata::cuda::driver {

class DeviceRuntime {
 public:
  static constexpr uint64_t kDefaultPrintfFifoBytes = 1ull << 20;  // CUDA's default, 1 MiB
  static constexpr uint64_t kMinPrintfFifoBytes = 64;

  explicit DeviceRuntime(hal::Allocator* allocator) : allocator_(allocator) {}

  // The binding of c[3] for a launch; allocates and zero-fills the buffer on first use.
  StatusOr<hal::ConstBankBinding> bank();

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
};

}  // namespace strata::cuda::driver
