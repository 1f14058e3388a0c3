// The per-thread default stream variants of the array and 3D copies and of
// cudaMemset3D (cudaMemcpy3D_ptds, cudaMemcpy2DToArrayAsync_ptsz, ...; see
// per_thread_api.cc).
#define CUDA_API_PER_THREAD_DEFAULT_STREAM 1

#include "cuda/runtime/memory_3d_api.inc"
