// The per-thread default stream variants cudaMemcpy2D_ptds, cudaMemcpy2DAsync_ptsz,
// cudaMemset2D_ptds and cudaMemset2DAsync_ptsz (see per_thread_api.cc).
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/memory_2d_api.inc"
