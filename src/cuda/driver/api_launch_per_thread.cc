// The launch entry points of api_launch.inc under their _ptsz names (NULL = the calling
// thread's per-thread default stream), as cuda.h binds them when
// CUDA_API_PER_THREAD_DEFAULT_STREAM is defined.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = true;
}

#include "cuda/driver/api_launch.inc"
