// export_sqlite on hand-built traces, checked with SQL the way users and nsys-stats-style
// scripts read an `nsys export --type sqlite` database. Expected values come from the
// records written here and from the published schema (enum ids and labels of the Nsight
// Systems SQLite schema reference, demangled names as c++filt prints them).
#include "prof/export_sqlite.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

namespace strata::prof {
namespace {

using Rows = std::vector<std::vector<std::string>>;

class Db {
 public:
  explicit Db(const std::string& path) {
    EXPECT_EQ(sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr), SQLITE_OK);
  }
  ~Db() { sqlite3_close(db_); }

  // Every row of `sql`, NULL as "NULL".
  Rows rows(const std::string& sql) {
    Rows out;
    sqlite3_stmt* stmt = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sqlite3_errmsg(db_) << " in: " << sql;
      return out;
    }
    while (sqlite3_step(stmt) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(stmt); ++i) {
        const unsigned char* text = sqlite3_column_text(stmt, i);
        row.push_back(text != nullptr ? reinterpret_cast<const char*>(text) : "NULL");
      }
      out.push_back(std::move(row));
    }
    sqlite3_finalize(stmt);
    return out;
  }
  // The single value `sql` selects.
  std::string value(const std::string& sql) {
    Rows r = rows(sql);
    if (r.size() != 1 || r[0].size() != 1) {
      ADD_FAILURE() << "expected one value from: " << sql << " (got " << r.size() << " rows)";
      return "";
    }
    return r[0][0];
  }
  int64_t count(const std::string& table) {
    return std::stoll(value("SELECT count(*) FROM " + table));
  }

 private:
  sqlite3* db_ = nullptr;
};

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() /
          ("strata_sqlite_" + std::to_string(getpid()) + "_" + name))
      .string();
}

constexpr uint32_t kPidA = 4242, kPidB = 0x123456;  // B uses all 24 pid bits
constexpr uint32_t kMainA = 4242, kWorkerA = 4250, kMainB = 0x123456;

Device make_device(uint32_t pid, uint32_t id) {
  Device d;
  d.pid = pid;
  d.id = id;
  d.name = "Strata G1";
  d.uuid = "GPU-00000000-0000-0000-0000-00000000000" + std::to_string(id);
  d.arch = "strata-g1";
  d.compute_major = 8;
  d.compute_minor = 0;
  d.total_memory = 4ull << 30;
  d.memory_bandwidth = 900'000'000'000ull;
  d.clock_rate_khz = 1'410'000;
  d.sm_count = 8;
  d.max_shared_per_block = 48 * 1024;
  d.max_shared_per_block_optin = 163 * 1024;
  d.config = {{"dram.bandwidth_gbps", 900.0}, {"sm.count", 8.0}};
  return d;
}

Api api(uint32_t pid, uint32_t tid, ApiDomain domain, const char* name, uint64_t start,
        uint64_t end, uint32_t correlation) {
  Api a;
  a.pid = pid;
  a.tid = tid;
  a.domain = domain;
  a.name = name;
  a.start = start;
  a.end = end;
  a.correlation_id = correlation;
  return a;
}

template <typename W>
W work(uint32_t pid, uint64_t start, uint64_t end, uint64_t stream, uint32_t correlation) {
  W w;
  w.pid = pid;
  w.start = start;
  w.end = end;
  w.device_id = 0;
  w.context_id = 1;
  w.stream_id = stream;
  w.correlation_id = correlation;
  return w;
}

