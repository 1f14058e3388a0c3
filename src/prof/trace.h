// The profiler's activity records and the raw trace file that carries them from a
// profiled process to the exporters.
//
// A profiled process (libcuda.so.1 with STRATA_PROF_OUTPUT set, see collector.h) writes
// one raw trace per process: JSON Lines, one object per record, each with a "type"
// member naming the record ("process", "device", "context", "stream", "thread", "api",
// "kernel", "memcpy", "memset", "sync", "nvtx", "nvtx_domain", "end"); the members are
// the fields below under the same names (Sync::type as "sync_type"). read_trace() reads it back
// (unknown members are ignored, so older readers read newer files), merges several processes'
// traces when given several, and write_trace() writes one. Exporters (export_sqlite.h,
// export_chrome.h) consume a Trace; they never see the process.
//
// Conventions:
//  * Times are integer nanoseconds on the session's virtual clock (docs/perf-model.md,
//    "Clock model"): host API times and device work times share one time base. 0 is the
//    session start; Process::session_start_utc_ns maps it to wall-clock UTC.
//  * Enumerations carry CUPTI's values (cupti_activity.h) so that CUPTI records are a
//    field copy: copy kinds are CUpti_ActivityMemcpyKind, memory kinds
//    CUpti_ActivityMemoryKind, synchronisation types CUpti_ActivitySynchronizationType.
//    The SQLite exporter translates where Nsight Systems' enums differ.
//  * Ids: correlation ids are unique within a process and shared by an API record and
//    the device work it launched; stream ids are cuStreamGetId's; context ids are
//    cuCtxGetId's; device ids are CUDA ordinals; grid ids are unique per process.
//  * Thread ids are the OS thread ids (gettid), process ids the OS pids.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "base/status.h"

