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

struct Handles {
  HandleTable<Context> contexts;  // non-primary and primary contexts
  HandleTable<Module> modules;
  HandleTable<Function> functions;
  HandleTable<Stream> streams;    // user streams only
  HandleTable<Event> events;
  HandleTable<LinkState> links;
};

// Never destroyed (entry points may run during static destruction).
Handles& handles();

}  // namespace strata::cuda::driver
