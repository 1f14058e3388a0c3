// batch_copy_api.inc under the _ptsz names.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1
#include "cuda/runtime/api_common.h"

// (after the toolkit headers api_common.h includes)
#include "cuda/runtime/batch_copy_api.inc"
