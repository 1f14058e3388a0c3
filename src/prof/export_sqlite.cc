// The Nsight Systems SQLite exporter (export_sqlite.h). The tables, columns and enum rows
// follow the nsys export schema; docs/profiler.md, "SQLite export", names the source of
// each fact. Tables are created eagerly (as `nsys export --lazy=false` does), so queries
// against a program without, say, memsets find an empty table rather than none.
#include "prof/export_sqlite.h"

#include <cxxabi.h>
#include <fmt/format.h>
#include <sqlite3.h>

#include <cstdlib>
#include <ctime>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#ifdef STRATA_HAVE_PROF_METRICS
#include "prof/metrics.h"
#include "prof/nsys_enums.h"
#endif

namespace strata::prof {
namespace {

// --- schema ------------------------------------------------------------------------
// Core tables of `nsys export --type sqlite` (schema 3.16.1, column order as nsys writes
// them), then the Strata-only tables of export_sqlite.h.
constexpr const char* kSchema = R"sql(
CREATE TABLE StringIds (id INTEGER NOT NULL PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE ThreadNames (nameId INTEGER NOT NULL, priority INTEGER, globalTid INTEGER);
CREATE TABLE PROCESSES (globalPid INTEGER, pid INTEGER, name TEXT);
CREATE TABLE META_DATA_EXPORT (name TEXT NOT NULL, value TEXT);
CREATE TABLE TARGET_INFO_SESSION_START_TIME (utcEpochNs INTEGER, utcTime TEXT, localTime TEXT);
CREATE TABLE ANALYSIS_DETAILS (globalVid INTEGER NOT NULL, duration INTEGER NOT NULL,
  startTime INTEGER NOT NULL, stopTime INTEGER NOT NULL);
CREATE TABLE TARGET_INFO_GPU (vmId INTEGER NOT NULL, id INTEGER NOT NULL, name TEXT,
  busLocation TEXT, isDiscrete INTEGER, l2CacheSize INTEGER, totalMemory INTEGER,
  memoryBandwidth INTEGER, clockRate INTEGER, smCount INTEGER, pwGpuId INTEGER, uuid TEXT,
  luid INTEGER, chipName TEXT, cuDevice INTEGER, ctxswDevPath TEXT, ctrlDevPath TEXT,
  revision INTEGER, nodeMask INTEGER, constantMemory INTEGER, maxIPC INTEGER,
  maxRegistersPerBlock INTEGER, maxShmemPerBlock INTEGER, maxShmemPerBlockOptin INTEGER,
  maxShmemPerSm INTEGER, maxRegistersPerSm INTEGER, threadsPerWarp INTEGER,
  asyncEngines INTEGER, maxWarpsPerSm INTEGER, maxBlocksPerSm INTEGER,
  maxThreadsPerBlock INTEGER, maxBlockDimX INTEGER, maxBlockDimY INTEGER,
  maxBlockDimZ INTEGER, maxGridDimX INTEGER, maxGridDimY INTEGER, maxGridDimZ INTEGER,
  computeMajor INTEGER, computeMinor INTEGER, smMajor INTEGER, smMinor INTEGER);
CREATE TABLE TARGET_INFO_CUDA_DEVICE (gpuId INTEGER, cudaId INTEGER NOT NULL,
  pid INTEGER NOT NULL, uuid TEXT, numMultiprocessors INTEGER);
CREATE TABLE TARGET_INFO_CUDA_CONTEXT_INFO (nullStreamId INTEGER NOT NULL,
  hwId INTEGER NOT NULL, vmId INTEGER NOT NULL, processId INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, parentContextId INTEGER,
  isGreenContext INTEGER);
CREATE TABLE TARGET_INFO_CUDA_STREAM (streamId INTEGER NOT NULL, hwId INTEGER NOT NULL,
  vmId INTEGER NOT NULL, processId INTEGER NOT NULL, contextId INTEGER NOT NULL,
  priority INTEGER NOT NULL, flag INTEGER NOT NULL);
CREATE TABLE TARGET_INFO_NVTX_CUDA_STREAM (name TEXT NOT NULL, hwId INTEGER NOT NULL,
  vmId INTEGER NOT NULL, processId INTEGER NOT NULL, deviceId INTEGER NOT NULL,
  contextId INTEGER NOT NULL, streamId INTEGER NOT NULL);
CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL,
  eventClass INTEGER NOT NULL, globalTid INTEGER, correlationId INTEGER,
  nameId INTEGER NOT NULL, returnValue INTEGER NOT NULL, callchainId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  demangledName INTEGER NOT NULL, shortName INTEGER NOT NULL, mangledName INTEGER,
  launchType INTEGER, cacheConfig INTEGER, registersPerThread INTEGER NOT NULL,
  gridX INTEGER NOT NULL, gridY INTEGER NOT NULL, gridZ INTEGER NOT NULL,
  blockX INTEGER NOT NULL, blockY INTEGER NOT NULL, blockZ INTEGER NOT NULL,
  staticSharedMemory INTEGER NOT NULL, dynamicSharedMemory INTEGER NOT NULL,
  localMemoryPerThread INTEGER NOT NULL, localMemoryTotal INTEGER NOT NULL,
  gridId INTEGER NOT NULL, sharedMemoryExecuted INTEGER, graphNodeId INTEGER,
  sharedMemoryLimitConfig INTEGER, graphId INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMCPY (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  bytes INTEGER NOT NULL, copyKind INTEGER NOT NULL, deprecatedSrcId INTEGER,
  srcKind INTEGER, dstKind INTEGER, srcDeviceId INTEGER, srcContextId INTEGER,
  dstDeviceId INTEGER, dstContextId INTEGER, migrationCause INTEGER, graphNodeId INTEGER,
  virtualAddress INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_MEMSET (start INTEGER NOT NULL, end INTEGER NOT NULL,
  deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL, greenContextId INTEGER,
  streamId INTEGER NOT NULL, correlationId INTEGER, globalPid INTEGER,
  value INTEGER NOT NULL, bytes INTEGER NOT NULL, graphNodeId INTEGER, memKind INTEGER);
CREATE TABLE CUPTI_ACTIVITY_KIND_SYNCHRONIZATION (start INTEGER NOT NULL,
  end INTEGER NOT NULL, deviceId INTEGER NOT NULL, contextId INTEGER NOT NULL,
  greenContextId INTEGER, streamId INTEGER NOT NULL, correlationId INTEGER,
  globalPid INTEGER, syncType INTEGER NOT NULL, eventId INTEGER NOT NULL);
CREATE TABLE NVTX_EVENTS (start INTEGER NOT NULL, end INTEGER, eventType INTEGER NOT NULL,
  rangeId INTEGER, category INTEGER, color INTEGER, text TEXT, globalTid INTEGER,
  endGlobalTid INTEGER, textId INTEGER, domainId INTEGER, uint64Value INTEGER,
  int64Value INTEGER, doubleValue REAL, uint32Value INTEGER, int32Value INTEGER,
  floatValue REAL, jsonTextId INTEGER, jsonText TEXT, binaryData TEXT);
CREATE TABLE STRATA_SESSION (name TEXT, value TEXT);
CREATE TABLE STRATA_DEVICE_CONFIG (deviceId INTEGER, name TEXT, value REAL);
CREATE TABLE STRATA_KERNEL_COUNTERS (globalPid INTEGER, deviceId INTEGER,
  correlationId INTEGER, gridId INTEGER, name TEXT, value REAL);
CREATE TABLE STRATA_KERNEL_METRICS (globalPid INTEGER, deviceId INTEGER,
  correlationId INTEGER, gridId INTEGER, name TEXT, value REAL, unit TEXT);
CREATE TABLE STRATA_KERNEL_SOURCE (globalPid INTEGER, deviceId INTEGER,
  correlationId INTEGER, gridId INTEGER, file TEXT, line INTEGER, isPtxLine INTEGER,
  warpInstructions INTEGER, threadInstructions INTEGER, globalRequests INTEGER,
  globalSectors INTEGER, globalBytes INTEGER, localRequests INTEGER, localSectors INTEGER,
  sharedRequests INTEGER, sharedWavefronts INTEGER, sharedBankConflicts INTEGER,
  partial INTEGER);
)sql";


// CUpti_ActivityMemcpyKind equals ENUM_CUDA_MEMCPY_OPER for 0-10; anything else unknown.
int nsys_copy_kind(uint32_t cupti_kind) {
  return cupti_kind <= 10 ? static_cast<int>(cupti_kind) : 0;
}

// Stream::Kind to ENUM_CUPTI_STREAM_TYPE (CUpti_ActivityStreamFlag values). The
// per-thread default stream is an implicit default stream like the legacy one.
int stream_flag(Stream::Kind kind) {
  switch (kind) {
    case Stream::kDefault:
      return 1;
    case Stream::kNonBlocking:
      return 2;
    case Stream::kLegacyNull:
      return 3;
    case Stream::kPerThread:
      return 3;
  }
  return 0;
}

// --- kernel names ------------------------------------------------------------------

std::string demangle(const std::string& mangled) {
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), std::free);
  if (status != 0 || out == nullptr) return mangled;  // extern "C" or not a C++ name
  return out.get();
}

// The function's base name in a demangled signature: without the return type,
// namespaces / classes, template arguments and parameters, e.g.
// "void ns::scale<float, 2>(float*, int)" -> "scale".
std::string short_name(const std::string& demangled) {
  std::string name = demangled;
  // Drop the parameter list: the '(' matching the final ')'.
  if (!name.empty() && name.back() == ')') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == ')') ++depth;
      if (name[i] == '(' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  // Drop trailing template arguments.
  if (!name.empty() && name.back() == '>') {
    int depth = 0;
    for (size_t i = name.size(); i-- > 0;) {
      if (name[i] == '>') ++depth;
      if (name[i] == '<' && --depth == 0) {
        name.resize(i);
        break;
      }
    }
  }
  // The last top-level component (after the return type and the last "::").
  size_t begin = 0;
  int depth = 0;
  for (size_t i = 0; i < name.size(); ++i) {
    char c = name[i];
    if (c == '<' || c == '(') ++depth;
    if ((c == '>' || c == ')') && depth > 0) --depth;
    if (depth != 0) continue;
    if (c == ' ') begin = i + 1;
    if (c == ':' && i + 1 < name.size() && name[i + 1] == ':') begin = i + 2;
  }
  std::string base = name.substr(begin);
  return base.empty() ? demangled : base;
}

// --- SQLite ------------------------------------------------------------------------

// A bound value: NULL, an integer, a real or a text.
struct Value {
  enum Kind { kNull, kInt, kReal, kText } kind = kNull;
  int64_t i = 0;
  double d = 0;
  std::string_view s;
  Value() = default;
  Value(std::nullopt_t) {}  // NOLINT(google-explicit-constructor)
  template <typename T, typename = std::enable_if_t<std::is_integral_v<T>>>
  Value(T v) : kind(kInt), i(static_cast<int64_t>(v)) {}  // NOLINT
  Value(double v) : kind(kReal), d(v) {}                  // NOLINT
  Value(std::string_view v) : kind(kText), s(v) {}        // NOLINT
  Value(const std::string& v) : kind(kText), s(v) {}      // NOLINT
  Value(const char* v) : kind(kText), s(v) {}             // NOLINT
  template <typename T>
  Value(const std::optional<T>& v) {  // NOLINT
    if (v) *this = Value(*v);
  }
};

// An integer id column where 0 means "none".
Value id_or_null(uint64_t id) {
  return id == 0 ? Value() : Value(id);
}

class Database {
 public:
  ~Database() {
    for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
    if (db_ != nullptr) sqlite3_close(db_);
  }