// Two processes, three threads; runtime and driver calls; kernels (one from a graph, one
// cooperative, one opting into large shared memory); copies of several kinds; memsets;
// synchronisations; NVTX marks, push/pop and start/end ranges in two domains.
Trace make_trace() {
  Trace t;
  Process a;
  a.pid = kPidA;
  a.name = "app_a";
  a.session_start_utc_ns = 1'700'000'000'123'456'789ull;
  a.timing_mode = "fast";
  Process b = a;
  b.pid = kPidB;
  b.name = "app_b";
  b.session_start_utc_ns = 1'700'000'001'000'000'000ull;
  t.processes = {a, b};
  t.devices = {make_device(kPidA, 0), make_device(kPidB, 0)};
  t.contexts = {{kPidA, 1, 0, 7}, {kPidB, 1, 0, 7}};
  Stream null_stream{kPidA, 7, 1, 0, 0, Stream::kLegacyNull, ""};
  Stream copy_stream{kPidA, 13, 1, 0, -1, Stream::kNonBlocking, "copies"};
  Stream b_stream{kPidB, 7, 1, 0, 0, Stream::kLegacyNull, ""};
  t.streams = {null_stream, copy_stream, b_stream};
  // The worker is renamed (nvtxNameOsThread after the OS name): the last name counts.
  t.threads = {{kPidA, kMainA, "main"},
               {kPidA, kWorkerA, "app_a"},
               {kPidB, kMainB, "b_main"},
               {kPidA, kWorkerA, "worker"}};

  t.apis = {
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaMalloc_v3020", 100, 200, 1),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaMemcpy_v3020", 300, 900, 2),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaLaunchKernel_v7000", 1000, 1100, 3),
      api(kPidA, kWorkerA, ApiDomain::kRuntime, "cudaLaunchKernel_v7000", 1050, 1150, 4),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaGraphLaunch_v10000", 1200, 1300, 5),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaMemsetAsync_v3020", 1400, 1450, 6),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaMemcpyAsync_v3020", 1500, 1550, 7),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaStreamSynchronize_v3020", 1600, 5000, 8),
      api(kPidA, kMainA, ApiDomain::kRuntime, "cudaDeviceSynchronize_v3020", 5100, 5200, 9),
      api(kPidA, kWorkerA, ApiDomain::kDriver, "cuLaunchKernel", 5300, 5350, 10),
      api(kPidA, kWorkerA, ApiDomain::kDriver, "cuMemsetD8_v2", 5400, 5500, 11),
      api(kPidB, kMainB, ApiDomain::kRuntime, "cudaLaunchKernel_v7000", 100, 150, 1),
      api(kPidB, kMainB, ApiDomain::kRuntime, "cudaMemcpy_v3020", 200, 700, 2),
  };
  t.apis[0].return_value = 2;  // cudaErrorMemoryAllocation

  auto kernel = [&](uint32_t pid, const char* name, uint64_t start, uint64_t end, uint64_t stream,
                    uint32_t correlation, uint64_t grid_id) {
    Kernel k = work<Kernel>(pid, start, end, stream, correlation);
    k.name = name;
    k.grid_id = grid_id;
    k.grid[0] = 64;
    k.block[0] = 256;
    k.registers_per_thread = 32;
    k.static_shared = 1024;
    k.local_per_thread = 16;
    k.local_total = 16 * 64 * 256;
    k.shared_config = 102400;
    return k;
  };
  t.kernels = {
      kernel(kPidA, "_Z10vector_addPKfS0_Pfi", 1500, 2500, 7, 3, 1),
      kernel(kPidA, "_ZN2ns5scaleIfLi2EEEvPT_i", 2500, 3000, 13, 4, 2),
      kernel(kPidA, "_Z10vector_addPKfS0_Pfi", 3000, 3600, 7, 5, 3),
      kernel(kPidA, "my_c_kernel", 5400, 5900, 7, 10, 4),
      kernel(kPidB, "_ZN5outer5innerIiE4stepEv", 300, 400, 7, 1, 1),
  };
  {
    SourceLine a;
    a.file = "vector_add.cu", a.line = 9, a.warp_instructions = 64, a.thread_instructions = 2048;
    a.global_requests = 8, a.global_sectors = 32, a.global_bytes = 1024;
    SourceLine b = a;
    b.file = "ptx module", b.line = 31, b.ptx = true, b.shared_bank_conflicts = 5;
    t.kernels[0].source = {a, b};
  }
  t.kernels[2].graph_id = 77;
  t.kernels[2].graph_node_id = 0x500000001ull;
  t.kernels[3].cooperative = true;
  t.kernels[3].grid[1] = 2;
  t.kernels[3].block[2] = 4;
  t.kernels[1].dynamic_shared = 60 * 1024;  // 61 KiB in all: above the 48 KiB default
  t.kernels[0].counters = {{"warp_instructions", 4096}, {"cycles", 1000}};

  auto memcpy = [&](uint32_t pid, uint64_t start, uint64_t end, uint64_t stream,
                    uint32_t correlation, uint64_t bytes, uint32_t copy_kind, uint32_t src_kind,
                    uint32_t dst_kind) {
    Memcpy m = work<Memcpy>(pid, start, end, stream, correlation);
    m.bytes = bytes;
    m.copy_kind = copy_kind;
    m.src_kind = src_kind;
    m.dst_kind = dst_kind;
    return m;
  };
  // CUpti_ActivityMemcpyKind: 1 HtoD, 2 DtoH, 8 DtoD, 10 PtoP.
  // CUpti_ActivityMemoryKind: 1 pageable, 2 pinned, 3 device.
  t.memcpys = {
      memcpy(kPidA, 400, 800, 7, 2, 1 << 20, 1, 1, 3),
      memcpy(kPidA, 3600, 4000, 13, 7, 1 << 20, 2, 3, 2),
      memcpy(kPidA, 4000, 4100, 13, 7, 4096, 8, 3, 3),
      memcpy(kPidB, 500, 650, 7, 2, 256, 10, 3, 3),
  };
  t.memcpys[1].async = true;
  t.memcpys[3].dst_device_id = 1;

  t.memsets = {work<Memset>(kPidA, 1450, 1500, 7, 6), work<Memset>(kPidA, 5450, 5480, 7, 11)};
  t.memsets[0].bytes = 4096;
  t.memsets[0].value = 0xAB;
  t.memsets[0].mem_kind = 3;  // device
  t.memsets[1].bytes = 64;
  t.memsets[1].mem_kind = 5;  // managed

  Sync stream_sync;
  stream_sync.pid = kPidA;
  stream_sync.tid = kMainA;
  stream_sync.start = 1600;
  stream_sync.end = 5000;
  stream_sync.context_id = 1;
  stream_sync.stream_id = 13;
  stream_sync.correlation_id = 8;
  stream_sync.type = 3;  // stream synchronize
  Sync context_sync = stream_sync;
  context_sync.start = 5100;
  context_sync.end = 5200;
  context_sync.stream_id.reset();
  context_sync.correlation_id = 9;
  context_sync.type = 4;  // context synchronize
  Sync event_sync = stream_sync;
  event_sync.start = 5210;
  event_sync.end = 5220;
  event_sync.correlation_id = 0;
  event_sync.type = 1;  // event synchronize
  event_sync.event_id = 99;
  t.syncs = {stream_sync, context_sync, event_sync};

  t.nvtx_domains = {{kPidA, 1, "MyDomain", 50, kMainA}, {kPidB, 1, "OtherDomain", 60, kMainB}};
  Nvtx mark;
  mark.pid = kPidA;
  mark.kind = Nvtx::kMark;
  mark.start = 90;
  mark.tid = kMainA;
  mark.text = "started";
  Nvtx push = mark;
  push.kind = Nvtx::kPushPop;
  push.start = 95;
  push.end = 5250;
  push.end_tid = kMainA;
  push.text = "outer";
  push.color = 0xFF00FF00u;
  push.payload = Nvtx::kU64;
  push.payload_bits = 12345;
  push.payload_value = 12345;
  Nvtx inner = push;
  inner.start = 1000;
  inner.end = 1300;
  inner.text = "launches";
  inner.color.reset();
  inner.payload = Nvtx::kI32;
  inner.payload_bits = static_cast<uint32_t>(-7);
  inner.payload_value = -7;
  inner.category = 3;
  Nvtx domain_range = push;
  domain_range.kind = Nvtx::kStartEnd;
  domain_range.start = 1400;
  domain_range.end = 4000;
  domain_range.end_tid = kWorkerA;  // ended on another thread
  domain_range.range_id = 17;
  domain_range.domain_id = 1;
  domain_range.text = "phase";
  domain_range.payload = Nvtx::kDouble;
  domain_range.payload_value = 2.5;
  Nvtx open_range = domain_range;
  open_range.start = 5000;
  open_range.end.reset();
  open_range.range_id = 18;
  open_range.text = "never closed";
  open_range.payload = Nvtx::kNone;
  Nvtx category;
  category.pid = kPidA;
  category.kind = Nvtx::kCategory;
  category.start = 80;
  category.tid = kMainA;
  category.category = 3;
  category.text = "Launch";
  Nvtx b_push;
  b_push.pid = kPidB;
  b_push.kind = Nvtx::kPushPop;
  b_push.start = 90;
  b_push.end = 710;
  b_push.tid = kMainB;
  b_push.end_tid = kMainB;
  b_push.domain_id = 1;
  b_push.text = "b_work";
  t.nvtx = {mark, push, inner, domain_range, open_range, category, b_push};
  return t;
}

