// Entry points: CUDA graphs (cuGraph*, cuGraphExec*, cuUserObject*, graph memory
// attributes, cuThreadExchangeStreamCaptureMode). The stream-ordered ones (launch,
// upload, capture) are in api_graph_stream.inc. The objects are graph.h and
// graph_exec.h.
#include <cuda.h>

#include <cstdio>

#include "base/log.h"
#include "cuda/driver/api_profiler.h"
#include "cuda/driver/api_util.h"
#include "cuda/driver/capture.h"
#include "cuda/driver/device.h"
#include "cuda/driver/event.h"
#include "cuda/driver/graph.h"
#include "cuda/driver/graph_exec.h"
#include "cuda/driver/module.h"

using namespace strata;
using namespace strata::cuda::driver;

namespace {

StatusOr<std::shared_ptr<Graph>> graph_of(CUgraph handle) {
  std::shared_ptr<Graph> g = handles().graphs.find(handle);
  if (!g) return error(Code::kInvalidValue, fmt::format("graph {} is not live", fmt::ptr(handle)));
  return g;
}

StatusOr<std::shared_ptr<GraphNode>> node_of(CUgraphNode handle) {
  std::shared_ptr<GraphNode> n = handles().graph_nodes.find(handle);
  if (!n) {
    return error(Code::kInvalidValue, fmt::format("graph node {} is not live", fmt::ptr(handle)));
  }
  return n;
}

StatusOr<std::shared_ptr<GraphNode>> node_of_type(CUgraphNode handle, CUgraphNodeType type) {
  ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(handle));
  if (n->type() != type) {
    return error(Code::kInvalidValue,
                 fmt::format("graph node {} has type {}, not {}", fmt::ptr(handle),
                             static_cast<int>(n->type()), static_cast<int>(type)));
  }
  return n;
}

StatusOr<std::shared_ptr<GraphExec>> exec_of(CUgraphExec handle) {
  std::shared_ptr<GraphExec> e = handles().graph_execs.find(handle);
  if (!e) {
    return error(Code::kInvalidValue, fmt::format("graph exec {} is not live", fmt::ptr(handle)));
  }
  return e;
}

Status check_edge_data(const CUgraphEdgeData* data, size_t count) {
  if (data == nullptr) return ok_status();
  for (size_t i = 0; i < count; ++i) {
    if (data[i].from_port != 0 || data[i].to_port != 0 || data[i].type != 0) {
      return error(Code::kNotSupported,
                   "graph edges with ports (programmatic dependent launch) "
                   "are not supported");
    }
  }
  return ok_status();
}

StatusOr<std::vector<GraphNode*>> node_list(const CUgraphNode* nodes, size_t count) {
  if (count > 0 && nodes == nullptr) return error(Code::kInvalidValue, "dependencies is null");
  std::vector<GraphNode*> out;
  for (size_t i = 0; i < count; ++i) {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(nodes[i]));
    out.push_back(n.get());
  }
  return out;
}

// Adds a node made by `make` to `graph` after `dependencies`.
CUresult add_node(const char* api, CUgraphNode* out, CUgraph graph, const CUgraphNode* dependencies,
                  const CUgraphEdgeData* edge_data, size_t count,
                  const std::function<StatusOr<NodeParams>()>& make) {
  return api_call(api, [&]() -> Status {
    if (out == nullptr) return null_arg(api, "phGraphNode");
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(graph));
    RETURN_IF_ERROR(check_edge_data(edge_data, count));
    ASSIGN_OR_RETURN(std::vector<GraphNode*> deps, node_list(dependencies, count));
    ASSIGN_OR_RETURN(NodeParams params, make());
    ASSIGN_OR_RETURN(GraphNode * node, g->add_node(std::move(params), deps));
    *out = node->handle();
    notify_graph_node_created(*node);
    return ok_status();
  });
}

// Copies `items` out CUDA's way: with a null array only the count is returned; else up
// to *count entries are written and *count is set to the number written (the total
// when it is smaller).
template <typename T, typename F>
Status copy_out(const std::vector<T>& items, CUgraphNode* array, size_t* count, F convert) {
  if (count == nullptr) return error(Code::kInvalidValue, "the count is null");
  if (array == nullptr) {
    *count = items.size();
    return ok_status();
  }
  size_t n = std::min(*count, items.size());
  for (size_t i = 0; i < n; ++i) array[i] = convert(items[i]);
  for (size_t i = n; i < *count; ++i) array[i] = nullptr;
  *count = items.size() < *count ? items.size() : *count;
  return ok_status();
}

CUDA_KERNEL_NODE_PARAMS kernel_params_out(GraphNode& n) {
  const NodeParams& p = n.params();
  CUDA_KERNEL_NODE_PARAMS out{};
  out.func = p.function->handle();
  out.gridDimX = p.shape.grid.x;
  out.gridDimY = p.shape.grid.y;
  out.gridDimZ = p.shape.grid.z;
  out.blockDimX = p.shape.block.x;
  out.blockDimY = p.shape.block.y;
  out.blockDimZ = p.shape.block.z;
  out.sharedMemBytes = p.shape.dynamic_shared_bytes;
  out.kernelParams = n.kernel_param_pointers();
  out.extra = nullptr;
  out.kern = nullptr;
  out.ctx = p.context != nullptr ? p.context->handle() : nullptr;
  return out;
}

}  // namespace

