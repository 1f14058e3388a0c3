// api_misc_stream.inc under the _ptsz names (NULL = the per-thread default stream).
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include <cuda.h>

namespace {
constexpr bool kPerThreadDefault = true;
}

#include "cuda/driver/api_misc_stream.inc"
