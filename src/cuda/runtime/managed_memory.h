// Managed (unified) memory allocated by cudaMallocManaged, and the advice recorded on it.
//
// Strata backs a managed allocation with pinned host memory mapped into the GPU address
// space at its host address, so host and device see the same bytes at the same address:
// memory is always coherent, migration never happens, and cudaMemPrefetchAsync /
// cudaMemAdvise / cudaStreamAttachMemAsync are validated and recorded as hints only.
// Advice is recorded per allocation (a range must lie inside one allocation). Thread-safe.
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// True if `ptr` is the base of a live cudaMallocManaged allocation; then frees it and
// stores the result in *error.
bool free_managed(void* ptr, cudaError_t* error);

// True if `ptr` lies inside a live cudaMallocManaged allocation.
bool is_managed(const void* ptr);

// cudaStreamAttachMemAsync / cudaMemPrefetchAsync for `stream` as given (the per-thread
// variants map the null stream first). Record the error.
cudaError_t attach_managed(cudaStream_t stream, void* devPtr, size_t length, unsigned int flags);
cudaError_t prefetch_managed(const void* devPtr, size_t count, cudaMemLocation location,
                             unsigned int flags, cudaStream_t stream);

}  // namespace strata::cuda::runtime
