// Stream: an ordered sequence of GPU work (CUstream) on a HAL queue, tracked by a
// timeline semaphore the queue signals after each submission.
//
// Kinds: kUser (cuStreamCreate), kLegacy (the NULL stream: it waits for all prior work
// in the context's blocking streams, and blocking streams wait for it), kPerThread (the
// per-thread default stream, an ordinary blocking stream per thread and context).
// CU_STREAM_NON_BLOCKING streams do not synchronise with the legacy stream.
// Submissions return once queued. Thread-safe.
#pragma once

#include <cuda.h>

#include <array>
#include <atomic>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "base/status.h"
#include "hal/queue.h"
#include "hal/semaphore.h"

namespace strata::cuda::driver {

class Context;
class HostWorker;

// Stream priorities (cuCtxGetStreamPriorityRange): lower numbers are higher priorities,
// 0 the default and least. [0, -5] is the range CUDA reports on compute capability 8.0
// and later, which every configured architecture reports (arch/*.toml). A stream of
// priority p runs on a hardware channel of CH_PRIORITY -p (hal::Queue priority).
inline constexpr int kLeastStreamPriority = 0;
inline constexpr int kGreatestStreamPriority = -5;

class Stream {
 public:
  enum class Kind { kUser, kLegacy, kPerThread };

  // `priority` is clamped into [kGreatestStreamPriority, kLeastStreamPriority].
  static StatusOr<std::shared_ptr<Stream>> create(Context* context, Kind kind, unsigned int flags,
                                                  int priority = 0);
  ~Stream();

  CUstream handle() { return reinterpret_cast<CUstream>(this); }
  Context& context() const { return *context_; }
  Kind kind() const { return kind_; }
  unsigned int flags() const { return flags_; }
  // The clamped CUDA priority (cuStreamGetPriority).
  int priority() const { return priority_; }
  // A process-unique id (cuStreamGetId), never reused.
  unsigned long long id() const { return id_; }
  // Synchronises with the legacy stream (user and per-thread streams without
  // CU_STREAM_NON_BLOCKING).
  bool blocking() const;

  // Queues `command_buffer` (may be null: a pure barrier) after the stream's prior work
  // and any implicit legacy-stream dependencies, plus `waits`; signals the stream's
  // timeline and `signals`. `keep_alive` is released once the submission completes.
  Status submit(std::shared_ptr<hal::CommandBuffer> command_buffer,
                std::span<const hal::SemaphoreValue> waits = {},
                std::span<const hal::SemaphoreValue> signals = {},
                std::shared_ptr<void> keep_alive = nullptr);

  // Like submit, but `command_buffer` runs at CUDA priority `priority` (clamped; the
  // launch priority attribute) rather than the stream's: on a channel of that priority
  // the stream creates when first needed, still in stream order (the submission waits
  // for the stream's prior work, and the next one on another channel waits for it).
  Status submit_with_priority(int priority, std::shared_ptr<hal::CommandBuffer> command_buffer,
                              std::shared_ptr<void> keep_alive = nullptr);

  // Command buffers recycled per stream, so that a launch allocates none in the steady
  // state: acquire_command_buffer() returns the oldest buffer given to recycle() once no
  // submission uses it any more (reset, CommandBuffer::reset), else a new one of the
  // stream's context; recycle() keeps a submitted buffer for that (the newest
  // kRecycledCommandBuffers). synchronize() resets the completed ones, so that they keep
  // no executables or semaphores alive. Thread-safe.
  StatusOr<std::shared_ptr<hal::CommandBuffer>> acquire_command_buffer();
  void recycle(std::shared_ptr<hal::CommandBuffer> command_buffer);

  // The point all work queued so far reaches (value 0: nothing queued yet).
  hal::SemaphoreValue tail() const;

  Status synchronize();
  // OK when all work is done, kNotReady when some is pending, or the failure.
  // `observe`: the application asked (cuStreamQuery): answered in model time
  // (event.h: observe_completion).
  Status query(bool observe = false);

  // Queues a host function: `fn` runs on the stream's HostWorker thread (host_worker.h)
  // once all work queued before it (including implicit legacy-stream dependencies) has
  // completed, and work queued after it waits until `fn` returns. `fn` receives OK, or
  // the failure of the preceding work; after it returns with a failure the stream's
  // later work fails with that Status too.
  Status launch_host(std::function<void(const Status&)> fn);

  // Profiler resource events (api_profiler.h): true the first time only.
  bool claim_destroy_report() { return !destroy_reported_.exchange(true); }

 private:
  Stream(Context* context, Kind kind, unsigned int flags) : context_(context), kind_(kind), flags_(flags) {}
  void reap_locked(uint64_t completed);
  // submit() onto `queue` (queue_ or one of priority_queues_).
  Status submit_on(hal::Queue& queue, std::shared_ptr<hal::CommandBuffer> command_buffer,
                   std::span<const hal::SemaphoreValue> waits,
                   std::span<const hal::SemaphoreValue> signals, std::shared_ptr<void> keep_alive);

  Context* context_;
  std::shared_ptr<Context> owner_;  // keeps non-legacy streams' context alive
  Kind kind_;
  unsigned int flags_;
  int priority_ = 0;
  std::shared_ptr<hal::Queue> queue_;
  // Channels for launches at another priority (index: -priority), created on demand.
  std::shared_ptr<hal::Queue> priority_queues_[1 - kGreatestStreamPriority];
  hal::Queue* last_queue_ = nullptr;  // the queue of the latest submission (mutex_)
  std::shared_ptr<hal::Semaphore> timeline_;
  std::atomic<uint64_t> value_{0};
  std::mutex mutex_;  // orders submissions with timeline values
  std::deque<std::pair<uint64_t, std::shared_ptr<void>>> retained_;
  unsigned long long id_ = 0;
  std::atomic<bool> destroy_reported_{false};
  static constexpr size_t kRecycledCommandBuffers = 256;
  std::mutex recycled_mutex_;
  // A ring: [recycled_head_, recycled_head_ + recycled_count_) modulo its size.
  std::array<std::shared_ptr<hal::CommandBuffer>, kRecycledCommandBuffers> recycled_;
  size_t recycled_head_ = 0;
  size_t recycled_count_ = 0;
  std::mutex host_mutex_;  // orders launch_host calls with their worker jobs
  std::shared_ptr<HostWorker> host_worker_;  // started by the first launch_host
};

// Resolves a CUstream argument: NULL means the legacy stream, or the per-thread stream
// for the _ptsz/_ptds entry points (`per_thread_default`); CU_STREAM_LEGACY and
// CU_STREAM_PER_THREAD are honoured. Other handles must be live streams of `context`
// (kInvalidHandle otherwise). The result stays valid while the caller holds it.
StatusOr<std::shared_ptr<Stream>> resolve_stream(Context& context, CUstream handle,
                                                 bool per_thread_default);

}  // namespace strata::cuda::driver
