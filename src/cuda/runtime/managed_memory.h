// Managed (unified) memory in the runtime: thin wrappers over the driver's managed memory
// (cuMemAllocManaged and friends, cuda/driver/managed_memory.h has the model: one copy
// mapped at its host address in every context, hints recorded, nothing migrates).
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// True if `ptr` lies inside live managed memory (cudaMallocManaged or a __managed__
// variable), as the driver's CU_POINTER_ATTRIBUTE_IS_MANAGED reports it.
bool is_managed(const void* ptr);

// cudaStreamAttachMemAsync / cudaMemPrefetchAsync for `stream` as given (the per-thread
// variants map the null stream first). Record the error.
cudaError_t attach_managed(cudaStream_t stream, void* devPtr, size_t length, unsigned int flags);
cudaError_t prefetch_managed(const void* devPtr, size_t count, cudaMemLocation location,
                             unsigned int flags, cudaStream_t stream);

}  // namespace strata::cuda::runtime
