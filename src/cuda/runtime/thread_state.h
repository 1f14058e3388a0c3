// Per-thread runtime state (last error, current device) and the process-wide sticky
// error. All functions are thread-safe.
#pragma once

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

// Records `error` as the calling thread's last error (cudaSuccess leaves it alone) and
// returns it, so API entry points can `return record(err);`. A sticky error (see
// error_map.h is_sticky) is also remembered for the whole process.
cudaError_t record(cudaError_t error);
// Maps a driver result through the one table and records it.
cudaError_t record(CUresult result);

// cudaGetLastError semantics: returns and clears the thread's last error; a sticky
// error is returned forever.
cudaError_t take_last_error();
cudaError_t peek_last_error();

// The process's sticky error, or cudaSuccess.
cudaError_t sticky_error();
void clear_sticky_error();  // after a successful cudaDeviceReset

int current_device();
void set_current_device(int device);

}  // namespace strata::cuda::runtime