class ExportSqlite : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = temp_path("trace.sqlite");
    ASSERT_TRUE(export_sqlite(make_trace(), path_).ok());
    db_ = std::make_unique<Db>(path_);
  }
  void TearDown() override {
    db_.reset();
    std::filesystem::remove(path_);
  }
  std::string path_;
  std::unique_ptr<Db> db_;
};

TEST_F(ExportSqlite, SchemaVersionAndRowCounts) {
  EXPECT_EQ(db_->value("SELECT value FROM META_DATA_EXPORT WHERE name = 'EXPORT_SCHEMA_VERSION'"),
            "3.16.1");
  EXPECT_EQ(db_->count("PROCESSES"), 2);
  EXPECT_EQ(db_->count("ThreadNames"), 3);
  EXPECT_EQ(db_->count("CUPTI_ACTIVITY_KIND_RUNTIME"), 13);
  EXPECT_EQ(db_->count("CUPTI_ACTIVITY_KIND_KERNEL"), 5);
  EXPECT_EQ(db_->count("CUPTI_ACTIVITY_KIND_MEMCPY"), 4);
  EXPECT_EQ(db_->count("CUPTI_ACTIVITY_KIND_MEMSET"), 2);
  EXPECT_EQ(db_->count("CUPTI_ACTIVITY_KIND_SYNCHRONIZATION"), 3);
  EXPECT_EQ(db_->count("NVTX_EVENTS"), 9);  // 7 events + 2 domain creations
  EXPECT_EQ(db_->count("TARGET_INFO_CUDA_STREAM"), 3);
  EXPECT_EQ(db_->count("TARGET_INFO_NVTX_CUDA_STREAM"), 1);
  EXPECT_EQ(db_->count("TARGET_INFO_CUDA_CONTEXT_INFO"), 2);
  EXPECT_EQ(db_->count("TARGET_INFO_CUDA_DEVICE"), 2);
  // Both processes use GPU 0 of one machine: one GPU row... per uuid; ours share a uuid.
  EXPECT_EQ(db_->count("TARGET_INFO_GPU"), 1);
  EXPECT_EQ(db_->value("SELECT name || '|' || clockRate || '|' || smCount || '|' || computeMajor "
                       "FROM TARGET_INFO_GPU"),
            "Strata G1|1410000000|8|8");
}

