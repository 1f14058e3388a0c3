// libcupti's entry points against a fake driver profiler table: the records a client
// gets for records the "driver" delivers, the callback protocol and the misc API.
// Expected values are the inputs the test constructs and CUPTI's documented behaviour.
#include <cupti.h>
#include <cupti_profiler_target.h>
#include <cupti_target.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "cupti/activity_records.h"
#include "cupti/session.h"
#include "prof/abi.h"

// --- the driver's device queries ---
// libcupti finds cuDeviceGetCount and cuDeviceGetAttribute with dlsym (cupti/driver.h);
// the test executable exports these stand-ins (ENABLE_EXPORTS), so they are the ones found.
struct FakeDevices {
  bool initialized = true;                      // false: as before cuInit
  std::vector<std::pair<int, int>> capability;  // per ordinal: compute capability
} g_devices;

extern "C" __attribute__((visibility("default"))) CUresult CUDAAPI cuDeviceGetCount(int* count) {
  if (!g_devices.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (count == nullptr) return CUDA_ERROR_INVALID_VALUE;
  *count = static_cast<int>(g_devices.capability.size());
  return CUDA_SUCCESS;
}

extern "C" __attribute__((visibility("default"))) CUresult CUDAAPI
cuDeviceGetAttribute(int* value, CUdevice_attribute attribute, CUdevice device) {
  if (!g_devices.initialized) return CUDA_ERROR_NOT_INITIALIZED;
  if (device < 0 || static_cast<size_t>(device) >= g_devices.capability.size()) {
    return CUDA_ERROR_INVALID_DEVICE;
  }
  const auto [major, minor] = g_devices.capability[static_cast<size_t>(device)];
  switch (attribute) {
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
      *value = major;
      return CUDA_SUCCESS;
    case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
      *value = minor;
      return CUDA_SUCCESS;
    default:
      return CUDA_ERROR_INVALID_VALUE;
  }
}

// Exported by NVIDIA's libcupti.so.13 but declared by no CUDA 13 header.
extern "C" CUptiResult CUPTIAPI cuptiActivityEnableRawTimestamps(uint8_t enable);

namespace {

using strata::cupti::Session;
namespace prof = strata::prof;

// --- the fake driver ---
struct FakeDriver {
  prof::Sink* sink = nullptr;
  uint32_t flags = 0;
  uint64_t now = 1000;
  int flushes = 0;
  bool last_flush_waited = false;
  std::vector<prof::Record> pending;  // device work delivered at the next flush
  prof::ResourceHook resource_hook = nullptr;
  int resource_hook_sets = 0;
} g_driver;

// Fake graph objects: handles and the ids the "driver" gave them.
const auto kGraph = reinterpret_cast<CUgraph>(uintptr_t{0x1000});
const auto kGraphExec = reinterpret_cast<CUgraphExec>(uintptr_t{0x2000});
const auto kGraphNode = reinterpret_cast<CUgraphNode>(uintptr_t{0x3000});
constexpr uint64_t kGraphIdValue = 11, kGraphExecIdValue = 12, kGraphNodeIdValue = 0x500000013;

prof::ProfilerTable make_table() {
  prof::ProfilerTable t{};
  t.size = sizeof(prof::ProfilerTable);
  t.attach = [](prof::Sink* sink, uint32_t flags) {
    g_driver.sink = sink;
    g_driver.flags = flags;
  };
  t.detach = [](prof::Sink* sink) {
    if (g_driver.sink == sink) g_driver.sink = nullptr;
  };
  t.emit = [](const prof::Record& r) {
    if (g_driver.sink) g_driver.sink->on_record(r);
  };
  t.now_ns = [] { return g_driver.now += 10; };
  t.this_tid = [] { return 77u; };
  t.this_pid = [] { return 55u; };
  t.flush = [](bool wait) {
    ++g_driver.flushes;
    g_driver.last_flush_waited = wait;
    for (const prof::Record& r : g_driver.pending) {
      if (g_driver.sink) g_driver.sink->on_record(r);
    }
    g_driver.pending.clear();
  };
  t.context_id = [](CUcontext c) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(c)); };
  t.stream_id = [](CUstream s) { return static_cast<uint64_t>(reinterpret_cast<uintptr_t>(s)); };
  t.stream_device = [](CUstream) { return 0u; };
  t.stream_context_id = [](CUstream) { return uint64_t{1}; };
  t.name_stream = [](CUstream, const char*) {};
  t.name_device = [](int, const char*) {};
  t.set_resource_hook = [](prof::ResourceHook hook) {
    g_driver.resource_hook = hook;
    ++g_driver.resource_hook_sets;
  };
  t.graph_id = [](CUgraph g) -> uint64_t {
    if (g == kGraph) return kGraphIdValue;
    return reinterpret_cast<CUgraphExec>(g) == kGraphExec ? kGraphExecIdValue : 0;
  };
  t.graph_node_id = [](CUgraphNode n) -> uint64_t {
    return n == kGraphNode ? kGraphNodeIdValue : 0;
  };
  t.graph_exec_id = [](CUgraphExec e) -> uint64_t {
    return e == kGraphExec ? kGraphExecIdValue : 0;
  };
  return t;
}
const prof::ProfilerTable g_table = make_table();

// --- the client ---
struct Client {
  std::vector<std::vector<uint8_t>> records;  // each record's bytes, in buffer order
  std::vector<CUpti_ActivityKind> kinds;
  size_t buffer_size = 4096;
  int completed = 0;
} g_client;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(aligned_alloc(8, g_client.buffer_size));
  *size = g_client.buffer_size;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  ++g_client.completed;
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    g_client.kinds.push_back(record->kind);
    size_t size = strata::cupti::record_size(record->kind);
    auto* bytes = reinterpret_cast<uint8_t*>(record);
    g_client.records.emplace_back(bytes, bytes + size);
  }
  free(buffer);
}

template <typename T>
T record_at(size_t i) {
  T r;
  EXPECT_GE(g_client.records.at(i).size(), sizeof r);
  std::memcpy(&r, g_client.records.at(i).data(), sizeof r);
  return r;
}

class CuptiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    g_driver = FakeDriver{};
    g_client = Client{};
    g_devices = FakeDevices{};
    Session::get().use_table(&g_table);
    ASSERT_EQ(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed), CUPTI_SUCCESS);
  }
  void TearDown() override { cuptiFinalize(); }

  // One API call as the collector reports it: enter, the record, exit.
  void api_call(uint32_t cbid, uint32_t correlation, uint64_t start, uint64_t end,
                uint64_t* data_slot) {
    prof::ApiCall call;
    call.domain = prof::ApiDomain::kRuntime;
    call.cbid = cbid;
    call.name = "cudaLaunchKernel_v7000";
    call.function = "cudaLaunchKernel";
    call.correlation_id = correlation;
    call.correlation_data = data_slot;
    call.tid = 77;
    call.time_ns = start;
    g_driver.sink->on_api(call);
    prof::Api api;
    api.pid = 55;
    api.tid = 77;
    api.cbid = cbid;
    api.name = "cudaLaunchKernel_v7000";
    api.start = start;
    api.end = end;
    api.correlation_id = correlation;
    api.return_value = 0;
    g_driver.sink->on_record(api);
    call.exit = true;
    call.time_ns = end;
    static const int32_t success = 0;
    call.return_value = &success;
    g_driver.sink->on_api(call);
  }
};

TEST_F(CuptiTest, EnableRejectsKindsStrataDoesNotRecord) {
  EXPECT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_INVALID), CUPTI_ERROR_INVALID_KIND);
  EXPECT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_COUNT), CUPTI_ERROR_INVALID_KIND);
  EXPECT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_PC_SAMPLING), CUPTI_ERROR_NOT_COMPATIBLE);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_ERROR_NOT_COMPATIBLE);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_SUCCESS);  // reset by reading
  EXPECT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiActivityDisable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL), CUPTI_SUCCESS);
  // Attached with API callbacks (CUPTI's callbacks and external correlation need them).
  ASSERT_NE(g_driver.sink, nullptr);
  EXPECT_NE(g_driver.flags & prof::kWantApiCallbacks, 0u);
}

TEST_F(CuptiTest, RecordsReachTheClientAsCuptiStructs) {
  for (auto kind :
       {CUPTI_ACTIVITY_KIND_RUNTIME, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL,
        CUPTI_ACTIVITY_KIND_MEMCPY, CUPTI_ACTIVITY_KIND_MEMSET, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION,
        CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION}) {
    ASSERT_EQ(cuptiActivityEnable(kind), CUPTI_SUCCESS) << kind;
  }
  ASSERT_EQ(cuptiActivityPushExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, 4242),
            CUPTI_SUCCESS);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 9, 2000, 2100, nullptr);
  uint64_t last = 0;
  ASSERT_EQ(cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last),
            CUPTI_SUCCESS);
  EXPECT_EQ(last, 4242u);
  EXPECT_EQ(cuptiActivityPopExternalCorrelationId(CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0, &last),
            CUPTI_ERROR_QUEUE_EMPTY);

  prof::Kernel k;
  k.pid = 55;
  k.start = 2500;
  k.end = 3500;
  k.device_id = 0;
  k.context_id = 1;
  k.stream_id = 13;
  k.correlation_id = 9;
  k.name = "_Z6kernelPf";
  k.grid_id = 3;
  k.grid[0] = 64;
  k.block[0] = 256;
  k.registers_per_thread = 32;
  k.static_shared = 1024;
  k.dynamic_shared = 512;
  g_driver.pending.push_back(k);
  prof::Memcpy c;
  c.start = 1500;
  c.end = 1900;
  c.stream_id = 13;
  c.correlation_id = 8;
  c.bytes = 4096;
  c.copy_kind = CUPTI_ACTIVITY_MEMCPY_KIND_HTOD;
  c.src_kind = CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE;
  c.dst_kind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  c.async = true;
  g_driver.pending.push_back(c);
  prof::Memset s;
  s.start = 3600;
  s.end = 3700;
  s.stream_id = 13;
  s.correlation_id = 10;
  s.bytes = 256;
  s.value = 0x7f;
  g_driver.pending.push_back(s);
  prof::Sync y;
  y.start = 3550;
  y.end = 3800;
  y.context_id = 1;
  y.correlation_id = 11;
  y.type = CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE;
  g_driver.pending.push_back(y);

  ASSERT_EQ(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED), CUPTI_SUCCESS);
  EXPECT_TRUE(g_driver.last_flush_waited);
  ASSERT_EQ(g_client.kinds.size(), 6u);

  // The external correlation record precedes its API record.
  EXPECT_EQ(g_client.kinds[0], CUPTI_ACTIVITY_KIND_EXTERNAL_CORRELATION);
  auto ext = record_at<CUpti_ActivityExternalCorrelation>(0);
  EXPECT_EQ(ext.externalKind, CUPTI_EXTERNAL_CORRELATION_KIND_CUSTOM0);
  EXPECT_EQ(ext.externalId, 4242u);
  EXPECT_EQ(ext.correlationId, 9u);

  auto api = record_at<CUpti_ActivityAPI>(1);
  EXPECT_EQ(api.kind, CUPTI_ACTIVITY_KIND_RUNTIME);
  EXPECT_EQ(api.cbid, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  EXPECT_EQ(api.start, 2000u);
  EXPECT_EQ(api.end, 2100u);
  EXPECT_EQ(api.correlationId, 9u);
  EXPECT_EQ(api.processId, 55u);

  auto kernel = record_at<CUpti_ActivityKernel10>(2);
  EXPECT_EQ(kernel.kind, CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  EXPECT_EQ(kernel.start, 2500u);
  EXPECT_EQ(kernel.end, 3500u);
  EXPECT_EQ(kernel.correlationId, 9u);
  EXPECT_EQ(kernel.streamId, 13u);
  EXPECT_EQ(kernel.gridX, 64);
  EXPECT_EQ(kernel.gridY, 1);
  EXPECT_EQ(kernel.blockX, 256);
  EXPECT_EQ(kernel.registersPerThread, 32);
  EXPECT_EQ(kernel.staticSharedMemory, 1024);
  EXPECT_EQ(kernel.dynamicSharedMemory, 512);
  EXPECT_EQ(kernel.gridId, 3);
  EXPECT_STREQ(kernel.name, "_Z6kernelPf");
  EXPECT_EQ(kernel.queued, CUPTI_TIMESTAMP_UNKNOWN);

  auto copy = record_at<CUpti_ActivityMemcpy6>(3);
  EXPECT_EQ(copy.kind, CUPTI_ACTIVITY_KIND_MEMCPY);
  EXPECT_EQ(copy.bytes, 4096u);
  EXPECT_EQ(copy.copyKind, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD);
  EXPECT_EQ(copy.srcKind, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE);
  EXPECT_EQ(copy.dstKind, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE);
  EXPECT_EQ(copy.flags, CUPTI_ACTIVITY_FLAG_MEMCPY_ASYNC);
  EXPECT_EQ(copy.correlationId, 8u);

  auto set = record_at<CUpti_ActivityMemset4>(4);
  EXPECT_EQ(set.kind, CUPTI_ACTIVITY_KIND_MEMSET);
  EXPECT_EQ(set.value, 0x7fu);
  EXPECT_EQ(set.bytes, 256u);

  auto sync = record_at<CUpti_ActivitySynchronization2>(5);
  EXPECT_EQ(sync.kind, CUPTI_ACTIVITY_KIND_SYNCHRONIZATION);
  EXPECT_EQ(sync.type, CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_CONTEXT_SYNCHRONIZE);
  EXPECT_EQ(sync.streamId, CUPTI_SYNCHRONIZATION_INVALID_VALUE);  // context sync
  EXPECT_EQ(sync.cudaEventId, CUPTI_SYNCHRONIZATION_INVALID_VALUE);
  EXPECT_EQ(sync.contextId, 1u);

  size_t dropped = 99;
  EXPECT_EQ(cuptiActivityGetNumDroppedRecords(nullptr, 0, &dropped), CUPTI_SUCCESS);
  EXPECT_EQ(dropped, 0u);
}

TEST_F(CuptiTest, DisabledKindsAreNotRecorded) {
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_KERNEL), CUPTI_SUCCESS);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1, 10, 20, nullptr);
  prof::Kernel k;
  k.name = "k";
  g_driver.sink->on_record(k);
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  EXPECT_FALSE(g_driver.last_flush_waited);
  ASSERT_EQ(g_client.kinds.size(), 1u);
  EXPECT_EQ(g_client.kinds[0], CUPTI_ACTIVITY_KIND_KERNEL);  // KERNEL, not CONCURRENT_KERNEL
}

