// stream_attr_api.inc under the _ptsz names (NULL = the thread's default stream).
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/api_common.h"

namespace {
constexpr bool kPerThreadDefault = true;
}

#include "cuda/runtime/stream_attr_api.inc"
