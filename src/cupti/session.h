// libcupti.so.13's state in a process: the driver's profiler table (prof/abi.h), the sink
// attached to it, the activity kinds enabled, the client's buffers, the external
// correlation stacks and the callback subscriber.
//
// Records reach the session through prof::Sink (collector.h) on the thread that produced
// them (API records and callbacks, NVTX, synchronisations) or on the thread that
// harvests completed device work; the session converts the enabled kinds
// (activity_records.h) and packs them into the client's buffers (activity_buffer.h).
//
// One instance per process (get()), never destroyed: records arrive from atexit handlers
// and static destructors. Thread-safe.
#pragma once

#include <cupti_activity.h>
#include <cupti_callbacks.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <set>
#include <unordered_map>

#include "cupti/activity_buffer.h"
#include "cupti/callbacks.h"
#include "prof/abi.h"
#include "prof/collector.h"

namespace strata::cupti {

class Session final : public prof::Sink {
 public:
  static Session& get();

  // Finds the driver's profiler table (cuGetExportTable(kProfilerTableId) of the
  // libcuda.so.1 in the process, loading it if needed) and attaches the sink.
  // CUPTI_ERROR_NOT_INITIALIZED when the driver offers no such table (not Strata's).
  // Idempotent.
  CUptiResult initialize();
  // Tests: use `table` instead of the driver's. Call before anything initializes.
  void use_table(const prof::ProfilerTable* table);
  // The table once initialize() succeeded, else null.
  const prof::ProfilerTable* table() const { return table_.load(std::memory_order_acquire); }

  // Activity API.
  CUptiResult enable(CUpti_ActivityKind kind, bool on);
  bool enabled(CUpti_ActivityKind kind) const {
    return kind > CUPTI_ACTIVITY_KIND_INVALID && kind < CUPTI_ACTIVITY_KIND_COUNT &&
           kinds_[kind].load(std::memory_order_relaxed) != 0;
  }
  // cuptiActivityEnableRuntimeApi / cuptiActivityEnableDriverApi: API records of one
  // cbid (enabling or disabling the RUNTIME / DRIVER kind sets every cbid of it).
  // CUPTI_ERROR_INVALID_PARAMETER for an unknown cbid.
  CUptiResult enable_api(prof::ApiDomain domain, uint32_t cbid, bool on);
  bool api_enabled(prof::ApiDomain domain, uint32_t cbid) const;
  ActivityBuffers& buffers() { return buffers_; }
  // cuptiActivityFlushAll: harvests completed device work (waiting for all of it with
  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), then hands the buffers back.
  CUptiResult flush_all(uint32_t flags);
  CUptiResult push_external_correlation(CUpti_ExternalCorrelationKind kind, uint64_t id);
  CUptiResult pop_external_correlation(CUpti_ExternalCorrelationKind kind, uint64_t* last);
  // cuptiActivityRegisterTimestampCallback: from now on records and cuptiGetTimestamp
  // report `client`'s clock: virtual time shifted by a constant, so that now in virtual
  // time is client() now. Durations and order stay the virtual clock's.
  CUptiResult set_timestamp_callback(CUpti_TimestampCallbackFunc client);
  // A virtual time (ns) as records report it (0, CUPTI's "unknown", stays 0).
  uint64_t reported_time(uint64_t virtual_ns) const {
    return virtual_ns == 0
               ? 0
               : virtual_ns + static_cast<uint64_t>(clock_offset_.load(std::memory_order_relaxed));
  }
  void set_thread_id_type(CUpti_ActivityThreadIdType type) { thread_id_type_.store(type); }
  CUpti_ActivityThreadIdType thread_id_type() const { return thread_id_type_.load(); }