  Status open(const std::string& path) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr) !=
        SQLITE_OK) {
      return fail(fmt::format("cannot create '{}'", path));
    }
    return ok_status();
  }

  Status exec(const char* sql) {
    char* message = nullptr;
    if (sqlite3_exec(db_, sql, nullptr, nullptr, &message) != SQLITE_OK) {
      std::string text = message != nullptr ? message : "unknown error";
      sqlite3_free(message);
      return error(Code::kUnknown, "sqlite: " + text);
    }
    return ok_status();
  }

  // Runs `sql` (one prepared statement per text, reused) with `values` bound in order.
  void run(const char* sql, std::initializer_list<Value> values) {
    if (!status_.ok()) return;
    auto found = statements_.find(std::string_view(sql));
    if (found == statements_.end()) found = statements_.emplace(sql, nullptr).first;
    sqlite3_stmt*& stmt = found->second;
    if (stmt == nullptr && sqlite3_prepare_v2(db_, sql, -1, &stmt, nullptr) != SQLITE_OK) {
      status_ = fail(fmt::format("preparing '{}'", sql));
      return;
    }
    int index = 1;
    for (const Value& v : values) {
      switch (v.kind) {
        case Value::kNull:
          sqlite3_bind_null(stmt, index);
          break;
        case Value::kInt:
          sqlite3_bind_int64(stmt, index, v.i);
          break;
        case Value::kReal:
          sqlite3_bind_double(stmt, index, v.d);
          break;
        case Value::kText:
          sqlite3_bind_text(stmt, index, v.s.data(), static_cast<int>(v.s.size()),
                            SQLITE_TRANSIENT);
          break;
      }
      ++index;
    }
    if (sqlite3_step(stmt) != SQLITE_DONE) status_ = fail(fmt::format("running '{}'", sql));
    sqlite3_reset(stmt);
    sqlite3_clear_bindings(stmt);
  }

  // The first error of run(), if any.
  const Status& status() const { return status_; }

 private:
  Status fail(const std::string& what) const {
    return error(Code::kInvalidValue,
                 fmt::format("sqlite: {}: {}", what, db_ != nullptr ? sqlite3_errmsg(db_) : ""));
  }

  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements_;  // by SQL text
  Status status_;
};