namespace strata::prof {

struct Process {
  uint32_t pid = 0;
  std::string name;                   // executable name
  std::vector<std::string> command;   // argv
  uint64_t session_start_utc_ns = 0;  // UTC (ns since the epoch) of virtual time 0
  std::string timing_mode;            // "fast", "detailed", "sampled"
};

// One simulated GPU: its CUDA properties and its architecture configuration (the
// config's fields, flattened "section.field" -> value, for peaks and the advisor).
struct Device {
  uint32_t pid = 0;
  uint32_t id = 0;   // CUDA ordinal
  std::string name;  // cudaDeviceProp::name
  std::string uuid;  // "GPU-xxxxxxxx-xxxx-..."
  std::string arch;  // config name, e.g. "strata-g1"
  int compute_major = 0, compute_minor = 0;
  uint64_t total_memory = 0;      // bytes
  uint64_t memory_bandwidth = 0;  // bytes/s (the config's DRAM peak)
  uint64_t clock_rate_khz = 0;    // SM clock
  uint32_t sm_count = 0;
  uint64_t l2_cache_size = 0;
  uint32_t max_threads_per_block = 0, max_block_dim[3] = {0, 0, 0}, max_grid_dim[3] = {0, 0, 0};
  uint32_t max_shared_per_block = 0, max_shared_per_block_optin = 0, max_shared_per_sm = 0;
  uint32_t max_registers_per_block = 0, max_registers_per_sm = 0;
  uint32_t warp_size = 32, max_warps_per_sm = 0, max_blocks_per_sm = 0;
  uint32_t async_engines = 0;
  uint64_t constant_memory = 0;
  std::map<std::string, double> config;  // numeric fields of the arch config
};

struct Context {
  uint32_t pid = 0;
  uint64_t id = 0;
  uint32_t device_id = 0;
  uint64_t null_stream_id = 0;  // the legacy default stream's id
};

struct Stream {
  uint32_t pid = 0;
  uint64_t id = 0;
  uint64_t context_id = 0;
  uint32_t device_id = 0;
  int priority = 0;
  enum Kind : uint32_t {
    kDefault = 0,
    kNonBlocking = 1,
    kLegacyNull = 2,
    kPerThread = 3
  } kind = kDefault;
  std::string name;  // nvtxNameCudaStream / nvtxNameCuStream, empty if unnamed
};

struct Thread {
  uint32_t pid = 0;
  uint32_t tid = 0;
  std::string name;  // OS thread name, or nvtxNameOsThread's
};

enum class ApiDomain : uint32_t { kRuntime = 0, kDriver = 1 };

// A CUDA API call made by the application (calls the runtime makes into the driver on
// its behalf are not recorded).
struct Api {
  uint32_t pid = 0, tid = 0;
  ApiDomain domain = ApiDomain::kRuntime;
  uint32_t cbid = 0;  // CUpti_runtime_api_trace_cbid / CUpti_driver_api_trace_cbid
  std::string name;   // the cbid's name without its prefix, e.g. "cudaMalloc_v3020"
  uint64_t start = 0, end = 0;
  uint32_t correlation_id = 0;
  int32_t return_value = 0;  // cudaError_t / CUresult
};

// Fields shared by device work records.
struct DeviceWork {
  uint32_t pid = 0;
  uint64_t start = 0, end = 0;
  uint32_t device_id = 0;
  uint64_t context_id = 0;
  uint64_t stream_id = 0;
  uint32_t correlation_id = 0;  // of the API call that launched it
  uint64_t graph_id = 0;        // the graph exec's id when launched from a graph, else 0
  uint64_t graph_node_id = 0;   // the graph node's id, else 0
};

// One source line's share of a kernel's work: the per-instruction counters
// (hw::PcCounters) of the instructions the line table maps to it, summed.
struct SourceLine {
  std::string file;  // the .loc file (-lineinfo); with `ptx`, the PTX module's name
  uint32_t line = 0;
  bool ptx = false;  // `line` is a PTX line: the kernel has no .loc for these instructions
  uint64_t warp_instructions = 0, thread_instructions = 0;
  uint64_t global_requests = 0, global_sectors = 0, global_bytes = 0;
  uint64_t local_requests = 0, local_sectors = 0;
  uint64_t shared_requests = 0, shared_wavefronts = 0, shared_bank_conflicts = 0;
};
// Adds `from`'s counts to `to` (its file and line stay).
void add_counts(SourceLine& to, const SourceLine& from);

struct Kernel : DeviceWork {
  std::string name;  // mangled (the symbol); exporters demangle
  uint64_t grid_id = 0;
  uint32_t grid[3] = {1, 1, 1};
  uint32_t block[3] = {1, 1, 1};
  uint32_t registers_per_thread = 0;
  uint32_t static_shared = 0, dynamic_shared = 0;
  uint32_t local_per_thread = 0;
  uint64_t local_total = 0;
  uint32_t shared_config = 0;  // shared memory carve-out executed (bytes per SM)
  bool cooperative = false;
  bool faulted = false;
  // Raw counters of the kernel's counter block (hw/contract/report.h), by name
  // ("warp_instructions", "pipe_warp_instructions.fma", "stall_cycles.memory", ...),
  // present only when metrics were collected and only those the timing mode produced.
  std::map<std::string, double> counters;
  // With counters, per source line (file, line ascending); empty when the kernel's module
  // has no line table. `source_partial`: the device dropped some instructions' counters
  // (the report's pc area was full), so the lines do not add up to the counters.
  std::vector<SourceLine> source;
  bool source_partial = false;
};

struct Memcpy : DeviceWork {
  uint64_t bytes = 0;
  uint32_t copy_kind = 0;  // CUpti_ActivityMemcpyKind
  uint32_t src_kind = 0;   // CUpti_ActivityMemoryKind
  uint32_t dst_kind = 0;
  uint32_t src_device_id = 0, dst_device_id = 0;
  bool async = false;
};

struct Memset : DeviceWork {
  uint32_t value = 0;
  uint64_t bytes = 0;
  uint32_t mem_kind = 0;  // CUpti_ActivityMemoryKind
  bool async = false;
};

// Host-side blocking waits (cudaStreamSynchronize, cudaEventSynchronize,
// cudaDeviceSynchronize, cudaStreamWaitEvent).
struct Sync {
  uint32_t pid = 0, tid = 0;
  uint64_t start = 0, end = 0;
  uint32_t device_id = 0;
  uint64_t context_id = 0;
  std::optional<uint64_t> stream_id;  // absent for context synchronisation
  uint32_t correlation_id = 0;
  uint32_t type = 0;      // CUpti_ActivitySynchronizationType
  uint64_t event_id = 0;  // event syncs and stream waits
};

// NVTX: marks, push/pop and start/end ranges, from the NVTX injection
// (cupti/nvtx_injection.h).
struct Nvtx {
  uint32_t pid = 0;
  // kCategory: nvtxNameCategory / nvtxDomainNameCategory, not an event: `category` of
  // `domain_id` is named `text` (at `start`, never an `end`); nsys exports it as
  // NVTX_EVENTS eventType 33 (NvtxCategory). Range consumers must skip it.
  enum Kind : uint32_t { kMark = 0, kPushPop = 1, kStartEnd = 2, kCategory = 3 } kind = kMark;
  uint64_t start = 0;
  std::optional<uint64_t> end;  // absent for marks and ranges never closed
  uint32_t tid = 0;             // thread of the mark / push / start
  uint32_t end_tid = 0;         // thread of the pop / end
  uint64_t range_id = 0;        // start/end ranges: nvtxRangeStart's id
  uint64_t domain_id = 0;       // 0: the default domain
  std::string text;             // the message (registered strings resolved)
  uint32_t category = 0;
  std::optional<uint32_t> color;  // ARGB
  enum Payload : uint32_t { kNone = 0, kU64, kI64, kDouble, kU32, kI32, kFloat } payload = kNone;
  double payload_value = 0;   // as double (u64/i64 beyond 2^53 round)
  uint64_t payload_bits = 0;  // exact bits of the payload
};

struct NvtxDomain {
  uint32_t pid = 0;
  uint64_t id = 0;  // > 0
  std::string name;
  uint64_t created = 0;  // time of nvtxDomainCreate
  uint32_t tid = 0;
};

// A whole session: the records of one or more processes.
struct Trace {
  std::vector<Process> processes;
  std::vector<Device> devices;
  std::vector<Context> contexts;
  std::vector<Stream> streams;
  std::vector<Thread> threads;
  std::vector<Api> apis;
  std::vector<Kernel> kernels;
  std::vector<Memcpy> memcpys;
  std::vector<Memset> memsets;
  std::vector<Sync> syncs;
  std::vector<Nvtx> nvtx;
  std::vector<NvtxDomain> nvtx_domains;
  // Session bounds: the earliest and latest time of any record (0 when empty).
  uint64_t start_ns() const;
  uint64_t end_ns() const;
};

// Reads raw traces (several are merged in the given order). kNotFound for a missing
// file, kInvalidValue naming the file and line for malformed content; an incomplete last
// line (no newline: the process died while writing it) is dropped with a warning.
StatusOr<Trace> read_trace(const std::vector<std::string>& paths);
// One record per line; `type` members as above.
Status write_trace(const Trace& trace, const std::string& path);

// The record serialisations write_trace uses, for a writer that streams records (the
// collector appends as it goes): one JSON object text per record, without the newline.
std::string to_json_line(const Process&);
std::string to_json_line(const Device&);
std::string to_json_line(const Context&);
std::string to_json_line(const Stream&);
std::string to_json_line(const Thread&);
std::string to_json_line(const Api&);
std::string to_json_line(const Kernel&);
std::string to_json_line(const Memcpy&);
std::string to_json_line(const Memset&);
std::string to_json_line(const Sync&);
std::string to_json_line(const Nvtx&);
std::string to_json_line(const NvtxDomain&);

}  // namespace strata::prof
