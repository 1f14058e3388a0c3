// Device-work activity for the profiler (prof/collector.h): each context's
// ActivityTracker turns the work reports the hardware writes (hw/contract/report.h) into
// Kernel / Memcpy / Memset records on the virtual clock, with the correlation id of the
// API call that queued the work, and emits the metadata records (devices, contexts,
// streams).
//
// Flow: while prof::active(), streams record their command buffers with work
// descriptions (hal::CommandBuffer::describe_work; graph executables always do, tagged
// with node ids); Stream::submit_on asks prepare() for report slots in the context's
// report arena (pinned host memory mapped into the context), submits with them, and
// hands the entry to commit(). harvest() converts every entry whose reports are all
// written into records (non-blocking; with `wait`, first waits a bounded time for the
// pending ones). Synchronisations, new submissions and prof::flush() harvest.
// With kernel counters, launches also store per-instruction counters (hw::PcCounters) in
// a second arena; harvest() sums them per source line (source_lines.h) into
// prof::Kernel::source.
//
// Thread-safe.
#pragma once

#include <cupti_activity.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "base/status.h"
#include "hal/command_buffer.h"
#include "hal/queue.h"
#include "hw/contract/report.h"
#include "prof/trace.h"

namespace strata::cuda::driver {

class Context;
class Stream;

// Memory kinds of the application's view of a copy (CUpti_ActivityMemoryKind values),
// set by the copy functions when the DMA's own addresses do not show it (a pageable copy
// runs through the pinned staging buffer). Thread-local, for the copies queued in scope.
class ScopedCopyKinds {
 public:
  ScopedCopyKinds(uint32_t src_kind, uint32_t dst_kind);
  ~ScopedCopyKinds();
  ScopedCopyKinds(const ScopedCopyKinds&) = delete;
  ScopedCopyKinds& operator=(const ScopedCopyKinds&) = delete;

 private:
  std::optional<std::pair<uint32_t, uint32_t>> saved_;
};

// The graph executable whose launch is being submitted on this thread (graph_id in
// records; 0 outside a graph launch).
class ScopedGraphLaunch {
 public:
  explicit ScopedGraphLaunch(uint64_t graph_id);
  ~ScopedGraphLaunch();
  ScopedGraphLaunch(const ScopedGraphLaunch&) = delete;
  ScopedGraphLaunch& operator=(const ScopedGraphLaunch&) = delete;

 private:
  uint64_t saved_;
};

// A host-side synchronisation (CUpti_ActivitySynchronizationType `type`) recorded as a
// prof::Sync over the scope's virtual-time interval, when the profiler is active and the
// scope is inside a recorded API call. `stream` null for context synchronisation.
class ScopedSync {
 public:
  ScopedSync(uint32_t type, Context& context, const Stream* stream, const void* event);
  ~ScopedSync();
  ScopedSync(const ScopedSync&) = delete;
  ScopedSync& operator=(const ScopedSync&) = delete;

 private:
  bool recording_ = false;
  uint32_t type_ = 0;
  Context* context_ = nullptr;
  std::optional<uint64_t> stream_id_;
  uint64_t event_id_ = 0;
  uint64_t start_ = 0;
};

class ActivityTracker {
 public:
  explicit ActivityTracker(Context& context);
  ~ActivityTracker();

  // The context's id in records (process-unique, from 1).
  uint64_t id() const { return id_; }

  struct Entry;
  struct EntryDeleter {
    void operator()(Entry* entry) const;
  };
  using EntryPtr = std::unique_ptr<Entry, EntryDeleter>;
  // Before queue.submit of `cb` on `stream` (prof::active(), cb describes its work):
  // reserves report slots; null when nothing is to be reported. An entry dropped
  // without commit() (the submit failed) gives its slots back when the chunk is reused.
  EntryPtr prepare(const Stream& stream, const hal::CommandBuffer& cb);
  hal::WorkReports reports(const Entry& entry) const;
  // After a successful submit.
  void commit(EntryPtr entry);

  // Emits the records of completed entries. `wait`: first waits (up to a bound) for
  // every entry to complete; entries of a faulted context are dropped.
  void harvest(bool wait);

  // Metadata records (prof::emit stores them for sinks attached later).
  void emit_context_record();
  void emit_stream_record(const Stream& stream, const char* name = nullptr);

 private:
  struct Chunk;
  // Pinned chunks of fixed-size slots: work reports, or per-instruction counters.
  struct Pool {
    size_t slot_bytes = 0;
    uint32_t chunk_slots = 0;  // slots per chunk (more for a larger reservation)
    bool zero = false;         // zero a chunk before reuse
    std::shared_ptr<Chunk> current;  // the chunk new reservations come from
    std::vector<std::shared_ptr<Chunk>> chunks;
  };
  StatusOr<std::pair<std::shared_ptr<Chunk>, uint32_t>> reserve(Pool& pool, uint32_t slots);

  Context& context_;
  const uint64_t id_;
  std::mutex mu_;
  Pool reports_;
  Pool pcs_;
  std::deque<EntryPtr> pending_;
};

// Harvests every live context (prof::flush's hook, registered with the collector).
void harvest_all_contexts(bool wait);

// The CUPTI memory kind (CUpti_ActivityMemoryKind) of `va` as context `context` sees it.
uint32_t memory_kind_of(Context& context, uint64_t va);

}  // namespace strata::cuda::driver
