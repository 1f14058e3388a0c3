// api_misc_stream.inc under the default names (NULL = the legacy stream).
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = false;
}

#include "cuda/driver/api_misc_stream.inc"
