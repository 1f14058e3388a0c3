// The Activity API entry points (cupti_activity.h).
#define CUPTI_LIB 1
#include <cupti_activity.h>

#include <atomic>
#include <cstring>
#include <mutex>

#include "cupti/activity_records.h"
#include "cupti/entry.h"
#include "cupti/session.h"

using strata::cupti::finish;
using strata::cupti::Session;

namespace {

// CUpti_ActivityAttribute values: stored and read back. They size CUPTI's device-side
// buffers, which Strata does not have (records come from the driver's host-side
// collector), so they change nothing. Defaults: the values cupti_activity.h documents.
struct Attribute {
  CUpti_ActivityAttribute attr;
  size_t size;  // sizeof the value: size_t or uint8_t
  uint64_t value;
};

std::mutex g_attributes_mu;
Attribute g_attributes[] = {
    {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, sizeof(size_t), 3200000},
    {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE_CDP, sizeof(size_t), 8388608},
    {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_POOL_LIMIT, sizeof(size_t), 250},
    {CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_SIZE, sizeof(size_t), 25000},
    {CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_POOL_LIMIT, sizeof(size_t), 250},
    {CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, sizeof(uint8_t), 0},
    {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_PRE_ALLOCATE_VALUE, sizeof(size_t), 3},
    {CUPTI_ACTIVITY_ATTR_PROFILING_SEMAPHORE_PRE_ALLOCATE_VALUE, sizeof(size_t), 3},
    {CUPTI_ACTIVITY_ATTR_MEM_ALLOCATION_TYPE_HOST_PINNED, sizeof(uint8_t), 0},
    {CUPTI_ACTIVITY_ATTR_PER_THREAD_ACTIVITY_BUFFER, sizeof(uint8_t), 0},
    {CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE_DEVICE_GRAPHS, sizeof(size_t), 0},
};

Attribute* find_attribute(CUpti_ActivityAttribute attr) {
  for (Attribute& a : g_attributes) {
    if (a.attr == attr) return &a;
  }
  return nullptr;
}

// Settings that select what CUPTI measures on real hardware; Strata accepts and keeps them
// (cuptiActivityEnableLatencyTimestamps etc.) but its records do not depend on them.
std::atomic<uint8_t> g_latency_timestamps{0}, g_launch_attributes{0}, g_all_sync_records{0},
    g_device_graph{0}, g_raw_timestamps{0};
std::atomic<uint32_t> g_flush_period_ms{0};

}  // namespace

