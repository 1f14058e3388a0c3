// The launch entry points of api_launch.inc under their default names (NULL = legacy
// stream).
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = false;
}

#include "cuda/driver/api_launch.inc"
