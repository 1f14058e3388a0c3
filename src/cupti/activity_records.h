// Strata's profiler records (prof/trace.h) as CUPTI activity records: the structs of this
// toolkit's cupti_activity.h, field by field.
//
// Ids: CUPTI's context and stream ids are 32-bit; Strata's (cuCtxGetId, cuStreamGetId)
// are truncated to their low 32 bits, as cuptiGetContextId / cuptiGetStreamId return
// them. Strings a record points to (kernel and marker names) are interned for the life
// of the process (CUPTI's records point to strings CUPTI owns).
#pragma once

#include <cupti_activity.h>

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "prof/trace.h"

namespace strata::cupti {

// A copy of `text` that lives until the process exits. Thread-safe.
const char* intern(std::string_view text);

// RUNTIME / DRIVER (by the record's domain); `thread_id` as cuptiSetThreadIdType wants it.
CUpti_ActivityAPI api_record(const prof::Api& api, uint32_t thread_id);
// KERNEL or CONCURRENT_KERNEL (`kind`). queued / submitted are CUPTI_TIMESTAMP_UNKNOWN
// (the records carry no such times), also with cuptiActivityEnableLatencyTimestamps.
CUpti_ActivityKernel10 kernel_record(const prof::Kernel& kernel, CUpti_ActivityKind kind);
CUpti_ActivityMemcpy6 memcpy_record(const prof::Memcpy& copy);
CUpti_ActivityMemset4 memset_record(const prof::Memset& set);
CUpti_ActivitySynchronization2 sync_record(const prof::Sync& sync);
CUpti_ActivityExternalCorrelation external_correlation_record(CUpti_ExternalCorrelationKind kind,
                                                              uint64_t external_id,
                                                              uint32_t correlation_id);

// DEVICE: the device's properties (bandwidth in kB/s, clock in kHz, as CUPTI reports).
CUpti_ActivityDevice5 device_record(const prof::Device& device);
// CONTEXT; `sm_count` of its device (0 when unknown).
CUpti_ActivityContext3 context_record(const prof::Context& context, uint32_t sm_count);

// MARKER records of one NVTX event, as CUPTI reports them: an INSTANTANEOUS record for a
// mark; a START record (with the name) and, once the range has ended, an END record
// (name null) sharing `id` for push/pop and start/end ranges. `domain` is the domain's
// name, null for the default domain. Thread ids as cuptiSetThreadIdType wants them.
// Category-naming events (prof::Nvtx::kCategory) give no record.
std::vector<CUpti_ActivityMarker2> marker_records(const prof::Nvtx& event, uint32_t id,
                                                  const char* domain, uint32_t start_thread,
                                                  uint32_t end_thread);
// The MARKER_DATA record of an NVTX mark or range start (color, category, payload).
CUpti_ActivityMarkerData2 marker_data_record(const prof::Nvtx& event, uint32_t id);

// The size of a record of `kind` as Strata writes it into a buffer (unaligned); 0 for a
// kind Strata never writes.
size_t record_size(CUpti_ActivityKind kind);

}  // namespace strata::cupti
