// The process-wide tables of live driver objects, one per CUDA handle type.
#pragma once

#include "cuda/driver/handle_table.h"

namespace strata::cuda::driver {

class Context;
class Module;
class Function;
class Stream;
class Event;
class LinkState;
class Array;
class MipmappedArray;
class Graph;
class GraphNode;
class GraphExec;
class UserObject;

struct Handles {
  HandleTable<Context> contexts;  // non-primary and primary contexts
  HandleTable<Module> modules;
  HandleTable<Function> functions;
  HandleTable<Stream> streams;    // user streams only
  HandleTable<Event> events;
  HandleTable<LinkState> links;
  HandleTable<Array> arrays;  // CUDA arrays, and the level views of mipmapped arrays
  HandleTable<MipmappedArray> mipmapped_arrays;
  HandleTable<Graph> graphs;  // cuGraphCreate / cuStreamEndCapture graphs (not child clones)
  HandleTable<GraphNode> graph_nodes;
  HandleTable<GraphExec> graph_execs;
  HandleTable<UserObject> user_objects;
};

// Never destroyed (entry points may run during static destruction).
Handles& handles();

}  // namespace strata::cuda::driver
