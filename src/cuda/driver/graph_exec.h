// GraphExec: an instantiated CUDA graph (CUgraphExec).
//
// Instantiation copies the graph (later edits of the graph do not affect it), orders
// its nodes topologically (child graphs inlined) and pre-records them: consecutive
// kernel, memcpy and memset nodes become ONE finalized hal::CommandBuffer, so a graph of
// such nodes launches as one Stream::submit of that buffer. Host nodes, event record
// nodes and copies that touch pageable host memory need the host or a fresh event
// value at launch time, so they split the recording: a host node runs on the stream's
// host worker between two buffers (Stream::launch_host), an event record node records
// the event between them, and an event wait node adds the event's latest record (at
// launch time) to the next submission's waits. Pageable copies go through a pinned
// staging buffer owned by the exec (device side in the command buffer, host side in a
// host step). Disabled kernel, memcpy and memset nodes are left out of the recording.
//
// Launches are ordered behind the previous launch of the same exec (on any stream).
// Per-node setters and update() change the exec's copy of the parameters and re-record
// into new command buffers; a launch in flight keeps the buffers it was given.
//
// Memory-allocation nodes: the allocation becomes live at launch and stays live until
// a free node, cuMemFreeAsync or cuMemFree frees it; launching an exec whose
// allocations are still live is kInvalidValue unless it was instantiated with
// CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH (which frees them first).
// Thread-safe.
#pragma once

#include <cuda.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "base/status.h"
#include "cuda/driver/graph.h"
#include "hal/command_buffer.h"
#include "hal/semaphore.h"

namespace strata::cuda::driver {

class Stream;

class GraphExec {
 public:
  // flags: CUDA_GRAPH_INSTANTIATE_FLAG_*; DEVICE_LAUNCH is kNotSupported. Errors:
  // kInvalidValue for a cyclic graph or unknown flags, and what recording reports.
  static StatusOr<std::shared_ptr<GraphExec>> instantiate(const Graph& graph,
                                                          unsigned long long flags);
  ~GraphExec();
  CUgraphExec handle() { return reinterpret_cast<CUgraphExec>(this); }
  unsigned long long flags() const { return flags_; }
  uint64_t id() const { return id_; }

  Status launch(Stream& stream);
  // cuGraphUpload: the buffers are recorded at instantiation, so only validates.
  Status upload(Stream& stream);

  // The exec's copy of `node` (a node of the instantiated graph); kInvalidValue if the
  // node was not part of it.
  StatusOr<GraphNode*> exec_node(const GraphNode* node) const;
  // Per-node updates (cuGraphExec*NodeSetParams, cuGraphExecNodeSetParams): the type
  // must match; kernel nodes must keep their context; memcpy/memset nodes their
  // context and memory types. Re-records.
  Status set_node_params(const GraphNode* node, NodeParams params);
  Status set_enabled(const GraphNode* node, bool enabled);
  StatusOr<bool> enabled(const GraphNode* node) const;

  // cuGraphExecUpdate: `graph` must be topologically identical (CUDA's pairing: nodes
  // in creation order, dependencies in edge order). On success the parameters are
  // taken over and `info` says CU_GRAPH_EXEC_UPDATE_SUCCESS; otherwise nothing changes,
  // `info` says why and the Status is CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE.
  Status update(const Graph& graph, CUgraphExecUpdateResultInfo* info);

  // A copy of the exec's graph (as updated), for launching it into a capture as a
  // child graph node; kNotSupported when it has memory nodes.
  StatusOr<std::shared_ptr<Graph>> snapshot() const;

  struct Step;

 private:
  GraphExec() = default;
  // Linearises graph_ into steps (called with mutex_ held).
  Status record_locked();
  StatusOr<GraphNode*> exec_node_locked(const GraphNode* node) const;

  unsigned long long flags_ = 0;
  const uint64_t id_ = next_graph_object_id();
  Context* context_ = nullptr;
  mutable std::mutex mutex_;
  std::shared_ptr<Graph> graph_;                     // the exec's copy
  std::map<const GraphNode*, GraphNode*> node_map_;  // instantiated graph's node -> copy
  std::map<const GraphNode*, bool> disabled_;        // copies that are disabled
  std::shared_ptr<const std::vector<Step>> steps_;
  std::vector<std::shared_ptr<GraphAllocation>> allocations_;  // of alloc nodes
  std::vector<std::shared_ptr<GraphAllocation>> frees_;        // of free nodes
  std::shared_ptr<std::atomic<int>> instantiations_;           // of the instantiated graph
  hal::SemaphoreValue last_launch_;
  std::mutex launch_mutex_;
};

}  // namespace strata::cuda::driver