extern "C" {

CUresult CUDAAPI cuGraphCreate(CUgraph* phGraph, unsigned int flags) {
  return api_call("cuGraphCreate", [&]() -> Status {
    if (phGraph == nullptr) return null_arg("cuGraphCreate", "phGraph");
    if (flags != 0) return error(Code::kInvalidValue, "cuGraphCreate: flags must be 0");
    std::shared_ptr<Graph> g = Graph::create();
    handles().graphs.insert(g);
    *phGraph = g->handle();
    notify_graph_created(*g);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphDestroy(CUgraph hGraph) {
  return api_call("cuGraphDestroy", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    if (g->is_child()) {
      return error(Code::kInvalidValue, "cuGraphDestroy: the graph belongs to a child graph node");
    }
    notify_graph_destroy_starting(*g);
    handles().graphs.erase(hGraph);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphClone(CUgraph* phGraphClone, CUgraph originalGraph) {
  return api_call("cuGraphClone", [&]() -> Status {
    if (phGraphClone == nullptr) return null_arg("cuGraphClone", "phGraphClone");
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(originalGraph));
    if (g->has_memory_nodes()) {
      return error(Code::kNotSupported, "cuGraphClone: graphs with memory nodes cannot be cloned");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> copy, g->clone());
    handles().graphs.insert(copy);
    *phGraphClone = copy->handle();
    notify_graph_cloned(*copy, *g);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphNodeFindInClone(CUgraphNode* phNode, CUgraphNode hOriginalNode,
                                        CUgraph hClonedGraph) {
  return api_call("cuGraphNodeFindInClone", [&]() -> Status {
    if (phNode == nullptr) return null_arg("cuGraphNodeFindInClone", "phNode");
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hClonedGraph));
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> original, node_of(hOriginalNode));
    for (const auto& n : g->nodes()) {
      if (n->origin() == original.get()) {
        *phNode = n->handle();
        return ok_status();
      }
    }
    return error(Code::kInvalidValue, "cuGraphNodeFindInClone: the node has no clone there");
  });
}

// --- kernel nodes ---------------------------------------------------------------------

CUresult CUDAAPI cuGraphAddKernelNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                      const CUgraphNode* dependencies, size_t numDependencies,
                                      const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return add_node("cuGraphAddKernelNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, [&]() -> StatusOr<NodeParams> {
                    if (nodeParams == nullptr)
                      return null_arg("cuGraphAddKernelNode", "nodeParams");
                    return kernel_node_params(*nodeParams);
                  });
}

CUresult CUDAAPI cuGraphKernelNodeGetParams(CUgraphNode hNode,
                                            CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return api_call("cuGraphKernelNodeGetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphKernelNodeGetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_KERNEL));
    *nodeParams = kernel_params_out(*n);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphKernelNodeSetParams(CUgraphNode hNode,
                                            const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return api_call("cuGraphKernelNodeSetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphKernelNodeSetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_KERNEL));
    ASSIGN_OR_RETURN(NodeParams p, kernel_node_params(*nodeParams));
    return n->set_params(std::move(p));
  });
}

CUresult CUDAAPI cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src) {
  return api_call("cuGraphKernelNodeCopyAttributes", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> d, node_of_type(dst, CU_GRAPH_NODE_TYPE_KERNEL));
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> s, node_of_type(src, CU_GRAPH_NODE_TYPE_KERNEL));
    d->copy_attributes(*s);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphKernelNodeGetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               CUkernelNodeAttrValue* value_out) {
  return api_call("cuGraphKernelNodeGetAttribute", [&]() -> Status {
    if (value_out == nullptr) return null_arg("cuGraphKernelNodeGetAttribute", "value_out");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_KERNEL));
    *value_out = n->attribute(attr);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphKernelNodeSetAttribute(CUgraphNode hNode, CUkernelNodeAttrID attr,
                                               const CUkernelNodeAttrValue* value) {
  return api_call("cuGraphKernelNodeSetAttribute", [&]() -> Status {
    if (value == nullptr) return null_arg("cuGraphKernelNodeSetAttribute", "value");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_KERNEL));
    return n->set_attribute(attr, *value);
  });
}

// --- memcpy / memset / host / empty nodes ----------------------------------------------

CUresult CUDAAPI cuGraphAddMemcpyNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                      const CUgraphNode* dependencies, size_t numDependencies,
                                      const CUDA_MEMCPY3D* copyParams, CUcontext ctx) {
  return add_node("cuGraphAddMemcpyNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, [&]() -> StatusOr<NodeParams> {
                    if (copyParams == nullptr)
                      return null_arg("cuGraphAddMemcpyNode", "copyParams");
                    return memcpy_node_params(*copyParams, ctx);
                  });
}

