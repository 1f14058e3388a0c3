// The interface libcuda.so.1 offers Strata's profiling clients in other libraries
// (libcupti.so.13 and its NVTX injection): a table of functions returned by
// cuGetExportTable for kProfilerTableId. The clients are built with the driver, so the
// table passes the C++ types of collector.h and trace.h; `size` lets a client check
// that the driver is at least as new as it.
#pragma once

#include <cuda.h>

#include <cstddef>
#include <cstdint>

#include "prof/collector.h"

namespace strata::prof {

// "STRATA-PROFILER1" as the UUID's bytes.
inline constexpr CUuuid kProfilerTableId = {
    {'S', 'T', 'R', 'A', 'T', 'A', '-', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 'R', '1'}};

struct ProfilerTable {
  size_t size;  // sizeof(ProfilerTable) of the driver
  void (*attach)(Sink* sink, uint32_t flags);
  void (*detach)(Sink* sink);
  void (*emit)(const Record& record);
  // The calling thread's virtual time (ns): CUPTI timestamps and NVTX event times.
  uint64_t (*now_ns)();
  uint32_t (*this_tid)();
  uint32_t (*this_pid)();
  // Delivers the records of all device work that has completed; with `wait`, first
  // waits for all work submitted so far (cuptiActivityFlushAll with
  // CUPTI_ACTIVITY_FLAG_FLUSH_FORCED; process exit).
  void (*flush)(bool wait);
  // Ids of driver objects (0 for an unknown handle).
  uint64_t (*context_id)(CUcontext context);
  uint64_t (*stream_id)(CUstream stream);
  uint32_t (*stream_device)(CUstream stream);
  uint64_t (*stream_context_id)(CUstream stream);
  // NVTX resource naming: the next Stream/Device record delivered carries the name.
  void (*name_stream)(CUstream stream, const char* name);
  void (*name_device)(int device, const char* name);
};

}  // namespace strata::prof
