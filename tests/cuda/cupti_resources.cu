// A CUPTI client of the RESOURCE and SYNCHRONIZE callback domains and the graph id
// queries, as HPCToolkit, TAU, Caliper and Kineto use them: it subscribes before the
// first CUDA call, then checks that contexts, streams and modules are reported created
// and destroyed with consistent handles (cupti_callbacks.h: CUpti_ResourceData,
// CUpti_ModuleResourceData in resourceDescriptor, CUpti_SynchronizeData), that the ids
// CUPTI gives those handles are the ids in kernel records, that cuptiGetGraphExecId of a
// launched executable graph is its kernels' graphId, and that the graph callbacks
// (CUpti_GraphData) map the records' graphNodeId back to the application's node. Built with
// -lcupti; under `strata run` it loads Strata's libcupti.so.13. Prints PASS cupti_resources.
#include <cuda.h>
#include <cupti.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "test_check.h"

#define CHECK_CUPTI(call)                                                                  \
  do {                                                                                     \
    CUptiResult check_cupti_result_ = (call);                                              \
    if (check_cupti_result_ != CUPTI_SUCCESS) {                                            \
      const char* check_cupti_text_ = "?";                                                 \
      cuptiGetResultString(check_cupti_result_, &check_cupti_text_);                       \
      std::printf("FAIL %s:%d: %s -> %s\n", __FILE__, __LINE__, #call, check_cupti_text_); \
      std::exit(1);                                                                        \
    }                                                                                      \
  } while (0)

__global__ void scale(float* p, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] *= factor;
}

namespace {

// A module the test loads itself through the driver API: PTX text.
const char kPtx[] =
    ".version 7.0\n"
    ".target sm_52\n"
    ".address_size 64\n"
    ".visible .entry cupti_resources_nop()\n"
    "{\n"
    "  ret;\n"
    "}\n";

struct Event {
  CUpti_CallbackDomain domain;
  CUpti_CallbackId cbid;
  CUcontext context;
  CUstream stream;
  uint32_t module_id;
  std::string image;  // a copy of pCubin's cubinSize bytes
  uint32_t id;        // cuptiGetContextId / cuptiGetStreamId / cuptiGetGraphExecId
  // Graph callbacks (CUpti_GraphData): the nodes' ids asked in the callback.
  CUgraph graph = nullptr;
  uint64_t node_id = 0, original_node_id = 0;
};
std::vector<Event> g_events;

struct KernelRecord {
  uint32_t context, stream, graph;
  uint64_t node;
  std::string name;
};
std::vector<KernelRecord> g_kernels;

void CUPTIAPI on_callback(void*, CUpti_CallbackDomain domain, CUpti_CallbackId cbid,
                          const void* data) {
  Event e{domain, cbid, nullptr, nullptr, 0, "", 0};
  if (domain == CUPTI_CB_DOMAIN_RESOURCE) {
    const auto* r = static_cast<const CUpti_ResourceData*>(data);
    e.context = r->context;
    switch (cbid) {
      case CUPTI_CBID_RESOURCE_CONTEXT_CREATED:
        CHECK_CUPTI(cuptiGetContextId(r->context, &e.id));
        break;
      case CUPTI_CBID_RESOURCE_STREAM_CREATED:
        e.stream = r->resourceHandle.stream;
        CHECK_CUPTI(cuptiGetStreamId(r->context, r->resourceHandle.stream, &e.id));
        break;
      case CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING:
        e.stream = r->resourceHandle.stream;
        break;
      case CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED:
      case CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED:
      case CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED: {
        const auto* g = static_cast<const CUpti_GraphData*>(r->resourceDescriptor);
        EXPECT_TRUE(g != nullptr, "graph callback without CUpti_GraphData");
        e.graph = g->graph;
        if (cbid == CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED) {
          CHECK_CUPTI(cuptiGetGraphExecId(g->graphExec, &e.id));
          break;
        }
        CHECK_CUPTI(cuptiGetGraphNodeId(g->node, &e.node_id));
        if (cbid == CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED) {
          CHECK_CUPTI(cuptiGetGraphNodeId(g->originalNode, &e.original_node_id));
        }
        break;
      }
      case CUPTI_CBID_RESOURCE_MODULE_LOADED:
      case CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING: {
        const auto* m = static_cast<const CUpti_ModuleResourceData*>(r->resourceDescriptor);
        EXPECT_TRUE(m != nullptr, "module callback without CUpti_ModuleResourceData");
        e.module_id = m->moduleId;
        if (m->pCubin != nullptr) e.image.assign(m->pCubin, m->cubinSize);
        break;
      }
      default:
        break;
    }
  } else if (domain == CUPTI_CB_DOMAIN_SYNCHRONIZE) {
    const auto* s = static_cast<const CUpti_SynchronizeData*>(data);
    e.context = s->context;
    e.stream = s->stream;
  } else {
    EXPECT_TRUE(false, "callback of domain %d", static_cast<int>(domain));
  }
  g_events.push_back(std::move(e));
}

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *size = 1 << 16;
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(ACTIVITY_RECORD_ALIGNMENT, *size));
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* record = nullptr;
  while (cuptiActivityGetNextRecord(buffer, valid, &record) == CUPTI_SUCCESS) {
    if (record->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) continue;
    auto* k = reinterpret_cast<CUpti_ActivityKernel10*>(record);
    g_kernels.push_back(
        {k->contextId, k->streamId, k->graphId, k->graphNodeId, k->name ? k->name : ""});
  }
  std::free(buffer);
}