CUresult CUDAAPI cuGraphMemcpyNodeGetParams(CUgraphNode hNode, CUDA_MEMCPY3D* nodeParams) {
  return api_call("cuGraphMemcpyNodeGetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphMemcpyNodeGetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMCPY));
    *nodeParams = n->params().copy;
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphMemcpyNodeSetParams(CUgraphNode hNode, const CUDA_MEMCPY3D* nodeParams) {
  return api_call("cuGraphMemcpyNodeSetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphMemcpyNodeSetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMCPY));
    Context* ctx = n->params().context;
    ASSIGN_OR_RETURN(NodeParams p, memcpy_node_params(*nodeParams, ctx ? ctx->handle() : nullptr));
    return n->set_params(std::move(p));
  });
}

CUresult CUDAAPI cuGraphAddMemsetNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                      const CUgraphNode* dependencies, size_t numDependencies,
                                      const CUDA_MEMSET_NODE_PARAMS* memsetParams, CUcontext ctx) {
  return add_node("cuGraphAddMemsetNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, [&]() -> StatusOr<NodeParams> {
                    if (memsetParams == nullptr)
                      return null_arg("cuGraphAddMemsetNode", "memsetParams");
                    return memset_node_params(*memsetParams, ctx);
                  });
}

CUresult CUDAAPI cuGraphMemsetNodeGetParams(CUgraphNode hNode,
                                            CUDA_MEMSET_NODE_PARAMS* nodeParams) {
  return api_call("cuGraphMemsetNodeGetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphMemsetNodeGetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMSET));
    *nodeParams = n->params().memset;
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphMemsetNodeSetParams(CUgraphNode hNode,
                                            const CUDA_MEMSET_NODE_PARAMS* nodeParams) {
  return api_call("cuGraphMemsetNodeSetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphMemsetNodeSetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEMSET));
    Context* ctx = n->params().context;
    ASSIGN_OR_RETURN(NodeParams p, memset_node_params(*nodeParams, ctx ? ctx->handle() : nullptr));
    return n->set_params(std::move(p));
  });
}

CUresult CUDAAPI cuGraphAddHostNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                    const CUgraphNode* dependencies, size_t numDependencies,
                                    const CUDA_HOST_NODE_PARAMS* nodeParams) {
  return add_node("cuGraphAddHostNode", phGraphNode, hGraph, dependencies, nullptr, numDependencies,
                  [&]() -> StatusOr<NodeParams> {
                    if (nodeParams == nullptr) return null_arg("cuGraphAddHostNode", "nodeParams");
                    return host_node_params(*nodeParams);
                  });
}

CUresult CUDAAPI cuGraphHostNodeGetParams(CUgraphNode hNode, CUDA_HOST_NODE_PARAMS* nodeParams) {
  return api_call("cuGraphHostNodeGetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphHostNodeGetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_HOST));
    nodeParams->fn = n->params().host_fn;
    nodeParams->userData = n->params().user_data;
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphHostNodeSetParams(CUgraphNode hNode,
                                          const CUDA_HOST_NODE_PARAMS* nodeParams) {
  return api_call("cuGraphHostNodeSetParams", [&]() -> Status {
    if (nodeParams == nullptr) return null_arg("cuGraphHostNodeSetParams", "nodeParams");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_HOST));
    ASSIGN_OR_RETURN(NodeParams p, host_node_params(*nodeParams));
    return n->set_params(std::move(p));
  });
}

CUresult CUDAAPI cuGraphAddEmptyNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                     const CUgraphNode* dependencies, size_t numDependencies) {
  return add_node("cuGraphAddEmptyNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, []() -> StatusOr<NodeParams> { return NodeParams{}; });
}

// --- child graph / event nodes ----------------------------------------------------------

CUresult CUDAAPI cuGraphAddChildGraphNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                          const CUgraphNode* dependencies, size_t numDependencies,
                                          CUgraph childGraph) {
  return add_node("cuGraphAddChildGraphNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, [&] { return child_graph_node_params(childGraph); });
}

CUresult CUDAAPI cuGraphChildGraphNodeGetGraph(CUgraphNode hNode, CUgraph* phGraph) {
  return api_call("cuGraphChildGraphNodeGetGraph", [&]() -> Status {
    if (phGraph == nullptr) return null_arg("cuGraphChildGraphNodeGetGraph", "phGraph");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(hNode, CU_GRAPH_NODE_TYPE_GRAPH));
    *phGraph = n->params().child->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphAddEventRecordNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                           const CUgraphNode* dependencies, size_t numDependencies,
                                           CUevent event) {
  return add_node("cuGraphAddEventRecordNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies,
                  [&] { return event_node_params(CU_GRAPH_NODE_TYPE_EVENT_RECORD, event); });
}

CUresult CUDAAPI cuGraphAddEventWaitNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                         const CUgraphNode* dependencies, size_t numDependencies,
                                         CUevent event) {
  return add_node("cuGraphAddEventWaitNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies,
                  [&] { return event_node_params(CU_GRAPH_NODE_TYPE_WAIT_EVENT, event); });
}

namespace {
CUresult event_get(const char* api, CUgraphNode node, CUgraphNodeType type, CUevent* out) {
  return api_call(api, [&]() -> Status {
    if (out == nullptr) return null_arg(api, "event_out");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(node, type));
    *out = n->params().event->handle();
    return ok_status();
  });
}
CUresult event_set(const char* api, CUgraphNode node, CUgraphNodeType type, CUevent event) {
  return api_call(api, [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of_type(node, type));
    ASSIGN_OR_RETURN(NodeParams p, event_node_params(type, event));
    return n->set_params(std::move(p));
  });
}
}  // namespace

