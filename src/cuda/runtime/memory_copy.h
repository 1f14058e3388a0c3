// The one copy routine behind cudaMemcpy*, cudaMemcpy{To,From}Symbol*. Thread-safe;
// the current device's context must be current.
#pragma once

#include <cstddef>

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// Copies `count` bytes in direction `kind` (cudaMemcpyDefault: inferred through unified
// addressing). Synchronous copies behave like cudaMemcpy (ordered after prior work on
// the legacy default stream); async ones are queued on `stream`. Host-to-host copies
// are done on the CPU. count == 0 succeeds without touching the pointers.
// Errors: cudaErrorInvalidMemcpyDirection for an unknown kind, cudaErrorInvalidValue
// for null pointers, driver errors mapped.
cudaError_t copy(void* dst, const void* src, size_t count, cudaMemcpyKind kind,
                 cudaStream_t stream, bool async);

}  // namespace strata::cuda::runtime
