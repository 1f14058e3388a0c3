// The per-thread stack of launch configurations behind `k<<<grid, block, shmem, stream>>>`.
//
// nvcc's stub pushes the configuration (__cudaPushCallConfiguration) before evaluating
// the kernel arguments and pops it (__cudaPopCallConfiguration) in the launch stub, so
// `k1<<<a, b>>>(x, f())` where f() itself launches kernels nests push/pop pairs: a stack,
// not a single slot. Thread-local; no locking.
#pragma once

#include <cstddef>

#include "cuda/runtime/cuda_api.h"

namespace strata::cuda::runtime {

struct LaunchConfig {
  dim3 grid;
  dim3 block;
  size_t shared_mem = 0;
  CUstream_st* stream = nullptr;
};

void push_launch_config(const LaunchConfig& config);
// False (and `config` untouched) when the stack is empty.
bool pop_launch_config(LaunchConfig* config);
size_t launch_config_depth();

}  // namespace strata::cuda::runtime