CUresult CUDAAPI cuGraphEventRecordNodeGetEvent(CUgraphNode hNode, CUevent* event_out) {
  return event_get("cuGraphEventRecordNodeGetEvent", hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
                   event_out);
}
CUresult CUDAAPI cuGraphEventRecordNodeSetEvent(CUgraphNode hNode, CUevent event) {
  return event_set("cuGraphEventRecordNodeSetEvent", hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD, event);
}
CUresult CUDAAPI cuGraphEventWaitNodeGetEvent(CUgraphNode hNode, CUevent* event_out) {
  return event_get("cuGraphEventWaitNodeGetEvent", hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event_out);
}
CUresult CUDAAPI cuGraphEventWaitNodeSetEvent(CUgraphNode hNode, CUevent event) {
  return event_set("cuGraphEventWaitNodeSetEvent", hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT, event);
}

// --- memory nodes -------------------------------------------------------------------------

CUresult CUDAAPI cuGraphAddMemAllocNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                        const CUgraphNode* dependencies, size_t numDependencies,
                                        CUDA_MEM_ALLOC_NODE_PARAMS* nodeParams) {
  return add_node("cuGraphAddMemAllocNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, [&] { return mem_alloc_node_params(nodeParams); });
}

CUresult CUDAAPI cuGraphMemAllocNodeGetParams(CUgraphNode hNode,
                                              CUDA_MEM_ALLOC_NODE_PARAMS* params_out) {
  return api_call("cuGraphMemAllocNodeGetParams", [&]() -> Status {
    if (params_out == nullptr) return null_arg("cuGraphMemAllocNodeGetParams", "params_out");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n,
                     node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEM_ALLOC));
    *params_out = n->params().alloc;
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphAddMemFreeNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                       const CUgraphNode* dependencies, size_t numDependencies,
                                       CUdeviceptr dptr) {
  return add_node("cuGraphAddMemFreeNode", phGraphNode, hGraph, dependencies, nullptr,
                  numDependencies, [&] { return mem_free_node_params(dptr); });
}

CUresult CUDAAPI cuGraphMemFreeNodeGetParams(CUgraphNode hNode, CUdeviceptr* dptr_out) {
  return api_call("cuGraphMemFreeNodeGetParams", [&]() -> Status {
    if (dptr_out == nullptr) return null_arg("cuGraphMemFreeNodeGetParams", "dptr_out");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n,
                     node_of_type(hNode, CU_GRAPH_NODE_TYPE_MEM_FREE));
    *dptr_out = n->params().free_ptr;
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGraphMemTrim(CUdevice device) {
  return api_call("cuDeviceGraphMemTrim", [&]() -> Status {
    ASSIGN_OR_RETURN(Device * d, strata::cuda::driver::device(device));
    (void)d;  // graph memory is held by its nodes; nothing is cached beyond them
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceGetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr,
                                              void* value) {
  return api_call("cuDeviceGetGraphMemAttribute", [&]() -> Status {
    if (value == nullptr) return null_arg("cuDeviceGetGraphMemAttribute", "value");
    ASSIGN_OR_RETURN(Device * d, strata::cuda::driver::device(device));
    (void)d;
    GraphMemoryUsage u = graph_memory_usage();
    auto* out = static_cast<cuuint64_t*>(value);
    switch (attr) {
      case CU_GRAPH_MEM_ATTR_USED_MEM_CURRENT:
        *out = u.used;
        break;
      case CU_GRAPH_MEM_ATTR_USED_MEM_HIGH:
        *out = u.used_high;
        break;
      case CU_GRAPH_MEM_ATTR_RESERVED_MEM_CURRENT:
        *out = u.reserved;
        break;
      case CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH:
        *out = u.reserved_high;
        break;
      default:
        return error(Code::kInvalidValue, "unknown graph memory attribute");
    }
    return ok_status();
  });
}

CUresult CUDAAPI cuDeviceSetGraphMemAttribute(CUdevice device, CUgraphMem_attribute attr,
                                              void* value) {
  return api_call("cuDeviceSetGraphMemAttribute", [&]() -> Status {
    if (value == nullptr) return null_arg("cuDeviceSetGraphMemAttribute", "value");
    ASSIGN_OR_RETURN(Device * d, strata::cuda::driver::device(device));
    (void)d;
    if (*static_cast<cuuint64_t*>(value) != 0) {
      return error(Code::kInvalidValue, "graph memory high-water marks can only be reset to 0");
    }
    if (attr == CU_GRAPH_MEM_ATTR_USED_MEM_HIGH) {
      reset_graph_memory_high_water(true, false);
    } else if (attr == CU_GRAPH_MEM_ATTR_RESERVED_MEM_HIGH) {
      reset_graph_memory_high_water(false, true);
    } else {
      return error(Code::kInvalidValue, "only the high-water attributes can be set");
    }
    return ok_status();
  });
}

// --- structure --------------------------------------------------------------------------

CUresult CUDAAPI cuGraphNodeGetType(CUgraphNode hNode, CUgraphNodeType* type) {
  return api_call("cuGraphNodeGetType", [&]() -> Status {
    if (type == nullptr) return null_arg("cuGraphNodeGetType", "type");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(hNode));
    *type = n->type();
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphGetNodes(CUgraph hGraph, CUgraphNode* nodes, size_t* numNodes) {
  return api_call("cuGraphGetNodes", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    return copy_out(g->nodes(), nodes, numNodes,
                    [](const std::shared_ptr<GraphNode>& n) { return n->handle(); });
  });
}

CUresult CUDAAPI cuGraphGetRootNodes(CUgraph hGraph, CUgraphNode* rootNodes, size_t* numRootNodes) {
  return api_call("cuGraphGetRootNodes", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    std::vector<GraphNode*> roots;
    for (const auto& n : g->nodes()) {
      if (n->dependencies().empty()) roots.push_back(n.get());
    }
    return copy_out(roots, rootNodes, numRootNodes, [](GraphNode* n) { return n->handle(); });
  });
}

CUresult CUDAAPI cuGraphGetEdges(CUgraph hGraph, CUgraphNode* from, CUgraphNode* to,
                                 CUgraphEdgeData* edgeData, size_t* numEdges) {
  return api_call("cuGraphGetEdges", [&]() -> Status {
    if (numEdges == nullptr) return null_arg("cuGraphGetEdges", "numEdges");
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    std::vector<std::pair<GraphNode*, GraphNode*>> edges;
    for (const auto& n : g->nodes()) {
      for (GraphNode* d : n->dependencies()) edges.emplace_back(d, n.get());
    }
    if (from == nullptr && to == nullptr) {
      *numEdges = edges.size();
      return ok_status();
    }
    if (from == nullptr || to == nullptr) {
      return error(Code::kInvalidValue, "cuGraphGetEdges: from and to must both be given");
    }
    size_t n = std::min(*numEdges, edges.size());
    for (size_t i = 0; i < *numEdges; ++i) {
      from[i] = i < n ? edges[i].first->handle() : nullptr;
      to[i] = i < n ? edges[i].second->handle() : nullptr;
      if (edgeData != nullptr) edgeData[i] = CUgraphEdgeData{};
    }
    *numEdges = n;
    return ok_status();
  });
}

namespace {
CUresult node_neighbours(const char* api, CUgraphNode hNode, CUgraphNode* out,
                         CUgraphEdgeData* edgeData, size_t* count, bool dependencies) {
  return api_call(api, [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(hNode));
    const std::vector<GraphNode*>& list = dependencies ? n->dependencies() : n->dependents();
    if (out != nullptr && edgeData != nullptr && count != nullptr) {
      for (size_t i = 0; i < *count; ++i) edgeData[i] = CUgraphEdgeData{};
    }
    return copy_out(list, out, count, [](GraphNode* x) { return x->handle(); });
  });
}
}  // namespace

CUresult CUDAAPI cuGraphNodeGetDependencies(CUgraphNode hNode, CUgraphNode* dependencies,
                                            CUgraphEdgeData* edgeData, size_t* numDependencies) {
  return node_neighbours("cuGraphNodeGetDependencies", hNode, dependencies, edgeData,
                         numDependencies, true);
}

CUresult CUDAAPI cuGraphNodeGetDependentNodes(CUgraphNode hNode, CUgraphNode* dependentNodes,
                                              CUgraphEdgeData* edgeData,
                                              size_t* numDependentNodes) {
  return node_neighbours("cuGraphNodeGetDependentNodes", hNode, dependentNodes, edgeData,
                         numDependentNodes, false);
}

namespace {
CUresult edges(const char* api, CUgraph hGraph, const CUgraphNode* from, const CUgraphNode* to,
               const CUgraphEdgeData* edgeData, size_t count, bool add) {
  return api_call(api, [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    if (count > 0 && (from == nullptr || to == nullptr)) return null_arg(api, "from or to");
    RETURN_IF_ERROR(check_edge_data(edgeData, count));
    if (!add && g->has_memory_nodes()) {
      return error(Code::kNotSupported,
                   "dependencies cannot be removed from graphs with memory "
                   "nodes");
    }
    for (size_t i = 0; i < count; ++i) {
      ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> f, node_of(from[i]));
      ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> t, node_of(to[i]));
      RETURN_IF_ERROR(add ? g->add_edge(f.get(), t.get()) : g->remove_edge(f.get(), t.get()));
    }
    return ok_status();
  });
}
}  // namespace

CUresult CUDAAPI cuGraphAddDependencies(CUgraph hGraph, const CUgraphNode* from,
                                        const CUgraphNode* to, const CUgraphEdgeData* edgeData,
                                        size_t numDependencies) {
  return edges("cuGraphAddDependencies", hGraph, from, to, edgeData, numDependencies, true);
}

CUresult CUDAAPI cuGraphRemoveDependencies(CUgraph hGraph, const CUgraphNode* from,
                                           const CUgraphNode* to, const CUgraphEdgeData* edgeData,
                                           size_t numDependencies) {
  return edges("cuGraphRemoveDependencies", hGraph, from, to, edgeData, numDependencies, false);
}

CUresult CUDAAPI cuGraphDestroyNode(CUgraphNode hNode) {
  return api_call("cuGraphDestroyNode", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(hNode));
    if (n->graph().has_memory_nodes()) {
      return error(Code::kNotSupported, "nodes of graphs with memory nodes cannot be destroyed");
    }
    notify_graph_node_destroy_starting(*n);
    n->graph().destroy_node(n.get());
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphAddNode(CUgraphNode* phGraphNode, CUgraph hGraph,
                                const CUgraphNode* dependencies,
                                const CUgraphEdgeData* dependencyData, size_t numDependencies,
                                CUgraphNodeParams* nodeParams) {
  return add_node("cuGraphAddNode", phGraphNode, hGraph, dependencies, dependencyData,
                  numDependencies, [&] { return node_params(nodeParams); });
}

CUresult CUDAAPI cuGraphNodeSetParams(CUgraphNode hNode, CUgraphNodeParams* nodeParams) {
  return api_call("cuGraphNodeSetParams", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(hNode));
    if (nodeParams != nullptr && (nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
                                  nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_FREE)) {
      return error(Code::kInvalidValue, "memory nodes cannot be changed");
    }
    ASSIGN_OR_RETURN(NodeParams p, node_params(nodeParams));
    return n->set_params(std::move(p));
  });
}

CUresult CUDAAPI cuGraphDebugDotPrint(CUgraph hGraph, const char* path, unsigned int flags) {
  return api_call("cuGraphDebugDotPrint", [&]() -> Status {
    if (path == nullptr) return null_arg("cuGraphDebugDotPrint", "path");
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    std::string text = g->dot(flags);
    FILE* f = std::fopen(path, "w");
    if (f == nullptr) {
      return error(Code::kInvalidValue, fmt::format("cuGraphDebugDotPrint: cannot write {}", path));
    }
    std::fwrite(text.data(), 1, text.size(), f);
    std::fclose(f);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphConditionalHandleCreate(CUgraphConditionalHandle* pHandle_out,
                                                CUgraph hGraph, CUcontext ctx,
                                                unsigned int defaultLaunchValue,
                                                unsigned int flags) {
  (void)pHandle_out, (void)hGraph, (void)ctx, (void)defaultLaunchValue, (void)flags;
  STRATA_LOG_INFO(
      "cuGraphConditionalHandleCreate: conditional graph nodes (IF/WHILE/SWITCH) are "
      "not supported by Strata");
  return CUDA_ERROR_NOT_SUPPORTED;
}

// --- instantiate and exec updates -------------------------------------------------------

CUresult CUDAAPI cuGraphInstantiate(CUgraphExec* phGraphExec, CUgraph hGraph,
                                    unsigned long long flags) {
  return api_call("cuGraphInstantiateWithFlags", [&]() -> Status {
    if (phGraphExec == nullptr) return null_arg("cuGraphInstantiateWithFlags", "phGraphExec");
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    if ((flags & CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD) != 0) {
      return error(Code::kInvalidValue,
                   "CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD needs "
                   "cuGraphInstantiateWithParams");
    }
    ASSIGN_OR_RETURN(std::shared_ptr<GraphExec> e, GraphExec::instantiate(*g, flags));
    handles().graph_execs.insert(e);
    *phGraphExec = e->handle();
    notify_graph_exec_created(*e, *g);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphExecGetFlags(CUgraphExec hGraphExec, cuuint64_t* flags) {
  return api_call("cuGraphExecGetFlags", [&]() -> Status {
    if (flags == nullptr) return null_arg("cuGraphExecGetFlags", "flags");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphExec> e, exec_of(hGraphExec));
    // UPLOAD is not reported (cuda.h).
    *flags = e->flags() & ~static_cast<cuuint64_t>(CUDA_GRAPH_INSTANTIATE_FLAG_UPLOAD);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphExecDestroy(CUgraphExec hGraphExec) {
  return api_call("cuGraphExecDestroy", [&]() -> Status {
    // The resource event first, while the handle still resolves.
    if (std::shared_ptr<GraphExec> live = handles().graph_execs.find(hGraphExec)) {
      notify_graph_exec_destroy_starting(*live);
    }
    if (!handles().graph_execs.erase(hGraphExec)) {
      return error(Code::kInvalidValue, "cuGraphExecDestroy: the exec is not live");
    }
    return ok_status();
  });
}

namespace {
CUresult exec_set(const char* api, CUgraphExec exec, CUgraphNode node, CUgraphNodeType type,
                  const std::function<StatusOr<NodeParams>(GraphNode&)>& make) {
  return api_call(api, [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphExec> e, exec_of(exec));
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(node));
    if (type != CU_GRAPH_NODE_TYPE_EMPTY && n->type() != type) {
      return error(Code::kInvalidValue, fmt::format("{}: the node has another type", api));
    }
    ASSIGN_OR_RETURN(GraphNode * mine, e->exec_node(n.get()));
    ASSIGN_OR_RETURN(NodeParams p, make(*mine));
    return e->set_node_params(n.get(), std::move(p));
  });
}
}  // namespace

CUresult CUDAAPI cuGraphExecKernelNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_KERNEL_NODE_PARAMS* nodeParams) {
  return exec_set("cuGraphExecKernelNodeSetParams", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_KERNEL,
                  [&](GraphNode&) -> StatusOr<NodeParams> {
                    if (nodeParams == nullptr)
                      return null_arg("cuGraphExecKernelNodeSetParams", "nodeParams");
                    return kernel_node_params(*nodeParams);
                  });
}

CUresult CUDAAPI cuGraphExecMemcpyNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMCPY3D* copyParams, CUcontext ctx) {
  return exec_set("cuGraphExecMemcpyNodeSetParams", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMCPY,
                  [&](GraphNode&) -> StatusOr<NodeParams> {
                    if (copyParams == nullptr)
                      return null_arg("cuGraphExecMemcpyNodeSetParams", "copyParams");
                    return memcpy_node_params(*copyParams, ctx);
                  });
}

CUresult CUDAAPI cuGraphExecMemsetNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                const CUDA_MEMSET_NODE_PARAMS* memsetParams,
                                                CUcontext ctx) {
  return exec_set("cuGraphExecMemsetNodeSetParams", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_MEMSET,
                  [&](GraphNode&) -> StatusOr<NodeParams> {
                    if (memsetParams == nullptr)
                      return null_arg("cuGraphExecMemsetNodeSetParams", "memsetParams");
                    return memset_node_params(*memsetParams, ctx);
                  });
}

CUresult CUDAAPI cuGraphExecHostNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                              const CUDA_HOST_NODE_PARAMS* nodeParams) {
  return exec_set("cuGraphExecHostNodeSetParams", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_HOST,
                  [&](GraphNode&) -> StatusOr<NodeParams> {
                    if (nodeParams == nullptr)
                      return null_arg("cuGraphExecHostNodeSetParams", "nodeParams");
                    return host_node_params(*nodeParams);
                  });
}

CUresult CUDAAPI cuGraphExecChildGraphNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    CUgraph childGraph) {
  return exec_set("cuGraphExecChildGraphNodeSetParams", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_GRAPH,
                  [&](GraphNode&) { return child_graph_node_params(childGraph); });
}

CUresult CUDAAPI cuGraphExecEventRecordNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                    CUevent event) {
  return exec_set(
      "cuGraphExecEventRecordNodeSetEvent", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_EVENT_RECORD,
      [&](GraphNode&) { return event_node_params(CU_GRAPH_NODE_TYPE_EVENT_RECORD, event); });
}

CUresult CUDAAPI cuGraphExecEventWaitNodeSetEvent(CUgraphExec hGraphExec, CUgraphNode hNode,
                                                  CUevent event) {
  return exec_set(
      "cuGraphExecEventWaitNodeSetEvent", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_WAIT_EVENT,
      [&](GraphNode&) { return event_node_params(CU_GRAPH_NODE_TYPE_WAIT_EVENT, event); });
}

CUresult CUDAAPI cuGraphExecNodeSetParams(CUgraphExec hGraphExec, CUgraphNode hNode,
                                          CUgraphNodeParams* nodeParams) {
  return exec_set(
      "cuGraphExecNodeSetParams", hGraphExec, hNode, CU_GRAPH_NODE_TYPE_EMPTY,
      [&](GraphNode&) -> StatusOr<NodeParams> {
        if (nodeParams != nullptr && (nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_ALLOC ||
                                      nodeParams->type == CU_GRAPH_NODE_TYPE_MEM_FREE)) {
          return error(Code::kInvalidValue, "memory nodes cannot be changed");
        }
        return node_params(nodeParams);
      });
}

CUresult CUDAAPI cuGraphNodeSetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode,
                                       unsigned int isEnabled) {
  return api_call("cuGraphNodeSetEnabled", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<GraphExec> e, exec_of(hGraphExec));
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(hNode));
    return e->set_enabled(n.get(), isEnabled != 0);
  });
}