TEST_F(CuptiTest, PerCbidApiRecords) {
  // A small set without the RUNTIME kind ...
  ASSERT_EQ(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 1),
            CUPTI_SUCCESS);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1, 10, 20, nullptr);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 2, 30, 40, nullptr);
  // ... and all but one with it.
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiActivityEnableRuntimeApi(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 0),
            CUPTI_SUCCESS);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 3, 50, 60, nullptr);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 4, 70, 80, nullptr);
  EXPECT_EQ(cuptiActivityEnableRuntimeApi(100000, 1), CUPTI_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  ASSERT_EQ(g_client.records.size(), 2u);
  EXPECT_EQ(record_at<CUpti_ActivityAPI>(0).correlationId, 2u);
  EXPECT_EQ(record_at<CUpti_ActivityAPI>(1).correlationId, 3u);
}

TEST_F(CuptiTest, NvtxEventsBecomeMarkerRecords) {
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_MARKER), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_SYSTEM), CUPTI_SUCCESS);
  prof::NvtxDomain domain;
  domain.id = 5;
  domain.name = "my domain";
  g_driver.sink->on_record(domain);
  prof::Nvtx range;
  range.pid = 55;
  range.kind = prof::Nvtx::kPushPop;
  range.start = 100;
  range.end = 200;
  range.tid = 77;
  range.end_tid = 77;
  range.domain_id = 5;
  range.text = "outer";
  g_driver.sink->on_record(range);
  prof::Nvtx mark;
  mark.kind = prof::Nvtx::kMark;
  mark.start = 150;
  mark.tid = 78;
  mark.text = "tick";
  g_driver.sink->on_record(mark);
  prof::Nvtx category;
  category.kind = prof::Nvtx::kCategory;
  category.text = "a category";
  g_driver.sink->on_record(category);
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  ASSERT_EQ(g_client.kinds.size(), 3u);
  auto start = record_at<CUpti_ActivityMarker2>(0);
  auto end = record_at<CUpti_ActivityMarker2>(1);
  auto tick = record_at<CUpti_ActivityMarker2>(2);
  EXPECT_EQ(start.flags, CUPTI_ACTIVITY_FLAG_MARKER_START);
  EXPECT_EQ(end.flags, CUPTI_ACTIVITY_FLAG_MARKER_END);
  EXPECT_EQ(start.id, end.id);
  EXPECT_NE(start.id, tick.id);
  EXPECT_EQ(start.timestamp, 100u);
  EXPECT_EQ(end.timestamp, 200u);
  EXPECT_STREQ(start.name, "outer");
  EXPECT_EQ(end.name, nullptr);
  EXPECT_STREQ(start.domain, "my domain");
  EXPECT_EQ(start.objectKind, CUPTI_ACTIVITY_OBJECT_THREAD);
  EXPECT_EQ(start.objectId.pt.threadId, 77u);
  EXPECT_EQ(start.objectId.pt.processId, 55u);
  EXPECT_EQ(tick.flags, CUPTI_ACTIVITY_FLAG_MARKER_INSTANTANEOUS);
  EXPECT_STREQ(tick.name, "tick");
  EXPECT_EQ(tick.domain, nullptr);
  EXPECT_EQ(tick.objectId.pt.threadId, 78u);
  cuptiSetThreadIdType(CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT);
}

