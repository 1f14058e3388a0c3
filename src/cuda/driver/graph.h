// Graph and GraphNode: a CUDA graph (CUgraph), a DAG of typed nodes (CUgraphNode) built
// by the explicit graph API or by stream capture (capture.h), and GraphAllocation, the
// memory of memory-allocation nodes.
//
// A node holds its parameters by value: kernel nodes copy the argument bytes at add
// time (packed by the function's parameter layout, as cuLaunchKernel packs them), child
// graph nodes own a clone of the graph they were given. Edges are kept on both ends in
// the order they were added (cuGraphGetEdges, cuGraphExecUpdate's pairing).
//
// A graph owns its nodes; node handles are valid until cuGraphDestroyNode or the
// graph's destruction. Like CUDA's, graphs are not internally synchronised: callers
// must not use one graph from two threads at once. Instantiation is graph_exec.h.
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "base/status.h"
#include "cuda/driver/launch_config.h"
#include "hal/buffer.h"

namespace strata::cuda::driver {

class Context;
class Event;
class Function;
class Graph;
class UserObject;

// Graph-owned memory of one memory-allocation node. The VA is fixed when the node is
// added and stays the same for every launch; the memory is "live" from the launch of
// its allocation node until it is freed (a free node, cuMemFreeAsync or cuMemFree).
class GraphAllocation {
 public:
  static StatusOr<std::shared_ptr<GraphAllocation>> create(Context& context, uint64_t bytes);
  ~GraphAllocation();
  uint64_t va() const { return buffer_->va(); }
  uint64_t size() const { return size_; }
  Context& context() const { return *context_; }
  bool live() const { return live_.load(); }
  void set_live(bool live) { live_.store(live); }

 private:
  GraphAllocation() = default;
  Context* context_ = nullptr;
  std::shared_ptr<hal::Buffer> buffer_;
  uint64_t size_ = 0;
  std::atomic<bool> live_{false};
};

// The graph allocation at exactly `va`, or null.
std::shared_ptr<GraphAllocation> find_graph_allocation(uint64_t va);

// Frees a graph allocation outside any graph (cuMemFreeAsync / cuMemFree outside
// capture): nullopt when `va` is not a graph allocation; kInvalidValue when it is not
// live (never allocated by a launch, or already freed).
std::optional<Status> free_graph_allocation(uint64_t va);

// Graph memory of all devices in bytes (cuDeviceGetGraphMemAttribute): `reserved` is
// every allocation that exists, `used` the live ones; the high-water marks reset when
// set to 0 (cuDeviceSetGraphMemAttribute).
struct GraphMemoryUsage {
  uint64_t used = 0, used_high = 0, reserved = 0, reserved_high = 0;
};
GraphMemoryUsage graph_memory_usage();
void reset_graph_memory_high_water(bool used, bool reserved);

// Everything a node does: the fields of its type are meaningful, the others are empty.
struct NodeParams {
  CUgraphNodeType type = CU_GRAPH_NODE_TYPE_EMPTY;
  Context* context = nullptr;  // kernel (the function's), memcpy, memset, alloc
  // CU_GRAPH_NODE_TYPE_KERNEL
  std::shared_ptr<Function> function;
  LaunchShape shape;
  std::vector<uint8_t> args;  // the packed c[0] block
  // CU_GRAPH_NODE_TYPE_MEMCPY (1D copies are 3D copies of one row)
  CUDA_MEMCPY3D copy{};
  // CU_GRAPH_NODE_TYPE_MEMSET
  CUDA_MEMSET_NODE_PARAMS memset{};
  // CU_GRAPH_NODE_TYPE_HOST
  CUhostFn host_fn = nullptr;
  void* user_data = nullptr;
  // CU_GRAPH_NODE_TYPE_GRAPH (owned clone)
  std::shared_ptr<Graph> child;
  // CU_GRAPH_NODE_TYPE_EVENT_RECORD / CU_GRAPH_NODE_TYPE_WAIT_EVENT
  std::shared_ptr<Event> event;
  // CU_GRAPH_NODE_TYPE_MEM_ALLOC
  std::shared_ptr<GraphAllocation> allocation;
  CUDA_MEM_ALLOC_NODE_PARAMS alloc{};
  // CU_GRAPH_NODE_TYPE_MEM_FREE
  CUdeviceptr free_ptr = 0;
};

// Validated node parameters from the public structures (the current context is the
// default context). Errors: kInvalidValue / kInvalidHandle as cuGraphAdd*Node reports
// them; kNotSupported for CUDA arrays and other unsupported operands.
StatusOr<NodeParams> kernel_node_params(const CUDA_KERNEL_NODE_PARAMS& p);
StatusOr<NodeParams> memcpy_node_params(const CUDA_MEMCPY3D& p, CUcontext ctx);
StatusOr<NodeParams> memset_node_params(const CUDA_MEMSET_NODE_PARAMS& p, CUcontext ctx);
StatusOr<NodeParams> host_node_params(const CUDA_HOST_NODE_PARAMS& p);
StatusOr<NodeParams> event_node_params(CUgraphNodeType type, CUevent event);
StatusOr<NodeParams> child_graph_node_params(CUgraph child);
StatusOr<NodeParams> mem_alloc_node_params(CUDA_MEM_ALLOC_NODE_PARAMS* p);
StatusOr<NodeParams> mem_free_node_params(CUdeviceptr dptr);
// The generic form (cuGraphAddNode / cuGraphNodeSetParams). Memory-allocation nodes
// write their VA back into `p`.
StatusOr<NodeParams> node_params(CUgraphNodeParams* p);

// Process-unique ids of graphs, graph nodes and graph executables (profiler records).
uint64_t next_graph_object_id();

class GraphNode {
 public:
  ~GraphNode();
  uint64_t id() const { return id_; }
  CUgraphNode handle() { return reinterpret_cast<CUgraphNode>(this); }
  Graph& graph() const { return *graph_; }
  CUgraphNodeType type() const { return params_.type; }
  const NodeParams& params() const { return params_; }
  // Replaces the parameters; the type must stay the same (kInvalidValue).
  Status set_params(NodeParams params);
  const std::vector<GraphNode*>& dependencies() const { return dependencies_; }
  const std::vector<GraphNode*>& dependents() const { return dependents_; }
  // The node this one was cloned from (cuGraphNodeFindInClone), or null.
  const GraphNode* origin() const { return origin_; }
  // cuGraphKernelNodeGetParams' kernelParams: pointers into this node's argument copy.
  void** kernel_param_pointers();