CUresult CUDAAPI cuGraphNodeGetEnabled(CUgraphExec hGraphExec, CUgraphNode hNode,
                                       unsigned int* isEnabled) {
  return api_call("cuGraphNodeGetEnabled", [&]() -> Status {
    if (isEnabled == nullptr) return null_arg("cuGraphNodeGetEnabled", "isEnabled");
    ASSIGN_OR_RETURN(std::shared_ptr<GraphExec> e, exec_of(hGraphExec));
    ASSIGN_OR_RETURN(std::shared_ptr<GraphNode> n, node_of(hNode));
    ASSIGN_OR_RETURN(bool enabled, e->enabled(n.get()));
    *isEnabled = enabled ? 1 : 0;
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphExecUpdate(CUgraphExec hGraphExec, CUgraph hGraph,
                                   CUgraphExecUpdateResultInfo* resultInfo) {
  return api_call("cuGraphExecUpdate", [&]() -> Status {
    if (resultInfo != nullptr)
      *resultInfo = CUgraphExecUpdateResultInfo{CU_GRAPH_EXEC_UPDATE_ERROR, nullptr, nullptr};
    ASSIGN_OR_RETURN(std::shared_ptr<GraphExec> e, exec_of(hGraphExec));
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(hGraph));
    return e->update(*g, resultInfo);
  });
}

// --- user objects --------------------------------------------------------------------------

CUresult CUDAAPI cuUserObjectCreate(CUuserObject* object_out, void* ptr, CUhostFn destroy,
                                    unsigned int initialRefcount, unsigned int flags) {
  return api_call("cuUserObjectCreate", [&]() -> Status {
    if (object_out == nullptr || destroy == nullptr) {
      return null_arg("cuUserObjectCreate", "object_out or destroy");
    }
    if (initialRefcount == 0) return error(Code::kInvalidValue, "initialRefcount is 0");
    if (flags != CU_USER_OBJECT_NO_DESTRUCTOR_SYNC) {
      return error(Code::kInvalidValue, "flags must be CU_USER_OBJECT_NO_DESTRUCTOR_SYNC");
    }
    *object_out = UserObject::create(ptr, destroy, initialRefcount)->handle();
    return ok_status();
  });
}

CUresult CUDAAPI cuUserObjectRetain(CUuserObject object, unsigned int count) {
  return api_call("cuUserObjectRetain", [&]() -> Status {
    std::shared_ptr<UserObject> o = handles().user_objects.find(object);
    if (!o) return error(Code::kInvalidValue, "the user object is not live");
    if (count == 0) return error(Code::kInvalidValue, "count is 0");
    o->retain(count);
    return ok_status();
  });
}

CUresult CUDAAPI cuUserObjectRelease(CUuserObject object, unsigned int count) {
  return api_call("cuUserObjectRelease", [&]() -> Status {
    std::shared_ptr<UserObject> o = handles().user_objects.find(object);
    if (!o) return error(Code::kInvalidValue, "the user object is not live");
    if (count == 0) return error(Code::kInvalidValue, "count is 0");
    return o->release(count);
  });
}

CUresult CUDAAPI cuGraphRetainUserObject(CUgraph graph, CUuserObject object, unsigned int count,
                                         unsigned int flags) {
  return api_call("cuGraphRetainUserObject", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(graph));
    std::shared_ptr<UserObject> o = handles().user_objects.find(object);
    if (!o) return error(Code::kInvalidValue, "the user object is not live");
    if (count == 0) return error(Code::kInvalidValue, "count is 0");
    if ((flags & ~static_cast<unsigned int>(CU_GRAPH_USER_OBJECT_MOVE)) != 0) {
      return error(Code::kInvalidValue, "unknown flags");
    }
    RETURN_IF_ERROR(g->retain_user_object(o, count));
    // MOVE: the caller's references become the graph's.
    if ((flags & CU_GRAPH_USER_OBJECT_MOVE) != 0) return o->release(count);
    return ok_status();
  });
}