// --- the exporter ------------------------------------------------------------------

class Exporter {
 public:
  Exporter(const Trace& trace, Database& db, const SqliteOptions& options)
      : trace_(trace), db_(db), options_(options) {
    for (const Device& d : trace_.devices) devices_[{d.pid, d.id}] = &d;
  }

  void write() {
    write_metadata();
    write_targets();
    write_apis();
    write_kernels();
    write_memcpys();
    write_memsets();
    write_syncs();
    write_nvtx();
    write_strata_tables();
  }

 private:
  // StringIds: one row per distinct string, ids from 1 in order of first use.
  int64_t string_id(const std::string& value) {
    auto [it, inserted] = strings_.try_emplace(value, static_cast<int64_t>(strings_.size()) + 1);
    if (inserted) db_.run("INSERT INTO StringIds VALUES (?,?)", {it->second, value});
    return it->second;
  }

  const Device* device(uint32_t pid, uint32_t id) const {
    auto it = devices_.find({pid, id});
    return it == devices_.end() ? nullptr : it->second;
  }

  void write_metadata() {
    db_.run("INSERT INTO META_DATA_EXPORT VALUES (?,?)",
            {"EXPORT_SCHEMA_VERSION", kNsysSchemaVersion});
    for (const Process& p : trace_.processes) {
      db_.run("INSERT INTO PROCESSES VALUES (?,?,?)", {global_pid(p.pid), p.pid, p.name});
    }
    // One name per thread: a later record (nvtxNameOsThread) renames the thread.
    std::map<std::pair<uint32_t, uint32_t>, const Thread*> threads;
    for (const Thread& t : trace_.threads) {
      if (!t.name.empty()) threads[{t.pid, t.tid}] = &t;
    }
    for (const auto& [id, t] : threads) {
      db_.run("INSERT INTO ThreadNames VALUES (?,?,?)",
              {string_id(t->name), std::nullopt, global_tid(t->pid, t->tid)});
    }
    // The session starts at the earliest process start (virtual time 0 of that process).
    std::optional<uint64_t> utc;
    for (const Process& p : trace_.processes) {
      if (p.session_start_utc_ns != 0 && (!utc || p.session_start_utc_ns < *utc)) {
        utc = p.session_start_utc_ns;
      }
    }
    if (utc) {
      db_.run("INSERT INTO TARGET_INFO_SESSION_START_TIME VALUES (?,?,?)",
              {*utc, format_time(*utc, /*utc=*/true), format_time(*utc, /*utc=*/false)});
    }
    const uint64_t start = trace_.start_ns(), stop = trace_.end_ns();
    db_.run("INSERT INTO ANALYSIS_DETAILS VALUES (?,?,?,?)", {0, stop - start, start, stop});
  }

