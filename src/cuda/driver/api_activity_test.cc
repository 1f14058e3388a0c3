// Driver API records (issue 6, item 1) from the driver linked in-process: every entry
// point opens a prof::ApiScope with its CUPTI driver id (cuda/driver/api_util.h). The
// expected ids are the toolkit's enumerators (cupti_driver_cbid.h) and the CUresult values
// the driver API documents.
#include <cuda.h>
#include <cupti_driver_cbid.h>
#include <gtest/gtest.h>

#include <mutex>
#include <string>
#include <vector>

#include "prof/abi.h"
#include "prof/collector.h"

// Per-thread-default-stream entry points cuda.h declares only under
// CUDA_API_PER_THREAD_DEFAULT_STREAM, with the signatures of their legacy forms.
extern "C" decltype(cuMemcpyHtoD) cuMemcpyHtoD_v2_ptds;  // cuMemcpyHtoD_v2
extern "C" decltype(cuMemsetD8) cuMemsetD8_v2_ptds;      // cuMemsetD8_v2
extern "C" decltype(cuStreamSynchronize) cuStreamSynchronize_ptsz;

namespace strata::prof {
namespace {

class ApiSink : public Sink {
 public:
  void on_api(const ApiCall& call) override {
    std::lock_guard lock(mu_);
    calls.push_back(call);
    // return_value is valid only during the exit callback.
    if (call.exit && call.return_value != nullptr) {
      results.push_back(*static_cast<const int32_t*>(call.return_value));
    }
  }
  void on_record(const Record& record) override {
    std::lock_guard lock(mu_);
    if (const Api* api = std::get_if<Api>(&record)) apis.push_back(*api);
  }
  std::vector<ApiCall> calls;
  std::vector<Api> apis;
  std::vector<int32_t> results;  // of the exit callbacks

 private:
  std::mutex mu_;
};

class DriverApiRecords : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
    ASSERT_EQ(cuDeviceGet(&device_, 0), CUDA_SUCCESS);
    ASSERT_EQ(cuDevicePrimaryCtxRetain(&context_, device_), CUDA_SUCCESS);
    ASSERT_EQ(cuCtxSetCurrent(context_), CUDA_SUCCESS);
  }
  void TearDown() override { cuDevicePrimaryCtxRelease(device_); }
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

TEST_F(DriverApiRecords, NamesIdsResultsAndCorrelation) {
  ApiSink sink;
  attach(&sink, kWantApiCallbacks);
  CUdeviceptr ptr = 0;
  EXPECT_EQ(cuMemAlloc(&ptr, 4096), CUDA_SUCCESS);  // binds to cuMemAlloc_v2 (cuda.h)
  EXPECT_EQ(cuMemsetD8(ptr, 0, 4096), CUDA_SUCCESS);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  EXPECT_EQ(cuMemFree(ptr), CUDA_SUCCESS);
  // Freeing an address that was never allocated: CUDA_ERROR_INVALID_VALUE.
  EXPECT_EQ(cuMemFree(0x10), CUDA_ERROR_INVALID_VALUE);
  detach(&sink);
  EXPECT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);  // after detaching: not recorded

