// Writes a Trace as an SQLite database in the schema of `nsys export --type sqlite`
// (Nsight Systems 2025.3, the release that accompanies CUDA 13.0; schema version in
// kNsysSchemaVersion, recorded in META_DATA_EXPORT), plus Strata-only tables:
//   STRATA_SESSION(name TEXT, value TEXT)            timing mode, arch, Strata version
//   STRATA_DEVICE_CONFIG(deviceId INTEGER, name TEXT, value REAL)   the arch config
//   STRATA_KERNEL_COUNTERS(globalPid INTEGER, deviceId INTEGER, correlationId INTEGER,
//                          gridId INTEGER, name TEXT, value REAL)    raw counters
//   STRATA_KERNEL_METRICS(globalPid INTEGER, deviceId INTEGER, correlationId INTEGER,
//                         gridId INTEGER, name TEXT, value REAL, unit TEXT)
//                         Nsight Compute metrics (metrics.h), with `metrics`
// A kernel row of CUPTI_ACTIVITY_KIND_KERNEL is identified by (globalPid, deviceId,
// gridId); correlationId joins it to CUPTI_ACTIVITY_KIND_RUNTIME.
#pragma once

#include <string>

#include "base/status.h"
#include "prof/trace.h"

namespace strata::prof {

inline constexpr const char* kNsysSchemaVersion = "3.16.1";

struct SqliteOptions {
  bool metrics = false;  // write STRATA_KERNEL_METRICS from the kernels' counters
};

// Replaces `path` (an existing file is overwritten). kInvalidValue / kUnknown with the
// SQLite message on failure.
Status export_sqlite(const Trace& trace, const std::string& path, const SqliteOptions& options = {});

// globalTid / globalPid encoding of Nsight Systems: pid in bits 24..47, tid in bits 0..23.
inline uint64_t global_pid(uint32_t pid) { return (uint64_t{pid} & 0xFFFFFF) << 24; }
inline uint64_t global_tid(uint32_t pid, uint32_t tid) {
  return global_pid(pid) | (uint64_t{tid} & 0xFFFFFF);
}

}  // namespace strata::prof
