// cuGetExportTable's tables: the profiler table (prof/abi.h) for prof::kProfilerTableId,
// and the driver's side of its resource events (ProfilerTable::set_resource_hook).
#pragma once

#include <cuda.h>

#include <atomic>
#include <cstddef>
#include <cstdint>

#include "prof/abi.h"

namespace strata::cuda::driver {

class Context;
class Graph;
class GraphExec;
class GraphNode;
class Module;
class Stream;

// The table for `id`, or null when `id` names no table Strata exports.
const void* profiler_export_table(const CUuuid& id);

// Resource events for the registered hook (prof::ResourceEvent). While no hook is
// registered each notify_* costs one relaxed atomic load (inline); the work is out of
// line. Call them outside driver locks: the hook is the client's code and may call the
// driver. Built with STRATA_ACTIVITY=OFF they compile away.
namespace detail {
extern std::atomic<prof::ResourceHook> g_resource_hook;
void context_created(Context& context);
void context_destroy_starting(Context& context);
void stream_created(Stream& stream);
void stream_destroy_starting(Stream& stream);
void module_loaded(Module& module, const void* image, size_t size);
void module_unload_starting(Module& module);
void stream_synchronized(Stream& stream);
void context_synchronized(Context& context);
void graph_created(Graph& graph);
void graph_cloned(Graph& copy, Graph& original);
void graph_destroy_starting(Graph& graph);
void graph_node_created(GraphNode& node);
void graph_node_destroy_starting(GraphNode& node);
void graph_exec_created(GraphExec& exec, Graph& graph);
void graph_exec_destroy_starting(GraphExec& exec);
}  // namespace detail

inline bool resource_hook_set() {
#if !defined(STRATA_ACTIVITY) || STRATA_ACTIVITY
  return detail::g_resource_hook.load(std::memory_order_relaxed) != nullptr;
#else
  return false;
#endif
}

// A new context (after its creation), then its legacy NULL stream.
inline void notify_context_created(Context& context) {
  if (resource_hook_set()) detail::context_created(context);
}
// A context about to be destroyed (still usable): the context first, then its streams
// (user, per-thread default, the legacy stream last) and its modules, each reported at
// most once.
inline void notify_context_destroy_starting(Context& context) {
  if (resource_hook_set()) detail::context_destroy_starting(context);
}
// Streams other than a context's legacy stream (which the context events cover).
inline void notify_stream_created(Stream& stream) {
  if (resource_hook_set()) detail::stream_created(stream);
}
inline void notify_stream_destroy_starting(Stream& stream) {
  if (resource_hook_set()) detail::stream_destroy_starting(stream);
}
// A module loaded from `image` (`size` bytes; valid during the call): the module keeps a
// copy for its unload event.
inline void notify_module_loaded(Module& module, const void* image, size_t size) {
  if (resource_hook_set()) detail::module_loaded(module, image, size);
}
inline void notify_module_unload_starting(Module& module) {
  if (resource_hook_set()) detail::module_unload_starting(module);
}
// cuStreamSynchronize / cuCtxSynchronize returned successfully.
inline void notify_stream_synchronized(Stream& stream) {
  if (resource_hook_set()) detail::stream_synchronized(stream);
}
inline void notify_context_synchronized(Context& context) {
  if (resource_hook_set()) detail::context_synchronized(context);
}
// Graphs: created (cuGraphCreate, a capture's new graph); a clone (cuGraphClone: the
// graph, then each node's clone, child graphs' nodes too); about to be destroyed.
inline void notify_graph_created(Graph& graph) {
  if (resource_hook_set()) detail::graph_created(graph);
}
inline void notify_graph_cloned(Graph& copy, Graph& original) {
  if (resource_hook_set()) detail::graph_cloned(copy, original);
}
inline void notify_graph_destroy_starting(Graph& graph) {
  if (resource_hook_set()) detail::graph_destroy_starting(graph);
}
// A node added by the application (cuGraphAdd*Node) or by stream capture.
inline void notify_graph_node_created(GraphNode& node) {
  if (resource_hook_set()) detail::graph_node_created(node);
}
inline void notify_graph_node_destroy_starting(GraphNode& node) {
  if (resource_hook_set()) detail::graph_node_destroy_starting(node);
}
// An executable instantiated from `graph`: each of its nodes as a clone of the graph's
// (child graphs' nodes too; these copies are the graphNodeIds of its kernel records),
// then the executable.
inline void notify_graph_exec_created(GraphExec& exec, Graph& graph) {
  if (resource_hook_set()) detail::graph_exec_created(exec, graph);
}
inline void notify_graph_exec_destroy_starting(GraphExec& exec) {
  if (resource_hook_set()) detail::graph_exec_destroy_starting(exec);
}

}  // namespace strata::cuda::driver