  struct Expected {
    uint32_t cbid;
    const char* name;
    CUresult result;
  };
  const Expected expected[] = {
      {CUPTI_DRIVER_TRACE_CBID_cuMemAlloc_v2, "cuMemAlloc_v2", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2, "cuMemsetD8_v2", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuCtxSynchronize, "cuCtxSynchronize", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cuMemFree_v2", CUDA_SUCCESS},
      {CUPTI_DRIVER_TRACE_CBID_cuMemFree_v2, "cuMemFree_v2", CUDA_ERROR_INVALID_VALUE},
  };
  ASSERT_EQ(sink.apis.size(), std::size(expected));
  uint32_t previous = 0;
  for (size_t i = 0; i < sink.apis.size(); ++i) {
    const Api& api = sink.apis[i];
    SCOPED_TRACE(api.name);
    EXPECT_EQ(api.domain, ApiDomain::kDriver);
    EXPECT_EQ(api.cbid, expected[i].cbid);
    EXPECT_EQ(api.name, expected[i].name);
    EXPECT_EQ(api.return_value, static_cast<int32_t>(expected[i].result));
    EXPECT_LE(api.start, api.end);
    EXPECT_GT(api.correlation_id, previous);  // distinct and increasing
    previous = api.correlation_id;
    if (i > 0) {
      EXPECT_GE(api.start, sink.apis[i - 1].end);  // one thread: in order
    }
    EXPECT_EQ(api.tid, this_tid());
    EXPECT_EQ(api.pid, this_pid());
  }

  // Callbacks: an entry and an exit per call, the exit with the result.
  ASSERT_EQ(sink.calls.size(), 2 * std::size(expected));
  for (size_t i = 0; i < sink.calls.size(); i += 2) {
    const ApiCall& enter = sink.calls[i];
    const ApiCall& exit = sink.calls[i + 1];
    EXPECT_FALSE(enter.exit);
    EXPECT_TRUE(exit.exit);
    EXPECT_EQ(enter.cbid, exit.cbid);
    EXPECT_EQ(enter.correlation_id, exit.correlation_id);
    EXPECT_STREQ(enter.function, expected[i / 2].name);  // the exported symbol
    ASSERT_LT(i / 2, sink.results.size());
    EXPECT_EQ(sink.results[i / 2], static_cast<int32_t>(expected[i / 2].result));
  }
}

// The per-thread-default-stream entry points (what cuda.h binds under
// CUDA_API_PER_THREAD_DEFAULT_STREAM) record their own _ptds/_ptsz ids.
TEST_F(DriverApiRecords, PerThreadEntryPointsRecordTheirIds) {
  CUdeviceptr ptr = 0;
  ASSERT_EQ(cuMemAlloc(&ptr, 64), CUDA_SUCCESS);
  ApiSink sink;
  attach(&sink, 0);
  char host[64] = {};
  EXPECT_EQ(cuMemcpyHtoD_v2_ptds(ptr, host, sizeof(host)), CUDA_SUCCESS);
  EXPECT_EQ(cuMemsetD8_v2_ptds(ptr, 0, sizeof(host)), CUDA_SUCCESS);
  EXPECT_EQ(cuStreamSynchronize_ptsz(nullptr), CUDA_SUCCESS);
  detach(&sink);
  EXPECT_EQ(cuMemFree(ptr), CUDA_SUCCESS);
  ASSERT_EQ(sink.apis.size(), 3u);
  EXPECT_EQ(sink.apis[0].cbid, static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemcpyHtoD_v2_ptds));
  EXPECT_EQ(sink.apis[0].name, "cuMemcpyHtoD_v2_ptds");
  EXPECT_EQ(sink.apis[1].cbid, static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuMemsetD8_v2_ptds));
  EXPECT_EQ(sink.apis[2].cbid,
            static_cast<uint32_t>(CUPTI_DRIVER_TRACE_CBID_cuStreamSynchronize_ptsz));
}

// Inside a recording scope (as when the runtime calls the driver for the application),
// driver calls are not recorded.
TEST_F(DriverApiRecords, NestedCallsRecordOnce) {
  ApiSink sink;
  attach(&sink, 0);
  {
    ApiScope outer(ApiDomain::kRuntime, CUPTI_DRIVER_TRACE_CBID_cuInit, "outer", "outer", nullptr);
    CUdeviceptr ptr = 0;
    EXPECT_EQ(cuMemAlloc(&ptr, 256), CUDA_SUCCESS);
    EXPECT_EQ(cuMemFree(ptr), CUDA_SUCCESS);
  }
  detach(&sink);
  ASSERT_EQ(sink.apis.size(), 1u);
  EXPECT_EQ(sink.apis[0].name, "outer");
}

// --- resource events (ProfilerTable::set_resource_hook) and graph ids ---
std::mutex g_events_mu;
std::vector<ResourceEvent> g_events;
std::vector<std::string> g_images;  // each event's image bytes