TEST_F(ExportSqlite, ProcessAndThreadIdsDecode) {
  EXPECT_EQ(db_->value("SELECT count(*) FROM PROCESSES WHERE ((globalPid >> 24) & 0xFFFFFF) = pid"),
            "2");
  EXPECT_EQ(db_->value("SELECT pid FROM PROCESSES WHERE name = 'app_b'"), std::to_string(kPidB));
  // Every API row's globalTid decodes to a process and a thread of the trace.
  Rows rows = db_->rows(
      "SELECT DISTINCT (globalTid >> 24) & 0xFFFFFF, globalTid & 0xFFFFFF "
      "FROM CUPTI_ACTIVITY_KIND_RUNTIME ORDER BY 1, 2");
  Rows expected = {{std::to_string(kPidA), std::to_string(kMainA)},
                   {std::to_string(kPidA), std::to_string(kWorkerA)},
                   {std::to_string(kPidB), std::to_string(kMainB)}};
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(db_->value("SELECT s.value FROM ThreadNames t JOIN StringIds s ON t.nameId = s.id "
                       "WHERE (t.globalTid & 0xFFFFFF) = " +
                       std::to_string(kWorkerA)),
            "worker");
  // Kernels of process B carry B's globalPid.
  EXPECT_EQ(db_->value("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_KERNEL "
                       "WHERE (globalPid >> 24) & 0xFFFFFF = " +
                       std::to_string(kPidB)),
            "1");
}

TEST_F(ExportSqlite, RuntimeAndDriverRows) {
  EXPECT_EQ(db_->value("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                       "JOIN ENUM_NSYS_EVENT_CLASS e ON r.eventClass = e.id "
                       "WHERE e.name = 'TRACE_PROCESS_EVENT_CUDA_DRIVER'"),
            "2");
  EXPECT_EQ(db_->value("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME r "
                       "JOIN ENUM_NSYS_EVENT_CLASS e ON r.eventClass = e.id "
                       "WHERE e.name = 'TRACE_PROCESS_EVENT_CUDA_RUNTIME'"),
            "11");
  EXPECT_EQ(db_->value("SELECT r.returnValue FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s "
                       "ON r.nameId = s.id WHERE s.value = 'cudaMalloc_v3020'"),
            "2");
  EXPECT_EQ(db_->value("SELECT count(*) FROM CUPTI_ACTIVITY_KIND_RUNTIME WHERE callchainId IS "
                       "NOT NULL"),
            "0");
}

TEST_F(ExportSqlite, KernelNames) {
  Rows rows = db_->rows(
      "SELECT m.value, d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k "
      "JOIN StringIds m ON k.mangledName = m.id JOIN StringIds d ON k.demangledName = d.id "
      "JOIN StringIds s ON k.shortName = s.id ORDER BY k.globalPid, k.gridId");
  Rows expected = {
      {"_Z10vector_addPKfS0_Pfi", "vector_add(float const*, float const*, float*, int)",
       "vector_add"},
      {"_ZN2ns5scaleIfLi2EEEvPT_i", "void ns::scale<float, 2>(float*, int)", "scale"},
      {"_Z10vector_addPKfS0_Pfi", "vector_add(float const*, float const*, float*, int)",
       "vector_add"},
      {"my_c_kernel", "my_c_kernel", "my_c_kernel"},
      {"_ZN5outer5innerIiE4stepEv", "outer::inner<int>::step()", "step"},
  };
  EXPECT_EQ(rows, expected);
  // StringIds holds each string once.
  EXPECT_EQ(db_->value("SELECT count(*) - count(DISTINCT value) FROM StringIds"), "0");
}

TEST_F(ExportSqlite, KernelColumns) {
  EXPECT_EQ(db_->value("SELECT gridX || 'x' || gridY || 'x' || gridZ || ' ' || blockX || 'x' || "
                       "blockY || 'x' || blockZ FROM CUPTI_ACTIVITY_KIND_KERNEL WHERE gridId = 4"),
            "64x2x1 256x1x4");
  // Launch types by name from the enum table.
  Rows launch = db_->rows(
      "SELECT k.gridId, e.name FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
      "ENUM_CUDA_KERNEL_LAUNCH_TYPE e ON k.launchType = e.id WHERE (k.globalPid >> 24) = " +
      std::to_string(kPidA) + " ORDER BY k.gridId");
  Rows expected_launch = {{"1", "CUDA_KERNEL_LAUNCH_TYPE_REGULAR"},
                          {"2", "CUDA_KERNEL_LAUNCH_TYPE_REGULAR"},
                          {"3", "CUDA_KERNEL_LAUNCH_TYPE_REGULAR"},
                          {"4", "CUDA_KERNEL_LAUNCH_TYPE_COOPERATIVE_SINGLE_DEVICE"}};
  EXPECT_EQ(launch, expected_launch);
  // The graph-launched kernel carries its node id; the others none.
  EXPECT_EQ(db_->value("SELECT gridId || ':' || graphNodeId || ':' || graphId FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL WHERE graphNodeId IS NOT NULL"),
            "3:" + std::to_string(0x500000001ull) + ":77");
  // Shared memory: 1 KiB static + 60 KiB dynamic exceeds the 48 KiB default: opt-in.
  EXPECT_EQ(db_->value("SELECT e.label FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN "
                       "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG e ON k.sharedMemoryLimitConfig = e.id "
                       "WHERE k.gridId = 2 AND (k.globalPid >> 24) = " +
                       std::to_string(kPidA)),
            "Opt in");
  EXPECT_EQ(db_->value("SELECT staticSharedMemory || ',' || dynamicSharedMemory || ',' || "
                       "localMemoryPerThread || ',' || localMemoryTotal || ',' || "
                       "registersPerThread || ',' || sharedMemoryExecuted FROM "
                       "CUPTI_ACTIVITY_KIND_KERNEL WHERE gridId = 2 AND (globalPid >> 24) = " +
                       std::to_string(kPidA)),
            "1024,61440,16,262144,32,102400");
}