  static std::string format_time(uint64_t ns, bool utc) {
    std::time_t seconds = static_cast<std::time_t>(ns / 1000000000);
    std::tm tm{};
    if (utc) {
      gmtime_r(&seconds, &tm);
    } else {
      localtime_r(&seconds, &tm);
    }
    char text[64];
    std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
    return fmt::format("{}.{:09}{}", text, ns % 1000000000, utc ? "Z" : "");
  }

  void write_targets() {
    // TARGET_INFO_GPU: one row per GPU of the system (processes sharing one share a row).
    std::set<std::string> gpus;
    for (const Device& d : trace_.devices) {
      std::string key = d.uuid.empty() ? fmt::format("#{}", d.id) : d.uuid;
      if (!gpus.insert(key).second) continue;
      db_.run(
          "INSERT INTO TARGET_INFO_GPU (vmId, id, name, l2CacheSize, totalMemory, "
          "memoryBandwidth, clockRate, smCount, uuid, chipName, cuDevice, constantMemory, "
          "maxRegistersPerBlock, maxShmemPerBlock, maxShmemPerBlockOptin, maxShmemPerSm, "
          "maxRegistersPerSm, threadsPerWarp, asyncEngines, maxWarpsPerSm, maxBlocksPerSm, "
          "maxThreadsPerBlock, maxBlockDimX, maxBlockDimY, maxBlockDimZ, maxGridDimX, "
          "maxGridDimY, maxGridDimZ, computeMajor, computeMinor, smMajor, smMinor) VALUES "
          "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
          {0,
           d.id,
           d.name,
           d.l2_cache_size,
           d.total_memory,
           d.memory_bandwidth,
           d.clock_rate_khz * 1000,
           d.sm_count,
           d.uuid,
           d.arch,
           d.id,
           d.constant_memory,
           d.max_registers_per_block,
           d.max_shared_per_block,
           d.max_shared_per_block_optin,
           d.max_shared_per_sm,
           d.max_registers_per_sm,
           d.warp_size,
           d.async_engines,
           d.max_warps_per_sm,
           d.max_blocks_per_sm,
           d.max_threads_per_block,
           d.max_block_dim[0],
           d.max_block_dim[1],
           d.max_block_dim[2],
           d.max_grid_dim[0],
           d.max_grid_dim[1],
           d.max_grid_dim[2],
           d.compute_major,
           d.compute_minor,
           d.compute_major,
           d.compute_minor});
    }
    for (const Device& d : trace_.devices) {
      db_.run("INSERT INTO TARGET_INFO_CUDA_DEVICE VALUES (?,?,?,?,?)",
              {d.id, d.id, d.pid, d.uuid, d.sm_count});
    }
    for (const Context& c : trace_.contexts) {
      db_.run("INSERT INTO TARGET_INFO_CUDA_CONTEXT_INFO VALUES (?,?,?,?,?,?,?,?)",
              {c.null_stream_id, 0, 0, c.pid, c.device_id, c.id, 0, 0});
    }
    for (const Stream& s : trace_.streams) {
      db_.run("INSERT INTO TARGET_INFO_CUDA_STREAM VALUES (?,?,?,?,?,?,?)",
              {s.id, 0, 0, s.pid, s.context_id, s.priority, stream_flag(s.kind)});
      if (!s.name.empty()) {
        db_.run("INSERT INTO TARGET_INFO_NVTX_CUDA_STREAM VALUES (?,?,?,?,?,?,?)",
                {s.name, 0, 0, s.pid, s.device_id, s.context_id, s.id});
      }
    }
  }

