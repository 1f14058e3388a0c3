// The launch shape of the Level-1 reductions, shared by the kernels (level1_reduce.cuh) and
// the host (src/blas/level1.cc): pass 1 runs min(ceil(n / kReduceThreads),
// kReduceMaxBlocks) blocks of kReduceThreads threads (a power of two: the shared-memory
// tree halves it), pass 2 one block.
#pragma once

namespace strata_blas {

inline constexpr int kReduceThreads = 256;
inline constexpr int kReduceMaxBlocks = 64;

}  // namespace strata_blas