TEST_F(ExportSqlite, KernelsJoinTheirLaunchingCalls) {
  // The cuda_kern_exec_trace-style join: API row and kernel in the same process with the
  // same correlation id.
  Rows rows = db_->rows(
      "SELECT s.value, k.gridId FROM CUPTI_ACTIVITY_KIND_KERNEL k "
      "JOIN CUPTI_ACTIVITY_KIND_RUNTIME r ON r.correlationId = k.correlationId "
      "  AND (r.globalTid & 0x0000FFFFFF000000) = (k.globalPid & 0x0000FFFFFF000000) "
      "JOIN StringIds s ON r.nameId = s.id ORDER BY k.globalPid, k.gridId");
  Rows expected = {{"cudaLaunchKernel_v7000", "1"},
                   {"cudaLaunchKernel_v7000", "2"},
                   {"cudaGraphLaunch_v10000", "3"},
                   {"cuLaunchKernel", "4"},
                   {"cudaLaunchKernel_v7000", "1"}};
  EXPECT_EQ(rows, expected);
}

TEST_F(ExportSqlite, MemoryKindsAreTranslated) {
  Rows rows = db_->rows(
      "SELECT o.label, s.label, d.label, m.bytes FROM CUPTI_ACTIVITY_KIND_MEMCPY m "
      "JOIN ENUM_CUDA_MEMCPY_OPER o ON m.copyKind = o.id "
      "JOIN ENUM_CUDA_MEM_KIND s ON m.srcKind = s.id "
      "JOIN ENUM_CUDA_MEM_KIND d ON m.dstKind = d.id ORDER BY m.globalPid, m.start");
  Rows expected = {{"Host-to-Device", "Pageable", "Device", "1048576"},
                   {"Device-to-Host", "Device", "Pinned", "1048576"},
                   {"Device-to-Device", "Device", "Device", "4096"},
                   {"Peer-to-Peer", "Device", "Device", "256"}};
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(db_->value("SELECT srcDeviceId || '->' || dstDeviceId || ' ' || "
                       "ifnull(dstContextId, 'NULL') FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE "
                       "copyKind = 10"),
            "0->1 NULL");
  Rows memsets = db_->rows(
      "SELECT m.value, m.bytes, k.label FROM CUPTI_ACTIVITY_KIND_MEMSET m JOIN "
      "ENUM_CUDA_MEM_KIND k ON m.memKind = k.id ORDER BY m.start");
  Rows expected_memsets = {{"171", "4096", "Device"}, {"0", "64", "Managed"}};
  EXPECT_EQ(memsets, expected_memsets);
}

TEST_F(ExportSqlite, Synchronizations) {
  Rows rows = db_->rows(
      "SELECT e.label, s.streamId, s.eventId, s.correlationId FROM "
      "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION s JOIN ENUM_CUPTI_SYNC_TYPE e ON s.syncType = e.id "
      "ORDER BY s.start");
  // CUPTI_SYNCHRONIZATION_INVALID_VALUE (0xFFFFFFFF) where a field does not apply.
  Rows expected = {{"Stream sync", "13", "4294967295", "8"},
                   {"Context sync", "4294967295", "4294967295", "9"},
                   {"Event sync", "13", "99", "0"}};
  EXPECT_EQ(rows, expected);
}

TEST_F(ExportSqlite, StreamsAndContexts) {
  Rows rows = db_->rows(
      "SELECT s.processId, s.streamId, s.priority, e.label FROM TARGET_INFO_CUDA_STREAM s "
      "JOIN ENUM_CUPTI_STREAM_TYPE e ON s.flag = e.id ORDER BY s.processId, s.streamId");
  Rows expected = {{std::to_string(kPidA), "7", "0", "Null stream"},
                   {std::to_string(kPidA), "13", "-1", "Non-blocking stream"},
                   {std::to_string(kPidB), "7", "0", "Null stream"}};
  EXPECT_EQ(rows, expected);
  EXPECT_EQ(db_->value("SELECT name || ':' || streamId FROM TARGET_INFO_NVTX_CUDA_STREAM"),
            "copies:13");
  EXPECT_EQ(db_->value("SELECT nullStreamId FROM TARGET_INFO_CUDA_CONTEXT_INFO WHERE processId = " +
                       std::to_string(kPidA)),
            "7");
}

