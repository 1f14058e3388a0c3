// The stream-ordered graph entry points under their default names (NULL = legacy
// stream).
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = false;
}

#include "cuda/driver/api_graph_stream.inc"