  // Kernel node launch attributes (cuGraphKernelNodeSetAttribute). Strata keeps the
  // scheduling hints (access policy window, priority, memory sync domain, cluster
  // scheduling preference) as values only; a cooperative node or a cluster larger than
  // one CTA is kNotSupported, other attributes kInvalidValue. Unset: all zeros.
  Status set_attribute(CUkernelNodeAttrID id, const CUkernelNodeAttrValue& value);
  CUkernelNodeAttrValue attribute(CUkernelNodeAttrID id) const;
  void copy_attributes(const GraphNode& from) { attributes_ = from.attributes_; }

 private:
  friend class Graph;
  Graph* graph_ = nullptr;
  NodeParams params_;
  std::vector<GraphNode*> dependencies_;
  std::vector<GraphNode*> dependents_;
  const GraphNode* origin_ = nullptr;
  std::vector<void*> param_pointers_;
  std::map<int, CUkernelNodeAttrValue> attributes_;
  const uint64_t id_ = next_graph_object_id();
};

class Graph : public std::enable_shared_from_this<Graph> {
 public:
  friend class GraphNode;
  static std::shared_ptr<Graph> create();
  ~Graph();
  CUgraph handle() { return reinterpret_cast<CUgraph>(this); }
  // A process-unique id (cuptiGetGraphId), from the counter of nodes and executables.
  uint64_t id() const { return id_; }

  // Adds a node after `dependencies` (nodes of this graph, no duplicates:
  // kInvalidValue). The node handle is registered for lookups.
  StatusOr<GraphNode*> add_node(NodeParams params, std::span<GraphNode* const> dependencies);
  // Edges. add: kInvalidValue for a node of another graph, a self edge or an existing
  // edge; remove: kInvalidValue for an edge that does not exist.
  Status add_edge(GraphNode* from, GraphNode* to);
  Status remove_edge(GraphNode* from, GraphNode* to);
  // Removes the node and its edges.
  void destroy_node(GraphNode* node);

  // Nodes in creation order.
  const std::vector<std::shared_ptr<GraphNode>>& nodes() const { return nodes_; }
  bool contains(const GraphNode* node) const;
  // Nodes in an order where each comes after its dependencies (stable: creation order
  // among independent nodes); kInvalidValue if the graph has a cycle.
  StatusOr<std::vector<GraphNode*>> topological_order() const;

  // True for the graph a child graph node owns (not destroyable by cuGraphDestroy).
  bool is_child() const { return is_child_; }

  // A deep copy (child graphs too); nodes remember their origin.
  StatusOr<std::shared_ptr<Graph>> clone() const;

  // Graphviz text of the graph (cuGraphDebugDotPrint).
  std::string dot(unsigned int flags) const;

  // True if the graph has memory-allocation or free nodes (CUDA's restrictions apply:
  // no clone, no node or edge removal, one instantiation at a time).
  bool has_memory_nodes() const;
  // Live instantiations of this graph (shared with the execs, which decrement it).
  const std::shared_ptr<std::atomic<int>>& instantiations() const { return instantiations_; }

  // User objects the graph holds references to (cuGraphRetainUserObject).
  Status retain_user_object(const std::shared_ptr<UserObject>& object, unsigned int count);
  Status release_user_object(const std::shared_ptr<UserObject>& object, unsigned int count);

 private:
  Graph() = default;
  std::vector<std::shared_ptr<GraphNode>> nodes_;
  std::map<std::shared_ptr<UserObject>, unsigned int> user_objects_;
  std::shared_ptr<std::atomic<int>> instantiations_ = std::make_shared<std::atomic<int>>(0);
  bool is_child_ = false;
  const uint64_t id_ = next_graph_object_id();
};

// CUuserObject: a reference-counted object whose destructor runs when the last
// reference is released (on the releasing thread: cuUserObjectRelease, cuGraphDestroy,
// cuGraphExecDestroy, ...). Thread-safe.
class UserObject {
 public:
  static std::shared_ptr<UserObject> create(void* ptr, CUhostFn destroy, unsigned int refs);
  CUuserObject handle() { return reinterpret_cast<CUuserObject>(this); }
  void retain(unsigned int count);
  // Drops `count` references; the last one runs the destructor and retires the handle.
  Status release(unsigned int count);

 private:
  UserObject() = default;
  void* ptr_ = nullptr;
  CUhostFn destroy_ = nullptr;
  std::mutex mutex_;
  uint64_t refs_ = 0;
};

}  // namespace strata::cuda::driver