CUresult CUDAAPI cuGraphReleaseUserObject(CUgraph graph, CUuserObject object, unsigned int count) {
  return api_call("cuGraphReleaseUserObject", [&]() -> Status {
    ASSIGN_OR_RETURN(std::shared_ptr<Graph> g, graph_of(graph));
    std::shared_ptr<UserObject> o = handles().user_objects.find(object);
    if (!o) return error(Code::kInvalidValue, "the user object is not live");
    if (count == 0) return error(Code::kInvalidValue, "count is 0");
    return g->release_user_object(o, count);
  });
}

CUresult CUDAAPI cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode) {
  return api_call("cuThreadExchangeStreamCaptureMode", [&]() -> Status {
    if (mode == nullptr) return null_arg("cuThreadExchangeStreamCaptureMode", "mode");
    ASSIGN_OR_RETURN(*mode, exchange_capture_mode(*mode));
    return ok_status();
  });
}

// --- not supported node kinds ------------------------------------------------------------

#define STRATA_GRAPH_NOT_SUPPORTED(name, what, ...)                  \
  CUresult CUDAAPI name(__VA_ARGS__) {                               \
    STRATA_LOG_INFO(#name ": " what " are not supported by Strata"); \
    return CUDA_ERROR_NOT_SUPPORTED;                                 \
  }
STRATA_GRAPH_NOT_SUPPORTED(cuGraphAddExternalSemaphoresSignalNode, "external semaphores",
                           CUgraphNode*, CUgraph, const CUgraphNode*, size_t,
                           const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS*)
STRATA_GRAPH_NOT_SUPPORTED(cuGraphAddExternalSemaphoresWaitNode, "external semaphores",
                           CUgraphNode*, CUgraph, const CUgraphNode*, size_t,
                           const CUDA_EXT_SEM_WAIT_NODE_PARAMS*)
STRATA_GRAPH_NOT_SUPPORTED(cuGraphAddBatchMemOpNode, "batch memory operations", CUgraphNode*,
                           CUgraph, const CUgraphNode*, size_t,
                           const CUDA_BATCH_MEM_OP_NODE_PARAMS*)
#undef STRATA_GRAPH_NOT_SUPPORTED

}  // extern "C"