void record_event(const ResourceEvent& e) {
  std::lock_guard lock(g_events_mu);
  g_events.push_back(e);
  g_images.emplace_back(static_cast<const char*>(e.image), e.image_size);
}

// Built with STRATA_ACTIVITY=OFF the driver's resource events compile away.
#if defined(STRATA_ACTIVITY) && !STRATA_ACTIVITY
#define SKIP_WITHOUT_ACTIVITY() GTEST_SKIP() << "built with STRATA_ACTIVITY=OFF"
#else
#define SKIP_WITHOUT_ACTIVITY() (void)0
#endif

const ProfilerTable& table() {
  const void* found = nullptr;
  EXPECT_EQ(cuGetExportTable(&found, &kProfilerTableId), CUDA_SUCCESS);
  return *static_cast<const ProfilerTable*>(found);
}

constexpr char kPtx[] =
    ".version 7.0\n.target sm_52\n.address_size 64\n"
    ".visible .entry resource_nop()\n{\n  ret;\n}\n";

TEST(DriverResourceEvents, ContextsStreamsModulesInOrderWithTheirHandles) {
  SKIP_WITHOUT_ACTIVITY();
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice device = 0;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  const ProfilerTable& t = table();
  ASSERT_GE(t.size, sizeof(ProfilerTable));
  g_events.clear();
  g_images.clear();
  t.set_resource_hook(record_event);

  CUcontext ctx = nullptr;
  ASSERT_EQ(cuCtxCreate(&ctx, nullptr, 0, device), CUDA_SUCCESS);
  CUstream stream = nullptr;
  ASSERT_EQ(cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING), CUDA_SUCCESS);
  ASSERT_EQ(cuStreamSynchronize(stream), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSynchronize(), CUDA_SUCCESS);
  CUmodule module = nullptr;
  ASSERT_EQ(cuModuleLoadData(&module, kPtx), CUDA_SUCCESS);
  ASSERT_EQ(cuModuleUnload(module), CUDA_SUCCESS);
  ASSERT_EQ(cuModuleLoadData(&module, kPtx), CUDA_SUCCESS);  // left for cuCtxDestroy
  ASSERT_EQ(cuStreamDestroy(stream), CUDA_SUCCESS);
  CUstream second = nullptr;
  ASSERT_EQ(cuStreamCreate(&second, 0), CUDA_SUCCESS);  // left for cuCtxDestroy
  ASSERT_EQ(cuCtxDestroy(ctx), CUDA_SUCCESS);
  t.set_resource_hook(nullptr);
  CUcontext other = nullptr;
  ASSERT_EQ(cuCtxCreate(&other, nullptr, 0, device), CUDA_SUCCESS);  // no hook: no event
  ASSERT_EQ(cuCtxDestroy(other), CUDA_SUCCESS);

  using K = ResourceEventKind;
  std::vector<K> kinds;
  for (const ResourceEvent& e : g_events) kinds.push_back(e.kind);
  const std::vector<K> expected = {
      K::kContextCreated,         K::kStreamCreated,          // ctx, its NULL stream
      K::kStreamCreated,                                      // stream
      K::kStreamSynchronized,     K::kContextSynchronized,    //
      K::kModuleLoaded,           K::kModuleUnloadStarting,   // first module
      K::kModuleLoaded,                                       // second module
      K::kStreamDestroyStarting,                              // stream
      K::kStreamCreated,                                      // second
      K::kContextDestroyStarting, K::kStreamDestroyStarting,  // ctx, second,
      K::kStreamDestroyStarting,  K::kModuleUnloadStarting,   // NULL stream, second module
  };
  ASSERT_EQ(kinds, expected);
  for (const ResourceEvent& e : g_events) EXPECT_EQ(e.context, ctx);
  CUstream null_stream = g_events[1].stream;
  EXPECT_NE(null_stream, nullptr);
  EXPECT_NE(null_stream, CU_STREAM_LEGACY);
  EXPECT_EQ(g_events[2].stream, stream);
  EXPECT_EQ(g_events[3].stream, stream);
  EXPECT_EQ(g_events[4].stream, nullptr);
  EXPECT_EQ(g_events[8].stream, stream);
  EXPECT_EQ(g_events[9].stream, second);
  EXPECT_EQ(g_events[11].stream, second);
  EXPECT_EQ(g_events[12].stream, null_stream);  // the NULL stream last
  // Modules: the PTX text the application passed, with its NUL; the unload repeats the
  // load's id and bytes; ids are distinct.
  const std::string ptx(kPtx, sizeof kPtx);
  for (size_t i : {5u, 6u, 7u, 13u}) {
    EXPECT_EQ(g_images[i], ptx) << i;
    EXPECT_NE(g_events[i].module_id, 0u);
  }
  EXPECT_EQ(g_events[5].module_id, g_events[6].module_id);
  EXPECT_EQ(g_events[7].module_id, g_events[13].module_id);
  EXPECT_NE(g_events[5].module_id, g_events[7].module_id);
}