  void write_apis() {
    for (const Api& a : trace_.apis) {
      int event_class =
          a.domain == ApiDomain::kDriver ? kEventClassCudaDriver : kEventClassCudaRuntime;
      db_.run("INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (?,?,?,?,?,?,?,?)",
              {a.start, a.end, event_class, global_tid(a.pid, a.tid), a.correlation_id,
               string_id(a.name), a.return_value, std::nullopt});
    }
  }

  void write_kernels() {
    for (const Kernel& k : trace_.kernels) {
      const std::string demangled = demangle(k.name);
      const Device* d = device(k.pid, k.device_id);
      // Opt-in: the block asks for more shared memory than the default per-block limit.
      Value limit_config;
      if (d != nullptr && d->max_shared_per_block != 0) {
        limit_config = uint64_t{k.static_shared} + k.dynamic_shared > d->max_shared_per_block
                           ? kSharedMemLimitOptin
                           : kSharedMemLimitDefault;
      }
      db_.run(
          "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES "
          "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
          {k.start,
           k.end,
           k.device_id,
           k.context_id,
           std::nullopt,
           k.stream_id,
           k.correlation_id,
           global_pid(k.pid),
           string_id(demangled),
           string_id(short_name(demangled)),
           string_id(k.name),
           k.cooperative ? kLaunchCooperativeSingleDevice : kLaunchRegular,
           std::nullopt,  // cacheConfig: the collector does not record the preference
           k.registers_per_thread,
           k.grid[0],
           k.grid[1],
           k.grid[2],
           k.block[0],
           k.block[1],
           k.block[2],
           k.static_shared,
           k.dynamic_shared,
           k.local_per_thread,
           k.local_total,
           k.grid_id,
           k.shared_config,
           id_or_null(k.graph_node_id),
           limit_config,
           id_or_null(k.graph_id)});
    }
  }