extern "C" {

CUptiResult CUPTIAPI cuptiActivityEnable(CUpti_ActivityKind kind) {
  return finish(Session::get().enable(kind, /*on=*/true));
}

CUptiResult CUPTIAPI cuptiActivityEnableAndDump(CUpti_ActivityKind kind) {
  // Strata's supported kinds have nothing to dump (no device/context/stream records).
  return finish(Session::get().enable(kind, /*on=*/true));
}

CUptiResult CUPTIAPI cuptiActivityDisable(CUpti_ActivityKind kind) {
  return finish(Session::get().enable(kind, /*on=*/false));
}

// Per-context settings apply process-wide: Strata's records come from one collector.
CUptiResult CUPTIAPI cuptiActivityEnableContext(CUcontext context, CUpti_ActivityKind kind) {
  return finish(Session::get().enable(kind, /*on=*/true));
}

CUptiResult CUPTIAPI cuptiActivityDisableContext(CUcontext context, CUpti_ActivityKind kind) {
  return finish(Session::get().enable(kind, /*on=*/false));
}

CUptiResult CUPTIAPI
cuptiActivityRegisterCallbacks(CUpti_BuffersCallbackRequestFunc funcBufferRequested,
                               CUpti_BuffersCallbackCompleteFunc funcBufferCompleted) {
  if (funcBufferRequested == nullptr || funcBufferCompleted == nullptr) {
    return finish(CUPTI_ERROR_INVALID_PARAMETER);
  }
  Session::get().buffers().register_callbacks(funcBufferRequested, funcBufferCompleted);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNextRecord(uint8_t* buffer, size_t validBufferSizeBytes,
                                                CUpti_Activity** record) {
  using strata::cupti::aligned_record_size;
  using strata::cupti::record_size;
  if (buffer == nullptr || record == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  auto base = reinterpret_cast<uintptr_t>(buffer);
  size_t offset = aligned_record_size(base) - base;  // the first record's place
  if (*record != nullptr) {
    auto* previous = reinterpret_cast<uint8_t*>(*record);
    if (previous < buffer || previous >= buffer + validBufferSizeBytes) {
      return finish(CUPTI_ERROR_INVALID_PARAMETER);
    }
    CUpti_ActivityKind kind;
    std::memcpy(&kind, previous, sizeof kind);
    size_t size = record_size(kind);
    if (size == 0) return finish(CUPTI_ERROR_INVALID_KIND);
    offset = static_cast<size_t>(previous - buffer) + aligned_record_size(size);
  }
  if (offset + sizeof(CUpti_ActivityKind) > validBufferSizeBytes) {
    return CUPTI_ERROR_MAX_LIMIT_REACHED;  // the normal end of a buffer
  }
  CUpti_ActivityKind kind;
  std::memcpy(&kind, buffer + offset, sizeof kind);
  size_t size = record_size(kind);
  if (size == 0 || offset + size > validBufferSizeBytes) return finish(CUPTI_ERROR_INVALID_KIND);
  *record = reinterpret_cast<CUpti_Activity*>(buffer + offset);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityFlush(CUcontext context, uint32_t streamId, uint32_t flag) {
  // Deprecated: context and stream are ignored, as in CUPTI.
  return finish(Session::get().flush_all(flag));
}

CUptiResult CUPTIAPI cuptiActivityFlushAll(uint32_t flag) {
  return finish(Session::get().flush_all(flag));
}

CUptiResult CUPTIAPI cuptiActivityFlushPeriod(uint32_t time) {
  // Buffers are handed back when full and on flush; Strata has no periodic worker.
  g_flush_period_ms.store(time);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityGetNumDroppedRecords(CUcontext context, uint32_t streamId,
                                                       size_t* dropped) {
  if (dropped == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *dropped = Session::get().buffers().take_dropped();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityPushExternalCorrelationId(CUpti_ExternalCorrelationKind kind,
                                                            uint64_t id) {
  return finish(Session::get().push_external_correlation(kind, id));
}

CUptiResult CUPTIAPI cuptiActivityPopExternalCorrelationId(CUpti_ExternalCorrelationKind kind,
                                                           uint64_t* lastId) {
  return finish(Session::get().pop_external_correlation(kind, lastId));
}

CUptiResult CUPTIAPI cuptiActivityGetAttribute(CUpti_ActivityAttribute attr, size_t* valueSize,
                                               void* value) {
  if (valueSize == nullptr || value == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  std::lock_guard lock(g_attributes_mu);
  Attribute* a = find_attribute(attr);
  if (a == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  if (*valueSize < a->size) return finish(CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
  if (a->size == sizeof(uint8_t)) {
    *static_cast<uint8_t*>(value) = static_cast<uint8_t>(a->value);
  } else {
    *static_cast<size_t*>(value) = static_cast<size_t>(a->value);
  }
  *valueSize = a->size;
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivitySetAttribute(CUpti_ActivityAttribute attr, size_t* valueSize,
                                               void* value) {
  if (valueSize == nullptr || value == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  std::lock_guard lock(g_attributes_mu);
  Attribute* a = find_attribute(attr);
  if (a == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  if (*valueSize < a->size) return finish(CUPTI_ERROR_PARAMETER_SIZE_NOT_SUFFICIENT);
  a->value = a->size == sizeof(uint8_t) ? *static_cast<const uint8_t*>(value)
                                        : *static_cast<const size_t*>(value);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableRuntimeApi(CUpti_CallbackId cbid, uint8_t enable) {
  return finish(Session::get().enable_api(strata::prof::ApiDomain::kRuntime, cbid, enable != 0));
}

CUptiResult CUPTIAPI cuptiActivityEnableDriverApi(CUpti_CallbackId cbid, uint8_t enable) {
  return finish(Session::get().enable_api(strata::prof::ApiDomain::kDriver, cbid, enable != 0));
}

CUptiResult CUPTIAPI
cuptiActivityRegisterTimestampCallback(CUpti_TimestampCallbackFunc funcTimestamp) {
  return finish(Session::get().set_timestamp_callback(funcTimestamp));
}

CUptiResult CUPTIAPI cuptiActivityEnableLatencyTimestamps(uint8_t enable) {
  g_latency_timestamps.store(enable);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableLaunchAttributes(uint8_t enable) {
  g_launch_attributes.store(enable);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableAllSyncRecords(uint8_t enable) {
  g_all_sync_records.store(enable);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiActivityEnableDeviceGraph(uint8_t enable) {
  g_device_graph.store(enable);
  return CUPTI_SUCCESS;
}

// Not declared by CUDA 13's headers, but exported and answered by NVIDIA's library, which
// takes a uint8_t and accepts 0, 1 and 2 (CUPTI_ERROR_INVALID_PARAMETER otherwise). As
// its name says, CUPTI on hardware then reports the GPU's timestamps without converting
// them to the CPU's clock; Strata's records are on the virtual clock, never converted, so
// this changes nothing.
__attribute__((visibility("default"))) CUptiResult CUPTIAPI
cuptiActivityEnableRawTimestamps(uint8_t enable) {
  if (enable > 2) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  g_raw_timestamps.store(enable);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiSetThreadIdType(CUpti_ActivityThreadIdType type) {
  if (type != CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT &&
      type != CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM) {
    return finish(CUPTI_ERROR_NOT_SUPPORTED);
  }
  Session::get().set_thread_id_type(type);
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiGetThreadIdType(CUpti_ActivityThreadIdType* type) {
  if (type == nullptr) return finish(CUPTI_ERROR_INVALID_PARAMETER);
  *type = Session::get().thread_id_type();
  return CUPTI_SUCCESS;
}

CUptiResult CUPTIAPI cuptiFinalize(void) {
  Session::get().finalize();
  return CUPTI_SUCCESS;
}

}  // extern "C"
