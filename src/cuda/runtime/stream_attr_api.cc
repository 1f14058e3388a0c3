// stream_attr_api.inc under the default names (NULL = the legacy stream).
#include "cuda/runtime/api_common.h"

namespace {
constexpr bool kPerThreadDefault = false;
}

#include "cuda/runtime/stream_attr_api.inc"