  void write_memcpys() {
    for (const Memcpy& m : trace_.memcpys) {
      // The record carries the launching context only: name it on the side it is on.
      Value src_context = m.src_device_id == m.device_id ? Value(m.context_id) : Value();
      Value dst_context = m.dst_device_id == m.device_id ? Value(m.context_id) : Value();
      db_.run(
          "INSERT INTO CUPTI_ACTIVITY_KIND_MEMCPY VALUES "
          "(?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
          {m.start,
           m.end,
           m.device_id,
           m.context_id,
           std::nullopt,
           m.stream_id,
           m.correlation_id,
           global_pid(m.pid),
           m.bytes,
           nsys_copy_kind(m.copy_kind),
           std::nullopt,
           nsys_mem_kind(m.src_kind),
           nsys_mem_kind(m.dst_kind),
           m.src_device_id,
           src_context,
           m.dst_device_id,
           dst_context,
           std::nullopt,
           id_or_null(m.graph_node_id),
           std::nullopt});
    }
  }

  void write_memsets() {
    for (const Memset& m : trace_.memsets) {
      db_.run("INSERT INTO CUPTI_ACTIVITY_KIND_MEMSET VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
              {m.start, m.end, m.device_id, m.context_id, std::nullopt, m.stream_id,
               m.correlation_id, global_pid(m.pid), m.value, m.bytes, id_or_null(m.graph_node_id),
               nsys_mem_kind(m.mem_kind)});
    }
  }