TEST_F(CuptiTest, DeviceAndContextRecords) {
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);  // attaches
  prof::Device d;
  d.id = 0;
  d.name = "Strata Test GPU";
  d.uuid = "GPU-00112233-4455-6677-8899-aabbccddeeff";
  d.compute_major = 8;
  d.sm_count = 24;
  d.memory_bandwidth = 2'000'000'000;
  d.clock_rate_khz = 1'500'000;
  d.max_block_dim[0] = 1024;
  g_driver.sink->on_record(d);  // known before DEVICE is enabled
  prof::Context c;
  c.id = 7;
  c.device_id = 0;
  c.null_stream_id = 3;
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_DEVICE), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONTEXT), CUPTI_SUCCESS);
  g_driver.sink->on_record(c);  // appears later
  g_driver.sink->on_record(d);  // the same device again (e.g. renamed): not repeated
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  ASSERT_EQ(g_client.kinds.size(), 2u);
  auto device = record_at<CUpti_ActivityDevice5>(0);
  EXPECT_EQ(device.kind, CUPTI_ACTIVITY_KIND_DEVICE);
  EXPECT_STREQ(device.name, "Strata Test GPU");
  EXPECT_EQ(device.numMultiprocessors, 24u);
  EXPECT_EQ(device.globalMemoryBandwidth, 2'000'000u);  // kB/s
  EXPECT_EQ(device.coreClockRate, 1'500'000u);          // kHz
  EXPECT_EQ(device.computeCapabilityMajor, 8u);
  EXPECT_EQ(device.maxBlockDimX, 1024u);
  EXPECT_EQ(static_cast<uint8_t>(device.uuid.bytes[0]), 0x00);
  EXPECT_EQ(static_cast<uint8_t>(device.uuid.bytes[15]), 0xff);
  auto context = record_at<CUpti_ActivityContext3>(1);
  EXPECT_EQ(context.kind, CUPTI_ACTIVITY_KIND_CONTEXT);
  EXPECT_EQ(context.contextId, 7u);
  EXPECT_EQ(context.nullStreamId, 3u);
  EXPECT_EQ(context.numMultiprocessors, 24u);
  EXPECT_EQ(context.computeApiKind, CUPTI_ACTIVITY_COMPUTE_API_CUDA);
}

TEST_F(CuptiTest, SmallBuffersAreCompletedAsTheyFill) {
  g_client.buffer_size = 2 * sizeof(CUpti_ActivityAPI) + 8;
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);
  for (uint32_t i = 1; i <= 5; ++i) api_call(1, i, i * 10, i * 10 + 5, nullptr);
  EXPECT_EQ(g_client.completed, 2);  // two full buffers so far
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  EXPECT_EQ(g_client.completed, 3);
  ASSERT_EQ(g_client.records.size(), 5u);
  for (uint32_t i = 0; i < 5; ++i) {
    EXPECT_EQ(record_at<CUpti_ActivityAPI>(i).correlationId, i + 1);
  }
}

// --- Callback API ---
struct Callback {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  CUpti_ApiCallbackSite site;
  std::string function;
  uint32_t correlation;
  int32_t result;
  uint64_t data_seen_at_exit;
};
std::vector<Callback> g_callbacks;
int g_userdata;

void CUPTIAPI on_callback(void* userdata, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void* cbdata) {
  EXPECT_EQ(userdata, &g_userdata);
  const auto* d = static_cast<const CUpti_CallbackData*>(cbdata);
  Callback c{domain, cbid, d->callbackSite, d->functionName, d->correlationId, -1, 0};
  if (d->callbackSite == CUPTI_API_ENTER) {
    *d->correlationData = 1234;  // kept for the exit
  } else {
    c.result = *static_cast<const int32_t*>(d->functionReturnValue);
    c.data_seen_at_exit = *d->correlationData;
  }
  g_callbacks.push_back(c);
}

TEST_F(CuptiTest, CallbacksComeInEnterExitPairs) {
  g_callbacks.clear();
  CUpti_SubscriberHandle subscriber = nullptr;
  ASSERT_EQ(cuptiSubscribe(&subscriber, on_callback, &g_userdata), CUPTI_SUCCESS);
  CUpti_SubscriberHandle second = nullptr;
  EXPECT_EQ(cuptiSubscribe(&second, on_callback, nullptr),
            CUPTI_ERROR_MULTIPLE_SUBSCRIBERS_NOT_SUPPORTED);
  ASSERT_EQ(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
            CUPTI_SUCCESS);
  uint32_t state = 0;
  ASSERT_EQ(cuptiGetCallbackState(&state, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                  CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000),
            CUPTI_SUCCESS);
  EXPECT_EQ(state, 1u);
  ASSERT_EQ(cuptiGetCallbackState(&state, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API,
                                  CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020),
            CUPTI_SUCCESS);
  EXPECT_EQ(state, 0u);
  EXPECT_EQ(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API, 1u << 30),
            CUPTI_ERROR_INVALID_PARAMETER);

  uint64_t slot = 0;
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 21, 10, 20, &slot);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 22, 30, 40, &slot);  // not enabled
  ASSERT_EQ(g_callbacks.size(), 2u);
  EXPECT_EQ(g_callbacks[0].site, CUPTI_API_ENTER);
  EXPECT_EQ(g_callbacks[1].site, CUPTI_API_EXIT);
  EXPECT_EQ(g_callbacks[0].domain, CUPTI_CB_DOMAIN_RUNTIME_API);
  EXPECT_EQ(g_callbacks[0].cbid, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  EXPECT_EQ(g_callbacks[0].function, "cudaLaunchKernel");
  EXPECT_EQ(g_callbacks[0].correlation, 21u);
  EXPECT_EQ(g_callbacks[1].correlation, 21u);
  EXPECT_EQ(g_callbacks[1].result, 0);
  EXPECT_EQ(g_callbacks[1].data_seen_at_exit, 1234u);

  // A whole domain, then all off.
  ASSERT_EQ(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RUNTIME_API), CUPTI_SUCCESS);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 23, 50, 60, &slot);
  EXPECT_EQ(g_callbacks.size(), 4u);
  ASSERT_EQ(cuptiEnableAllDomains(0, subscriber), CUPTI_SUCCESS);
  api_call(CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, 24, 70, 80, &slot);
  EXPECT_EQ(g_callbacks.size(), 4u);

  EXPECT_EQ(cuptiUnsubscribe(subscriber), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiUnsubscribe(subscriber), CUPTI_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(cuptiSubscribe(&second, on_callback, &g_userdata), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiUnsubscribe(second), CUPTI_SUCCESS);
}

