// The copy routines behind cudaMemcpy*, cudaMemcpy{To,From}Symbol*. Thread-safe; for
// copy() the current device's context must be current.
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

// Copies between host memory `host_side` and the registered device variable `symbol`
// (its host shadow address) at `offset`, to the symbol when `to_symbol`; `kind` must be
// the matching host/device direction, device-to-device or default. Enters the device
// itself. Errors: cudaErrorInvalidSymbol, cudaErrorInvalidValue (range outside the
// variable), cudaErrorInvalidMemcpyDirection, and those of copy().
cudaError_t symbol_copy(const void* symbol, void* host_side, size_t count, size_t offset,
                        cudaMemcpyKind kind, bool to_symbol, cudaStream_t stream, bool async);

}  // namespace strata::cuda::runtime