  Callbacks& callbacks() { return callbacks_; }
  // Registers the hook for the driver's resource events (ProfilerTable::
  // set_resource_hook) so that RESOURCE and SYNCHRONIZE callbacks come; called when the
  // client enables one. Idempotent; finalize() unregisters. Until then the driver pays
  // nothing for them (and keeps no module image copies for unload events).
  void watch_resources();
  // The hook: the event as the CUPTI callback of its domain and cbid, when enabled:
  // CONTEXT_CREATED, CONTEXT_DESTROY_STARTING, STREAM_CREATED, STREAM_DESTROY_STARTING
  // (CUpti_ResourceData), MODULE_LOADED, MODULE_UNLOAD_STARTING (CUpti_ResourceData whose
  // resourceDescriptor is a CUpti_ModuleResourceData), GRAPH_CREATED / _CLONED /
  // _DESTROY_STARTING, GRAPHNODE_CREATED / _CLONED / _DESTROY_STARTING, GRAPHEXEC_CREATED /
  // _DESTROY_STARTING (resourceDescriptor: a CUpti_GraphData), STREAM_SYNCHRONIZED,
  // CONTEXT_SYNCHRONIZED (CUpti_SynchronizeData).
  static void on_resource_event(const prof::ResourceEvent& event);

  // cuptiDeviceGetChipName: the arch config name in the driver's record of device
  // `ordinal` (prof::Device::arch, which the SQLite export writes as
  // TARGET_INFO_GPU.chipName), interned (valid until the process exits). Null while the
  // driver has not described the device: it does when the process creates the device's
  // first context.
  const char* chip_name(uint32_t ordinal);

  // cuptiFinalize: flushes, detaches from the driver, disables every kind and forgets
  // the buffer callbacks and the devices and contexts the driver described; the next
  // CUPTI call initializes again (and the driver describes them again when it attaches).
  void finalize();

  // prof::Sink
  void on_api(const prof::ApiCall& call) override;
  void on_record(const prof::Record& record) override;

 private:
  Session() = default;
  template <typename T>
  void append(T record) {
    shift_times(record);
    buffers_.append(&record, sizeof record);
  }
  template <typename T>
  void shift_times(T& record) const {
    if constexpr (requires { record.start; }) {
      record.start = reported_time(record.start);
      record.end = reported_time(record.end);
    }
    if constexpr (requires { record.completed; })
      record.completed = reported_time(record.completed);
    if constexpr (requires { record.timestamp; })
      record.timestamp = reported_time(record.timestamp);
  }
  // A thread id as cuptiSetThreadIdType asks (`tid`: gettid of the thread).
  uint32_t thread_id(uint32_t tid);
  // Remembers the calling thread's pthread_self for its gettid.
  void note_thread();
  void on_nvtx(const prof::Nvtx& event);
  // DEVICE / CONTEXT records: once per object, for the objects known when the kind is
  // enabled (CUPTI emits them at creation) and those that appear later.
  void on_device(const prof::Device& device);
  void on_context(const prof::Context& context);
  void emit_known_objects(CUpti_ActivityKind kind);

  std::mutex init_mu_;
  std::atomic<const prof::ProfilerTable*> table_{nullptr};
  const prof::ProfilerTable* test_table_ = nullptr;
  bool attached_ = false;
  bool resource_hook_registered_ = false;  // init_mu_
  std::array<std::atomic<uint8_t>, CUPTI_ACTIVITY_KIND_COUNT> kinds_{};
  std::array<std::atomic<uint8_t>, CUPTI_RUNTIME_TRACE_CBID_SIZE> runtime_apis_{};
  std::array<std::atomic<uint8_t>, CUPTI_DRIVER_TRACE_CBID_SIZE> driver_apis_{};
  ActivityBuffers buffers_;
  Callbacks callbacks_;
  std::atomic<CUpti_ActivityThreadIdType> thread_id_type_{CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT};
  std::atomic<uint32_t> next_marker_id_{1};
  std::atomic<int64_t> clock_offset_{0};  // reported time - virtual time

  std::mutex names_mu_;
  std::unordered_map<uint64_t, const char*> domain_names_;  // NVTX domain id -> name
  std::unordered_map<uint32_t, uint32_t> pthread_ids_;      // gettid -> pthread_self
  std::map<uint32_t, prof::Device> devices_;                // by ordinal
  std::map<uint64_t, prof::Context> contexts_;              // by id
  std::set<uint32_t> devices_reported_;
  std::set<uint64_t> contexts_reported_;
};

// Whether `kind` is one Strata records (cuptiActivityEnable succeeds).
bool supported_kind(CUpti_ActivityKind kind);

}  // namespace strata::cupti
