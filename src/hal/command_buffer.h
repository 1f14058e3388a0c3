// CommandBuffer: a recorded list of GPU commands of one Context, submitted to any of
// that context's queues any number of times (a CUDA graph is a command buffer replayed:
// one submission per launch).
//
// Lifecycle: record commands, then finalize(); only finalized buffers can be
// submitted, and recording after finalize() is kInvalidValue. Every recorder validates
// its arguments against the device (arch limits) and returns kInvalidValue (or
// kInvalidConfiguration for launch shapes) without recording anything on error.
// Commands execute in order on the queue; each starts after the previous completes.
// Recording is not thread-safe (one thread at a time); a finalized buffer is immutable
// and may be submitted from several threads. The buffer keeps the executables and
// semaphores it refers to alive; parameter bytes are copied at record time.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "hal/executable.h"
#include "hal/semaphore.h"

namespace strata::hal {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

// Constant bank `bank` (1..7) bound to [va, va + size) for a dispatch. Bank 0 is the
// kernel parameters and cannot be bound here.
struct ConstBankBinding {
  int bank = 1;
  uint64_t va = 0;
  uint32_t size = 0;
};

// Limits a dispatch is checked against (from the arch config).
struct LaunchLimits {
  uint64_t max_threads_per_block = 1024;
  uint64_t max_block[3] = {1024, 1024, 64};
  uint64_t max_grid[3] = {2147483647, 65535, 65535};
  uint64_t max_shared_per_block = 48 * 1024;  // opt-in limit
};

inline constexpr uint32_t kMaxParamBytes = 32764;  // CUDA 12.1+ kernel parameter limit

// What one work command (dispatch, copy, fill) does, recorded when the buffer describes
// its work (CommandBuffer::describe_work): a profiler pairs it with the command's work
// report (queue.h, WorkReports).
struct WorkDescription {
  enum Kind : uint8_t { kDispatch, kCopy, kFill } kind = kDispatch;
  uint64_t tag = 0;  // set_work_tag() at record time (a CUDA graph node's id)
  // kDispatch
  std::string kernel;  // the kernel's name (KernelInfo::name)
  uint64_t code_va = 0;       // the kernel's code (executable code_va + code_offset)
  uint32_t instructions = 0;  // its code size / 16: at most this many hw::PcCounters
  Dim3 grid, block;
  uint32_t regs_per_thread = 0;
  uint32_t static_shared_bytes = 0, dynamic_shared_bytes = 0;
  uint32_t local_bytes_per_thread = 0;
  // kCopy / kFill
  uint64_t src_va = 0, dst_va = 0, bytes = 0;
  uint32_t value = 0, elem_size = 0;
};

class CommandBuffer {
 public:
  virtual ~CommandBuffer() = default;
  CommandBuffer(const CommandBuffer&) = delete;
  CommandBuffer& operator=(const CommandBuffer&) = delete;

  // Launches kernel `kernel` of `executable` (which must belong to this buffer's
  // context). `params` (<= kMaxParamBytes) become constant bank 0; `banks` binds others.
  // grid/block must be non-zero and within the arch limits; block threads <=
  // max_threads_per_block; static + dynamic shared <= shared_bytes_per_block_optin.
  // `local_bytes_per_thread` replaces the kernel's KernelInfo::local_bytes_per_thread
  // for this launch (a driver sizes a recursive kernel's call stack by its stack limit).
  Status dispatch(const std::shared_ptr<Executable>& executable, int kernel, Dim3 grid,
                  Dim3 block, uint32_t dynamic_shared_bytes, std::span<const uint8_t> params,
                  std::span<const ConstBankBinding> banks = {},
                  std::optional<uint32_t> local_bytes_per_thread = std::nullopt);
  // DMA of `bytes` from src_va to dst_va (any mapped GPU VAs; ranges must not overlap).
  Status copy(uint64_t src_va, uint64_t dst_va, uint64_t bytes);
  // Fills [va, va + bytes) with the low elem_size bytes of `pattern`; elem_size 1, 2 or
  // 4; va and bytes multiples of elem_size.
  Status fill(uint64_t va, uint64_t bytes, uint32_t pattern, uint32_t elem_size);
  // Device-side semaphore signal / wait (value > 0).
  Status signal(const std::shared_ptr<Semaphore>& semaphore, uint64_t value);
  Status wait(const std::shared_ptr<Semaphore>& semaphore, uint64_t value);
  // Stores the device clock (ns, u64) at va (8-byte aligned) when reached.
  Status write_timestamp(uint64_t va);
  // Drops decoded code in [va, va + size) (after rewriting code in memory).
  Status invalidate_icache(uint64_t va, uint64_t size);

  Status finalize();
  bool finalized() const { return finalized_; }
  // Empties the buffer and returns it to the recording state, so that it can be
  // recorded again without allocating (the backend keeps its storage; the strata
  // backend its current parameter block). The caller must hold the only reference: no
  // submission of it may be pending. Drops the executables and semaphores it kept.
  void reset();
  int command_count() const { return command_count_; }
  // Dispatches, copies and fills recorded: the work commands that write a work report
  // each when the buffer is submitted with reports (queue.h, WorkReports).
  uint32_t work_count() const { return work_count_; }
  // Describe the work commands recorded from now on (work_descriptions()), each with the
  // current tag. Off by default (recording stays allocation-free); reset() turns it off.
  void describe_work(bool on) { describe_ = on; }
  void set_work_tag(uint64_t tag) { tag_ = tag; }
  bool describes_work() const { return describe_; }
  // One per work command recorded while describing (all of them if describing was on
  // from the start).
  const std::vector<WorkDescription>& work_descriptions() const { return descriptions_; }

 protected:
  CommandBuffer() = default;
  virtual Status do_dispatch(const std::shared_ptr<Executable>& executable, int kernel,
                             Dim3 grid, Dim3 block, uint32_t dynamic_shared_bytes,
                             std::span<const uint8_t> params,
                             std::span<const ConstBankBinding> banks,
                             uint32_t local_bytes_per_thread) = 0;
  virtual Status do_copy(uint64_t src_va, uint64_t dst_va, uint64_t bytes) = 0;
  virtual Status do_fill(uint64_t va, uint64_t bytes, uint32_t pattern, uint32_t elem_size) = 0;
  virtual Status do_signal(const std::shared_ptr<Semaphore>& semaphore, uint64_t value) = 0;
  virtual Status do_wait(const std::shared_ptr<Semaphore>& semaphore, uint64_t value) = 0;
  virtual Status do_write_timestamp(uint64_t va) = 0;
  virtual Status do_invalidate_icache(uint64_t va, uint64_t size) = 0;
  virtual Status do_finalize() = 0;
  virtual void do_reset() = 0;
  // Launch-shape validation against the device's arch config (backends provide it).
  virtual const LaunchLimits& launch_limits() const = 0;

 private:
  Status recordable() const;
  bool finalized_ = false;
  int command_count_ = 0;
  uint32_t work_count_ = 0;
  bool describe_ = false;
  uint64_t tag_ = 0;
  std::vector<WorkDescription> descriptions_;
};

}  // namespace strata::hal