TEST_F(CuptiTest, CallbackNamesAreCuptisEnumeratorNames) {
  const char* name = nullptr;
  ASSERT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_RUNTIME_API,
                                 CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, &name),
            CUPTI_SUCCESS);
  EXPECT_STREQ(name, "cudaLaunchKernel_v7000");
  ASSERT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_DRIVER_API, CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2,
                                 &name),
            CUPTI_SUCCESS);
  EXPECT_STREQ(name, "cuMemAlloc_v2");
  EXPECT_EQ(cuptiGetCallbackName(CUPTI_CB_DOMAIN_RESOURCE, 1, &name),
            CUPTI_ERROR_INVALID_PARAMETER);
}

TEST_F(CuptiTest, MiscApi) {
  uint64_t t1 = 0, t2 = 0;
  ASSERT_EQ(cuptiGetTimestamp(&t1), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiGetTimestamp(&t2), CUPTI_SUCCESS);
  EXPECT_GT(t2, t1);  // the fake clock advances 10 ns per read
  EXPECT_EQ(t2 - t1, 10u);
  uint32_t version = 0;
  ASSERT_EQ(cuptiGetVersion(&version), CUPTI_SUCCESS);
  EXPECT_EQ(version, static_cast<uint32_t>(CUPTI_API_VERSION));
  const char* text = nullptr;
  ASSERT_EQ(cuptiGetResultString(CUPTI_ERROR_INVALID_PARAMETER, &text), CUPTI_SUCCESS);
  EXPECT_STREQ(text, "CUPTI_ERROR_INVALID_PARAMETER");
  ASSERT_EQ(cuptiGetErrorMessage(CUPTI_ERROR_INVALID_PARAMETER, &text), CUPTI_SUCCESS);
  EXPECT_STREQ(text, "One or more of the parameters is invalid.");
  EXPECT_EQ(cuptiGetResultString(static_cast<CUptiResult>(12345), &text),
            CUPTI_ERROR_INVALID_PARAMETER);
  uint32_t id = 0;
  ASSERT_EQ(cuptiGetContextId(reinterpret_cast<CUcontext>(uintptr_t{3}), &id), CUPTI_SUCCESS);
  EXPECT_EQ(id, 3u);
  EXPECT_EQ(cuptiGetContextId(nullptr, &id), CUPTI_ERROR_INVALID_CONTEXT);
  ASSERT_EQ(cuptiGetStreamId(nullptr, reinterpret_cast<CUstream>(uintptr_t{17}), &id),
            CUPTI_SUCCESS);
  EXPECT_EQ(id, 17u);
  CUpti_ActivityThreadIdType type;
  ASSERT_EQ(cuptiGetThreadIdType(&type), CUPTI_SUCCESS);
  EXPECT_EQ(type, CUPTI_ACTIVITY_THREAD_ID_TYPE_DEFAULT);
  size_t size = sizeof(size_t);
  size_t value = 1 << 20;
  ASSERT_EQ(cuptiActivitySetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &value),
            CUPTI_SUCCESS);
  value = 0;
  ASSERT_EQ(cuptiActivityGetAttribute(CUPTI_ACTIVITY_ATTR_DEVICE_BUFFER_SIZE, &size, &value),
            CUPTI_SUCCESS);
  EXPECT_EQ(value, size_t{1} << 20);
  EXPECT_EQ(cuptiActivityEnableLatencyTimestamps(1), CUPTI_SUCCESS);
}

uint64_t client_clock() {
  return 5'000'000'000ull;
}