  void write_syncs() {
    for (const Sync& s : trace_.syncs) {
      const bool has_event = s.type == kSyncEventSynchronize || s.type == kSyncStreamWaitEvent;
      db_.run("INSERT INTO CUPTI_ACTIVITY_KIND_SYNCHRONIZATION VALUES (?,?,?,?,?,?,?,?,?,?)",
              {s.start, s.end, s.device_id, s.context_id, std::nullopt,
               s.stream_id ? static_cast<int64_t>(*s.stream_id) : kSyncInvalidValue,
               s.correlation_id, global_pid(s.pid), s.type,
               has_event ? static_cast<int64_t>(s.event_id) : kSyncInvalidValue});
    }
  }

  void write_nvtx() {
    constexpr const char* kInsert =
        "INSERT INTO NVTX_EVENTS (start, end, eventType, rangeId, category, color, text, "
        "globalTid, endGlobalTid, domainId, uint64Value, int64Value, doubleValue, "
        "uint32Value, int32Value, floatValue) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)";
    for (const NvtxDomain& d : trace_.nvtx_domains) {
      db_.run(kInsert,
              {d.created, std::nullopt, kNvtxDomainCreate, std::nullopt, std::nullopt, std::nullopt,
               d.name, global_tid(d.pid, d.tid), std::nullopt, d.id, std::nullopt, std::nullopt,
               std::nullopt, std::nullopt, std::nullopt, std::nullopt});
    }
    for (const Nvtx& n : trace_.nvtx) {
      int type = kNvtxMark;
      switch (n.kind) {
        case Nvtx::kMark:
          type = kNvtxMark;
          break;
        case Nvtx::kPushPop:
          type = kNvtxPushPopRange;
          break;
        case Nvtx::kStartEnd:
          type = kNvtxStartEndRange;
          break;
        case Nvtx::kCategory:
          type = kNvtxCategory;
          break;
      }
      // The payload lands in the column of its type; the others stay NULL.
      Value payload[6];
      const uint64_t bits = n.payload_bits;
      switch (n.payload) {
        case Nvtx::kNone:
          break;
        case Nvtx::kU64:
          payload[0] = bits;
          break;
        case Nvtx::kI64:
          payload[1] = static_cast<int64_t>(bits);
          break;
        case Nvtx::kDouble:
          payload[2] = n.payload_value;
          break;
        case Nvtx::kU32:
          payload[3] = static_cast<uint32_t>(bits);
          break;
        case Nvtx::kI32:
          payload[4] = static_cast<int32_t>(static_cast<uint32_t>(bits));
          break;
        case Nvtx::kFloat:
          payload[5] = n.payload_value;
          break;
      }
      const bool range = n.kind == Nvtx::kPushPop || n.kind == Nvtx::kStartEnd;
      Value end_tid =
          range && n.end ? Value(global_tid(n.pid, n.end_tid ? n.end_tid : n.tid)) : Value();
      Value category = n.category != 0 || n.kind == Nvtx::kCategory ? Value(n.category) : Value();
      db_.run(kInsert,
              {n.start, n.end, type, n.kind == Nvtx::kStartEnd ? Value(n.range_id) : Value(),
               category, n.color, n.text, global_tid(n.pid, n.tid), end_tid, n.domain_id,
               payload[0], payload[1], payload[2], payload[3], payload[4], payload[5]});
    }
  }

