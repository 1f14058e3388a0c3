// The stream-ordered entry points under their default names (NULL = legacy stream).
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = false;
}

#include "cuda/driver/api_stream_ops.inc"
#include "cuda/driver/api_stream_ops_2d.inc"

// Uses current_stream() from api_stream_ops.inc.
#include "cuda/driver/api_peer_ops.inc"
#include "cuda/driver/api_stream_ops_array.inc"
