// The enumerations of the Nsight Systems export schema (ENUM_* tables: id, name, label)
// and the ids its tables use, once: the SQLite exporter writes these tables and the
// Chrome exporter names copy kinds, memory kinds and synchronisation types with the
// same labels. Sources: docs/profiler.md, "Sources of the schema facts".
#pragma once

#include <cstdint>
#include <vector>

namespace strata::prof {

// A row of an enum table (all are (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT)).
struct EnumRow {
  int id;
  const char* name;
  const char* label;
};
struct EnumTable {
  const char* table;
  std::vector<EnumRow> rows;
};

// NVTX_EVENTS.eventType values (ENUM_NSYS_EVENT_TYPE).
inline constexpr int kNvtxCategory = 33;
inline constexpr int kNvtxMark = 34;
inline constexpr int kNvtxPushPopRange = 59;
inline constexpr int kNvtxStartEndRange = 60;
inline constexpr int kNvtxDomainCreate = 75;
// CUPTI_ACTIVITY_KIND_RUNTIME.eventClass values (ENUM_NSYS_EVENT_CLASS).
inline constexpr int kEventClassCudaRuntime = 0;
inline constexpr int kEventClassCudaDriver = 1;
// ENUM_CUDA_KERNEL_LAUNCH_TYPE.
inline constexpr int kLaunchRegular = 1;
inline constexpr int kLaunchCooperativeSingleDevice = 2;
// ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG.
inline constexpr int kSharedMemLimitDefault = 0;
inline constexpr int kSharedMemLimitOptin = 1;
// ENUM_CUDA_MEM_KIND.
inline constexpr int kNsysMemKindUnknown = 7;
// CUpti_ActivitySynchronization: streamId / eventId that do not apply
// (CUPTI_SYNCHRONIZATION_INVALID_VALUE, cupti_activity.h).
inline constexpr int64_t kSyncInvalidValue = 0xFFFFFFFF;
// Sync types that name an event (CUpti_ActivitySynchronizationType).
inline constexpr uint32_t kSyncEventSynchronize = 1, kSyncStreamWaitEvent = 2;

// Every ENUM_* table the exporter writes, with its rows.
const std::vector<EnumTable>& enum_tables();

// The label of `id` in enum table `table` ("Unknown" when either is not there).
const char* enum_label(const char* table, int id);

// CUpti_ActivityMemoryKind (0 unknown, 1 pageable, ... 7 managed static) to
// ENUM_CUDA_MEM_KIND (0 pageable, ... 6 managed static, 7 unknown).
int nsys_mem_kind(uint32_t cupti_kind);

}  // namespace strata::prof