TEST(DriverResourceEvents, PrimaryContextCreatedOnceAndDestroyedOnLastRelease) {
  SKIP_WITHOUT_ACTIVITY();
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice device = 0;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxReset(device), CUDA_SUCCESS);
  const ProfilerTable& t = table();
  g_events.clear();
  g_images.clear();
  t.set_resource_hook(record_event);
  CUcontext a = nullptr, b = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&a, device), CUDA_SUCCESS);
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&b, device), CUDA_SUCCESS);
  ASSERT_EQ(a, b);
  ASSERT_EQ(cuDevicePrimaryCtxRelease(device), CUDA_SUCCESS);
  size_t after_first_release = g_events.size();
  ASSERT_EQ(cuDevicePrimaryCtxRelease(device), CUDA_SUCCESS);
  t.set_resource_hook(nullptr);
  using K = ResourceEventKind;
  ASSERT_EQ(g_events.size(), 4u);
  EXPECT_EQ(after_first_release, 2u);
  EXPECT_EQ(g_events[0].kind, K::kContextCreated);
  EXPECT_EQ(g_events[1].kind, K::kStreamCreated);
  EXPECT_EQ(g_events[2].kind, K::kContextDestroyStarting);
  EXPECT_EQ(g_events[3].kind, K::kStreamDestroyStarting);
  for (const ResourceEvent& e : g_events) EXPECT_EQ(e.context, a);
  EXPECT_EQ(g_events[3].stream, g_events[1].stream);
}

TEST(DriverResourceEvents, GraphsNodesAndTheirInstantiatedCopies) {
  SKIP_WITHOUT_ACTIVITY();
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice device = 0;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx, device), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
  const ProfilerTable& t = table();
  g_events.clear();
  g_images.clear();
  t.set_resource_hook(record_event);
  CUgraph graph = nullptr;
  ASSERT_EQ(cuGraphCreate(&graph, 0), CUDA_SUCCESS);
  CUgraphNode a = nullptr, b = nullptr;
  ASSERT_EQ(cuGraphAddEmptyNode(&a, graph, nullptr, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphAddEmptyNode(&b, graph, &a, 1), CUDA_SUCCESS);
  CUgraphExec exec = nullptr;
  ASSERT_EQ(cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphDestroy(graph), CUDA_SUCCESS);
  t.set_resource_hook(nullptr);
  ASSERT_EQ(cuDevicePrimaryCtxRelease(device), CUDA_SUCCESS);

  using K = ResourceEventKind;
  std::vector<K> kinds;
  for (const ResourceEvent& e : g_events) kinds.push_back(e.kind);
  const std::vector<K> expected = {
      K::kGraphCreated,
      K::kGraphNodeCreated,
      K::kGraphNodeCreated,
      K::kGraphNodeCloned,
      K::kGraphNodeCloned,
      K::kGraphExecCreated,
      K::kGraphExecDestroyStarting,
      K::kGraphDestroyStarting,
      K::kGraphNodeDestroyStarting,
      K::kGraphNodeDestroyStarting,
  };
  ASSERT_EQ(kinds, expected);
  EXPECT_EQ(g_events[0].graph, graph);
  EXPECT_EQ(g_events[1].node, a);
  EXPECT_EQ(g_events[2].node, b);
  EXPECT_EQ(g_events[1].graph, graph);
  EXPECT_EQ(g_events[1].node_type, CU_GRAPH_NODE_TYPE_EMPTY);
  // The executable's copies: new handles whose originals are the application's nodes.
  EXPECT_EQ(g_events[3].original_node, a);
  EXPECT_EQ(g_events[4].original_node, b);
  EXPECT_EQ(g_events[3].original_graph, graph);
  EXPECT_EQ(g_events[3].graph_exec, exec);
  EXPECT_NE(g_events[3].node, a);
  EXPECT_NE(g_events[3].graph, graph);
  EXPECT_EQ(g_events[5].graph, graph);
  EXPECT_EQ(g_events[5].graph_exec, exec);
  EXPECT_EQ(g_events[6].graph_exec, exec);
  EXPECT_EQ(g_events[7].graph, graph);
  EXPECT_EQ(g_events[8].node, a);
  EXPECT_EQ(g_events[9].node, b);
}