std::vector<const Event*> find(CUpti_CallbackDomain domain, CUpti_CallbackId cbid) {
  std::vector<const Event*> out;
  for (const Event& e : g_events) {
    if (e.domain == domain && e.cbid == cbid) out.push_back(&e);
  }
  return out;
}

size_t index_of(const Event* e) {
  return static_cast<size_t>(e - g_events.data());
}

}  // namespace

int main() {
  // Before any CUDA call, so that the primary context's creation is seen.
  CUpti_SubscriberHandle subscriber;
  CHECK_CUPTI(cuptiSubscribe(&subscriber, on_callback, nullptr));
  CHECK_CUPTI(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE));
  CHECK_CUPTI(cuptiEnableDomain(1, subscriber, CUPTI_CB_DOMAIN_SYNCHRONIZE));
  CHECK_CUPTI(cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed));
  CHECK_CUPTI(cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL));

  const int n = 1024;
  float* device = nullptr;
  CHECK_CUDA(cudaMalloc(&device, n * sizeof(float)));
  CHECK_CUDA(cudaMemset(device, 0, n * sizeof(float)));
  CUcontext context = nullptr;
  EXPECT_TRUE(cuCtxGetCurrent(&context) == CUDA_SUCCESS && context != nullptr, "no context");

  // A stream, a kernel on it, its synchronisation.
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  scale<<<n / 256, 256, 0, stream>>>(device, 2.0f, n);
  CHECK_CUDA(cudaGetLastError());
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_CUDA(cudaDeviceSynchronize());

  // A module loaded and unloaded through the driver API.
  CUmodule module = nullptr;
  EXPECT_TRUE(cuModuleLoadData(&module, kPtx) == CUDA_SUCCESS, "cuModuleLoadData");
  EXPECT_TRUE(cuModuleUnload(module) == CUDA_SUCCESS, "cuModuleUnload");

  // A graph with one kernel node, launched twice.
  cudaGraph_t graph;
  CHECK_CUDA(cudaGraphCreate(&graph, 0));
  float factor = 3.0f;
  int count = n;
  void* args[] = {&device, &factor, &count};
  cudaKernelNodeParams params = {};
  params.func = reinterpret_cast<void*>(scale);
  params.gridDim = dim3(n / 256);
  params.blockDim = dim3(256);
  params.kernelParams = args;
  cudaGraphNode_t node;
  CHECK_CUDA(cudaGraphAddKernelNode(&node, graph, nullptr, 0, &params));
  cudaGraphExec_t exec;
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaGraphLaunch(exec, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));

  uint32_t graph_id = 0, exec_id = 0, exec_as_graph_id = 0;
  uint64_t node_id = 0;
  CHECK_CUPTI(cuptiGetGraphId(reinterpret_cast<CUgraph>(graph), &graph_id));
  CHECK_CUPTI(cuptiGetGraphExecId(reinterpret_cast<CUgraphExec>(exec), &exec_id));
  CHECK_CUPTI(cuptiGetGraphId(reinterpret_cast<CUgraph>(exec), &exec_as_graph_id));
  CHECK_CUPTI(cuptiGetGraphNodeId(reinterpret_cast<CUgraphNode>(node), &node_id));
  EXPECT_TRUE(graph_id != 0 && exec_id != 0 && node_id != 0, "zero graph ids");
  EXPECT_TRUE(graph_id != exec_id, "graph and executable share id %u", graph_id);
  EXPECT_TRUE(exec_as_graph_id == exec_id, "exec as graph %u, exec %u", exec_as_graph_id, exec_id);
  uint32_t unused = 0;
  uint64_t unused64 = 0;
  EXPECT_TRUE(cuptiGetGraphId(nullptr, &unused) == CUPTI_ERROR_INVALID_PARAMETER, "NULL graph");
  EXPECT_TRUE(cuptiGetGraphExecId(reinterpret_cast<CUgraphExec>(exec), nullptr) ==
                  CUPTI_ERROR_INVALID_PARAMETER,
              "NULL pId");
  EXPECT_TRUE(cuptiGetGraphNodeId(nullptr, &unused64) == CUPTI_ERROR_INVALID_PARAMETER,
              "NULL node");
  CHECK_CUDA(cudaGraphExecDestroy(exec));
  CHECK_CUDA(cudaGraphDestroy(graph));

  CHECK_CUPTI(cuptiActivityFlushAll(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED));
  CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK_CUDA(cudaFree(device));
  size_t before_reset = g_events.size();
  CHECK_CUDA(cudaDeviceReset());

  // --- contexts: the primary context created once, destroyed by the reset ---
  auto created = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_CREATED);
  auto destroyed = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
  EXPECT_TRUE(created.size() == 1 && created[0]->context == context, "%zu contexts created",
              created.size());
  EXPECT_TRUE(destroyed.size() == 1 && destroyed[0]->context == context &&
                  index_of(destroyed[0]) >= before_reset,
              "%zu contexts destroyed", destroyed.size());
  uint32_t context_id = created[0]->id;

  // --- streams: the user stream and the context's NULL stream, each created and destroyed
  // once, in the context; the ids CUPTI gave them in the callback are the records' ---
  auto streams_created = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_STREAM_CREATED);
  auto streams_destroyed =
      find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_STREAM_DESTROY_STARTING);
  const Event* user_created = nullptr;
  for (const Event* e : streams_created) {
    EXPECT_TRUE(e->context == context, "stream created in another context");
    EXPECT_TRUE(index_of(e) > index_of(created[0]), "stream created before its context");
    if (e->stream == reinterpret_cast<CUstream>(stream)) user_created = e;
    size_t destroys = 0;
    for (const Event* d : streams_destroyed) {
      if (d->stream == e->stream) {
        ++destroys;
        EXPECT_TRUE(index_of(d) > index_of(e) && d->context == context, "stream destroy");
      }
    }
    EXPECT_TRUE(destroys == 1, "stream %p destroyed %zu times", static_cast<void*>(e->stream),
                destroys);
  }
  EXPECT_TRUE(user_created != nullptr, "no STREAM_CREATED for the user stream");
  EXPECT_TRUE(streams_created.size() >= 2, "%zu streams created (NULL stream missing)",
              streams_created.size());
  EXPECT_TRUE(streams_destroyed.size() == streams_created.size(), "%zu created, %zu destroyed",
              streams_created.size(), streams_destroyed.size());
  // The user stream is destroyed by cudaStreamDestroy, before the reset.
  for (const Event* d : streams_destroyed) {
    if (d->stream == reinterpret_cast<CUstream>(stream)) {
      EXPECT_TRUE(index_of(d) < before_reset, "user stream destroyed by the reset");
    }
  }

  // --- modules: the program's (holding its kernel) and the driver API's (the PTX text);
  // each unloaded once with the same id and bytes ---
  auto loaded = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_LOADED);
  auto unloaded = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_MODULE_UNLOAD_STARTING);
  bool program_module = false, ptx_module = false;
  for (const Event* l : loaded) {
    EXPECT_TRUE(l->context == context && l->module_id != 0 && !l->image.empty(),
                "module %u loaded without context or image", l->module_id);
    if (l->image.find("_Z5scalePffi") != std::string::npos) program_module = true;
    if (l->image == std::string(kPtx, sizeof kPtx)) ptx_module = true;
    size_t unloads = 0;
    for (const Event* u : unloaded) {
      if (u->module_id != l->module_id) continue;
      ++unloads;
      EXPECT_TRUE(index_of(u) > index_of(l) && u->image == l->image && u->context == context,
                  "module %u unload differs from its load", l->module_id);
    }
    EXPECT_TRUE(unloads == 1, "module %u unloaded %zu times", l->module_id, unloads);
  }
  EXPECT_TRUE(program_module, "no MODULE_LOADED holding the kernel scale (%zu loads)",
              loaded.size());
  EXPECT_TRUE(ptx_module, "no MODULE_LOADED with cuModuleLoadData's PTX");
  std::vector<uint32_t> ids;
  for (const Event* l : loaded) ids.push_back(l->module_id);
  std::sort(ids.begin(), ids.end());
  EXPECT_TRUE(std::adjacent_find(ids.begin(), ids.end()) == ids.end(), "module ids repeat");

  // --- synchronisations ---
  bool stream_sync = false, context_sync = false;
  for (const Event* e :
       find(CUPTI_CB_DOMAIN_SYNCHRONIZE, CUPTI_CBID_SYNCHRONIZE_STREAM_SYNCHRONIZED)) {
    if (e->stream == reinterpret_cast<CUstream>(stream) && e->context == context)
      stream_sync = true;
  }
  for (const Event* e :
       find(CUPTI_CB_DOMAIN_SYNCHRONIZE, CUPTI_CBID_SYNCHRONIZE_CONTEXT_SYNCHRONIZED)) {
    if (e->context == context && e->stream == nullptr) context_sync = true;
  }
  EXPECT_TRUE(stream_sync, "no STREAM_SYNCHRONIZED for the user stream");
  EXPECT_TRUE(context_sync, "no CONTEXT_SYNCHRONIZED (cudaDeviceSynchronize)");

  // --- the kernel records: three launches of scale (one direct, two from the graph) ---
  EXPECT_TRUE(g_kernels.size() == 3, "%zu kernel records", g_kernels.size());
  size_t from_graph = 0;
  for (const KernelRecord& k : g_kernels) {
    EXPECT_TRUE(k.context == context_id, "kernel context %u, CONTEXT_CREATED's %u", k.context,
                context_id);
    EXPECT_TRUE(k.stream == user_created->id, "kernel stream %u, STREAM_CREATED's %u", k.stream,
                user_created->id);
    if (k.graph != 0) {
      ++from_graph;
      EXPECT_TRUE(k.graph == exec_id, "kernel graphId %u, cuptiGetGraphExecId %u", k.graph,
                  exec_id);
      EXPECT_TRUE(k.node != 0, "graph kernel without graphNodeId");
    } else {
      EXPECT_TRUE(k.node == 0, "graphNodeId outside a graph");
    }
  }
  EXPECT_TRUE(from_graph == 2, "%zu kernels from the graph", from_graph);

  // --- graph callbacks, the way Kineto maps a kernel record's graphNodeId to the node
  // the application created: GRAPHNODE_CREATED names the node, GRAPHNODE_CLONED the
  // executable's copy of it (the id in the records), GRAPHEXEC_CREATED the executable ---
  auto nodes_created = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CREATED);
  EXPECT_TRUE(nodes_created.size() == 1 && nodes_created[0]->node_id == node_id &&
                  nodes_created[0]->graph == reinterpret_cast<CUgraph>(graph),
              "%zu GRAPHNODE_CREATED", nodes_created.size());
  auto clones = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHNODE_CLONED);
  EXPECT_TRUE(
      clones.size() == 1 && clones[0]->original_node_id == node_id && clones[0]->node_id != node_id,
      "%zu GRAPHNODE_CLONED", clones.size());
  auto execs = find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHEXEC_CREATED);
  EXPECT_TRUE(execs.size() == 1 && execs[0]->id == exec_id &&
                  execs[0]->graph == reinterpret_cast<CUgraph>(graph) &&
                  index_of(execs[0]) > index_of(clones[0]),
              "%zu GRAPHEXEC_CREATED", execs.size());
  for (const KernelRecord& k : g_kernels) {
    if (k.graph == 0) continue;
    EXPECT_TRUE(k.node == clones[0]->node_id, "kernel graphNodeId %llx, the clone's %llx",
                static_cast<unsigned long long>(k.node),
                static_cast<unsigned long long>(clones[0]->node_id));
  }
  EXPECT_TRUE(
      find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPHEXEC_DESTROY_STARTING).size() == 1 &&
          find(CUPTI_CB_DOMAIN_RESOURCE, CUPTI_CBID_RESOURCE_GRAPH_DESTROY_STARTING).size() == 1,
      "graph and executable destroyed once each");

  CHECK_CUPTI(cuptiUnsubscribe(subscriber));
  std::printf("PASS cupti_resources (%zu callbacks)\n", g_events.size());
  return 0;
}
