// Queue: one hardware channel of a Context. Submissions execute in order.
//
// submit(cb, wait, signal): the GPU waits until every `wait` semaphore reaches its
// value, runs the command buffer (may be null: a pure wait/signal barrier), then
// signals every `signal` semaphore to its value. Returns once the work is queued;
// execution is asynchronous. The queue keeps `cb` and the semaphores alive until the
// submission completes.
// Errors: kInvalidValue for a non-finalized buffer, a buffer of another context, a null
// semaphore or a zero value; the context's fault Status after a device fault (and the
// `signal` semaphores are failed with it); a wait semaphore that has already failed
// fails the `signal` semaphores with its Status and returns it.
// Thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <span>

#include "base/status.h"
#include "hal/command_buffer.h"
#include "hal/semaphore.h"

namespace strata::hal {

// Queue priorities: 0 (the default) is the lowest, kMaxQueuePriority the highest. When
// several queues of a device have work ready, the device starts the next command of the
// highest-priority one first (between commands: work already running is not preempted).
inline constexpr uint32_t kMaxQueuePriority = 7;

// Work reports of a submission (hw/contract/report.h): the command buffer's k-th work
// command (CommandBuffer::work_count) writes its hw::WorkReport at
// va + k * sizeof(hw::WorkReport), in memory mapped into the context (e.g. a host
// allocation). `counters`: launches also fill the counter block. `pc_va` (with
// `counters`): launches also store per-instruction counters (hw::PcCounters), the
// submission's launches one after another in `pc_capacity` records at pc_va (a
// dispatch's WorkDescription::instructions bounds its records). Backends that cannot
// report say so (Queue::reports_work) and ignore it.
struct WorkReports {
  uint64_t va = 0;  // 0: no reports
  bool counters = false;
  uint64_t pc_va = 0;  // 0: no per-instruction counters
  uint32_t pc_capacity = 0;
};

class Queue {
 public:
  virtual ~Queue() = default;
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  Status submit(const std::shared_ptr<CommandBuffer>& command_buffer,
                std::span<const SemaphoreValue> wait, std::span<const SemaphoreValue> signal,
                const WorkReports& reports = {});
  // Whether submissions with WorkReports get their reports written.
  virtual bool reports_work() const { return false; }

  // Blocks until everything submitted so far has completed (OK), the context faulted
  // (its Status) or `timeout` passed (kNotReady).
  Status wait_idle(std::chrono::nanoseconds timeout = kInfiniteTimeout);

  // The hardware channel number (diagnostics; -1 where the backend has none).
  virtual int channel() const = 0;

 protected:
  Queue() = default;
  virtual Status do_submit(const std::shared_ptr<CommandBuffer>& command_buffer,
                           std::span<const SemaphoreValue> wait,
                           std::span<const SemaphoreValue> signal,
                           const WorkReports& reports) = 0;
  virtual Status do_wait_idle(std::chrono::nanoseconds timeout) = 0;
};

}  // namespace strata::hal