TEST_F(ExportSqlite, NvtxRows) {
  Rows rows = db_->rows(
      "SELECT e.name, n.text, ifnull(n.end, 'NULL'), ifnull(n.rangeId, 'NULL'), "
      "ifnull(n.domainId, 'NULL'), ifnull(n.color, 'NULL') FROM NVTX_EVENTS n "
      "JOIN ENUM_NSYS_EVENT_TYPE e ON n.eventType = e.id "
      "WHERE (n.globalTid >> 24) = " +
      std::to_string(kPidA) + " ORDER BY n.start");
  Rows expected = {
      {"NvtxDomainCreate", "MyDomain", "NULL", "NULL", "1", "NULL"},
      {"NvtxCategory", "Launch", "NULL", "NULL", "0", "NULL"},
      {"NvtxMark", "started", "NULL", "NULL", "0", "NULL"},
      {"NvtxPushPopRange", "outer", "5250", "NULL", "0", std::to_string(0xFF00FF00u)},
      {"NvtxPushPopRange", "launches", "1300", "NULL", "0", "NULL"},
      {"NvtxStartEndRange", "phase", "4000", "17", "1", std::to_string(0xFF00FF00u)},
      {"NvtxStartEndRange", "never closed", "NULL", "18", "1", std::to_string(0xFF00FF00u)},
  };
  EXPECT_EQ(rows, expected);
  // Payloads land in the column of their type; the category of "launches" is kept.
  EXPECT_EQ(db_->value("SELECT uint64Value || ',' || ifnull(int32Value, 'NULL') FROM NVTX_EVENTS "
                       "WHERE text = 'outer'"),
            "12345,NULL");
  EXPECT_EQ(db_->value("SELECT int32Value || ',' || category || ',' || ifnull(uint64Value, "
                       "'NULL') FROM NVTX_EVENTS WHERE text = 'launches'"),
            "-7,3,NULL");
  EXPECT_EQ(db_->value("SELECT doubleValue FROM NVTX_EVENTS WHERE text = 'phase'"), "2.5");
  // A start/end range ended on another thread.
  EXPECT_EQ(db_->value("SELECT endGlobalTid & 0xFFFFFF FROM NVTX_EVENTS WHERE text = 'phase'"),
            std::to_string(kWorkerA));
}

// The nvtx_sum computation of `nsys stats` (domain names from eventType 75 rows joined on
// domainId and the process bits of globalTid; open ranges end at the last timestamp).
TEST_F(ExportSqlite, NvtxSumQuery) {
  Rows rows = db_->rows(R"sql(
    WITH domains AS (
      SELECT min(start), domainId AS id, globalTid AS globalTid, text AS name
      FROM NVTX_EVENTS WHERE eventType == 75 GROUP BY 2, 3),
    maxts AS (SELECT max(max(start), max(end)) AS m FROM NVTX_EVENTS),
    nvtx AS (
      SELECT coalesce(ne.end, (SELECT m FROM maxts)) - ne.start AS duration,
        CASE WHEN d.name NOT NULL AND sid.value IS NOT NULL THEN d.name || ':' || sid.value
             WHEN d.name NOT NULL AND sid.value IS NULL THEN d.name || ':' || ne.text
             WHEN d.name IS NULL AND sid.value NOT NULL THEN sid.value
             ELSE ne.text END AS tag,
        CASE ne.eventType WHEN 59 THEN 'PushPop' WHEN 60 THEN 'StartEnd' END AS style
      FROM NVTX_EVENTS AS ne
      LEFT JOIN domains AS d ON ne.domainId == d.id
        AND (ne.globalTid & 0x0000FFFFFF000000) == (d.globalTid & 0x0000FFFFFF000000)
      LEFT JOIN StringIds AS sid ON ne.textId == sid.id
      WHERE ne.eventType == 59 OR ne.eventType == 60 OR ne.eventType == 70
         OR ne.eventType == 71)
    SELECT tag, style, count(*), sum(duration) FROM nvtx GROUP BY tag, style ORDER BY tag)sql");
  Rows expected = {
      {"MyDomain:never closed", "StartEnd", "1", "250"},  // to the last NVTX time, 5250
      {"MyDomain:phase", "StartEnd", "1", "2600"},
      {"OtherDomain:b_work", "PushPop", "1", "620"},
      {"launches", "PushPop", "1", "300"},
      {"outer", "PushPop", "1", "5155"}};
  EXPECT_EQ(rows, expected);
}

// cuda_api_sum: names without the _vNNNN suffix, grouped.
TEST_F(ExportSqlite, ApiSumQuery) {
  Rows rows = db_->rows(R"sql(
    WITH names AS (
      SELECT CASE substr(s.value, -6, 2) WHEN '_v' THEN substr(s.value, 1, length(s.value) - 6)
             ELSE s.value END AS name, r.end - r.start AS duration
      FROM CUPTI_ACTIVITY_KIND_RUNTIME r JOIN StringIds s ON r.nameId = s.id)
    SELECT name, count(*), sum(duration) FROM names GROUP BY name
    HAVING name IN ('cudaLaunchKernel', 'cudaMemcpy', 'cuLaunchKernel') ORDER BY name)sql");
  Rows expected = {
      {"cuLaunchKernel", "1", "50"}, {"cudaLaunchKernel", "3", "250"}, {"cudaMemcpy", "2", "1100"}};
  EXPECT_EQ(rows, expected);
}

// cuda_gpu_mem_time_sum / cuda_gpu_mem_size_sum: operation names from the enum table.
TEST_F(ExportSqlite, MemSumQuery) {
  Rows rows = db_->rows(R"sql(
    WITH memops AS (
      SELECT '[CUDA memcpy ' || mos.label || ']' AS name, mcpy.end - mcpy.start AS duration,
             mcpy.bytes AS size
      FROM CUPTI_ACTIVITY_KIND_MEMCPY AS mcpy
      INNER JOIN ENUM_CUDA_MEMCPY_OPER AS mos ON mos.id = mcpy.copyKind
      UNION ALL
      SELECT '[CUDA memset]', end - start, bytes FROM CUPTI_ACTIVITY_KIND_MEMSET)
    SELECT name, count(*), sum(duration), sum(size) FROM memops GROUP BY name ORDER BY name)sql");
  Rows expected = {{"[CUDA memcpy Device-to-Device]", "1", "100", "4096"},
                   {"[CUDA memcpy Device-to-Host]", "1", "400", "1048576"},
                   {"[CUDA memcpy Host-to-Device]", "1", "400", "1048576"},
                   {"[CUDA memcpy Peer-to-Peer]", "1", "150", "256"},
                   {"[CUDA memset]", "2", "80", "4160"}};
  EXPECT_EQ(rows, expected);
}

