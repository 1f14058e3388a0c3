// The per-thread default stream variants of the stream-ordered graph entry points
// (cudaGraphLaunch_ptsz, cudaStreamBeginCapture_ptsz, ...) that binaries built with
// `nvcc --default-stream per-thread` call; see per_thread_api.cc.
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/api_common.h"
#include "cuda/runtime/error_map.h"
#include "cuda/runtime/graph_api_stream.inc"