TEST_F(CuptiTest, TimestampCallbackShiftsTheClock) {
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiActivityRegisterTimestampCallback(nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  uint64_t before = g_driver.now;  // the fake clock reads before + 10 at registration
  ASSERT_EQ(cuptiActivityRegisterTimestampCallback(client_clock), CUPTI_SUCCESS);
  int64_t offset = 5'000'000'000ll - static_cast<int64_t>(before + 10);
  uint64_t t = 0;
  ASSERT_EQ(cuptiGetTimestamp(&t), CUPTI_SUCCESS);  // fake clock: before + 20
  EXPECT_EQ(t, 5'000'000'010ull);
  api_call(1, 1, 2000, 2100, nullptr);
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  ASSERT_EQ(g_client.records.size(), 1u);
  auto api = record_at<CUpti_ActivityAPI>(0);
  EXPECT_EQ(static_cast<int64_t>(api.start), 2000 + offset);
  EXPECT_EQ(api.end - api.start, 100u);
}

// cupti_activity.h: support set when CUPTI supports the compute capability, cleared
// otherwise; CUPTI_ERROR_INVALID_PARAMETER for a NULL support. CUDA 13.0 supports Turing
// (7.5) and later and dropped Maxwell, Pascal and Volta (CUDA 13.0 release notes).
TEST_F(CuptiTest, ComputeCapabilitySupported) {
  EXPECT_EQ(cuptiComputeCapabilitySupported(8, 0, nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_ERROR_INVALID_PARAMETER);
  for (auto [major, minor] : {std::pair{7, 5}, {8, 0}, {8, 6}, {8, 9}, {9, 0}, {10, 0}, {12, 0}}) {
    int support = -1;
    ASSERT_EQ(cuptiComputeCapabilitySupported(major, minor, &support), CUPTI_SUCCESS);
    EXPECT_EQ(support, 1) << major << "." << minor;
  }
  for (auto [major, minor] : {std::pair{5, 2}, {6, 1}, {7, 0}, {7, 2}, {8, 1}, {13, 0}, {-1, 0}}) {
    int support = -1;
    ASSERT_EQ(cuptiComputeCapabilitySupported(major, minor, &support), CUPTI_SUCCESS);
    EXPECT_EQ(support, 0) << major << "." << minor;
  }
}

// cupti_activity.h: support for the device's compute capability;
// CUPTI_ERROR_INVALID_DEVICE for a device that is not valid, CUPTI_ERROR_INVALID_PARAMETER
// for a NULL support.
TEST_F(CuptiTest, DeviceSupported) {
  g_devices.capability = {{9, 0}, {6, 1}};
  int support = -1;
  ASSERT_EQ(cuptiDeviceSupported(0, &support), CUPTI_SUCCESS);
  EXPECT_EQ(support, 1);
  ASSERT_EQ(cuptiDeviceSupported(1, &support), CUPTI_SUCCESS);
  EXPECT_EQ(support, 0);  // a Pascal device: CUDA 13 does not support it
  support = -1;
  EXPECT_EQ(cuptiDeviceSupported(2, &support), CUPTI_ERROR_INVALID_DEVICE);
  EXPECT_EQ(support, 0);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuptiDeviceSupported(-1, &support), CUPTI_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuptiDeviceSupported(0, nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  g_devices.initialized = false;  // cuInit not called
  EXPECT_EQ(cuptiDeviceSupported(0, &support), CUPTI_ERROR_NOT_INITIALIZED);
}

// cupti_target.h: the chip name of device deviceIndex; structSize must be
// CUpti_Device_GetChipName_Params_STRUCT_SIZE and pPriv NULL.
TEST_F(CuptiTest, DeviceGetChipName) {
  g_devices.capability = {{8, 0}, {8, 0}, {9, 0}};
  CUpti_Device_GetChipName_Params params{};
  params.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  params.deviceIndex = 1;
  // The driver has not described device 1 yet (no context on it).
  EXPECT_EQ(cuptiDeviceGetChipName(&params), CUPTI_ERROR_NOT_READY);
  ASSERT_NE(g_driver.sink, nullptr);  // the call attached to the profiler table
  prof::Device d;
  d.id = 1;
  d.name = "Strata Test GPU";
  d.arch = "test-arch";
  g_driver.sink->on_record(d);
  ASSERT_EQ(cuptiDeviceGetChipName(&params), CUPTI_SUCCESS);
  ASSERT_NE(params.pChipName, nullptr);
  EXPECT_STREQ(params.pChipName, "test-arch");
  params.deviceIndex = 2;  // a device with no record
  EXPECT_EQ(cuptiDeviceGetChipName(&params), CUPTI_ERROR_NOT_READY);
  params.deviceIndex = 3;  // past cuDeviceGetCount
  EXPECT_EQ(cuptiDeviceGetChipName(&params), CUPTI_ERROR_INVALID_DEVICE);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_ERROR_INVALID_DEVICE);

  params.deviceIndex = 1;
  EXPECT_EQ(cuptiDeviceGetChipName(nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  params.structSize = 0;
  EXPECT_EQ(cuptiDeviceGetChipName(&params), CUPTI_ERROR_INVALID_PARAMETER);
  params.structSize = CUpti_Device_GetChipName_Params_STRUCT_SIZE;
  params.pPriv = &params;
  EXPECT_EQ(cuptiDeviceGetChipName(&params), CUPTI_ERROR_INVALID_PARAMETER);
  params.pPriv = nullptr;
  g_devices.initialized = false;
  EXPECT_EQ(cuptiDeviceGetChipName(&params), CUPTI_ERROR_NOT_INITIALIZED);
}

// Declared by no CUDA 13 header; NVIDIA's libcupti.so.13 accepts 0, 1 and 2 and answers
// CUPTI_ERROR_INVALID_PARAMETER otherwise. The records keep their times.
TEST_F(CuptiTest, RawTimestampsAreAccepted) {
  EXPECT_EQ(cuptiActivityEnableRawTimestamps(1), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiActivityEnableRawTimestamps(0), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiActivityEnableRawTimestamps(2), CUPTI_SUCCESS);
  EXPECT_EQ(cuptiActivityEnableRawTimestamps(3), CUPTI_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(cuptiActivityEnableRawTimestamps(1), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_RUNTIME), CUPTI_SUCCESS);
  api_call(1, 1, 2000, 2100, nullptr);
  ASSERT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
  ASSERT_EQ(g_client.records.size(), 1u);
  auto api = record_at<CUpti_ActivityAPI>(0);
  EXPECT_EQ(api.start, 2000u);
  EXPECT_EQ(api.end, 2100u);
  EXPECT_EQ(cuptiActivityEnableRawTimestamps(0), CUPTI_SUCCESS);
}

TEST_F(CuptiTest, UnsupportedFunctionsSayWhich) {
  EXPECT_EQ(cuptiEventGroupCreate(nullptr, nullptr, 0), CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED);
  EXPECT_EQ(cuptiMetricGetIdFromName(0, "ipc", nullptr), CUPTI_ERROR_LEGACY_PROFILER_NOT_SUPPORTED);
  EXPECT_EQ(cuptiProfilerInitialize(nullptr), CUPTI_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_ERROR_NOT_SUPPORTED);
  EXPECT_EQ(cuptiActivityFlushAll(0), CUPTI_SUCCESS);
}

// --- RESOURCE and SYNCHRONIZE callbacks (cupti_callbacks.h) ---
struct OtherCallback {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  CUcontext context = nullptr;
  CUstream stream = nullptr;
  bool has_module = false;
  uint32_t module_id = 0;
  std::string cubin;  // a copy of the bytes pCubin points to
  CUpti_GraphData graph{};
};
std::vector<OtherCallback> g_other;

void CUPTIAPI on_other_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                                const void* data) {
  OtherCallback c{domain, cbid};
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* r = static_cast<const CUpti_ResourceData*>(data);
    c.context = r->context;
    if (cbid == CUPTI_CBID_RESOURCE_STREAM_CREATED ||
        cbid == CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING) {
      c.stream = r->resourceHandle.stream;
    }
    if (cbid >= CUPTI_CBID_RESOURCE_GRAPH_CREATED && cbid <= CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED &&
        r->resourceDescriptor != nullptr) {
      c.graph = *static_cast<const CUpti_GraphData*>(r->resourceDescriptor);
    }
    if (cbid == CUPTI_CBID_RESOURCE_MODULE_LOADED ||
        cbid == CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING) {
      const auto* m = static_cast<const CUpti_ModuleResourceData*>(r->resourceDescriptor);
      c.has_module = m != nullptr;
      if (m != nullptr) {
        c.module_id = m->moduleId;
        if (m->pCubin != nullptr) c.cubin.assign(m->pCubin, m->cubinSize);
      }
    }
  } else if (domain == CUPTI_CB_DOMAIN_SYNCHRONIZE) {
    const auto* s = static_cast<const CUpti_SynchronizeData*>(data);
    c.context = s->context;
    c.stream = s->stream;
  }
  g_other.push_back(c);
}

void deliver(prof::ResourceEventKind kind, uintptr_t context, uintptr_t stream = 0,
             uint32_t module_id = 0, const std::string* image = nullptr) {
  ASSERT_NE(g_driver.resource_hook, nullptr);
  prof::ResourceEvent e;
  e.kind = kind;
  e.context = reinterpret_cast<CUcontext>(context);
  e.stream = reinterpret_cast<CUstream>(stream);
  e.module_id = module_id;
  if (image != nullptr) {
    e.image = image->data();
    e.image_size = image->size();
  }
  g_driver.resource_hook(e);
}

TEST_F(CuptiTest, ResourceCallbacksCarryTheDriversHandles) {
  g_other.clear();
  CUpti_SubscriberHandle subscriber = nullptr;
  ASSERT_EQ(cuptiSubscribe(&subscriber, on_other_callback, nullptr), CUPTI_SUCCESS);
  // Nothing enabled yet: libcupti has not asked the driver for resource events.
  EXPECT_EQ(g_driver.resource_hook, nullptr);
  EXPECT_EQ(
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_INVALID),
      CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_SIZE),
            CUPTI_ERROR_INVALID_PARAMETER);
  ASSERT_EQ(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                CUPTI_CBID_RESOURCE_CONTEXT_CREATED),
            CUPTI_SUCCESS);
  ASSERT_NE(g_driver.resource_hook, nullptr);
  uint32_t state = 1;
  ASSERT_EQ(cuptiGetCallbackState(&state, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                  CUPTI_CBID_RESOURCE_STREAM_CREATED),
            CUPTI_SUCCESS);
  EXPECT_EQ(state, 0u);  // per cbid, not per domain

  // Only the enabled cbid calls back.
  deliver(prof::ResourceEventKind::kContextCreated, 0xc0);
  deliver(prof::ResourceEventKind::kStreamCreated, 0xc0, 0x51);
  ASSERT_EQ(g_other.size(), 1u);
  EXPECT_EQ(g_other[0].domain, CUPTI_CB_DOMAIN_RESOURCE);
  EXPECT_EQ(g_other[0].cbid, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  EXPECT_EQ(g_other[0].context, reinterpret_cast<CUcontext>(uintptr_t{0xc0}));

  // The whole domain: streams, modules (CUpti_ModuleResourceData in resourceDescriptor),
  // destruction.
  g_other.clear();
  ASSERT_EQ(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE), CUPTI_SUCCESS);
  EXPECT_EQ(g_driver.resource_hook_sets, 1);  // registered once
  const std::string ptx = std::string(".version 8.0\n.target sm_80\n") + '\0';
  deliver(prof::ResourceEventKind::kStreamCreated, 0xc0, 0x51);
  deliver(prof::ResourceEventKind::kModuleLoaded, 0xc0, 0, 3, &ptx);
  deliver(prof::ResourceEventKind::kModuleUnloadStarting, 0xc0, 0, 3, &ptx);
  deliver(prof::ResourceEventKind::kStreamDestroyStarting, 0xc0, 0x51);
  deliver(prof::ResourceEventKind::kContextDestroyStarting, 0xc0);
  ASSERT_EQ(g_other.size(), 5u);
  EXPECT_EQ(g_other[0].cbid, CUPTI_CBID_RESOURCE_STREAM_CREATED);
  EXPECT_EQ(g_other[0].context, reinterpret_cast<CUcontext>(uintptr_t{0xc0}));
  EXPECT_EQ(g_other[0].stream, reinterpret_cast<CUstream>(uintptr_t{0x51}));
  EXPECT_EQ(g_other[1].cbid, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  EXPECT_TRUE(g_other[1].has_module);
  EXPECT_EQ(g_other[1].module_id, 3u);
  EXPECT_EQ(g_other[1].cubin, ptx);
  EXPECT_EQ(g_other[1].context, reinterpret_cast<CUcontext>(uintptr_t{0xc0}));
  EXPECT_EQ(g_other[2].cbid, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
  EXPECT_EQ(g_other[2].module_id, 3u);
  EXPECT_EQ(g_other[2].cubin, ptx);
  EXPECT_EQ(g_other[3].cbid, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING);
  EXPECT_EQ(g_other[3].stream, reinterpret_cast<CUstream>(uintptr_t{0x51}));
  EXPECT_EQ(g_other[4].cbid, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);

  // Synchronisation events are the SYNCHRONIZE domain's, off until enabled.
  g_other.clear();
  deliver(prof::ResourceEventKind::kStreamSynchronized, 0xc0, 0x51);
  EXPECT_TRUE(g_other.empty());
  ASSERT_EQ(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_SYNCHRONIZE), CUPTI_SUCCESS);
  deliver(prof::ResourceEventKind::kStreamSynchronized, 0xc0, 0x51);
  deliver(prof::ResourceEventKind::kContextSynchronized, 0xc0);
  ASSERT_EQ(g_other.size(), 2u);
  EXPECT_EQ(g_other[0].domain, CUPTI_CB_DOMAIN_SYNCHRONIZE);
  EXPECT_EQ(g_other[0].cbid, CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED);
  EXPECT_EQ(g_other[0].stream, reinterpret_cast<CUstream>(uintptr_t{0x51}));
  EXPECT_EQ(g_other[1].cbid, CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED);
  EXPECT_EQ(g_other[1].context, reinterpret_cast<CUcontext>(uintptr_t{0xc0}));
  EXPECT_EQ(g_other[1].stream, nullptr);

  // Disabled again, unsubscribed: silence; cuptiFinalize unregisters the hook.
  g_other.clear();
  ASSERT_EQ(cuptiEnableDomain(0, subscriber, CUPTI_CB_DOMAIN_RESOURCE), CUPTI_SUCCESS);
  deliver(prof::ResourceEventKind::kContextCreated, 0xc1);
  EXPECT_TRUE(g_other.empty());
  ASSERT_EQ(cuptiUnsubscribe(subscriber), CUPTI_SUCCESS);
  deliver(prof::ResourceEventKind::kContextSynchronized, 0xc1);
  EXPECT_TRUE(g_other.empty());
  cuptiFinalize();
  EXPECT_EQ(g_driver.resource_hook, nullptr);
}

TEST_F(CuptiTest, GraphResourceCallbacksCarryCuptiGraphData) {
  g_other.clear();
  CUpti_SubscriberHandle subscriber = nullptr;
  ASSERT_EQ(cuptiSubscribe(&subscriber, on_other_callback, nullptr), CUPTI_SUCCESS);
  ASSERT_EQ(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED),
            CUPTI_SUCCESS);
  ASSERT_EQ(cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                                CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED),
            CUPTI_SUCCESS);
  ASSERT_NE(g_driver.resource_hook, nullptr);
  const auto copy_graph = reinterpret_cast<CUgraph>(uintptr_t{0x1100});
  const auto copy_node = reinterpret_cast<CUgraphNode>(uintptr_t{0x3100});
  prof::ResourceEvent e;
  e.kind = prof::ResourceEventKind::kGraphNodeCreated;  // not enabled
  e.graph = kGraph;
  e.node = kGraphNode;
  e.node_type = CU_GRAPH_NODE_TYPE_KERNEL;
  g_driver.resource_hook(e);
  e.kind = prof::ResourceEventKind::kGraphNodeCloned;
  e.graph = copy_graph;
  e.node = copy_node;
  e.original_graph = kGraph;
  e.original_node = kGraphNode;
  e.graph_exec = kGraphExec;
  g_driver.resource_hook(e);
  prof::ResourceEvent x;
  x.kind = prof::ResourceEventKind::kGraphExecCreated;
  x.graph = kGraph;
  x.graph_exec = kGraphExec;
  g_driver.resource_hook(x);
  ASSERT_EQ(g_other.size(), 2u);
  EXPECT_EQ(g_other[0].cbid, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED);
  EXPECT_EQ(g_other[0].graph.graph, copy_graph);
  EXPECT_EQ(g_other[0].graph.node, copy_node);
  EXPECT_EQ(g_other[0].graph.originalGraph, kGraph);
  EXPECT_EQ(g_other[0].graph.originalNode, kGraphNode);
  EXPECT_EQ(g_other[0].graph.nodeType, CU_GRAPH_NODE_TYPE_KERNEL);
  EXPECT_EQ(g_other[0].graph.graphExec, kGraphExec);
  EXPECT_EQ(g_other[1].cbid, CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
  EXPECT_EQ(g_other[1].graph.graph, kGraph);
  EXPECT_EQ(g_other[1].graph.graphExec, kGraphExec);
  EXPECT_EQ(g_other[1].graph.node, nullptr);
  ASSERT_EQ(cuptiUnsubscribe(subscriber), CUPTI_SUCCESS);
}