// cuda_gpu_kern_sum and its :base variant.
TEST_F(ExportSqlite, KernSumQuery) {
  Rows rows = db_->rows(
      "SELECT s.value, count(*), sum(k.end - k.start) FROM CUPTI_ACTIVITY_KIND_KERNEL k "
      "JOIN StringIds s ON k.shortName = s.id GROUP BY s.value ORDER BY s.value");
  Rows expected = {{"my_c_kernel", "1", "500"},
                   {"scale", "1", "500"},
                   {"step", "1", "100"},
                   {"vector_add", "2", "1600"}};
  EXPECT_EQ(rows, expected);
}

TEST_F(ExportSqlite, SessionTables) {
  EXPECT_EQ(db_->value("SELECT utcEpochNs FROM TARGET_INFO_SESSION_START_TIME"),
            "1700000000123456789");
  EXPECT_EQ(db_->value("SELECT utcTime FROM TARGET_INFO_SESSION_START_TIME"),
            "2023-11-14T22:13:20.123456789Z");
  EXPECT_EQ(db_->value("SELECT startTime || ',' || stopTime || ',' || duration FROM "
                       "ANALYSIS_DETAILS"),
            "80,5900,5820");
}

TEST_F(ExportSqlite, StrataTables) {
  EXPECT_EQ(db_->value("SELECT value FROM STRATA_SESSION WHERE name = 'timing_mode'"), "fast");
  EXPECT_EQ(db_->value("SELECT value FROM STRATA_SESSION WHERE name = 'arch'"), "strata-g1");
  EXPECT_EQ(db_->value("SELECT value FROM STRATA_DEVICE_CONFIG WHERE deviceId = 0 AND name = "
                       "'dram.bandwidth_gbps'"),
            "900.0");
  Rows counters = db_->rows(
      "SELECT c.name, c.value, s.value FROM STRATA_KERNEL_COUNTERS c JOIN "
      "CUPTI_ACTIVITY_KIND_KERNEL k ON k.globalPid = c.globalPid AND k.deviceId = c.deviceId "
      "AND k.gridId = c.gridId JOIN StringIds s ON k.shortName = s.id ORDER BY c.name");
  Rows expected = {{"cycles", "1000.0", "vector_add"},
                   {"warp_instructions", "4096.0", "vector_add"}};
  EXPECT_EQ(counters, expected);
  // Without --metrics the metrics table exists and is empty.
  EXPECT_EQ(db_->count("STRATA_KERNEL_METRICS"), 0);
  // Per-line counters, keyed like the counters.
  Rows lines = db_->rows(
      "SELECT l.file, l.line, l.isPtxLine, l.warpInstructions, l.threadInstructions, "
      "l.globalRequests, l.globalSectors, l.globalBytes, l.sharedBankConflicts, l.partial, "
      "k.correlationId FROM STRATA_KERNEL_SOURCE l JOIN CUPTI_ACTIVITY_KIND_KERNEL k ON "
      "k.globalPid = l.globalPid AND k.deviceId = l.deviceId AND k.gridId = l.gridId AND "
      "k.correlationId = l.correlationId ORDER BY l.isPtxLine");
  Rows expected_lines = {{"vector_add.cu", "9", "0", "64", "2048", "8", "32", "1024", "0", "0", "3"},
                         {"ptx module", "31", "1", "64", "2048", "8", "32", "1024", "5", "0", "3"}};
  EXPECT_EQ(lines, expected_lines);
}

// The enum tables hold the published ids and labels.
TEST_F(ExportSqlite, EnumTables) {
  EXPECT_EQ(db_->value("SELECT group_concat(id || '=' || label, ';') FROM (SELECT * FROM "
                       "ENUM_CUDA_MEM_KIND ORDER BY id)"),
            "0=Pageable;1=Pinned;2=Device;3=Array;4=Managed;5=Device Static;6=Managed "
            "Static;7=Unknown");
  EXPECT_EQ(db_->value("SELECT label FROM ENUM_CUDA_MEMCPY_OPER WHERE id = 10"), "Peer-to-Peer");
  EXPECT_EQ(db_->value("SELECT name FROM ENUM_CUDA_FUNC_CACHE_CONFIG WHERE id = 1"),
            "CU_FUNC_CACHE_PREFER_SHARED");
  for (const char* table :
       {"ENUM_NSYS_EVENT_TYPE", "ENUM_NSYS_EVENT_CLASS", "ENUM_CUDA_MEMCPY_OPER",
        "ENUM_CUDA_MEM_KIND", "ENUM_CUPTI_SYNC_TYPE", "ENUM_CUDA_DEV_MEM_EVENT_OPER",
        "ENUM_CUDA_KERNEL_LAUNCH_TYPE", "ENUM_CUDA_FUNC_CACHE_CONFIG",
        "ENUM_CUDA_SHARED_MEM_LIMIT_CONFIG", "ENUM_CUPTI_STREAM_TYPE"}) {
    EXPECT_GT(db_->count(table), 0) << table;
  }
}

