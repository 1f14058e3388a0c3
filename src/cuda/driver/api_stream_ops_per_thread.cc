// The stream-ordered entry points under their _ptds/_ptsz names (NULL = the calling
// thread's per-thread default stream), as cuda.h binds them when
// CUDA_API_PER_THREAD_DEFAULT_STREAM is defined (nvcc --default-stream per-thread).
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = true;
}

#include "cuda/driver/api_stream_ops.inc"
#include "cuda/driver/api_stream_ops_2d.inc"

// Uses current_stream() from api_stream_ops.inc.
#include "cuda/driver/api_peer_ops.inc"
#include "cuda/driver/api_stream_ops_array.inc"