TEST_F(CuptiTest, GraphIdsComeFromTheDriver) {
  uint32_t id = 0;
  uint64_t node_id = 0;
  ASSERT_EQ(cuptiGetGraphId(kGraph, &id), CUPTI_SUCCESS);
  EXPECT_EQ(id, kGraphIdValue);
  ASSERT_EQ(cuptiGetGraphExecId(kGraphExec, &id), CUPTI_SUCCESS);
  EXPECT_EQ(id, kGraphExecIdValue);
  // An executable passed as a graph (clients written before cuptiGetGraphExecId).
  ASSERT_EQ(cuptiGetGraphId(reinterpret_cast<CUgraph>(kGraphExec), &id), CUPTI_SUCCESS);
  EXPECT_EQ(id, kGraphExecIdValue);
  ASSERT_EQ(cuptiGetGraphNodeId(kGraphNode, &node_id), CUPTI_SUCCESS);
  EXPECT_EQ(node_id, kGraphNodeIdValue);  // 64 bits, not truncated

  // Bad arguments: CUPTI_ERROR_INVALID_PARAMETER (cupti_activity.h), nothing written.
  id = 99;
  node_id = 99;
  EXPECT_EQ(cuptiGetGraphId(nullptr, &id), CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphId(kGraph, nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphExecId(nullptr, &id), CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphExecId(kGraphExec, nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphNodeId(nullptr, &node_id), CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphNodeId(kGraphNode, nullptr), CUPTI_ERROR_INVALID_PARAMETER);
  // Handles the driver does not know (destroyed, or of another kind).
  EXPECT_EQ(cuptiGetGraphId(reinterpret_cast<CUgraph>(kGraphNode), &id),
            CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphExecId(reinterpret_cast<CUgraphExec>(kGraph), &id),
            CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(cuptiGetGraphNodeId(reinterpret_cast<CUgraphNode>(kGraph), &node_id),
            CUPTI_ERROR_INVALID_PARAMETER);
  EXPECT_EQ(id, 99u);
  EXPECT_EQ(node_id, 99u);
  EXPECT_EQ(cuptiGetLastError(), CUPTI_ERROR_INVALID_PARAMETER);
}

TEST(CuptiFlushTest, FlushWithoutCallbacksIsAnInvalidOperation) {
  Session::get().use_table(&g_table);
  EXPECT_EQ(cuptiActivityFlushAll(0), CUPTI_ERROR_INVALID_OPERATION);
}

}  // namespace