// shortName: the base name without return type, scopes, template arguments and
// parameters (demangled names as c++filt prints them).
TEST(ExportSqliteNames, ShortNamesOfTemplatesAndScopes) {
  Trace trace;
  const char* mangled[] = {"_ZN12_GLOBAL__N_16helperEPf", "_Z6kernelIN4cuda3std4plusIiEEEvPiT_",
                           "_ZN3foo3barIiLi4EE3runIfEEvPT_", "_Z4fillIiLj256EEvPT_S0_"};
  uint64_t grid_id = 0;
  for (const char* name : mangled) {
    Kernel k;
    k.pid = kPidA;
    k.name = name;
    k.grid_id = ++grid_id;
    trace.kernels.push_back(k);
  }
  const std::string path = temp_path("names.sqlite");
  ASSERT_TRUE(export_sqlite(trace, path).ok());
  {
    Db db(path);
    Rows rows = db.rows(
        "SELECT d.value, s.value FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds d ON "
        "k.demangledName = d.id JOIN StringIds s ON k.shortName = s.id ORDER BY k.gridId");
    Rows expected = {
        {"(anonymous namespace)::helper(float*)", "helper"},
        {"void kernel<cuda::std::plus<int> >(int*, cuda::std::plus<int>)", "kernel"},
        {"void foo::bar<int, 4>::run<float>(float*)", "run"},
        {"void fill<int, 256u>(int*, int)", "fill"},
    };
    EXPECT_EQ(rows, expected);
  }
  std::filesystem::remove(path);
}

TEST(ExportSqliteEmpty, EveryCoreTableExists) {
  const std::string path = temp_path("empty.sqlite");
  ASSERT_TRUE(export_sqlite(Trace{}, path).ok());
  {
    Db db(path);
    for (const char* table : {"StringIds",
                              "ThreadNames",
                              "PROCESSES",
                              "META_DATA_EXPORT",
                              "ANALYSIS_DETAILS",
                              "TARGET_INFO_SESSION_START_TIME",
                              "TARGET_INFO_GPU",
                              "TARGET_INFO_CUDA_DEVICE",
                              "TARGET_INFO_CUDA_CONTEXT_INFO",
                              "TARGET_INFO_CUDA_STREAM",
                              "CUPTI_ACTIVITY_KIND_RUNTIME",
                              "CUPTI_ACTIVITY_KIND_KERNEL",
                              "CUPTI_ACTIVITY_KIND_MEMCPY",
                              "CUPTI_ACTIVITY_KIND_MEMSET",
                              "CUPTI_ACTIVITY_KIND_SYNCHRONIZATION",
                              "NVTX_EVENTS",
                              "STRATA_SESSION",
                              "STRATA_DEVICE_CONFIG",
                              "STRATA_KERNEL_COUNTERS",
                              "STRATA_KERNEL_METRICS"}) {
      EXPECT_EQ(db.value(std::string("SELECT count(*) FROM sqlite_master WHERE type = 'table' "
                                     "AND name = '") +
                         table + "'"),
                "1")
          << table;
    }
    EXPECT_EQ(db.count("CUPTI_ACTIVITY_KIND_MEMSET"), 0);
  }
  std::filesystem::remove(path);
}

TEST(ExportSqliteFiles, OverwritesAndReportsErrors) {
  const std::string path = temp_path("twice.sqlite");
  ASSERT_TRUE(export_sqlite(make_trace(), path).ok());
  ASSERT_TRUE(export_sqlite(make_trace(), path).ok());  // replaced, not appended to
  {
    Db db(path);
    EXPECT_EQ(db.count("CUPTI_ACTIVITY_KIND_KERNEL"), 5);
  }
  std::filesystem::remove(path);
  Status missing_dir = export_sqlite(make_trace(), "/nonexistent-dir/x/trace.sqlite");
  EXPECT_FALSE(missing_dir.ok());
  EXPECT_EQ(missing_dir.code(), Code::kInvalidValue);
}

// With metrics, STRATA_KERNEL_METRICS rows belong to kernels that have counters.
TEST(ExportSqliteMetrics, MetricsRowsReferenceKernels) {
  const std::string path = temp_path("metrics.sqlite");
  SqliteOptions options;
  options.metrics = true;
  ASSERT_TRUE(export_sqlite(make_trace(), path, options).ok());
  {
    Db db(path);
    EXPECT_EQ(db.value("SELECT count(*) FROM STRATA_KERNEL_METRICS m LEFT JOIN "
                       "CUPTI_ACTIVITY_KIND_KERNEL k ON k.globalPid = m.globalPid AND k.gridId = "
                       "m.gridId AND k.deviceId = m.deviceId WHERE k.gridId IS NULL"),
              "0");
    EXPECT_EQ(db.value("SELECT count(*) FROM STRATA_KERNEL_METRICS WHERE gridId != 1"), "0");
    // smsp__inst_executed.sum counts warp-level instructions (Kernel Profiling Guide).
    Rows inst =
        db.rows("SELECT value FROM STRATA_KERNEL_METRICS WHERE name = 'smsp__inst_executed.sum'");
    for (const auto& row : inst) EXPECT_EQ(std::stod(row[0]), 4096.0);
#ifdef STRATA_HAVE_PROF_METRICS
    EXPECT_EQ(inst.size(), 1u);  // only the kernel with counters has metrics
#endif
  }
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace strata::prof
