// The interface libcuda.so.1 offers Strata's profiling clients in other libraries
// (libcupti.so.13 and its NVTX injection): a table of functions returned by
// cuGetExportTable for kProfilerTableId. The clients are built with the driver, so the
// table passes the C++ types of collector.h and trace.h; `size` lets a client check
// that the driver is at least as new as it.
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <new>

#include "prof/collector.h"

namespace strata::prof {

// "STRATA-PROFILER1" as the UUID's bytes.
inline constexpr CUuuid kProfilerTableId = {
    {'S', 'T', 'R', 'A', 'T', 'A', '-', 'P', 'R', 'O', 'F', 'I', 'L', 'E', 'R', '1'}};

// A resource event of the driver (CUPTI's RESOURCE and SYNCHRONIZE callback domains),
// with the application's handles. Delivered on the thread that caused it, synchronously:
// the hook may call the driver (cuCtxGetId, cuStreamGetId, ...) but must not wait for
// another thread that is creating or destroying objects.
enum class ResourceEventKind : uint32_t {
  kContextCreated,          // context (a primary context when first retained)
  kContextDestroyStarting,  // context, still usable (cuCtxDestroy, primary release/reset)
  kStreamCreated,           // context, stream (user, legacy NULL, per-thread default)
  kStreamDestroyStarting,   // context, stream
  kModuleLoaded,            // context, module_id, image
  kModuleUnloadStarting,    // context, module_id, image
  kStreamSynchronized,      // context, stream: cuStreamSynchronize returned
  kContextSynchronized,     // context: cuCtxSynchronize returned
  // Graphs (CUPTI's CUpti_GraphData), inside the API call that causes them:
  kGraphCreated,                // graph (cuGraphCreate, a capture's new graph)
  kGraphCloned,                 // graph, original_graph (cuGraphClone), then its nodes'
  kGraphDestroyStarting,        // graph
  kGraphNodeCreated,            // graph, node, node_type (cuGraphAdd*Node, captured work)
  kGraphNodeCloned,             // graph, node, original_node, node_type (+ graph_exec)
  kGraphNodeDestroyStarting,    // graph, node, node_type
  kGraphExecCreated,            // graph (the instantiated one), graph_exec
  kGraphExecDestroyStarting,    // graph_exec
};

struct ResourceEvent {
  ResourceEventKind kind = ResourceEventKind::kContextCreated;
  CUcontext context = nullptr;
  CUstream stream = nullptr;  // the stream's own handle (never CU_STREAM_LEGACY/PER_THREAD)
  uint32_t module_id = 0;     // process-unique, from 1
  // Modules: the image the module was loaded from (PTX text with its NUL, a fatbin, a
  // Strata binary), valid during the call; null/0 when the driver does not have it.
  const void* image = nullptr;
  size_t image_size = 0;
  // Graphs.
  CUgraph graph = nullptr;
  CUgraph original_graph = nullptr;
  CUgraphNode node = nullptr;
  CUgraphNode original_node = nullptr;
  CUgraphNodeType node_type = CU_GRAPH_NODE_TYPE_EMPTY;
  CUgraphExec graph_exec = nullptr;
};
using ResourceHook = void (*)(const ResourceEvent& event);

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
  // Runtime API calls: libcudart.so.13 has no collector of its own, so its entry points
  // (src/cuda/runtime/api_activity.h) test the driver's active() flag through `active`
  // and run ApiScope's constructor and destructor in the driver, on storage they own
  // (open_api_scope_in_place / close_api_scope_in_place below): the runtime's scope and
  // the driver's "outermost call only" rule share one thread state. Null when the driver
  // does not offer them (the runtime then records nothing).
  const std::atomic<uint32_t>* active;
  void (*open_api_scope)(ApiScope* storage, ApiDomain domain, uint32_t cbid, const char* name,
                         const char* function, const void* params);
  void (*close_api_scope)(ApiScope* scope);
  // Resource events (above): the driver calls `hook` for every event from now on (null:
  // stops). One hook per process; the last set wins. Costs the driver one relaxed atomic
  // load per event site while null.
  void (*set_resource_hook)(ResourceHook hook);
  // Ids of graph objects as Kernel records carry them (graph_id: the executable graph's,
  // graph_node_id: its node's); 0 for a handle that is not live. graph_id also answers
  // for a CUgraphExec handle (with its exec id: CUPTI clients before cuptiGetGraphExecId
  // passed executables to cuptiGetGraphId).
  uint64_t (*graph_id)(CUgraph graph);
  uint64_t (*graph_node_id)(CUgraphNode node);
  uint64_t (*graph_exec_id)(CUgraphExec exec);
};

// The driver's open_api_scope / close_api_scope.
inline void open_api_scope_in_place(ApiScope* storage, ApiDomain domain, uint32_t cbid,
                                    const char* name, const char* function, const void* params) {
  new (storage) ApiScope(domain, cbid, name, function, params);
}
inline void close_api_scope_in_place(ApiScope* scope) {
  scope->~ApiScope();
}

}  // namespace strata::prof