TEST(DriverGraphIds, HandlesMapToTheirIds) {
  ASSERT_EQ(cuInit(0), CUDA_SUCCESS);
  CUdevice device = 0;
  ASSERT_EQ(cuDeviceGet(&device, 0), CUDA_SUCCESS);
  CUcontext ctx = nullptr;
  ASSERT_EQ(cuDevicePrimaryCtxRetain(&ctx, device), CUDA_SUCCESS);
  ASSERT_EQ(cuCtxSetCurrent(ctx), CUDA_SUCCESS);
  const ProfilerTable& t = table();
  CUgraph graph = nullptr;
  ASSERT_EQ(cuGraphCreate(&graph, 0), CUDA_SUCCESS);
  CUgraphNode node = nullptr;
  ASSERT_EQ(cuGraphAddEmptyNode(&node, graph, nullptr, 0), CUDA_SUCCESS);
  CUgraphExec exec = nullptr;
  ASSERT_EQ(cuGraphInstantiate(&exec, graph, 0), CUDA_SUCCESS);
  uint64_t graph_id = t.graph_id(graph);
  uint64_t node_id = t.graph_node_id(node);
  uint64_t exec_id = t.graph_exec_id(exec);
  EXPECT_NE(graph_id, 0u);
  EXPECT_NE(node_id, 0u);
  EXPECT_NE(exec_id, 0u);
  EXPECT_NE(graph_id, exec_id);
  EXPECT_NE(graph_id, node_id);
  EXPECT_EQ(t.graph_id(reinterpret_cast<CUgraph>(exec)), exec_id);  // an exec as a graph
  // Unknown handles and handles of another kind: 0.
  EXPECT_EQ(t.graph_id(nullptr), 0u);
  EXPECT_EQ(t.graph_node_id(nullptr), 0u);
  EXPECT_EQ(t.graph_exec_id(nullptr), 0u);
  EXPECT_EQ(t.graph_exec_id(reinterpret_cast<CUgraphExec>(graph)), 0u);
  EXPECT_EQ(t.graph_node_id(reinterpret_cast<CUgraphNode>(graph)), 0u);
  ASSERT_EQ(cuGraphExecDestroy(exec), CUDA_SUCCESS);
  ASSERT_EQ(cuGraphDestroy(graph), CUDA_SUCCESS);
  EXPECT_EQ(t.graph_exec_id(exec), 0u);  // destroyed
  EXPECT_EQ(t.graph_id(graph), 0u);
  ASSERT_EQ(cuDevicePrimaryCtxRelease(device), CUDA_SUCCESS);
}

}  // namespace
}  // namespace strata::prof