  void write_strata_tables() {
    std::set<std::pair<std::string, std::string>> session;
    for (const Process& p : trace_.processes) {
      if (!p.timing_mode.empty()) session.insert({"timing_mode", p.timing_mode});
    }
    for (const Device& d : trace_.devices) {
      if (!d.arch.empty()) session.insert({"arch", d.arch});
    }
#ifdef STRATA_VERSION
    session.insert({"strata_version", STRATA_VERSION});
#endif
    for (const auto& [name, value] : session) {
      db_.run("INSERT INTO STRATA_SESSION VALUES (?,?)", {name, value});
    }
    std::set<uint32_t> configured;
    for (const Device& d : trace_.devices) {
      if (!configured.insert(d.id).second) continue;
      for (const auto& [name, value] : d.config) {
        db_.run("INSERT INTO STRATA_DEVICE_CONFIG VALUES (?,?,?)", {d.id, name, value});
      }
    }
    for (const Kernel& k : trace_.kernels) {
      for (const auto& [name, value] : k.counters) {
        db_.run("INSERT INTO STRATA_KERNEL_COUNTERS VALUES (?,?,?,?,?,?)",
                {global_pid(k.pid), k.device_id, k.correlation_id, k.grid_id, name, value});
      }
    }
    for (const Kernel& k : trace_.kernels) {
      for (const SourceLine& s : k.source) {
        db_.run("INSERT INTO STRATA_KERNEL_SOURCE VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                {global_pid(k.pid), k.device_id, k.correlation_id, k.grid_id,
                 std::string_view(s.file), s.line, s.ptx ? 1 : 0, s.warp_instructions,
                 s.thread_instructions, s.global_requests, s.global_sectors, s.global_bytes,
                 s.local_requests, s.local_sectors, s.shared_requests, s.shared_wavefronts,
                 s.shared_bank_conflicts, k.source_partial ? 1 : 0});
      }
    }
    if (options_.metrics) write_metrics();
  }

  void write_metrics() {
#ifdef STRATA_HAVE_PROF_METRICS
    for (const Kernel& k : trace_.kernels) {
      const Device* d = device(k.pid, k.device_id);
      if (d == nullptr || k.counters.empty()) continue;
      for (const MetricValue& m : kernel_metrics(k, *d)) {
        db_.run(
            "INSERT INTO STRATA_KERNEL_METRICS VALUES (?,?,?,?,?,?,?)",
            {global_pid(k.pid), k.device_id, k.correlation_id, k.grid_id, m.name, m.value, m.unit});
      }
    }
#endif
  }

  const Trace& trace_;
  Database& db_;
  const SqliteOptions& options_;
  std::map<std::pair<uint32_t, uint32_t>, const Device*> devices_;
  std::unordered_map<std::string, int64_t> strings_;
};

}  // namespace

Status export_sqlite(const Trace& trace, const std::string& path, const SqliteOptions& options) {
  Database db;
  RETURN_IF_ERROR(db.open(path));
  RETURN_IF_ERROR(db.exec("PRAGMA journal_mode=MEMORY; PRAGMA synchronous=OFF; BEGIN;"));
  RETURN_IF_ERROR(db.exec(kSchema));
  for (const EnumTable& table : enum_tables()) {
    std::string create = fmt::format(
        "CREATE TABLE {} (id INTEGER NOT NULL PRIMARY KEY, name TEXT, label TEXT);", table.table);
    RETURN_IF_ERROR(db.exec(create.c_str()));
    const std::string insert = fmt::format("INSERT INTO {} VALUES (?,?,?)", table.table);
    for (const EnumRow& row : table.rows) db.run(insert.c_str(), {row.id, row.name, row.label});
  }
  Exporter(trace, db, options).write();
  RETURN_IF_ERROR(db.status());
  return db.exec("COMMIT;");
}

}  // namespace strata::prof
